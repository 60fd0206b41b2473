"""evlogic sample: write random final positions as JSON Lines, reproducible by seed."""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import ExitStack
from pathlib import Path

from evlogic.commands import add_command
from evlogic.commands.options import MAX_PLAYERS, board_argument, say, whole
from evlogic.commands.output_file import open_output
from evlogic.errors import InputError, quote
from evlogic.loading.boards import resolve_board
from evlogic.loading.yamlfile import Field
from evlogic.resources import bundled_boards


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
    from evlogic.batching.sample import sample_games

    board = board_argument(args.board)
    if not 1 <= args.players <= board.game_end:
        raise InputError("--players", f"must be between 1 and {board.game_end} (game_end)")
    reference = _board_reference_for(args.board, args.output)
    if reference is None:
        say(
            f"evlogic: note: {quote(args.board)} is outside the output's folder, where batch "
            f"may not read it: the lines name no board; score them with batch --board "
            f"{quote(args.board)}"
        )
    with ExitStack() as stack:
        out = sys.stdout if args.output == "-" else stack.enter_context(open_output(args.output))
        for game in sample_games(board, reference, args.players, args.count, args.seed):
            out.write(json.dumps(game) + "\n")
    return 0


def _board_reference_for(board: str, output: str) -> str | None:
    """The board as the lines of ``output`` must name it: a name stays; a
    path is rewritten relative to the output's folder (standard output: the
    current folder), which batch reads it from.  None when the board is
    outside that folder: batch reads no line's file from outside its
    input's folder, so the lines then name no board and batch is
    given it with --board."""
    field = Field("--board", "", board, None, None)
    path = resolve_board(field, Path.cwd())
    if board in bundled_boards() and not board.endswith((".yaml", ".yml")) and "/" not in board:
        return board
    folder = Path.cwd() if output == "-" else Path(output).resolve().parent
    real = Path(os.path.realpath(path))
    if not real.is_relative_to(os.path.realpath(folder)):
        return None
    return os.path.relpath(real, os.path.realpath(folder))
