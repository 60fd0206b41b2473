"""evlogic diff: the smallest position where two rule sets disagree, or a proof that none does."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from evlogic.api.searches import DiffAnswer, DiffInputs, diff_inputs, diff_so_far, run_diff
from evlogic.commands import add_command
from evlogic.commands.options import add_format_option, add_search_options, write_output

if TYPE_CHECKING:
    from evlogic.asp.search import Watch

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
    started: float = args.deadline - args.timeout
    inputs: list[DiffInputs] = []
    watches: list[Watch] = []

    def read() -> DiffInputs:
        if inputs:
            return inputs[0]
        return diff_inputs(args.rules, board=args.board, players=args.players)

    def show(answer: DiffAnswer) -> int:
        write_output(args.format, answer, DiffAnswer.to_json, DiffAnswer.to_text)
        return answer.exit_status()

    def so_far() -> int:
        from evlogic.asp.search import Watch

        return show(diff_so_far(read(), watches[0] if watches else Watch(), started))

    args.answer.so_far = so_far
    from evlogic.asp.search import Watch

    watches.append(Watch())
    inputs.append(read())
    answer = run_diff(inputs[0], args.timeout, args.deadline, watches[0])
    status: int = args.answer.give(lambda: show(answer))
    return status
