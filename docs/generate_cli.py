"""Regenerate the ``--help`` blocks of docs/cli.md from the real parser.

docs/cli.md holds, for the top-level command and for every subcommand, a
block between two markers::

    <!-- [[[cog evlogic score --help ]]] -->
    ```text
    usage: evlogic score ...
    ```
    <!-- [[[end]]] -->

This script replaces what lies between each pair with the help that
``evlogic.cli.build_parser()`` prints at 80 columns, and fails when a
command has no block or a block names no command.  Run it after adding or
changing a flag:

    python docs/generate_cli.py           # rewrite docs/cli.md
    python docs/generate_cli.py --check   # exit 1 if docs/cli.md is stale

tests/test_docs.py runs the same regeneration in memory and compares.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path

from evlogic.cli import build_parser

PAGE = Path(__file__).resolve().parent / "cli.md"
WIDTH = 80
BLOCK = re.compile(
    r"(?P<open><!-- \[\[\[cog evlogic (?P<command>[a-z-]+ )?--help \]\]\] -->\n)"
    r"(?P<body>.*?)"
    r"(?P<close><!-- \[\[\[end\]\]\] -->)",
    re.S,
)


@contextmanager
def _columns(width: int):
    """argparse wraps help at the terminal's width, read from COLUMNS."""
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        yield
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before


def helps() -> dict[str, str]:
    """Every command's help as ``evlogic COMMAND --help`` prints it at
    WIDTH columns; the key "" is the top-level ``evlogic --help``."""
    with _columns(WIDTH):
        parser = build_parser()
        texts = {"": parser.format_help()}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, subparser in action.choices.items():
                    texts[name] = subparser.format_help()
    return texts


def regenerate(page: str) -> str:
    """``page`` with every help block replaced by the parser's help."""
    texts = helps()
    seen: list[str] = []

    def block(match: re.Match[str]) -> str:
        command = (match["command"] or "").strip()
        if command not in texts:
            raise SystemExit(f"docs/cli.md: no command {command!r} (known: {', '.join(texts)})")
        seen.append(command)
        return f"{match['open']}```text\n{texts[command].rstrip()}\n```\n{match['close']}"

    updated = BLOCK.sub(block, page)
    missing = [name or "evlogic" for name in texts if name not in seen]
    if missing:
        raise SystemExit(f"docs/cli.md: no --help block for {', '.join(missing)}")
    return updated


def main() -> int:
    parser = argparse.ArgumentParser(description="Regenerate docs/cli.md's --help blocks.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = parser.parse_args()
    page = PAGE.read_text(encoding="utf-8")
    updated = regenerate(page)
    if args.check:
        if updated != page:
            print("docs/cli.md is stale: run python docs/generate_cli.py", file=sys.stderr)
            return 1
        return 0
    if updated != page:
        PAGE.write_text(updated, encoding="utf-8")
        print("docs/cli.md: regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
