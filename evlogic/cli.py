"""The ``evlogic`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from evlogic import __version__
from evlogic.diagram import render_svg, svg_to_png
from evlogic.engine import score_game
from evlogic.errors import InputError
from evlogic.explain import explain_game
from evlogic.games import Game, load_game, load_game_text
from evlogic.render import explanation_to_json, explanation_to_text, to_json, to_text
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


EXPLAIN_HELP = """\
Explain one player's score from the solver's witnesses: the core and why it
qualifies, each state that joined the region and the region states it
touched, each owned state left out and the links it lacks, each siege state
and its holder, and what-if: for every state the player does not own (homes
excepted), how much their own total would change if they won it too."""


DIAGRAM_HELP = """\
Draw one player's position as a hex map, one tile per state, coloured by
role: home, core, region (joined after the core), excluded (owned, not in
the region), siege (opponent-held neighbour of the home), opponent,
unclaimed. Lines show the core triangle, the links that admitted each
joining state and the one link of an excluded state. A legend and the
bonus arithmetic sit underneath. Tiles are placed by the board's hex: [q, r]
coordinates, or by a computed layout when the board has none."""


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

    explain = commands.add_parser(
        "explain",
        help="why a player's score is what it is, and what each state would add",
        description=EXPLAIN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    explain.add_argument("game", metavar="GAME", help="game file (YAML), or - for stdin")
    explain.add_argument("--player", required=True, metavar="NAME", help="the player to explain")
    explain.add_argument(
        "--format", choices=["text", "json"], default="text", help="output format (default: text)"
    )
    explain.set_defaults(run=run_explain)

    diagram = commands.add_parser(
        "diagram",
        help="draw a player's region as an SVG hex map",
        description=DIAGRAM_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    diagram.add_argument("game", metavar="GAME", help="game file (YAML), or - for stdin")
    diagram.add_argument("--player", required=True, metavar="NAME", help="whose region to draw")
    diagram.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write (- for stdout); default: GAME-PLAYER.svg in this directory",
    )
    diagram.add_argument(
        "--focus",
        action="store_true",
        help="crop to the home, its neighbours and the player's states",
    )
    diagram.add_argument(
        "--format",
        choices=["svg", "png"],
        default=None,
        help="svg (default) or png (needs the png extra: pip install 'evlogic[png]'); "
        "taken from the -o extension when not given",
    )
    diagram.set_defaults(run=run_diagram)
    return parser


def read_game(argument: str | None) -> Game:
    if argument is None:
        return load_game(default_game(), source="rulebook full example")
    if argument == "-":
        return load_game_text(sys.stdin.read(), "<stdin>", Path.cwd())
    return load_game(Path(argument), source=argument)


def run_score(args: argparse.Namespace) -> int:
    report = score_game(read_game(args.game))
    sys.stdout.write(to_json(report) + "\n" if args.format == "json" else to_text(report))
    return 0


def run_explain(args: argparse.Namespace) -> int:
    explanation = explain_game(read_game(args.game), args.player)
    if args.format == "json":
        sys.stdout.write(explanation_to_json(explanation) + "\n")
    else:
        sys.stdout.write(explanation_to_text(explanation))
    return 0


def run_diagram(args: argparse.Namespace) -> int:
    game = read_game(args.game)
    explanation = explain_game(game, args.player)
    output = args.output or _default_diagram_name(args.game, args.player, args.format)
    image_format = args.format or ("png" if output.lower().endswith(".png") else "svg")
    svg = render_svg(explanation, game.board, focus=args.focus)
    if image_format == "png":
        try:
            data = svg_to_png(svg)
        except ImportError:
            raise InputError("--format png", "needs cairosvg: pip install 'evlogic[png]'") from None
    else:
        data = svg.encode("utf-8")
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            Path(output).write_bytes(data)
        except OSError as error:
            raise InputError(output, f"cannot write: {error.strerror}") from None
        print(f"evlogic: wrote {output}", file=sys.stderr)
    return 0


def _default_diagram_name(game: str | None, player: str, image_format: str | None) -> str:
    stem = "stdin" if game in (None, "-") else Path(game).stem
    slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in player).strip("-") or "player"
    return f"{stem}-{slug}.{image_format or 'svg'}"


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
