"""evlogic stats: balance statistics (win rate, bonus by home state) over batch output."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import add_format_option, add_limit_options, write_output
from evlogic.loading.jsonlines import open_input


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    stats = add_command(
        commands,
        "stats",
        "Win rate, mean total and bonus by home state, and the share of games "
        "decided by the regional bonus (the winners would differ with every bonus removed), "
        "read from the reports evlogic batch wrote or the games evlogic balance --games-out wrote.",
        run,
    )
    stats.add_argument(
        "reports", metavar="OUT.jsonl", help="batch output or balance --games-out; - for stdin"
    )
    add_format_option(stats)
    add_limit_options(stats, 3600.0)


def run(args: argparse.Namespace) -> int:
    from evlogic.reports.render import stats_to_json, stats_to_text
    from evlogic.reports.stats import batch_stats

    with open_input(args.reports) as lines:
        stats = batch_stats(lines, "<stdin>" if args.reports == "-" else args.reports)
    write_output(args.format, stats, stats_to_json, stats_to_text)
    return 0
