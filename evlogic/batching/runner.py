"""Batch scoring: many positions per grounding, in chunks, on one or more cores.

Input is JSON Lines, one game per line in the game-file schema; output is one
JSON report per game (the ``score --format json`` contract plus ``"line"``),
in input order.  A bad line becomes ``{"line": n, "error": "..."}`` and the
batch goes on.

A chunk of lines is scored by one grounding of the same ``rules/`` files
that score a single position: every position gets its own index ``G`` and
the board's facts are given once.  Chunks are independent, so they can be
spread over processes (``jobs``) or a Dask cluster; only a bounded number
are in flight at once, so memory stays flat however long the input.

Nothing is lost: whatever goes wrong with one line (it cannot be read, its
board cannot be built, its grounding runs out of memory or time, its worker
process is killed) becomes that line's error, and every other line is
scored.  A chunk that fails is split to find the line at fault: in the
worker when scoring raised, line by line in fresh workers when the worker
died or ran past the time limit.

This module runs the chunks (in this process, on worker processes, on a
Dask cluster) and writes their results in order; evlogic.batching.chunk scores
one chunk, evlogic.batching.reading reads one line; evlogic.signals ends a
batch on SIGTERM as on Ctrl-C.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Generator, Hashable, Iterable, Iterator
from contextlib import ExitStack, closing, contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

import clingo

from evlogic.batching.chunk import json_line, score_chunk
from evlogic.batching.reading import BatchOptions, note_memory_limit
from evlogic.batching.workers import Lost, Workers, WorkersFailed
from evlogic.errors import InputError
from evlogic.limits import DEFAULT_MEMORY_MB, limit_memory
from evlogic.loading.jsonlines import Line, numbered

#: Lines per chunk: big enough that a grounding's fixed costs (a clingo
#: Control, the board's tables, a ground call a closure step) fade, small
#: enough that memory stays flat and --jobs has chunks to share
#: (bench/count_batch.py --chunk-size counts a position's instructions).
CHUNK_SIZE = 2000

#: A piece of a chunk whose worker died is retried in this many smaller
#: pieces (down to single lines): a few more crashes, far fewer groundings
#: than line by line.  A piece that ran out of time is retried line by line.
SPLIT = 10

#: Lines a worker process scores (in whole chunks, at least one) before a
#: fresh one replaces it.  clingo keeps every symbol it makes, about 4.5 MB
#: a thousand usa positions (either encoding), so a worker peaks near
#: 60 + 24 x 4.5 MB; a fresh one costs ~0.1 s of CPU (forked: the board
#: loaded and compiled again), ~4 us a position.
LINES_PER_WORKER = 24_000


def chunks_per_worker(chunk_size: int) -> int:
    """Chunks of ``chunk_size`` lines a worker scores before it is replaced."""
    return max(1, LINES_PER_WORKER // chunk_size)


#: Address space of one worker process, in MiB (--memory-limit): the
#: limit of every command that solves.
MEMORY_LIMIT_MB = DEFAULT_MEMORY_MB

#: Seconds one chunk may take in a worker before it is killed (--timeout).
TIMEOUT = 60.0


@dataclass(frozen=True)
class Limits:
    """What one worker may use (``None``: no limit)."""

    memory_mb: int | None = MEMORY_LIMIT_MB
    timeout: float | None = TIMEOUT


def chunks(lines: Iterable[str], size: int) -> Iterator[list[Line]]:
    """Number lines from 1 and group them, skipping blank ones; lazy."""
    chunk: list[Line] = []
    for line in numbered(lines):
        chunk.append(line)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def run_batch(
    lines: Iterable[str],
    out: TextIO,
    options: BatchOptions,
    jobs: int | None = None,
    dask_address: str | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_size: int = CHUNK_SIZE,
    limits: Limits | None = None,
) -> int:
    """Score every line, writing reports in input order; returns the number
    of failed lines (:func:`batch_results` written by :func:`write_batch`)."""
    # closed at once when writing fails: the workers end before the error goes on
    with closing(batch_results(lines, options, jobs, dask_address, chunk_size, limits)) as results:
        return write_batch(results, out, progress)


def write_batch(
    results: Iterable[tuple[str, int, int]],
    out: TextIO,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Write each chunk's text of ``results`` whole (:func:`_write_whole`),
    counting ``progress``; returns the number of failed lines.  Output goes
    out a whole chunk at a time, with SIGINT and SIGTERM held back while it
    is written, so an interrupted run leaves only whole lines behind."""
    failed = 0
    for text, chunk_failed, count in results:
        _write_whole(out, text)
        failed += chunk_failed
        if progress is not None:
            progress(count)
    return failed


def batch_results(
    lines: Iterable[str],
    options: BatchOptions,
    jobs: int | None = None,
    dask_address: str | None = None,
    chunk_size: int = CHUNK_SIZE,
    limits: Limits | None = None,
) -> Generator[tuple[str, int, int], None, None]:
    """Score every line: each chunk's output text (its JSON lines), its
    number of failed lines and of lines, in input order (lazily: a chunk is
    scored as the ones before it are taken).

    ``jobs`` worker processes score the chunks (the CLI always uses them),
    each within ``limits``; ``None`` scores in this process, with no limits.
    clingo keeps every symbol it ever creates, so a process that scores
    without end grows: workers are replaced after ``LINES_PER_WORKER``
    lines, which keeps memory flat.
    """
    pieces = chunks(lines, chunk_size)
    limits = limits or Limits()
    with ExitStack() as stack:
        if dask_address is not None:
            client = stack.enter_context(_dask_client(dask_address))
            runner: _Runner = _DaskRunner(client)
            window = 4 * max(1, _dask_workers(client))
            results = _in_order(runner, pieces, options, window)
        elif jobs is not None:
            workers = stack.enter_context(
                Workers(
                    jobs,
                    _start_worker,
                    (limits.memory_mb,),
                    tasks_per_worker=chunks_per_worker(chunk_size),
                    timeout=limits.timeout,
                    death_note=(
                        ""
                        if limits.memory_mb is None
                        else f"; out of memory? the limit is {limits.memory_mb} MiB per worker, "
                        "--memory-limit"
                    ),
                )
            )
            results = _in_order(workers, pieces, options, window=2 * jobs)
        else:
            results = (score_chunk(chunk, options) for chunk in pieces)
        try:
            yield from results
        except WorkersFailed as error:
            raise InputError("--jobs", f"{error}; is --memory-limit too low?") from None


def _write_whole(out: TextIO, text: str) -> None:
    """Write and flush, with SIGINT and SIGTERM held back until it is done:
    a signal handler that raises in the middle of a write would leave half
    a line."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        out.write(text)
        out.flush()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _start_worker(memory_mb: int | None) -> None:
    """A worker's initializer: its address space is capped, so one runaway
    grounding gets a MemoryError instead of taking the machine; and what it
    might print on standard error (a C library that cannot allocate, dying)
    is dropped, since the parent reports every line's fate in the output."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    os.close(devnull)
    if memory_mb is None:
        return
    # The first C++ exception a thread throws allocates libstdc++'s
    # thread-local data; if that first one is clingo's std::bad_alloc, the
    # allocation fails and glibc kills the process.  One thrown now, while
    # memory is plentiful, makes a later bad_alloc a plain MemoryError.
    with suppress(RuntimeError):
        clingo.parse_term("(", logger=lambda code, message: None)
    limit_memory(memory_mb)
    note_memory_limit(memory_mb)


class _Runner(Protocol):
    def submit(self, key: Hashable, function: Callable[..., Any], *args: Any, first: bool) -> None:
        """Queue a task; ``first`` runs it before the others."""

    def next_result(self) -> tuple[Hashable, Any]:
        """The next task done: its key, its result or a Lost."""


@dataclass
class _Pending:
    """A chunk in flight: its pieces' results, by their first line number
    (one piece, until a lost piece is split)."""

    count: int  # lines in the chunk
    parts: dict[int, tuple[str, int, int]] = field(default_factory=dict)

    def done(self) -> bool:
        return sum(count for _, _, count in self.parts.values()) == self.count

    def joined(self) -> tuple[str, int, int]:
        ordered = [self.parts[first] for first in sorted(self.parts)]
        return (
            "".join(text for text, _, _ in ordered),
            sum(failed for _, failed, _ in ordered),
            self.count,
        )


def _in_order(
    runner: _Runner, pieces: Iterable[list[Line]], options: BatchOptions, window: int
) -> Iterator[tuple[str, int, int]]:
    """Chunk results in input order, at most ``window`` chunks in flight.

    A piece of a chunk whose worker died is scored again in ``SPLIT``
    smaller pieces, and one that ran out of time line by line, ahead of
    the chunks waiting; so only the line at fault is lost, as its error.
    """
    numbered_pieces = enumerate(pieces)
    flight: dict[int, _Pending] = {}
    lines_of: dict[tuple[int, int], list[Line]] = {}

    def submit(index: int, piece: list[Line], first: bool) -> None:
        key = (index, piece[0][0])
        lines_of[key] = piece
        runner.submit(key, score_chunk, piece, options, first=first)

    next_out = 0
    more = True
    while True:
        while more and len(flight) < window:
            item = next(numbered_pieces, None)
            if item is None:
                more = False
                break
            index, piece = item
            flight[index] = _Pending(len(piece))
            submit(index, piece, first=False)
        while next_out in flight and flight[next_out].done():
            yield flight.pop(next_out).joined()
            next_out += 1
        if not flight:
            if more:  # every chunk in flight was done: take in more
                continue
            return
        key, result = runner.next_result()
        assert isinstance(key, tuple)  # the (index, first line) submit gave
        index, first_line = key
        piece = lines_of.pop(key)
        if isinstance(result, Lost) and len(piece) > 1:
            size = 1 if result.timed_out else -(-len(piece) // SPLIT)
            parts = [piece[start : start + size] for start in range(0, len(piece), size)]
            for part in reversed(parts):
                submit(index, part, first=True)
            continue
        if isinstance(result, Lost):
            result = _lost(first_line, result, options)
        flight[index].parts[first_line] = result


class _DaskRunner:
    """The runner interface on a Dask cluster: a task whose worker died
    (Dask gives up after its retries) or that raised comes back Lost."""

    def __init__(self, client: Any) -> None:
        from distributed import as_completed

        self._client = client
        self._done = as_completed()
        self._keys: dict[Any, Hashable] = {}

    def submit(self, key: Hashable, function: Callable[..., Any], *args: Any, first: bool) -> None:
        future = self._client.submit(function, *args, pure=False, priority=1 if first else 0)
        self._keys[future] = key
        self._done.add(future)

    def next_result(self) -> tuple[Hashable, Any]:
        future = next(self._done)
        key = self._keys.pop(future)
        try:
            return key, future.result()
        except Exception as error:
            return key, Lost(f"failed on the Dask cluster ({type(error).__name__})")


@contextmanager
def _dask_client(address: str) -> Iterator[Any]:
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--dask", "needs the dask extra: pip install 'evlogic[dask]'") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as error:
        raise InputError(
            "--dask", f"cannot reach the scheduler at {address!r}: {_one_line(error)}"
        ) from None
    except Exception as error:  # distributed says "not a URL" in its own ways
        raise InputError(
            "--dask",
            f"{address!r} is not a scheduler address like tcp://HOST:8786 ({_one_line(error)})",
        ) from None
    try:
        yield client
    finally:
        client.close()


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__


def _dask_workers(client: Any) -> int:
    return len(client.scheduler_info().get("workers", {}))


def _lost(number: int, lost: Lost, options: BatchOptions) -> tuple[str, int, int]:
    """A line whose worker died or ran out of time, as a chunk result."""
    message = f"scoring this line {lost.reason}" + (" (--timeout)" if lost.timed_out else "")
    error = {"line": number, "error": str(InputError(options.source, message, line=number))}
    return json_line(error), 1, 1
