"""evlogic diff: the smallest position where two rule sets disagree, or a proof that none does."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    add_search_options,
    board_argument,
    write_output,
)
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.rulesets import RuleSet, load_rule_set

if TYPE_CHECKING:
    from evlogic.asp.search import Watch
    from evlogic.reports.diff import DiffResult

HELP = """\
Find the smallest position (fewest owned states) where rule sets A and B
give a player a different total, and one where they crown a different
winner; each printed as a game file with both score tables; or prove that
none exists. The two searches run side by side and share the --timeout.
Only positions that can happen under both rule sets are searched: at most
either game end's number of states won, homes included.

Exit status: 0 both searches proved the rule sets equivalent, 1 a
difference and both searches answered, 3 the time limit came before a
search answered (the report shows it unknown, beside any difference
already found), 2 bad input."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    diff_command = add_command(commands, "diff", HELP, run)
    diff_command.add_argument(
        "--rules",
        action="append",
        required=True,
        metavar="R",
        help="give twice: --rules A --rules B",
    )
    add_search_options(
        diff_command, "seconds before a search answers unknown, grounding included (default 60)"
    )
    add_format_option(diff_command)


def run(args: argparse.Namespace) -> int:
    # The answer so far is there before anything slow (imports included):
    # a watchdog that fires at any moment prints a report.
    started = args.deadline - args.timeout
    inputs: list[tuple[RuleSet, RuleSet, Board]] = []
    watches: list[Watch] = []

    def read() -> tuple[RuleSet, RuleSet, Board]:
        if inputs:
            return inputs[0]
        if len(args.rules) != 2:
            raise InputError("--rules", f"give exactly two rule sets, not {len(args.rules)}")
        first, second = (load_rule_set(reference, Path.cwd()) for reference in args.rules)
        return first, second, board_argument(args.board)

    def show(result: DiffResult) -> int:
        from evlogic.reports.render import diff_to_json, diff_to_text

        first, second, board = read()
        write_output(
            args.format,
            result,
            diff_to_json,
            lambda result: diff_to_text(result, first, second, board),
        )
        return result.exit_status()

    def so_far() -> int:
        from evlogic.asp.search import Watch
        from evlogic.reports.diff import diff_so_far

        _first, _second, board = read()
        watch = watches[0] if watches else Watch()
        a, b = args.rules
        return show(diff_so_far(a, b, board, args.board, args.players, watch, started))

    args.answer.so_far = so_far
    from evlogic.asp.search import TimeLimit, Watch
    from evlogic.reports.diff import diff

    watches.append(Watch())
    inputs.append(read())
    first, second, board = inputs[0]
    result = diff(
        first,
        args.rules[0],
        second,
        args.rules[1],
        board,
        args.board,
        players=args.players,
        limit=TimeLimit(args.timeout, args.deadline),
        watch=watches[0],
    )
    return args.answer.give(lambda: show(result))
