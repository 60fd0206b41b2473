"""Benchmark for `evlogic batch` (issue: scale).

On the 51-state board, 4 players, 36 states won (positions from
`evlogic sample`), end to end (read JSONL, score, write JSONL), median of
several runs, with the plain Python scorer of tests/ doing the same end to
end in the same run as the baseline (the rows take turns, run by run, so
each ratio compares the same minutes of a machine whose speed drifts):

* one process (target: >= 5,000 positions/s),
* --jobs 2 (target: >= 1.7x the one-process rate),
* peak memory of a long run (target: < 300 MB for 1,000,000 positions; the
  default measures --memory-count positions, 1,000,000 with --million).

Rule sets of parameters only are scored by the compiled encoding
(rules/batch/, evlogic/asp/compiled/); the table also lists its microseconds
per position step by step (input, grounding, solving, reading the shown
atoms, output: the report lines; CPU
time of this process, so the machine's other load shows less) and runs the
differential test of tests/test_compiled.py with --examples examples.

Run:  python bench/bench_batch.py [--runs N] [--count N] [--million] [--examples N]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]

from timing import interleaved_medians, print_rows  # noqa: E402

from evlogic.asp.compiled import tables  # noqa: E402
from evlogic.asp.compiled.chunk import ground_chunk, pack, solve  # noqa: E402
from evlogic.asp.compiled.rows import read_rows  # noqa: E402
from evlogic.batching.chunk import cycle_collector_paused  # noqa: E402
from evlogic.batching.lines import report_lines  # noqa: E402
from evlogic.batching.reading import BatchOptions, line_position, resolve_line  # noqa: E402
from evlogic.batching.runner import CHUNK_SIZE, chunks  # noqa: E402
from evlogic.batching.sample import sample_games  # noqa: E402
from evlogic.loading.boards import load_board  # noqa: E402
from evlogic.resources import bundled_boards  # noqa: E402
from plain_scorer import score_position  # noqa: E402

EVLOGIC = [sys.executable, "-m", "evlogic"]
T = TypeVar("T")


def sample(path: Path, count: int) -> None:
    """What `evlogic sample --board usa --players 4 --seed 1` writes."""
    usa = load_board(bundled_boards()["usa"])
    with path.open("w") as out:
        for game in sample_games(usa, "usa", 4, count, seed=1):
            out.write(json.dumps(game) + "\n")


def plain_end_to_end(source: Path, target: Path) -> None:
    usa = load_board(bundled_boards()["usa"])
    board = {
        s.id: {"ev": s.ev, "swing": s.swing, "neighbors": list(s.neighbors)}
        for s in usa.states.values()
    }
    with source.open() as lines, target.open("w") as out:
        for number, line in enumerate(lines, start=1):
            game = json.loads(line)
            report = score_position(board, game["players"], usa.game_end)
            out.write(json.dumps({"line": number, **report}) + "\n")


def batch(source: Path, target: Path, jobs: int, *rules: str) -> None:
    subprocess.run(
        [*EVLOGIC, "batch", str(source), "-o", str(target), "--jobs", str(jobs), *rules],
        check=True,
    )


def readable_rules(folder: Path) -> str:
    """The standard rules with an (empty) program of their own: batch then
    scores with the readable rules of rules/scoring/, as before the compiled
    encoding."""
    (folder / "empty.lp").write_text("% nothing: the standard rules, read by rules/scoring/\n")
    (folder / "readable.yaml").write_text("extends: standard\nprograms: [empty.lp]\n")
    return str(folder / "readable.yaml")


def peak_rss_mb(source: Path, target: Path, jobs: int) -> float:
    """Peak resident memory of the largest process of a batch run (measured
    in a fresh child: this process's RUSAGE_CHILDREN would also hold the
    earlier runs, the readable rules' among them)."""
    command = [*EVLOGIC, "batch", str(source), "-o", str(target), "--jobs", str(jobs)]
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe, *command], check=True, capture_output=True, text=True
    )
    return int(result.stdout.split()[-1]) / 1024


STEPS = ("input", "grounding", "solving", "reading", "output")


def steps_us(source: Path) -> dict[str, float]:
    """CPU microseconds per position of each step of the compiled path, in
    this process, chunk by chunk as batch scores them."""
    options = BatchOptions(str(source), None, str(source.parent))
    spent = dict.fromkeys(STEPS, 0.0)
    count = 0

    def timed(step: str, action: Callable[[], T]) -> T:
        start = time.process_time()
        result = action()
        spent[step] += time.process_time() - start
        return result

    with source.open() as lines:
        for chunk in chunks(lines, CHUNK_SIZE):
            with cycle_collector_paused():  # as batch scores a chunk
                _steps(chunk, options, timed)
            count += len(chunk)
    return {step: seconds / count * 1e6 for step, seconds in spent.items()}


def _steps(chunk: list, options: BatchOptions, timed: Callable) -> None:
    """One chunk, step by step, as batch scores it."""
    boards: dict = {}
    lines_read = timed(
        "input", lambda c=chunk, b=boards: [resolve_line(n, t, options, b) for n, t in c]
    )
    _, _, usa, rules = lines_read[0]
    board = tables.compiled(usa, rules)
    positions = timed(
        "input",
        lambda r=lines_read, b=board: [line_position(*line, b, options) for line in r],
    )
    packed = timed("input", lambda p=positions, b=board: pack(b, p))
    control = timed(
        "grounding",
        lambda k=packed, b=board, p=positions: ground_chunk(b, k, p),
    )
    shown = timed("solving", lambda c=control: solve(c))
    rows = timed("reading", lambda s=shown: read_rows(s))
    timed(
        "output",
        lambda c=chunk, p=positions, r=rows, b=board, n=(usa.name, rules.name): "".join(
            report_lines(b, *n, p, [number for number, _ in c], r)
        ),
    )


def differential(examples: int) -> str:
    """tests/test_compiled.py with many examples: batch lines against the
    readable rules' reports."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(HERE.parent / "tests" / "test_compiled.py"),
        ],
        env={**os.environ, "EVLOGIC_DIFFERENTIAL_EXAMPLES": str(examples)},
        capture_output=True,
        text=True,
    )
    return "ok" if result.returncode == 0 else "FAILED:\n" + result.stdout[-3000:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs per row (default 3)")
    parser.add_argument("--count", type=int, default=20_000, help="positions per run")
    parser.add_argument(
        "--memory-count",
        type=int,
        default=100_000,
        help="positions for the memory row (default 100,000)",
    )
    parser.add_argument("--million", action="store_true", help="memory row on 1,000,000")
    parser.add_argument(
        "--examples", type=int, default=1000, help="differential test examples (default 1,000)"
    )
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp())
    games, out = work / "games.jsonl", work / "out.jsonl"
    sample(games, args.count)

    steps = steps_us(games)
    readable = readable_rules(work)
    medians = interleaved_medians(
        {
            "plain": lambda: plain_end_to_end(games, out),
            "readable": lambda: batch(games, out, 1, "--rules", readable),
            "one": lambda: batch(games, out, 1),
            "two": lambda: batch(games, out, 2),
        },
        args.runs,
    )
    plain, old, one, two = (medians[name] for name in ("plain", "readable", "one", "two"))
    memory_count = 1_000_000 if args.million else args.memory_count
    big = work / "big.jsonl"
    sample(big, memory_count)
    peak = peak_rss_mb(big, work / "big-out.jsonl", os.cpu_count() or 1)

    rate = lambda seconds: args.count / seconds  # noqa: E731
    rows = [
        ("plain Python scorer, end to end", f"{rate(plain):,.0f}/s", "(baseline)", ""),
        (
            "readable rules, batch --jobs 1",
            f"{rate(old):,.0f}/s",
            f"{plain / old:.2f}x plain",
            "",
        ),
        (
            "evlogic batch --jobs 1",
            f"{rate(one):,.0f}/s",
            f"{plain / one:.2f}x plain",
            "ok" if rate(one) >= 5000 else "MISSED (>= 5,000/s)",
        ),
        (
            "evlogic batch --jobs 2",
            f"{rate(two):,.0f}/s",
            f"{one / two:.2f}x jobs 1",
            "ok" if one / two >= 1.7 else "MISSED (>= 1.7x)",
        ),
        (
            f"peak memory, {memory_count:,} positions",
            f"{peak:,.0f} MB",
            "",
            "ok" if peak < 300 else "MISSED (< 300 MB)",
        ),
    ]
    total = sum(steps.values())
    rows.append(("compiled path, CPU per position", f"{total:,.0f} us", "", ""))
    rows.extend(
        (f"  {step}", f"{us:,.1f} us", f"{us / total:.0%}", "") for step, us in steps.items()
    )
    rows.append(
        (f"differential test, {args.examples:,} examples", differential(args.examples), "", "")
    )
    load_after = os.getloadavg()[0]
    print_rows(
        f"evlogic batch benchmark: {args.count:,} usa positions (4 players, 36 won), "
        f"median of {args.runs} runs; load average {load_before:.1f} before, "
        f"{load_after:.1f} after ({os.cpu_count()} cores)",
        [("case", "rate", "ratio", "target"), *rows],
    )


if __name__ == "__main__":
    main()
