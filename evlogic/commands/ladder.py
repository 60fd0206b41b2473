"""evlogic ladder: agents of rising strength, each against the one before."""

from __future__ import annotations

import argparse
from contextlib import ExitStack

from evlogic.commands import add_command
from evlogic.commands.options import (
    MAX_PLAYERS,
    add_format_option,
    add_rules_option,
    board_argument,
    progress_bar,
    say,
    whole,
    write_output,
)
from evlogic.limits import add_memory_option

HELP = """\
A skill ladder: the agents in the order given, weakest first, each
playing the one before it. A step plays K deals (balance's games: the
same seeds, homes and tie orders), each deal in every seating of the two:
with 2 players the stronger in seat 1 and then in seat 2; with N players
the stronger in one seat and the weaker in the others, rotated. Seat and
deal cancel, so what a step says is the agents' doing.

For each step: the games, the stronger's win rate (a tie a half; with
more players, the share of the weaker seats it beat) with its 95% Wilson
interval, and whether it is significant (the interval above 50%); the
ladder's depth (significant steps in a row from the bottom); and a
Bradley-Terry rating for each agent on the Elo scale, the first at 0,
with its 95% interval.

  evlogic ladder --board examples/lakeland/board.yaml --games 100
  evlogic ladder --agents random,face,greedy,spoiler --moves campaign --jobs 2
  evlogic ladder --players 4 --games 50 --format json --games-out games.jsonl

Past --timeout (default an hour) the run stops and says how many games
were played; no report is printed and no file written.

Exit status: 0, 2 for bad input, 3 past --timeout, 130 on Ctrl-C and 143
on SIGTERM (nothing half-written, worker processes ended)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from evlogic.commands.play import add_runs_options

    ladder = add_command(commands, "ladder", HELP, run)
    ladder.add_argument(
        "--agents",
        default="random,face,greedy,lookahead",
        metavar="A,B,...",
        help="the agents, weakest first: greedy, random, spoiler, face, lookahead[:K] or .lp files "
        "(default: random,face,greedy,lookahead)",
    )
    ladder.add_argument(
        "--board", metavar="B", help="a bundled board name or a path (default: usa)"
    )
    add_rules_option(ladder, games=False)
    ladder.add_argument(
        "--moves",
        metavar="MODEL",
        help="how states are won, overriding the rule set's: draft, market, campaign or "
        "a move program's .lp file",
    )
    ladder.add_argument(
        "--players",
        type=whole(2, MAX_PLAYERS),
        default=2,
        metavar="N",
        help="players a game (default 2)",
    )
    ladder.add_argument(
        "--order",
        choices=["snake", "round-robin"],
        default="snake",
        help="turn order (default snake)",
    )
    ladder.add_argument(
        "--games",
        type=whole(1, 1_000_000),
        default=100,
        metavar="K",
        help="deals a step (default 100); a step plays K x N games",
    )
    add_runs_options(ladder, "worker processes (default 1); the output is the same for any N")
    ladder.add_argument(
        "--games-out",
        metavar="GAMES.jsonl",
        help="also write one JSON line a game, as balance does (each seat's agent named)",
    )
    ladder.add_argument(
        "--report", metavar="REPORT.html", help="also write the ladder as a page with a chart"
    )
    add_format_option(ladder)
    add_memory_option(ladder)


def run(args: argparse.Namespace) -> int:
    from evlogic.signals import TimeUp, deadline

    played = [0]
    try:
        with deadline(args.timeout):
            return _ladder(args, played)
    except TimeUp:
        say(
            f"evlogic: error: ladder: no report within {args.timeout:g} s, unfinished: "
            f"{played[0]:,} games played, nothing written (raise --timeout or lower --games)"
        )
        return 3


def _ladder(args: argparse.Namespace, played: list[int]) -> int:
    from evlogic.api.simulation import ladder
    from evlogic.commands.output_file import open_output
    from evlogic.reports.ladder import LadderReport

    board = board_argument(args.board or "usa")
    steps = max(0, len([a for a in args.agents.split(",") if a.strip()]) - 1)
    with ExitStack() as stack:
        out = None
        if args.games_out is not None:
            out = stack.enter_context(open_output(args.games_out))

        def on_game(line: str) -> None:
            if out is not None:
                out.write(line + "\n")
            played[0] += 1

        report = ladder(
            agents=args.agents,
            board=board,
            rules=args.rules,
            moves=args.moves,
            players=args.players,
            order=args.order,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            dask=args.dask,
            on_game=on_game,
            progress=stack.enter_context(progress_bar(steps * args.games * args.players)),
        )
        if args.report is not None:
            from evlogic.pages.ladder import ladder_page

            with open_output(args.report) as page:
                page.write(ladder_page(report))
    write_output(args.format, report, LadderReport.to_json, LadderReport.to_text)
    return 0
