"""evlogic board-report: what every home can reach, the fairness check for a board."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_board_argument,
    add_format_option,
    add_limit_options,
    add_rules_option,
    write_output,
)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    report = add_command(
        commands,
        "board-report",
        "For every home state: the cores it has, the largest region it can "
        "reach (owning every state), for each bonus tier the ways to earn it (the sets of "
        "exactly that many states, home included, whose region is all of them) and the "
        "bonus left after the worst siege those ways allow (every other neighbour of the "
        "home held by opponents), the fewest owned states that reach each tier (JSON), its "
        "siege exposure (neighbour count), and whether it can earn a regional bonus at all. "
        "Rule sets of parameters only: a rule set with .lp programs is refused.",
        run,
    )
    add_board_argument(report)
    add_format_option(report)
    add_rules_option(report, games=False)
    add_limit_options(report, 600.0)


def run(args: argparse.Namespace) -> int:
    from evlogic.api.searches import BoardReportResult, board_report

    result = board_report(args.board, rules=args.rules)
    write_output(args.format, result, BoardReportResult.to_json, BoardReportResult.to_text)
    return 0
