"""evlogic check: search every position on a board for a counterexample to a property."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from evlogic.api.searches import CheckAnswer, CheckInputs, check_inputs, check_so_far, run_check
from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    add_rules_option,
    add_search_options,
    whole,
    write_output,
)
from evlogic.resources import bundled_properties

if TYPE_CHECKING:
    from evlogic.asp.search import Watch

HELP = """\
Search all positions on a board (all homes, all ownerships, unclaimed
states allowed) for a counterexample to PROPERTY: a bundled one
({properties})
or an .lp file defining violation. Only positions that can happen are
searched: at most the game end's number of states won, homes included (the
game ends when that state is won); a property about finished games asks
for final(0).

Answers holds (proved), counterexample (as a game file that score and
diagram accept: the smallest, unless the time ran out before that was
proved; the same one every run) or unknown (the time limit came first). A
property reads the scoring predicates of position 0; points/4 and change/5
keep searches fast (see docs/verification.md).

A property that no rule can make fail (no rule derives violation), or a
search over no positions at all (a rule set or property whose constraints
rule every position out), proves nothing: that is an error, never "holds".

Exit status: 0 holds, 1 counterexample, 3 unknown, 2 bad input."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check_command = add_command(
        commands, "check", HELP.format(properties=", ".join(bundled_properties())), run
    )
    check_command.add_argument(
        "property", metavar="PROPERTY", help="a bundled property name or an .lp file"
    )
    add_search_options(
        check_command, "seconds before answering unknown, grounding included (default 60)"
    )
    check_command.add_argument(
        "--max-states",
        type=whole(1),
        metavar="K",
        help="only positions with at most K owned states",
    )
    add_format_option(check_command)
    add_rules_option(check_command, games=False)


def run(args: argparse.Namespace) -> int:
    # The answer so far is there before anything slow (imports included):
    # a watchdog that fires at any moment prints a report.
    started: float = args.deadline - args.timeout
    inputs: list[CheckInputs] = []
    watches: list[Watch] = []

    def read() -> CheckInputs:
        if inputs:
            return inputs[0]
        return check_inputs(
            args.property,
            board=args.board,
            players=args.players,
            max_states=args.max_states,
            rules=args.rules,
        )

    def show(answer: CheckAnswer) -> int:
        write_output(args.format, answer, CheckAnswer.to_json, CheckAnswer.to_text)
        return answer.exit_status()

    def so_far() -> int:
        from evlogic.asp.search import Watch

        return show(check_so_far(read(), watches[0] if watches else Watch(), started))

    args.answer.so_far = so_far
    from evlogic.asp.search import Watch

    watches.append(Watch())
    inputs.append(read())
    answer = run_check(inputs[0], args.timeout, args.deadline, watches[0])
    status: int = args.answer.give(lambda: show(answer))
    return status
