"""Benchmark: batch's two encodings by board size, for tables.MAX_BLOCKS.

`evlogic batch` scores a rule set of parameters only with the compiled
encoding (rules/batch/) on boards of at most MAX_BLOCKS blocks of 56 states,
and with the readable rules (rules/scoring/) on larger ones.  For hex boards of
growing size this prints, for each encoding, one chunk's wall time (median
of the runs, the board compiled afresh each run) and the child's peak
memory, and the compiled encoding's time as a ratio of the readable one's:
the ratio passes 1 near the cutoff, and past it the compiled encoding's
memory grows with states times blocks.

Run:  python bench/bench_encodings.py [--runs N] [--lines N] [--won N]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from boards import board_yaml, hex_board, random_position  # noqa: E402
from timing import print_rows  # noqa: E402

#: (width, height) of the hex boards: 1 to 19 blocks.
SIZES = ((8, 7), (10, 10), (15, 15), (20, 20), (24, 24), (30, 34))


def lines_for(board_path: Path, width: int, height: int, count: int, won: int) -> list[str]:
    board = hex_board(width, height)
    lines = []
    for seed in range(count):
        game = random_position(board, 2, min(won, len(board.states)), seed=seed)
        players = [{"name": p.name, "home": p.home, "states": list(p.states)} for p in game.players]
        lines.append(json.dumps({"board": str(board_path), "players": players}) + "\n")
    return lines


def one_chunk(lines: list[str], readable: bool) -> None:
    """Runs in a forked child: one chunk of ``lines`` by one encoding."""
    from evlogic.asp.compiled import tables
    from evlogic.batching.reading import BatchOptions
    from evlogic.batching.runner import run_batch

    tables.MAX_BLOCKS = 0 if readable else 10**6  # one encoding, whatever the size
    out = io.StringIO()
    failed = run_batch(
        lines, out, BatchOptions("in.jsonl", None, "/"), jobs=1, chunk_size=len(lines)
    )
    os._exit(1 if failed else 0)


def run_child(lines: list[str], readable: bool) -> tuple[float, float]:
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        one_chunk(lines, readable)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("a line failed")
    return time.perf_counter() - start, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per cell (default 3)")
    parser.add_argument("--lines", type=int, default=2000, help="lines in the chunk (default 2000)")
    parser.add_argument("--won", type=int, default=100, help="states won a line (default 100)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-encodings-"))
    rows = [("states", "blocks", "compiled", "peak", "readable", "peak", "compiled/readable")]
    for width, height in SIZES:
        path = folder / f"hex{width}x{height}.yaml"
        path.write_text(yaml.safe_dump(board_yaml(hex_board(width, height))))
        lines = lines_for(path, width, height, args.lines, args.won)
        figures = []
        for readable in (False, True):
            runs = [run_child(lines, readable) for _ in range(args.runs)]
            figures.append((statistics.median(r[0] for r in runs), max(r[1] for r in runs)))
        (fast, fast_mb), (plain, plain_mb) = figures
        states = width * height
        rows.append(
            (
                f"{states:,}",
                str(-(-states // 56)),
                f"{fast:.2f} s",
                f"{fast_mb:.0f} MB",
                f"{plain:.2f} s",
                f"{plain_mb:.0f} MB",
                f"{fast / plain:.2f}x",
            )
        )
    print_rows(
        f"batch encodings: one chunk of {args.lines} lines, {args.won} states won, "
        f"median of {args.runs} runs",
        rows,
    )


if __name__ == "__main__":
    main()
