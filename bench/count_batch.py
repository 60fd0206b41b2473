"""Instructions per position of the compiled batch path: a measure the
machine's speed does not move.

bench/bench_batch.py times `evlogic batch` against the plain scorer, but
this shared machine's speed drifts by a third within an hour, so a change
worth 2% cannot be seen in its rates.  This script counts the instructions
the batch path executes, under valgrind (``--tool=cachegrind
--cache-sim=no``: deterministic to about 0.05%), for the bench's usa
positions, in this process's code (the checkout it runs from), step by step:

* input: the lines read and checked into positions (reading.resolve_line,
  reading.line_position),
* encoding: the positions packed into input atoms, the chunk grounded and
  solved, the shown atoms printed (compiled.chunk: pack, ground_chunk,
  solve),
* output: the rows read and the report lines written (compiled.rows.read_rows,
  lines.report_lines),
* chunk: what a chunk costs however few its lines (a clingo Control, the
  board's tables, a ground call a closure step),

each as the difference between two runs of different sizes, so that
Python's start, the imports and the board's compilation cancel out.  To
compare two versions, run it in each checkout (or with PYTHONPATH set to
each) and compare the rows.

Needs valgrind (``apt-get install valgrind``).

Run:  python bench/count_batch.py [--count N] [--chunk-size N]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from timing import print_rows  # noqa: E402

#: What one counted run does, in a fresh interpreter: score ``count``
#: positions of ``source`` in chunks of ``size``, up to ``step`` (input,
#: encoding, output), after warming up on a few lines (imports, the board
#: compiled, the caches filled).
PROBE = """
import sys
from evlogic.asp.compiled import tables
from evlogic.asp.compiled.chunk import ground_chunk, pack, solve
from evlogic.asp.compiled.rows import read_rows
from evlogic.batching.chunk import cycle_collector_paused
from evlogic.batching.lines import report_lines
from evlogic.batching.reading import BatchOptions, line_position, resolve_line
from evlogic.batching.runner import chunks

source, count, size, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
options = BatchOptions(source, None, ".")
lines = open(source).readlines()


def score(chunk):
    boards = {}
    read = [resolve_line(number, text, options, boards) for number, text in chunk]
    _, _, board, rules = read[0]
    table = tables.compiled(board, rules)
    positions = [line_position(*line, table, options) for line in read]
    if step == "input":
        return
    control = ground_chunk(table, pack(table, positions), positions)
    shown = solve(control)
    if step == "encoding":
        return
    rows = read_rows(shown)
    report_lines(table, board.name, rules.name, positions, [n for n, _ in chunk], rows)


score(list(chunks(lines[-5:], 5))[0])
for chunk in chunks(lines[:count], size):
    with cycle_collector_paused():
        score(chunk)
"""

STEPS = ("input", "encoding", "output")


def instructions(source: Path, count: int, size: int, step: str) -> int:
    """Instructions of one probe run under cachegrind."""
    result = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            PROBE,
            str(source),
            str(count),
            str(size),
            step,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + result.stderr[-2000:])
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=4000, help="positions (default 4,000)")
    parser.add_argument("--chunk-size", type=int, default=None, help="default: batch's own")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("count_batch.py needs valgrind (apt-get install valgrind)")

    from bench_batch import sample  # the bench's positions

    from evlogic.batching.runner import CHUNK_SIZE

    size = args.chunk_size or CHUNK_SIZE
    count = max(args.count // size, 1) * size  # whole chunks
    work = Path(tempfile.mkdtemp())
    source = work / "games.jsonl"
    sample(source, count + size + 5)  # the last five warm up

    # Up to each step: one chunk, then one chunk plus `count` positions; the
    # difference is what `count` positions cost (their chunks' share included).
    upto = {}
    for step in STEPS:
        many = instructions(source, count + size, size, step)
        upto[step] = (many - instructions(source, size, size, step)) / count
    # Two lines as two chunks of one, against one chunk of two: one chunk more.
    chunk = instructions(source, 2, 1, "output") - instructions(source, 2, 2, "output")
    encoding, output = upto["encoding"] - upto["input"], upto["output"] - upto["encoding"]
    rows = [
        ("input (lines read into positions)", f"{upto['input'] / 1000:,.1f}k"),
        ("encoding (pack, ground, solve)", f"{encoding / 1000:,.1f}k"),
        ("output (rows read, lines written)", f"{output / 1000:,.1f}k"),
        ("a position, end to end", f"{upto['output'] / 1000:,.1f}k"),
        ("a chunk more, however few its lines", f"{chunk / 1e6:,.1f}M"),
    ]
    print_rows(
        f"instructions of the compiled batch path (cachegrind), usa positions "
        f"(4 players, 36 won), chunks of {size:,}, {count:,} positions",
        [("step", "instructions"), *rows],
    )


if __name__ == "__main__":
    main()
