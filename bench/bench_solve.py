"""Benchmark for `evlogic solve`: positions searched per second.

A 12-state hex board (bench/boards.py's shape: 3 rows of 4, EVs and swing
states drawn by seed 1), 2 players, homes dealt by seed 0, the game to its
end (10 states nobody holds: every position of the game).  Perfect play by
evlogic.simulation.perfect (each layer ruled on by the move model's rules
in one grounding, finals scored by score's rules) against the plain
brute-force minimax of tests/plain_perfect.py (the plain scorer and the
models' rules in Python) in the same run, the two taking turns, median of
several runs, for each bundled move model.  Before timing, the two are
checked to agree on every seat's total, the first move and the positions.

Target: evlogic at least a fifth of the plain search's rate (it grounds
what Python computes in place; at the bound, 14 unclaimed states, a draft
of 1.2 million positions takes some 40 s).

Run:  python bench/bench_solve.py [--runs N]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from plain_perfect import PlainGame  # noqa: E402
from timing import interleaved_medians, print_rows  # noqa: E402

from evlogic.loading.boards import board_from_field  # noqa: E402
from evlogic.loading.rulesets import MOVE_MODELS, load_rule_set, with_moves  # noqa: E402
from evlogic.loading.yamlfile import yaml_document  # noqa: E402
from evlogic.simulation.agents import load_agents  # noqa: E402
from evlogic.simulation.perfect import PerfectPlay  # noqa: E402
from evlogic.simulation.table import Table, deal  # noqa: E402

#: evlogic's rate may be no less than this share of the plain search's.
TARGET = 0.2


def board_text(seed: int = 1) -> str:
    rng = random.Random(seed)
    rows, columns = 3, 4
    lines = ["name: bench12", f"game_end: {rows * columns}", "states:"]
    for r in range(rows):
        for c in range(columns):
            near = [
                f"S{r + dr}{c + dc}"
                for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (1, -1), (-1, 1))
                if 0 <= r + dr < rows and 0 <= c + dc < columns
            ]
            swing = "true" if rng.random() < 0.2 else "false"
            lines.append(
                f"  S{r}{c}: {{ev: {rng.randint(1, 12)}, swing: {swing}, "
                f"neighbors: [{', '.join(near)}]}}"
            )
    return "\n".join(lines) + "\n"


def tables() -> dict[str, Table]:
    document = yaml_document(board_text(), "bench12.yaml")
    board = board_from_field(document, "bench12")
    return {
        model: deal(
            board,
            with_moves(load_rule_set("standard"), model),
            load_agents("greedy", 2),
            "snake",
            0,
        )
        for model in MOVE_MODELS
    }


def plain(table: Table) -> PlainGame:
    board = {
        state: {"ev": spec.ev, "swing": spec.swing, "neighbors": list(spec.neighbors)}
        for state, spec in table.board.states.items()
    }
    return PlainGame(
        board,
        [(seat.name, seat.home) for seat in table.seats],
        table.order,
        table.seed,
        table.rules.moves,
        {"market_size": table.rules.market_size, "campaign_income": table.rules.campaign_income},
        table.board.game_end,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = [["model", "positions", "plain/s", "evlogic/s", "ratio", "target"]]
    failed = False
    for model, table in tables().items():
        search = PerfectPlay(table)
        game = plain(table)
        totals, first = game.value(game.start)
        assert search.totals(search.start) == totals, model
        assert search.ids[search.best(search.start)] == first, model
        assert search.positions == len(game.seen), model
        positions = search.positions

        def run_plain(table: Table = table) -> None:
            fresh = plain(table)
            fresh.value(fresh.start)

        def run_evlogic(table: Table = table) -> None:
            fresh = PerfectPlay(table)
            fresh.totals(fresh.start)

        times = interleaved_medians({"plain": run_plain, "evlogic": run_evlogic}, args.runs)
        ratio = times["plain"] / times["evlogic"]
        ok = ratio >= TARGET
        failed |= not ok
        rows.append(
            [
                model,
                f"{positions:,}",
                f"{positions / times['plain']:,.0f}",
                f"{positions / times['evlogic']:,.0f}",
                f"{ratio:.2f}x plain",
                f">= {TARGET}x {'ok' if ok else 'MISSED'}",
            ]
        )
    print_rows("evlogic solve against a plain brute-force minimax, 12 states, 2 players", rows)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
