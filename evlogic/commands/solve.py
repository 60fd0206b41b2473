"""evlogic solve: perfect play on a small board, and agents against it."""

from __future__ import annotations

import argparse

from evlogic.commands import add_command
from evlogic.commands.options import (
    MAX_PLAYERS,
    add_format_option,
    add_limit_options,
    add_rules_option,
    whole,
    write_output,
)

#: How long solve may run by default (--timeout).
SOLVE_TIMEOUT = 600.0

HELP = """\
Solve a small game: every position searched, each player maximising its
own final total less the best rival's (for two players, minimax of seat
1's margin); of equally good moves the one of the smallest state id; a
pass only when it is the mover's one legal move. Every position is ruled
on by the move model's rules and every final position scored by score's
rules. Prints each seat's total and margin under perfect play (seats
count from 1 in turn order), the perfect first move and the positions
searched. The board may leave at most 14 states nobody holds at the
start for 2 players, 10 for 3 or more.

With --agents, each agent is measured against perfect play: how often
its move is a perfect one where perfect play goes, and its margin in
each seat with every other seat playing perfectly.

  evlogic solve examples/lakeland/board.yaml --homes W,E
  evlogic solve examples/lakeland/board.yaml --players 3 --moves market
  evlogic solve examples/lakeland/board.yaml --agents greedy,face --format json

Exit status: 0 solved, 2 bad input (a board over the bound), 3 out of
time (--timeout)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    solve = add_command(commands, "solve", HELP, run)
    solve.add_argument("board", metavar="BOARD", help="a bundled board name or a path")
    solve.add_argument(
        "--players",
        type=whole(2, MAX_PLAYERS),
        metavar="N",
        help="players (default: as many as --homes, else 2)",
    )
    solve.add_argument(
        "--homes",
        metavar="A,B,...",
        help="the homes in seat order, state ids (default: dealt at random by --seed)",
    )
    add_rules_option(solve, games=False)
    solve.add_argument(
        "--moves",
        metavar="MODEL",
        help="how states are won, overriding the rule set's: draft, market, campaign or "
        "a move program's .lp file",
    )
    solve.add_argument(
        "--order",
        choices=["snake", "round-robin"],
        default="snake",
        help="turn order (default snake)",
    )
    solve.add_argument(
        "--agents",
        metavar="A,B,...",
        help="agents to measure against perfect play: greedy, spoiler, face, random, "
        "lookahead[:K] or .lp files",
    )
    solve.add_argument(
        "--seed",
        type=whole(-(2**63), 2**63 - 1),
        default=0,
        metavar="S",
        help="deals the homes and shuffles a market's deck (default 0)",
    )
    add_format_option(solve)
    add_limit_options(solve, SOLVE_TIMEOUT)


def run(args: argparse.Namespace) -> int:
    from evlogic.api.simulation import solve
    from evlogic.simulation.solving import SolveReport

    report = solve(
        args.board,
        players=args.players,
        homes=args.homes,
        rules=args.rules,
        moves=args.moves,
        order=args.order,
        agents=args.agents,
        seed=args.seed,
    )
    write_output(args.format, report, SolveReport.to_json, SolveReport.to_text)
    return 0
