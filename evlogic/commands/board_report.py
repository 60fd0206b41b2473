"""evlogic board-report: what every home can reach, the fairness check for a board."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_board_argument,
    add_format_option,
    add_limit_options,
    add_rules_option,
    board_argument,
    rules_override,
    write_output,
)
from evlogic.loading.rulesets import load_rule_set


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
    from evlogic.reports.boardreport import board_report
    from evlogic.reports.render import board_report_to_json, board_report_to_text

    board = board_argument(args.board, "BOARD")
    report = board_report(board, rules_override(args) or load_rule_set("standard"), args.rules)
    write_output(args.format, report, board_report_to_json, board_report_to_text)
    return 0
