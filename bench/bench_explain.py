"""Benchmark for `evlogic explain` and `evlogic diagram` (issue: see why).

Prints median wall times over several runs with same-run baselines:

* CLI: `evlogic explain` and `evlogic diagram` on the rulebook's full example
  against `evlogic score` on it (target: within 2x).
* In-process: the what-if of a 51-state, 4-player, 36-state position (every
  state the player could still win, ~45, in one solver call; target < 100 ms)
  against scoring that position.

Run:  python bench/bench_explain.py [--runs N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from boards import random_position  # noqa: E402
from timing import median_seconds, print_table, run_command  # noqa: E402

from evlogic.loading.boards import load_board  # noqa: E402
from evlogic.reports.explain import explain_game  # noqa: E402
from evlogic.reports.score import score_game  # noqa: E402
from evlogic.resources import bundled_boards, default_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per row (default 7)")
    args = parser.parse_args()
    evlogic = [sys.executable, "-m", "evlogic"]
    game_file = str(default_game())
    out = str(Path(tempfile.mkdtemp()) / "diagram.svg")

    score = median_seconds(run_command(*evlogic, "score", game_file), args.runs)
    explain = median_seconds(
        run_command(*evlogic, "explain", game_file, "--player", "You"), args.runs
    )
    diagram = median_seconds(
        run_command(*evlogic, "diagram", game_file, "--player", "You", "-o", out), args.runs
    )
    game = random_position(load_board(bundled_boards()["usa"]), players=4, won=36, seed=1)
    name = game.players[0].name
    candidates = len(explain_game(game, name).what_if)
    what_if = median_seconds(lambda: explain_game(game, name), args.runs)
    scored = median_seconds(lambda: score_game(game), args.runs)
    rows = [
        (
            "evlogic explain (full example)",
            explain,
            "evlogic score",
            score,
            "<= 2x",
            explain <= 2 * score,
        ),
        (
            "evlogic diagram (full example)",
            diagram,
            "evlogic score",
            score,
            "<= 2x",
            diagram <= 2 * score,
        ),
        (
            f"what-if, {candidates} states, one call (usa)",
            what_if,
            "score_game",
            scored,
            "< 100 ms",
            what_if < 0.1,
        ),
    ]
    print_table(f"evlogic explain/diagram benchmark: median of {args.runs} runs", rows)


if __name__ == "__main__":
    main()
