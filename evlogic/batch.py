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
"""

from __future__ import annotations

import json
import multiprocessing
import signal
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TextIO

from evlogic import compiled
from evlogic.boards import Board, load_board, resolve_board
from evlogic.errors import InputError
from evlogic.facts import Positions, board_program
from evlogic.games import Game, game_from_fields, quick_game
from evlogic.jsonlines import Line, numbered, utf8_line
from evlogic.report import atoms_by_position, decode
from evlogic.rulesets import RuleSet, load_rule_set, rule_set_from_field
from evlogic.solver import POSITION_INPUT, rule_paths, solve
from evlogic.yamlfile import Field, is_unicode

#: Lines per chunk: big enough that grounding overhead vanishes, small
#: enough that memory stays flat (a 51-state chunk grounds in ~0.2 s).
CHUNK_SIZE = 1000

#: Chunks a worker process scores before a fresh one replaces it.
CHUNKS_PER_WORKER = 8

#: Keys of a line: a game file's (GAME_KEYS), but the board may come from --board.
LINE_KEYS = (["players"], ["board", "rules", "expect"])


@dataclass(frozen=True)
class BatchOptions:
    """What every chunk needs to know; picklable, to travel to workers."""

    source: str  # the input's name, for error messages
    board: str | None  # --board: a bundled name or a path (relative to base)
    base: str  # directory that board paths are relative to
    rules: str | None = None  # --rules: overrides the lines' rules (default standard)


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


def _board(reference: str, base: str, source: str) -> Board:
    field = Field(source, "board", reference, None, None)
    path = resolve_board(field, Path(base))
    stat = path.stat()
    return _load_board(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _load_board(path: str, mtime_ns: int, size: int) -> Board:
    """Boards are loaded once per process (a changed file is loaded anew)."""
    return load_board(Path(path), path)


@lru_cache(maxsize=32)
def _named_rule_set(reference: str, base: str) -> RuleSet:
    return load_rule_set(reference, Path(base))


def _rule_set(top: Field, value: object, options: BatchOptions) -> RuleSet:
    if options.rules is not None:
        return _named_rule_set(options.rules, options.base)
    reference = value.get("rules") if isinstance(value, dict) else None
    if reference is None:
        return _named_rule_set("standard", options.base)
    if isinstance(reference, str):
        try:
            return _named_rule_set(reference, options.base)  # read once per process
        except InputError:
            pass  # read again below, to word the error for this line
    return rule_set_from_field(top.fields(*LINE_KEYS)["rules"], Path(options.base))


def _game(number: int, text: str, options: BatchOptions, boards: dict[str, Board]) -> Game:
    """The game on one line; ``boards`` caches the chunk's board references
    (resolving a path and checking its file costs more than scoring)."""
    try:
        value = json.loads(utf8_line(text, options.source, number))
    except json.JSONDecodeError as error:
        raise InputError(
            options.source, f"invalid JSON: {error.msg} (column {error.colno})", line=number
        ) from None
    top = Field(options.source, "", value, number, None)
    reference = value.get("board") if isinstance(value, dict) else None
    if reference is None:
        if options.board is None:
            top.fields(*LINE_KEYS, what="a game mapping")  # shape first
            raise top.error("missing key 'board' (or give --board)")
        reference = options.board
    elif not isinstance(reference, str) or not reference.strip():
        top.fields(*LINE_KEYS, what="a game mapping")["board"].text("a board")
    try:
        if reference not in boards:
            boards[reference] = _board(reference, options.base, options.source)
        board = boards[reference]
    except InputError as error:
        # A wrong reference is worded as is; a broken board file names itself.
        message = error.message if error.source == options.source else str(error)
        raise InputError(options.source, message, field="board", line=number) from None
    # Clean lines take the quick path; anything unusual, the careful one,
    # which says exactly what is wrong.
    rules = _rule_set(top, value, options)
    game = quick_game(value, board, options.source, rules)
    if game is None:
        fields = top.fields(*LINE_KEYS, what="a game mapping")
        game = game_from_fields(fields, board, options.source, rules)
    return game


def score_chunk(chunk: list[Line], options: BatchOptions) -> tuple[str, int, int]:
    """Score one chunk; returns its output lines (joined, each ending in a
    newline), how many lines failed and how many there were.  Runs in
    workers: everything it needs comes in its arguments."""
    results: dict[int, dict] = {}
    by_board: dict[tuple[Board, RuleSet], list[tuple[int, Game]]] = defaultdict(list)
    boards: dict[str, Board] = {}
    for number, text in chunk:
        try:
            game = _game(number, text, options, boards)
        except InputError as error:
            results[number] = {"line": number, "error": str(error)}
        else:
            by_board[game.board, game.rules].append((number, game))
    for (board, rules), games in by_board.items():
        if compiled.applies(board, rules):  # parameters only: rules/batch/
            reports = compiled.score_games(board, rules, [game for _, game in games])
            for (number, _), report in zip(games, reports, strict=True):
                results[number] = {"line": number, **report}
            continue
        # Positions are numbered within the chunk, not by line: clingo keeps
        # every symbol it ever made, so reusing indices keeps memory flat.
        facts = rules.program() + board_program(board)
        positions = Positions(board, [game for _, game in games])
        paths = [*rule_paths(), *rule_paths(POSITION_INPUT), *rules.programs]
        try:
            atoms = atoms_by_position(solve(facts, paths, positions))
        except InputError as error:  # the rule set's own .lp files are broken
            for number, _ in games:
                results[number] = {"line": number, "error": str(error)}
            continue
        for index, (number, game) in enumerate(games):
            report = decode(atoms[index], game)
            results[number] = {"line": number, **report.to_dict()}
    failed = sum("error" in result for result in results.values())
    text = "".join(_json_line(results[number]) for number, _ in chunk)
    return text, failed, len(chunk)


def _json_line(result: dict) -> str:
    """One output line; UTF-8 as is, but a lone surrogate (a JSON escape in the
    input, quoted back in an error) stays escaped, so the line can be written."""
    line = json.dumps(result, ensure_ascii=False)
    return (line if is_unicode(line) else json.dumps(result)) + "\n"


# --- running chunks: in-process, on a process pool, on a Dask cluster ------


def run_batch(
    lines: Iterable[str],
    out: TextIO,
    options: BatchOptions,
    jobs: int | None = None,
    dask_address: str | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_size: int = CHUNK_SIZE,
) -> int:
    """Score every line, writing reports in input order; returns the number
    of failed lines.  Output goes out a whole chunk at a time, so an
    interrupted run leaves only whole lines behind.

    ``jobs`` worker processes score the chunks (the CLI always uses them);
    ``None`` scores in this process.  clingo keeps every symbol it ever
    creates, so a process that scores without end grows: workers are
    replaced after ``CHUNKS_PER_WORKER`` chunks, which keeps memory flat.
    """
    pieces = chunks(lines, chunk_size)
    failed = 0
    with ExitStack() as stack:
        if dask_address is not None:
            client = stack.enter_context(_dask_client(dask_address))
            results = _ordered(
                lambda c: client.submit(score_chunk, c, options, pure=False),
                pieces,
                window=4 * max(1, _dask_workers(client)),
            )
        elif jobs is not None:
            pool = stack.enter_context(_process_pool(jobs))
            results = _ordered(
                lambda c: pool.submit(score_chunk, c, options), pieces, window=2 * jobs
            )
        else:
            results = (score_chunk(chunk, options) for chunk in pieces)
        for text, chunk_failed, count in results:
            out.write(text)
            out.flush()
            failed += chunk_failed
            if progress is not None:
                progress(count)
    return failed


def _ordered(
    submit: Callable[[list[Line]], Any], pieces: Iterable[list[Line]], window: int
) -> Iterator[tuple[str, int, int]]:
    """Results in submission order, with at most ``window`` chunks in flight."""
    pending: deque[Any] = deque()
    for piece in pieces:
        pending.append(submit(piece))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop


@contextmanager
def _process_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    pool = ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),  # required to recycle workers
        initializer=_ignore_interrupts,
        max_tasks_per_child=CHUNKS_PER_WORKER,
    )
    try:
        yield pool
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    else:
        pool.shutdown()


@contextmanager
def _dask_client(address: str) -> Iterator[Any]:
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--dask", "needs the dask extra: pip install 'evlogic[dask]'") from None
    try:
        client = Client(address, timeout="10s")
    except OSError as error:
        raise InputError("--dask", f"cannot reach the scheduler at {address}: {error}") from None
    try:
        yield client
    finally:
        client.close()


def _dask_workers(client: Any) -> int:
    return len(client.scheduler_info().get("workers", {}))
