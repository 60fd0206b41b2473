"""Benchmark for `evlogic play`: greedy games per second on one core.

usa, 4 players, snake order, greedy at every seat, homes dealt by seeds
0..N-1 (the same tables every run).  A game is played to the end and its
final position scored, by the plain Python playout of tests/plain_play.py
(the plain scorer of tests/, its final totals by
plain_scorer.score_position) as the baseline, and by evlogic.simulation.engine
(each decision grounded from rules/play/moves.lp and rules/agents/greedy.lp,
the final position by score's rules) two ways: play_games, the N games
side by side in one control (a grounding a turn for them all, the final
positions in one grounding), and play, one game a control.  The rows take
turns run by run, median of several runs (target: play_games at least half
the plain rate).  Before timing, each engine game is checked to be the
plain playout's game, move for move.

The balance rows run `evlogic balance --games K` (default 1000, the
command's default) as a user types it, with --jobs 1 and --jobs 2 taking
turns (target: --jobs 2 at least 1.7 times as fast; it needs two idle
cores), and the peak resident memory of a --jobs 2 run of ten times as
many games against one of K (target: flat).

Run:  python bench/bench_play.py [--runs N] [--games N] [--balance-games K]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from timing import interleaved_medians, print_rows  # noqa: E402

from evlogic.loading.boards import Board, load_board  # noqa: E402
from evlogic.loading.rulesets import load_rule_set  # noqa: E402
from evlogic.resources import bundled_boards  # noqa: E402
from evlogic.simulation.agents import load_agents  # noqa: E402
from evlogic.simulation.engine import PlayedGame, play, play_games  # noqa: E402
from evlogic.simulation.table import Table, deal  # noqa: E402
from plain_play import playout  # noqa: E402
from plain_scorer import Rules, score_position  # noqa: E402

#: evlogic's rate may be no less than this share of the plain playout's.
TARGET = 0.5


def plain_board(board: Board) -> dict[str, dict]:
    return {
        s.id: {"ev": s.ev, "swing": s.swing, "neighbors": list(s.neighbors)}
        for s in board.states.values()
    }


def plain_game(table: Table, board: dict[str, dict]) -> list[tuple]:
    """The plain playout and its final scores."""
    seats = [{"name": s.name, "home": s.home, "states": list(s.states)} for s in table.seats]
    moves = playout(
        board,
        seats,
        ["greedy"] * len(seats),
        Rules(),
        table.board.game_end,
        table.order,
        table.seed,
    )
    for move in moves:
        seats[[s["name"] for s in seats].index(move.player)]["states"].append(move.state)
    score_position(board, seats, table.board.game_end)
    return [(m.turn, m.player, m.state, m.gain, m.totals) for m in moves]


def engine_game(table: Table) -> list[tuple]:
    return moves_of(play(table))


def moves_of(game: PlayedGame) -> list[tuple]:
    return [(m.turn, m.player, m.state, m.gain, m.totals) for m in game.moves]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per row (default 5)")
    parser.add_argument("--games", type=int, default=20, help="games per run (default 20)")
    parser.add_argument(
        "--balance-games", type=int, default=1000, help="games of the balance rows (default 1000)"
    )
    parser.add_argument("--skip-balance", action="store_true", help="leave the balance rows out")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    usa = load_board(bundled_boards()["usa"])
    board = plain_board(usa)
    agents = load_agents("greedy", 4)
    rules = load_rule_set("standard")
    tables = [deal(usa, rules, agents, "snake", seed) for seed in range(args.games)]
    decisions = 0
    together = play_games(tables)
    for table, game in zip(tables, together, strict=True):  # the same games
        moves = engine_game(table)
        if moves != plain_game(table, board) or moves_of(game) != moves:
            sys.exit(f"seed {table.seed}: evlogic and the plain playout play different games")
        decisions += len(moves) + 1  # the last decision finds the game over
    medians = interleaved_medians(
        {
            "plain": lambda: [plain_game(table, board) for table in tables],
            "together": lambda: play_games(tables),
            "alone": lambda: [play(table) for table in tables],
        },
        args.runs,
    )
    plain, together, alone = medians["plain"], medians["together"], medians["alone"]
    rate = lambda seconds: args.games / seconds  # noqa: E731
    ratio = plain / together
    rows = [
        ("plain Python playout (tests/plain_play.py)", f"{rate(plain):,.1f}/s", "(baseline)", ""),
        (
            f"evlogic play_games, {args.games} side by side",
            f"{rate(together):,.1f}/s",
            f"{ratio:.2f}x plain",
            "ok" if ratio >= TARGET else f"MISSED (>= {TARGET}x)",
        ),
        ("  a game", f"{together / args.games * 1000:.1f} ms", "", ""),
        ("  a decision", f"{together / decisions * 1e6:,.0f} us", "", ""),
        (
            "evlogic play, one game a control",
            f"{rate(alone):,.1f}/s",
            f"{plain / alone:.2f}x plain",
            "",
        ),
        ("  a game", f"{alone / args.games * 1000:.1f} ms", "", ""),
    ]
    if not args.skip_balance:
        rows += balance_rows(args.balance_games, max(1, args.runs // 2))
    load_after = os.getloadavg()[0]
    print_rows(
        f"evlogic play benchmark: {args.games} greedy usa games (4 players, snake), "
        f"median of {args.runs} runs; load average {load_before:.1f} before, "
        f"{load_after:.1f} after ({os.cpu_count()} cores)",
        [("case", "rate", "ratio", "target"), *rows],
    )


def balance_rows(games: int, runs: int) -> list[tuple[str, str, str, str]]:
    """evlogic balance as typed, --jobs 1 against --jobs 2; peak memory of
    ten times the games against the games."""
    import resource
    import subprocess

    def balance(jobs: int, count: int) -> None:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "evlogic",
                "balance",
                "--games",
                str(count),
                "--jobs",
                str(jobs),
                "--format",
                "json",
            ],
            check=True,
            capture_output=True,
        )

    medians = interleaved_medians(
        {"one": lambda: balance(1, games), "two": lambda: balance(2, games)}, runs
    )
    speedup = medians["one"] / medians["two"]

    def peak(count: int) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        balance(2, count)
        return max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024

    small, large = peak(games), peak(10 * games)
    return [
        (f"evlogic balance --games {games} --jobs 1", f"{games / medians['one']:,.1f}/s", "", ""),
        (
            f"evlogic balance --games {games} --jobs 2",
            f"{games / medians['two']:,.1f}/s",
            f"{speedup:.2f}x --jobs 1",
            "ok" if speedup >= 1.7 else "MISSED (>= 1.7x; needs two idle cores)",
        ),
        (
            f"peak memory, {10 * games:,} games against {games:,}",
            f"{large:,.0f} MB",
            f"{large / small:.2f}x",
            "ok" if large <= 1.25 * small else "MISSED (flat)",
        ),
    ]


if __name__ == "__main__":
    main()
