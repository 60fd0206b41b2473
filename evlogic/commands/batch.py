"""evlogic batch: score many games (JSON Lines), fast, in input order."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from evlogic.batching.runner import CHUNK_SIZE, MEMORY_LIMIT_MB
from evlogic.batching.runner import TIMEOUT as BATCH_TIMEOUT
from evlogic.commands import add_command
from evlogic.commands.options import MAX_CHUNK_SIZE, MAX_JOBS, add_rules_option, whole
from evlogic.commands.output_file import open_output
from evlogic.errors import InputError
from evlogic.limits import megabytes, seconds

HELP = """\
Score many games, one per line of JSON Lines input, each in the game-file
schema as JSON ({"board": "usa", "players": [...]}; the board may be left
out when --board is given). Each output line is that game's report, the
same as score --format json, plus "line": n, in input order. A bad line
gives {"line": n, "error": "..."} in its place and the batch goes on.

Many positions are grounded together (the board once per chunk), and chunks
run on --jobs processes or a Dask cluster. Input is streamed: memory stays
flat however long it is. A progress bar shows on stderr when it is a
terminal.

Nothing is lost: a line that cannot be read or scored (bad JSON, a broken
board, a grounding that runs out of memory or time, a worker killed) is that
line's error and every other line is scored. Each worker process may use
--memory-limit MB of memory (default 4096) and --timeout S seconds per chunk
(default 60); a chunk whose worker died or ran out of time is retried in
smaller pieces, down to the line at fault. A board or rule set path in a
line must stay inside the input's folder.

Exit status: 0 when every line scored, 1 when any line failed, 2 when the
command itself is wrong (missing input, unknown --board, -o naming the
input), 130 on Ctrl-C and 143 on SIGTERM (whole lines kept, workers ended)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    batch = add_command(commands, "batch", HELP, run)
    batch.add_argument("input", metavar="INPUT.jsonl", help="one game per line; - for stdin")
    batch.add_argument(
        "-o",
        "--output",
        metavar="OUT.jsonl",
        default="-",
        help="where reports go, one per line (default: - for stdout)",
    )
    batch.add_argument(
        "--board", metavar="B", help="board for lines without one: a bundled name or a path"
    )
    add_rules_option(batch)
    batch.add_argument(
        "--jobs",
        type=whole(1, MAX_JOBS),
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes (default: all cores)",
    )
    batch.add_argument(
        "--dask", metavar="ADDRESS", help="run the chunks on a Dask cluster (needs evlogic[dask])"
    )
    batch.add_argument(
        "--memory-limit",
        type=megabytes,
        default=MEMORY_LIMIT_MB,
        metavar="MB",
        help=f"address space of each process, in MiB (default {MEMORY_LIMIT_MB}); a line "
        "whose scoring needs more is that line's error",
    )
    batch.add_argument(
        "--timeout",
        type=seconds,
        default=BATCH_TIMEOUT,
        metavar="S",
        help=f"seconds a chunk may take in a worker before it is retried line by line, "
        f"and a line before it is that line's error (default {BATCH_TIMEOUT:g})",
    )
    batch.add_argument(
        "--chunk-size",
        type=whole(1, MAX_CHUNK_SIZE),
        default=CHUNK_SIZE,
        metavar="N",
        help=f"lines per grounding (default {CHUNK_SIZE})",
    )


def run(args: argparse.Namespace) -> int:
    from evlogic.api.scoring import batch_chunks
    from evlogic.batching.runner import write_batch
    from evlogic.signals import Terminated

    _refuse_overwriting_input(args.input, args.output)
    with ExitStack() as stack:  # (SIGTERM: evlogic.signals, as Ctrl-C)
        chunks = stack.enter_context(
            batch_chunks(
                args.input,
                board=args.board,
                rules=args.rules,
                jobs=args.jobs,
                dask=args.dask,
                memory_limit=args.memory_limit,
                timeout=args.timeout,
                chunk_size=args.chunk_size,
            )
        )
        # interrupted, the whole lines written so far are kept
        interrupted = (Terminated, KeyboardInterrupt)
        out = (
            sys.stdout
            if args.output == "-"
            else stack.enter_context(open_output(args.output, keep_on=interrupted))
        )
        bar = stack.enter_context(_progress_bar(args.input))
        failed = write_batch(chunks, out, bar.update if bar is not None else None)
    return 1 if failed else 0


def _refuse_overwriting_input(input_name: str, output_name: str) -> None:
    """``-o`` naming the input (or a link to it, or standard output sent to
    it) would empty or grow the file being read: refused before anything
    is opened for writing."""
    try:
        read = os.fstat(0) if input_name == "-" else os.stat(input_name)
        written = os.fstat(1) if output_name == "-" else os.stat(output_name)
    except (OSError, ValueError):  # no such file yet, or a closed stream
        return
    if stat.S_ISREG(read.st_mode) and (read.st_dev, read.st_ino) == (
        written.st_dev,
        written.st_ino,
    ):
        where = "standard output" if output_name == "-" else output_name
        raise InputError(
            where, "is the input file (or a link to it): batch would overwrite what it reads"
        )


@contextmanager
def _progress_bar(input_name: str) -> Iterator[Any]:
    """tqdm on stderr when it is a terminal (total known for files), else nothing."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    total = None
    if input_name != "-":
        with open(input_name, "rb") as counting:
            total = sum(block.count(b"\n") for block in iter(lambda: counting.read(1 << 20), b""))
    tqdm.monitor_interval = 0  # no monitor thread: batch forks its workers single-threaded
    with tqdm(total=total, unit=" games", file=sys.stderr, smoothing=0.1) as bar:
        yield bar
