"""Benchmark: scoring and the board report scale with the board: bounded time
and memory.

Each case runs the CLI in a child process and reports its wall time (median
of several runs) and peak memory (the child's maximum resident set), with a
ratio against a baseline measured in the same run (`evlogic score` on the
rulebook's full example, on the usa board).  Targets:

* one position on a 5,000-state hex lattice owned by one player: < 10 s;
* the 60-state complete graph owned by one player: < 5 s and < 1 GB;
* `board-report` on a 1,000-state hex lattice: < 60 s.

Run:  python bench/bench_scale.py [--runs N] [--skip-report]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from boards import board_yaml, complete_board, hex_board  # noqa: E402
from timing import print_rows  # noqa: E402


def run_child(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one child process."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: run the command, output discarded
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        os.execv(args[0], args)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(args)}")
    return seconds, usage.ru_maxrss / 1024


def measure(args: list[str], runs: int) -> tuple[float, float]:
    """Median seconds and largest peak MB over ``runs`` runs."""
    results = [run_child(args) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def write_game(folder: Path, name: str, board_map: dict, home: str) -> Path:
    (folder / f"{name}-board.yaml").write_text(yaml.safe_dump(board_map))
    states = sorted(board_map["states"])
    game = {
        "board": f"{name}-board.yaml",
        "players": [{"name": "P1", "home": home, "states": states}],
    }
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(game))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per row (default 3)")
    parser.add_argument("--skip-report", action="store_true", help="leave out board-report")
    args = parser.parse_args()
    evlogic = [sys.executable, "-m", "evlogic"]
    folder = Path(tempfile.mkdtemp(prefix="bench-scale-"))

    lattice = hex_board(71, 71)  # 5,041 states
    k60 = complete_board(60)
    report_board = hex_board(40, 25)  # 1,000 states
    (folder / "report-board.yaml").write_text(yaml.safe_dump(board_yaml(report_board)))
    cases = [
        (
            "hex 71x71 (5,041 states), one owner",
            write_game(folder, "hex", board_yaml(lattice), "H35.35"),
            10.0,
            None,
        ),
        (
            "complete graph K60, one owner",
            write_game(folder, "k60", board_yaml(k60), "K000"),
            5.0,
            1024.0,
        ),
        (
            "hex 30x30 (900 states), one owner",
            write_game(folder, "hex900", board_yaml(hex_board(30, 30)), "H15.15"),
            None,
            None,
        ),
    ]
    baseline, base_mb = measure([*evlogic, "score"], args.runs)
    rows = [
        (
            "evlogic score (full example, usa)",
            "",
            f"{baseline:.2f} s",
            f"{base_mb:.0f} MB",
            "1.00x",
            "(baseline)",
            "",
        )
    ]
    for label, game, limit, memory in cases:
        seconds, mb = measure([*evlogic, "score", str(game)], args.runs)
        target = " and ".join(
            part
            for part in (
                f"< {limit:.0f} s" if limit else "",
                f"< {memory:.0f} MB" if memory else "",
            )
            if part
        )
        met = (limit is None or seconds < limit) and (memory is None or mb < memory)
        rows.append(
            (
                label,
                "score",
                f"{seconds:.2f} s",
                f"{mb:.0f} MB",
                f"{seconds / baseline:.1f}x",
                target or "(scale)",
                "ok" if met else "MISSED",
            )
        )
    if not args.skip_report:
        seconds, mb = measure(
            [*evlogic, "board-report", str(folder / "report-board.yaml"), "--format", "json"], 1
        )
        rows.append(
            (
                "hex 40x25 (1,000 states)",
                "board-report",
                f"{seconds:.1f} s",
                f"{mb:.0f} MB",
                f"{seconds / baseline:.1f}x",
                "< 60 s",
                "ok" if seconds < 60 else "MISSED",
            )
        )
    table = [("case", "command", "median", "peak memory", "ratio", "target", ""), *rows]
    print_rows(f"evlogic scale benchmark: median of {args.runs} runs", table)


if __name__ == "__main__":
    main()
