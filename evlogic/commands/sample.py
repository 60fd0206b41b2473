"""evlogic sample: write random final positions as JSON Lines, reproducible by seed."""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack

from evlogic.commands import add_command
from evlogic.commands.options import MAX_PLAYERS, board_argument, say, whole
from evlogic.commands.output_file import open_output
from evlogic.errors import quote


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sample = add_command(
        commands,
        "sample",
        "Write COUNT random final positions (exactly game_end states won) as "
        "JSON Lines, reproducible by seed: input for batch, benchmarks and balance studies.",
        run,
    )
    sample.add_argument(
        "--board", default="usa", metavar="B", help="a bundled name or a path (default: usa)"
    )
    sample.add_argument(
        "--players",
        type=whole(1, MAX_PLAYERS),
        required=True,
        metavar="N",
        help="players per game (homes)",
    )
    sample.add_argument("--count", type=whole(0), required=True, metavar="K", help="games to write")
    sample.add_argument(
        "--seed", type=whole(-(2**63), 2**63 - 1), default=0, metavar="S", help="default 0"
    )
    sample.add_argument("-o", "--output", metavar="FILE", default="-", help="default: stdout")


def run(args: argparse.Namespace) -> int:
    from evlogic.api.scoring import sample_board_reference, sampled_games

    board = board_argument(args.board)
    reference = sample_board_reference(args.board, args.output)
    games = sampled_games(
        board, reference, args.players, args.count, args.seed
    )  # --players checked
    if reference is None:
        say(
            f"evlogic: note: {quote(args.board)} is outside the output's folder, where batch "
            f"may not read it: the lines name no board; score them with batch --board "
            f"{quote(args.board)}"
        )
    with ExitStack() as stack:
        out = sys.stdout if args.output == "-" else stack.enter_context(open_output(args.output))
        for game in games:
            out.write(json.dumps(game) + "\n")
    return 0
