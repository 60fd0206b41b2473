"""Benchmark for `evlogic score`.

Prints a table of median wall times over several runs, each with a ratio
against a baseline measured in the same run, and the target it is held to:

* CLI: `evlogic score` on the rulebook's full example (the default game),
  against `python -c "import clingo, yaml"`, the two taking turns run by run
  (target: within 1.5x).  Both run with their bytecode cached, as an
  installed evlogic does: in a temporary PYTHONPYCACHEPREFIX, filled by a
  warm-up run, whatever PYTHONDONTWRITEBYTECODE says.
* In-process: a 51-state, 4-player, 36-state position (target: < 20 ms), and
  900-state 30x30 hex boards with 6 players (target: < 2 s), against the
  plain Python scorer of tests/ on the same position.

Run:  python bench/bench_score.py [--runs N]  (fails when the CLI misses its 1.5x target)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from boards import banded_position, hex_board, random_position  # noqa: E402
from timing import interleaved_medians, median_seconds, print_table, run_command  # noqa: E402

from evlogic.loading.boards import load_board  # noqa: E402
from evlogic.loading.games import Game  # noqa: E402
from evlogic.reports.score import score_game  # noqa: E402
from evlogic.resources import bundled_boards  # noqa: E402
from plain_scorer import score_position  # noqa: E402


def plain(game: Game) -> Callable[[], object]:
    board = {
        s.id: {"ev": s.ev, "swing": s.swing, "neighbors": list(s.neighbors)}
        for s in game.board.states.values()
    }
    players = [{"name": p.name, "home": p.home, "states": list(p.states)} for p in game.players]
    return lambda: score_position(board, players, game.board.game_end)


#: `evlogic score` may take at most this many times the baseline's time.
CLI_TARGET = 1.5
#: The fewest runs of each command: a process start varies by milliseconds.
CLI_RUNS = 15


def command_line_medians(runs: int) -> tuple[float, float]:
    """Median seconds of `evlogic score` and of `python -c "import clingo,
    yaml"`, taking turns, with bytecode cached in a temporary directory."""
    script = Path(sys.executable).parent / "evlogic"
    evlogic = [str(script)] if script.is_file() else [sys.executable, "-m", "evlogic"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        medians = interleaved_medians(
            {
                "score": run_command(*evlogic, "score", env=env),
                "baseline": run_command(sys.executable, "-c", "import clingo, yaml", env=env),
            },
            runs,
        )
    return medians["score"], medians["baseline"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per row (default 7)")
    args = parser.parse_args()

    usa = load_board(bundled_boards()["usa"])
    usa_game = random_position(usa, players=4, won=36, seed=1)
    hex900 = hex_board(30, 30)
    rows = []
    cli_runs = max(args.runs, CLI_RUNS)
    cli, baseline = command_line_medians(cli_runs)
    rows.append(
        (
            "evlogic score (full example)",
            cli,
            "import clingo, yaml",
            baseline,
            f"<= {CLI_TARGET}x baseline",
            cli <= CLI_TARGET * baseline,
        )
    )

    cases = [
        ("usa 51 states, 4 players, 36 won", usa_game, 0.020),
        ("hex 30x30, 6 players, random", random_position(hex900, 6, 900, seed=1), 2.0),
        ("hex 30x30, 6 players, 150-state regions", banded_position(hex900, 6), 2.0),
    ]
    for label, game, target in cases:
        engine = median_seconds(lambda game=game: score_game(game), args.runs)
        reference = median_seconds(plain(game), args.runs)
        rows.append(
            (
                label,
                engine,
                "plain Python scorer",
                reference,
                f"< {target * 1000:.0f} ms",
                engine < target,
            )
        )
    print_table(f"evlogic score benchmark: median of {args.runs} runs ({cli_runs}: CLI)", rows)
    print(f"evlogic score / import clingo, yaml: {cli / baseline:.2f}x (target {CLI_TARGET}x)")
    assert cli <= CLI_TARGET * baseline, (
        f"evlogic score took {cli / baseline:.2f}x the import baseline (target {CLI_TARGET}x)"
    )


if __name__ == "__main__":
    main()
