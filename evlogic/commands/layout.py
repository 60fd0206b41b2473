"""evlogic layout: hex tiles for a board with the fewest bridges and walls."""

from __future__ import annotations

import argparse
import sys

from evlogic.commands import add_command
from evlogic.commands.options import add_board_argument, say, whole
from evlogic.commands.output_file import output_file
from evlogic.errors import InputError
from evlogic.limits import add_memory_option, seconds

HELP = """\
Find hex tiles (hex: [q, r]) for a board's states so that its picture is
its rule: every border drawn as touching tiles, every touching a border.
Where no hex grid can (the rulebook's KY, IN, WV and TN all touch each
other), a diagram draws a bridge (a border between tiles apart) or a wall
(touching tiles that are not neighbours); this looks for the layout with
the fewest of both, by an optimisation in ASP (rules/layout/layout.lp):
each state a cell of the grid one tile around the board's current layout,
at most --reach tiles from its own, no two on one cell, the tiles moving
as little as they can. It starts from
the board's hex: cells (or the layout diagrams compute when it has none),
prints the count before and after, and says "optimal" only when clingo
proved that no layout on the grid has fewer within --timeout. -o writes
the board file with the new cells, every other field as it was."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    layout = add_command(commands, "layout", HELP, run)
    add_board_argument(layout)
    layout.add_argument(
        "-o",
        "--output",
        metavar="BOARD.yaml",
        help="write the board with the new hex: cells here (it may be the board file itself)",
    )
    layout.add_argument(
        "--keep",
        metavar="IDS",
        default="",
        help="comma-separated states that keep their cells (e.g. KY,IN,MO,TN,VA,WV)",
    )
    layout.add_argument(
        "--reach",
        type=whole(0, 1000),
        default=2,
        metavar="N",
        help="how many tiles a state may move from where it starts (default 2: the map "
        "stays recognisable)",
    )
    layout.add_argument(
        "--timeout",
        type=seconds,
        default=60.0,
        metavar="S",
        help="seconds to search, grounding included (default 60); the best layout "
        "found by then is the answer",
    )
    add_memory_option(layout)


def run(args: argparse.Namespace) -> int:
    from evlogic.api.searches import layout

    result = layout(args.board, keep=args.keep, reach=args.reach, timeout=args.timeout)
    sys.stdout.write(result.to_text())
    if args.output is None:
        return 0
    written = result.to_yaml(args.output)
    try:
        with output_file(args.output) as stream:
            stream.write(written.encode("utf-8"))
    except OSError as error:
        raise InputError(args.output, f"cannot write: {error.strerror}") from None
    say(f"evlogic: wrote {args.output}")
    sys.stdout.flush()
    return 0
