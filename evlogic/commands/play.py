"""evlogic play: one simulated game, move by move, by agents written in ASP."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    MAX_JOBS,
    MAX_PLAYERS,
    add_format_option,
    add_limit_options,
    add_rules_option,
    whole,
    write_output,
)
from evlogic.limits import seconds

#: How long balance and tune may run by default (--timeout): an hour, as stats.
RUN_TIMEOUT = 3600.0

HELP = """\
Play one game: homes are dealt (at random by the seed, or as a game file
gives them), then the players take turns, each making a move its move model
makes legal, until the game ends (the rule set's game end, else the
board's). The move model says how states are won (--moves, or the rule
set's moves:): draft, any unclaimed state (the default); market, one of
market_size face-up states, refilled from a deck shuffled by the seed;
campaign, a state bought with campaign points (campaign_income a turn,
a state costs its face EV; passing is allowed). Prints every move (the
mover's gain, every player's total after it, the market or the points)
and the final score report.

An agent chooses each move: greedy (the largest gain in its own total),
spoiler (the largest gain in its lead over the best rival), face (face EV
only, blind to the regional bonus and the siege), random, lookahead[:K]
(the first move of the best plan of its next K moves, rivals held fixed;
K = 3 by default), or a .lp file of your own (docs/play.md says what it
reads and derives). Ties go to a state
drawn by the seed: the same seed plays the same game.

  evlogic play --players 4 --agents greedy,random,random,random --seed 3
  evlogic play mygame.yaml --agents spoiler -o final.yaml
  evlogic play --moves market --format json
  evlogic score final.yaml"""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = add_command(commands, "play", HELP, run)
    play.add_argument(
        "game",
        nargs="?",
        metavar="GAME",
        help="a game file to play on from: its board, players, homes and states won",
    )
    add_play_options(play)
    play.add_argument(
        "--seed", type=whole(-(2**63), 2**63 - 1), default=0, metavar="S", help="default 0"
    )
    add_format_option(play)
    play.add_argument(
        "-o",
        "--output",
        metavar="FINAL.yaml",
        help="also write the final position as a game file (states in the order won)",
    )
    add_limit_options(play, 600.0)


def add_runs_options(command: argparse.ArgumentParser, jobs_help: str) -> None:
    """--seed, and --jobs or --dask: where balance and tune play their games."""
    command.add_argument(
        "--seed", type=whole(-(2**63), 2**63 - 1), default=0, metavar="S", help="default 0"
    )
    where = command.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=whole(1, MAX_JOBS), default=1, metavar="N", help=jobs_help)
    where.add_argument(
        "--dask", metavar="ADDRESS", help="run the games on a Dask cluster (needs evlogic[dask])"
    )
    command.add_argument(
        "--timeout",
        type=seconds,
        default=RUN_TIMEOUT,
        metavar="S",
        help=f"seconds the whole run may take (default {RUN_TIMEOUT:g}); past it the run "
        "stops, writes nothing and exits with status 3",
    )


def add_play_options(
    command: argparse.ArgumentParser, balance: bool = False, rules: bool = True
) -> None:
    """--board, --rules, --players, --agents, --order: what play, balance and
    tune share (``balance``: --rules may be given again, and there is no game
    file; ``rules`` False: no --rules, tune's space names them)."""
    command.add_argument(
        "--board", metavar="B", help="a bundled board name or a path (default: usa)"
    )
    if not rules:
        pass
    elif balance:
        command.add_argument(
            "--rules",
            action="append",
            metavar="R",
            help="a rule set: a bundled name or a file (default: standard); give it again "
            "to compare rule sets, each against the first",
        )
    else:
        add_rules_option(command)
    command.add_argument(
        "--players",
        type=whole(1, MAX_PLAYERS),
        metavar="N",
        help="players, homes dealt at random (default 4"
        + (")" if balance else "; with GAME, its own players)"),
    )
    command.add_argument(
        "--agents",
        default="greedy",
        metavar="A[,A...]",
        help="one agent for every seat or one a seat, in seat order: greedy, random, "
        "spoiler, face, lookahead[:K], or a .lp file (default: greedy)",
    )
    command.add_argument(
        "--moves",
        metavar="MODEL",
        help="how states are won, overriding the rule set's model: draft (any unclaimed "
        "state), market (one of market_size face-up states), campaign (states bought "
        "with campaign points; pass allowed) or a move program's .lp file; default: "
        "the rule set's, else draft",
    )
    command.add_argument(
        "--order",
        choices=["snake", "round-robin"],
        default="snake",
        help="turn order: snake (1..N, N..1, ...) or round-robin (1..N, 1..N, ...); default snake",
    )


def run(args: argparse.Namespace) -> int:
    from evlogic.api.simulation import play
    from evlogic.commands.output_file import open_output
    from evlogic.simulation.report import PlayReport

    report = play(
        args.game,
        board=args.board,
        rules=args.rules,
        players=args.players,
        agents=args.agents,
        order=args.order,
        seed=args.seed,
        moves=args.moves,
    )
    if args.output is not None:
        with open_output(args.output) as out:
            out.write(report.to_yaml(args.output))
    write_output(args.format, report, PlayReport.to_json, PlayReport.to_text)
    return 0
