"""evlogic verify: check game files against the figures they expect."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    add_limit_options,
    add_rules_option,
    rules_override,
    say,
    write_output,
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = add_command(
        commands,
        "verify",
        "Score every scenario (a game file with an expect: key) and report the "
        "figures that differ. PATHS are files or directories (searched for game files with "
        "expect:); default: the rulebook's scenarios. Exit status 1 when any scenario fails, "
        "2 when one cannot be read or scored (it is listed as failed, with its error).",
        run,
    )
    verify.add_argument(
        "paths",
        nargs="*",
        metavar="PATHS",
        help="game files, or folders searched for game files with expect: "
        "(default: the rulebook's scenarios)",
    )
    add_format_option(verify)
    add_rules_option(verify)
    add_limit_options(verify, 600.0)


def run(args: argparse.Namespace) -> int:
    from evlogic.reports.render import verify_to_json, verify_to_text
    from evlogic.reports.verify import default_paths, verify_paths

    results = verify_paths(args.paths or default_paths(), rules_override(args))
    write_output(args.format, results, verify_to_json, verify_to_text)
    broken = [result.error for result in results if result.error is not None]
    for error in broken:  # bad input: listed as failed, and said on stderr (exit 2)
        say(f"evlogic: error: {error}")
    if broken:
        return 2
    return 0 if all(result.passed for result in results) else 1
