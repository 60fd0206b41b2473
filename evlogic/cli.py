"""The ``evlogic`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from evlogic import __version__
from evlogic.engine import score_game
from evlogic.errors import InputError
from evlogic.games import load_game, load_game_text
from evlogic.render import to_json, to_text
from evlogic.resources import default_game
from evlogic.solver import SolverError

DESCRIPTION = """\
Score positions of the electoral-vote board game with answer-set rules.

Every figure comes from the clingo programs in rules/: face EVs (swing
states double, the home scores face value), the regional bonus of the
block grown from the home (+15/+25/+35/+45 for 3/4/5/6+ states), and the
siege penalty (-10 from the bonus per opponent-held neighbour of the home,
never below zero)."""

SCORE_HELP = """\
Score a game file: each player's breakdown and the winner.

A game file names a board and lists the players in order:

  board: usa            # a bundled board, or a path relative to this file
  players:
    - {name: You, home: KY, states: [IN, WV, TN]}
    - {name: Rival, home: OH, states: [VA, MO]}

With no GAME, scores the rulebook's full example. GAME may be - for
standard input (a board path is then relative to the current directory)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evlogic",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"evlogic {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    score = commands.add_parser(
        "score",
        help="score a game file",
        description=SCORE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    score.add_argument(
        "game", nargs="?", metavar="GAME", help="game file (YAML); default: the rulebook example"
    )
    score.add_argument(
        "--format", choices=["text", "json"], default="text", help="output format (default: text)"
    )
    score.set_defaults(run=run_score)
    return parser


def run_score(args: argparse.Namespace) -> int:
    if args.game is None:
        game = load_game(default_game(), source="rulebook full example")
    elif args.game == "-":
        game = load_game_text(sys.stdin.read(), "<stdin>", Path.cwd())
    else:
        game = load_game(Path(args.game), source=args.game)
    report = score_game(game)
    sys.stdout.write(to_json(report) + "\n" if args.format == "json" else to_text(report))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except InputError as error:
        print(f"evlogic: error: {error}", file=sys.stderr)
        return 2
    except SolverError as error:  # a bug in evlogic's rules, never the user's input
        print(f"evlogic: internal error: {error}", file=sys.stderr)
        return 70
    except BrokenPipeError:
        sys.stderr.close()
        return 1
    except KeyboardInterrupt:
        print("evlogic: interrupted", file=sys.stderr)
        return 130
