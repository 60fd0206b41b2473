"""evlogic balance: many simulated games a rule set, and what they say."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    board_argument,
    progress_bar,
    say,
    whole,
)
from evlogic.limits import add_memory_option

HELP = """\
Play K simulated games under each rule set (docs/play.md: a draft,
homes dealt at random, agents choosing moves) and report, each figure with
a 95% confidence interval: win rate by seat and the first seat's
advantage, win rate by home (which homes are significantly strong or
weak), each agent's win rate, how often the regional bonus and the siege
decide the winner, mean face EV, region size, bonus, siege penalty and
total, and how early each state is won. Every rule set plays the same
deals with the same seeds, so the differences between them (shown against
the first --rules, paired by game) are the rules' doing.

  evlogic balance --rules standard --rules gentle-siege --games 500
  evlogic balance --agents greedy,random,random,random --report balance.html
  evlogic balance --games-out games.jsonl && evlogic stats games.jsonl

Past --timeout (default an hour) the run stops and says how many games
were played; no report is printed and no file written.

Exit status: 0, 2 for bad input, 3 past --timeout, 130 on Ctrl-C and 143
on SIGTERM (nothing half-written, worker processes ended)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from evlogic.commands.play import add_play_options, add_runs_options

    balance = add_command(commands, "balance", HELP, run)
    add_play_options(balance, balance=True)
    balance.add_argument(
        "--games",
        type=whole(1, 10_000_000),
        default=1000,
        metavar="K",
        help="games a rule set (default 1000)",
    )
    add_runs_options(balance, "worker processes (default 1); the output is the same for any N")
    balance.add_argument(
        "--games-out",
        metavar="GAMES.jsonl",
        help="also write one JSON line a game (its moves and final report), which "
        "evlogic stats reads",
    )
    balance.add_argument(
        "--report", metavar="REPORT.html", help="also write the report as a page with charts"
    )
    add_format_option(balance)
    add_memory_option(balance)


def run(args: argparse.Namespace) -> int:
    from evlogic.signals import TimeUp, deadline

    played = [0]
    try:
        with deadline(args.timeout):
            return _balance(args, played)
    except TimeUp:
        total = args.games * len(args.rules or ["standard"])
        say(
            f"evlogic: error: balance: no report within {args.timeout:g} s, unfinished: "
            f"{played[0]:,} of {total:,} games played, nothing written "
            "(raise --timeout or lower --games)"
        )
        return 3


def _balance(args: argparse.Namespace, played: list[int]) -> int:
    """The run; ``played[0]`` counts the games played so far."""
    from evlogic.api.simulation import balance
    from evlogic.commands.output_file import open_output

    board = board_argument(args.board or "usa")
    players = args.players if args.players is not None else 4
    with ExitStack() as stack:
        out = None
        if args.games_out is not None:
            out = stack.enter_context(open_output(args.games_out))

        def on_game(line: str) -> None:
            if out is not None:
                out.write(line + "\n")
            played[0] += 1

        total = args.games * len(args.rules or ["standard"])
        report = balance(
            rules=args.rules or ["standard"],
            board=board,
            players=players,
            agents=args.agents,
            moves=args.moves,
            order=args.order,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            dask=args.dask,
            on_game=on_game,
            progress=stack.enter_context(progress_bar(total)),
        )
        if args.report is not None:
            from evlogic.pages.balance import balance_page

            with open_output(args.report) as page:
                page.write(balance_page(report.to_dict(), board))
    if args.format == "json":
        sys.stdout.write(report.to_json() + "\n")
    else:
        sys.stdout.write(report.to_text())
    return 0
