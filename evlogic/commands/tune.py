"""evlogic tune: search rule numbers for the fairest game that keeps the
rules' promises."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from evlogic.commands import add_command
from evlogic.commands.options import (
    add_format_option,
    board_argument,
    progress_bar,
    say,
    whole,
)
from evlogic.limits import add_memory_option, seconds

if TYPE_CHECKING:
    from evlogic.batching.fanout import Progress
    from evlogic.loading.space import Space

HELP = """\
Search the numbers of a rule set for the fairest game that keeps the rules'
promises. SPACE.yaml names a base rule set, the values to try, what to
minimise and what every reported candidate must satisfy:

  extends: standard
  search:
    siege_penalty: [5, 10, 15]
    tiers: {3: [10, 15, 20], 4: [20, 25, 30]}
  objectives: [first_seat_advantage, home_spread]
  require:
    properties: [own-monotone]        # proved by check over every position
    bonus_decides: {at_least: 0.2}    # the regional rules must matter in play

Candidates are played as balance plays them, on the same deals and seeds;
a budget smaller than every candidate's games is spent by successive
halving. Prints the Pareto front: each candidate's numbers, each objective
with its 95% interval, which requirements were proved or met, its distance
from the base; -o writes the best as a rule set file (docs/tune.md).

Past --timeout (default an hour) the search stops and says how many games
it played; no front is printed and no file written.

Exit status: 0, 2 for bad input, 3 past --timeout, 130 on Ctrl-C and 143
on SIGTERM (nothing half-written, worker processes ended)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from evlogic.commands.play import add_play_options, add_runs_options

    tune = add_command(commands, "tune", HELP, run)
    tune.add_argument("space", metavar="SPACE.yaml", help="the space to search")
    add_play_options(tune, balance=True, rules=False)
    tune.add_argument(
        "--games",
        type=whole(1, 1_000_000),
        default=200,
        metavar="K",
        help="the most games a candidate plays (default 200)",
    )
    tune.add_argument(
        "--budget",
        type=whole(1, 100_000_000),
        metavar="GAMES",
        help="games in all (default: every candidate its K games, for spaces of up to "
        "32 candidates)",
    )
    add_runs_options(tune, "worker processes (default 1); the answer is the same for any N")
    tune.add_argument(
        "--check-timeout",
        type=seconds,
        default=60.0,
        metavar="S",
        help="seconds each property proof may take (default 60); past it: unknown",
    )
    tune.add_argument("-o", "--output", metavar="BEST.yaml", help="write the best candidate")
    tune.add_argument("--report", metavar="REPORT.html", help="also write a page with charts")
    add_format_option(tune)
    add_memory_option(tune)


def run(args: argparse.Namespace) -> int:
    from evlogic.signals import TimeUp, deadline

    progress = _Progress()
    try:
        with deadline(args.timeout):
            return _tune(args, progress)
    except TimeUp:
        if not progress.planned:
            done = "the space was still being read"
        elif progress.played >= progress.planned:
            done = f"all {progress.planned:,} games played, the front's properties unproved"
        else:
            done = f"{progress.played:,} of {progress.planned:,} games played"
        say(
            f"evlogic: error: tune: no front within {args.timeout:g} s, unfinished: {done}, "
            "nothing written (raise --timeout or lower --budget)"
        )
        return 3


class _Progress:
    """How far the search got: games planned, games played."""

    def __init__(self) -> None:
        self.planned = 0
        self.played = 0
        self.bar: Progress | None = None

    def update(self, games: int) -> None:
        self.played += games
        if self.bar is not None:
            self.bar(games)


def _tune(args: argparse.Namespace, progress: _Progress) -> int:
    import yaml

    from evlogic.api.simulation import space_of, tune, tune_budget
    from evlogic.commands.output_file import open_output
    from evlogic.reports.tune import rule_set_mapping
    from evlogic.simulation.agents import load_agents
    from evlogic.simulation.table import deal
    from evlogic.simulation.tune import plan

    space = space_of(args.space)
    board = board_argument(args.board or "usa")
    players = args.players if args.players is not None else 4
    deal(board, space.base, load_agents(args.agents, players), args.order, args.seed)
    budget = tune_budget(space, args.games, args.budget)
    done = 0
    for alive, games in plan(len(space.candidates), args.games, budget):
        progress.planned += alive * (games - done)
        done = games
    with ExitStack() as stack:
        progress.bar = stack.enter_context(progress_bar(progress.planned))
        report = tune(
            space,
            board=board,
            players=players,
            agents=args.agents,
            moves=args.moves,
            order=args.order,
            games=args.games,
            budget=budget,
            seed=args.seed,
            jobs=args.jobs,
            dask=args.dask,
            check_timeout=args.check_timeout,
            progress=progress.update,
        )
    result = report.result
    if args.output is not None and result is not None and result.best is not None:
        best = result.front[result.best].candidate
        mapping = rule_set_mapping(best, _reference_from(space, args.output))
        with open_output(args.output) as out:
            out.write(f"# The best candidate evlogic tune found in {args.space}\n")
            out.write(yaml.safe_dump(mapping, sort_keys=False))
    if args.report is not None:
        from evlogic.pages.tune import tune_page

        with open_output(args.report) as page:
            page.write(tune_page(report.to_dict(), result, board))
    if args.format == "json":
        sys.stdout.write(report.to_json() + "\n")
    else:
        sys.stdout.write(report.to_text())
    return 0


def _reference_from(space: Space, output: str) -> str:
    """The base rule set as the written file must name it: a bundled name
    stays, a path is made relative to the file's folder."""
    import os

    from evlogic.loading.rulesets import bundled_rule_sets

    if space.base_reference in bundled_rule_sets():
        return str(space.base_reference)
    base = (Path(space.source).parent / space.base_reference).resolve()
    return os.path.relpath(base, Path(output).resolve().parent)
