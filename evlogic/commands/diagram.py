"""evlogic diagram: draw a player's region (or every player's) as an SVG or PNG hex map."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evlogic.commands import add_command
from evlogic.commands.options import add_limit_options, add_rules_option, positive_scale
from evlogic.commands.output_file import output_file
from evlogic.errors import InputError, quote

HELP = """\
Draw one player's position as a hex map, one tile per state, coloured by
role: home, core, region (joined after the core), excluded (owned, not in
the region), siege (opponent-held neighbour of the home), opponent,
unclaimed. Lines across the borders, from label to label, show the core
triangle, the links that admitted each joining state and the one link of
an excluded state. A legend and the
bonus arithmetic sit underneath. Tiles are placed by the board's hex: [q, r]
coordinates, or by a computed layout when the board has none. A tile shows
what its state scores to whoever holds it under the rule set ("16×2" when
the score multiplies the EV). Where tiles and borders disagree, the
picture says so: a dotted bridge (dark beads on a white band) joins
neighbours whose tiles do not touch (it runs along tile edges, clear of
every label, and a link between such tiles runs along it), a wall (a black
zig-zag along the edge) separates touching tiles that are not neighbours;
so every touching without a wall is a border. evlogic layout re-lays a
board with as few of both as it can.

With --all instead of --player: every player at once, each player's states
in their colour and pattern, homes marked (a white inner ring and ⌂),
regions outlined, bridges and walls, and the score table underneath; each
tile carries data-owner."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    diagram = add_command(commands, "diagram", HELP, run)
    diagram.add_argument("game", metavar="GAME", help="game file (YAML), or - for stdin")
    diagram.add_argument("--player", metavar="NAME", help="whose region to draw")
    diagram.add_argument(
        "--all",
        action="store_true",
        help="every player at once: owners in colour, homes marked, regions outlined, "
        "the score table underneath",
    )
    diagram.add_argument(
        "--scale",
        type=positive_scale,
        default=1.0,
        metavar="X",
        help="PNG only: pixels per SVG unit, e.g. 3 for print (default 1)",
    )
    diagram.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where to write: a .svg or .png file (its extension sets the format), "
        "or - for stdout; default: GAME-PLAYER.svg in this directory",
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
    add_rules_option(diagram)
    add_limit_options(diagram, 60.0)


def run(args: argparse.Namespace) -> int:
    from evlogic.api.inputs import game_of
    from evlogic.api.scoring import chosen_player, diagram

    name = chosen_player(args.player, args.all, args.focus)
    output = args.output or _default_diagram_name(args.game, name, args.format)
    image_format = _image_format(output, args.format)
    game = game_of(args.game, args.rules)
    if image_format != "png" and args.scale != 1.0:
        raise InputError("--scale", "applies to PNG output (an SVG scales by itself)")
    result = diagram(game, player=args.player, all=args.all, focus=args.focus)
    data = result.png(args.scale) if image_format == "png" else result.svg.encode("utf-8")
    if output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            with output_file(output) as stream:
                stream.write(data)
        except OSError as error:
            raise InputError(output, f"cannot write: {error.strerror}") from None
        print(f"evlogic: wrote {output}", file=sys.stderr)
    return 0


#: The file name extensions diagram writes, and the format each names.
EXTENSIONS = {".svg": "svg", ".png": "png"}


def _image_format(output: str, requested: str | None) -> str:
    """The format to write to ``output``: --format, or the one its extension
    names (svg for standard output or a name without one); an extension
    diagram cannot write, or one naming another format than --format, is
    an error (never SVG in a file called x.gif)."""
    suffix = "" if output == "-" else Path(output).suffix
    if not suffix:
        return requested or "svg"
    named = EXTENSIONS.get(suffix.lower())
    if named is None:
        known = " or ".join(EXTENSIONS)
        raise InputError(
            "-o",
            f"cannot write {quote(output)}: diagram writes {known} files "
            "(the format follows the extension; - writes to standard output)",
        )
    if requested is not None and requested != named:
        raise InputError("-o", f"{quote(output)} ends in {suffix}, but --format is {requested}")
    return named


def _default_diagram_name(game: str | None, player: str, image_format: str | None) -> str:
    stem = "stdin" if game in (None, "-") else Path(game).stem
    slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in player).strip("-") or "player"
    return f"{stem}-{slug}.{image_format or 'svg'}"
