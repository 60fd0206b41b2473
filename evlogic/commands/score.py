"""evlogic score: score a game file, each player's breakdown and the winner."""

from __future__ import annotations

import argparse

from evlogic.api.scoring import ScoreResult, score
from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    add_limit_options,
    add_rules_option,
    write_output,
)

HELP = """\
Score a game file: each player's breakdown and the winner.

A game file names a board and lists the players in order:

  board: usa            # a bundled board, or a path relative to this file
  players:
    - {name: You, home: KY, states: [IN, WV, TN]}
    - {name: Rival, home: OH, states: [VA, MO]}

With no GAME, scores the rulebook's full example. GAME may be - for
standard input (a board path is then relative to the current directory)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = add_command(commands, "score", HELP, run)
    command.add_argument(
        "game", nargs="?", metavar="GAME", help="game file (YAML); default: the rulebook example"
    )
    add_format_option(command)
    add_rules_option(command)
    add_limit_options(command, 60.0)


def run(args: argparse.Namespace) -> int:
    result = score(args.game, rules=args.rules)
    write_output(args.format, result, ScoreResult.to_json, ScoreResult.to_text)
    return 0
