"""evlogic schema: print the JSON Schema of a file or a command's JSON document."""

from __future__ import annotations

import argparse
import sys

from evlogic.commands import add_command
from evlogic.errors import InputError


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    schema = add_command(
        commands,
        "schema",
        "Print the JSON Schema (draft 2020-12) of evlogic's files (game, board, "
        "rules) or of a command's JSON document (score, explain, check, diff, "
        "board-report). With no NAME, list them with their paths; point an editor's YAML "
        "language server at a path (see docs/formats.md).",
        run,
    )
    schema.add_argument("name", nargs="?", metavar="NAME", help="game, board, rules, score, ...")
    schema.add_argument("--path", action="store_true", help="print the schema file's path")


def run(args: argparse.Namespace) -> int:
    from evlogic.loading.yamlfile import closest
    from evlogic.schemas import schema_names, schema_path

    names = schema_names()
    if args.name is None:
        width = max(map(len, names))
        for name in names:
            print(f"{name:{width}}  {schema_path(name)}")
        return 0
    if args.name not in names:
        hint = closest(args.name, names)
        raise InputError("NAME", f"no schema {args.name!r}{hint}; schemas: {', '.join(names)}")
    path = schema_path(args.name)
    sys.stdout.write(f"{path}\n" if args.path else path.read_text("utf-8"))
    return 0
