"""The evlogic commands, one module each: its help text, ``register`` (its
parser, begun by :func:`add_command`) and ``run``.

COMMANDS is the light table ``evlogic --help`` lists, in its order: each
command's name, module and one-line summary.  The command line imports the
module of the one command it runs (evlogic.cli.build_parser), so that
`evlogic score` never loads the batch runner or the searches; a module
imports what its run needs inside run for the same reason."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import NamedTuple


class Command(NamedTuple):
    name: str  # as typed: evlogic board-report
    module: str  # in evlogic/commands/
    summary: str  # the line `evlogic --help` lists it with

    def load(self) -> ModuleType:
        """The command's module: ``register(commands)`` and ``run(args)``."""
        return importlib.import_module(f"evlogic.commands.{self.module}")


COMMANDS = (
    Command("score", "score", "score a game file"),
    Command(
        "explain", "explain", "why a player's score is what it is, and what each state would add"
    ),
    Command("diagram", "diagram", "draw a player's region as an SVG hex map"),
    Command("layout", "layout", "hex tiles for a board with the fewest bridges and walls"),
    Command("batch", "batch", "score many games (JSON Lines), fast, in input order"),
    Command("sample", "sample", "random final positions as JSON Lines"),
    Command("stats", "stats", "balance statistics over batch output"),
    Command("play", "play", "play one simulated game, move by move, by agents in ASP"),
    Command("balance", "balance", "many simulated games a rule set: win rates with intervals"),
    Command("tune", "tune", "search rule numbers for the fairest game that keeps its promises"),
    Command("ladder", "ladder", "a skill ladder: agents of rising strength, each against the last"),
    Command("solve", "solve", "perfect play on a small board, and agents measured against it"),
    Command("verify", "verify", "check game files against the figures they expect"),
    Command(
        "board-report", "board_report", "what every home can reach: the fairness check for a board"
    ),
    Command("check", "check", "search every position for a counterexample to a property"),
    Command("diff", "diff", "the smallest position where two rule sets disagree"),
    Command("serve", "serve", "the board in the browser, and a JSON API"),
    Command("board", "board", "list a board's states: ids, names, EV, swing, neighbors"),
    Command(
        "rulebook", "rulebook", "the rulebook's Scoring & Regions page, numbers from the solver"
    ),
    Command("facts", "facts", "a game's facts, to score with plain clingo and rules/score.lp"),
    Command("rules", "rules", "list the bundled rule sets and their numbers"),
    Command("schema", "schema", "print the JSON Schema of a file or a JSON document"),
)

_BY_NAME = {command.name: command for command in COMMANDS}


def command_named(name: str) -> Command | None:
    return _BY_NAME.get(name)


def terminal_columns() -> int:
    """The terminal's width as argparse measures it for help, through
    ``shutil.get_terminal_size``: COLUMNS when it is a positive whole
    number, else the width of the terminal on standard output, else 80.
    Measured here so that no command imports shutil (and the compression
    modules it brings: about 3 ms of every start) to make its parser."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):  # no standard output, or not a terminal
        return 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, at the width :func:`terminal_columns` gives
    (argparse's own: two columns fewer than the terminal's)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class RawDescriptionHelpFormatter(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """:class:`HelpFormatter`, printing a description as written."""


def add_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    description: str,
    run: Callable[[argparse.Namespace], int],
) -> argparse.ArgumentParser:
    """The parser of command ``name``, which runs ``run``: listed by
    ``evlogic --help`` with its summary (:data:`COMMANDS`), its ``--help``
    opening with ``description``, printed as written when it has line
    breaks of its own (a help text laid out in paragraphs and examples),
    else filled to the terminal's width.  A command's ``register`` adds
    its arguments to it."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=_BY_NAME[name].summary,
        description=description,
        formatter_class=RawDescriptionHelpFormatter if "\n" in description else HelpFormatter,
    )
    parser.set_defaults(run=run)
    return parser
