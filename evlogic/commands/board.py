"""evlogic board: list a board's states (ids, names, EV, swing, neighbors) and its game end."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_board_argument,
    add_format_option,
    add_limit_options,
    board_argument,
    write_output,
)
from evlogic.loading.boards import Board
from evlogic.reports.render import json_text


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    board_command = add_command(
        commands,
        "board",
        "List a board's states, one line each: the id games use, the name, the "
        "EV, whether it is a swing state, and its neighbors; the game end. JSON: the board "
        "as the API's GET /api/boards/NAME gives it (with each state's hex cell).",
        run,
    )
    add_board_argument(board_command)
    add_format_option(board_command)
    add_limit_options(board_command, 60.0)  # the JSON's layout, like a diagram's


def run(args: argparse.Namespace) -> int:
    from evlogic.reports.render import board_to_text
    from evlogic.web.service import board_document

    board = board_argument(args.board, "BOARD")

    def as_json(board: Board) -> str:  # the API's document, less what only the API has
        document = board_document(board, args.board)
        del document["inline"]
        return json_text(document)

    write_output(args.format, board, as_json, board_to_text)
    return 0
