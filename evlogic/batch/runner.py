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
"""

from __future__ import annotations

import gc
import json
import os
import re
import signal
import sys
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Protocol, TextIO

import clingo

from evlogic.asp.compiled import tables as compiled_tables
from evlogic.asp.compiled.chunk import ground_chunk, pack
from evlogic.asp.compiled.chunk import solve as solve_chunk
from evlogic.asp.compiled.positions import Position, position_of, read_position
from evlogic.asp.compiled.rows import read_rows
from evlogic.asp.compiled.tables import Compiled
from evlogic.asp.facts import Positions, board_program
from evlogic.asp.solver import POSITION_INPUT, rule_paths, solve
from evlogic.batch.lines import report_lines
from evlogic.batch.workers import Lost, Workers, WorkersFailed
from evlogic.errors import InputError, quote
from evlogic.limits import DEFAULT_MEMORY_MB, limit_memory
from evlogic.loading.boards import Board, load_board, resolve_board
from evlogic.loading.games import (
    Game,
    check_game_end,
    game_from_fields,
    past_game_end,
    quick_game,
)
from evlogic.loading.jsonkeys import DuplicateKey, loads
from evlogic.loading.jsonlines import Line, numbered, utf8_line
from evlogic.loading.rulesets import RuleSet, load_rule_set, rule_set_from_field
from evlogic.loading.yamlfile import Field, is_unicode
from evlogic.reports.report import Atoms, atoms_by_position, decode
from evlogic.resources import maps_dir, rules_dir

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

#: Keys of a line: a game file's (GAME_KEYS), but the board may come from --board.
LINE_KEYS = (["players"], ["board", "rules", "expect"])

#: This process's memory limit in MB, when it is a worker that has one.
_memory_limit_mb: int | None = None


@dataclass(frozen=True)
class BatchOptions:
    """What every chunk needs to know; picklable, to travel to workers."""

    source: str  # the input's name, for error messages
    board: str | None  # --board: a bundled name or a path (relative to base)
    base: str  # the input's folder: board and rule set paths of lines stay inside it
    rules: str | None = None  # --rules: overrides the lines' rules (default standard)


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


# --- one line: its board, its rule set, its game ----------------------------


def _looks_like_path(reference: str) -> bool:
    """How boards and rule sets tell a path from a bundled name."""
    return "/" in reference or "\\" in reference or reference.endswith((".yaml", ".yml"))


def _inside(reference: str, base: str) -> bool:
    """Whether a path a line names is in the input's folder (symbolic links
    followed) or among the bundled boards and rule sets."""
    path = Path(reference).expanduser()
    if not path.is_absolute():
        path = Path(base) / path
    real = Path(os.path.realpath(path))
    allowed = (Path(base), maps_dir(), rules_dir())
    return any(real.is_relative_to(os.path.realpath(folder)) for folder in allowed)


def _confine(reference: object, where: str, options: BatchOptions, number: int) -> None:
    """A line may name a bundled board or rule set, or a file in the
    input's folder; anything else is that line's error, before it is read."""
    if isinstance(reference, str) and not _inside(reference, options.base):
        raise InputError(
            options.source,
            f"{reference!r} is outside the input's folder: a line may name a bundled "
            "board or rule set, or a file in the folder of the input",
            field=where,
            line=number,
        )


def _confine_rules(value: object, options: BatchOptions, number: int) -> None:
    """A line's ``rules:``: a path, or an inline mapping whose ``extends``
    and ``programs`` are paths."""
    if isinstance(value, str) and _looks_like_path(value):
        _confine(value, "rules", options, number)
    elif isinstance(value, dict):
        extends = value.get("extends")
        if isinstance(extends, str) and _looks_like_path(extends):
            _confine(extends, "rules.extends", options, number)
        programs = value.get("programs")
        for index, program in enumerate(programs if isinstance(programs, list) else []):
            _confine(program, f"rules.programs[{index}]", options, number)


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
    if not isinstance(value, dict) or "rules" not in value:
        return _named_rule_set("standard", options.base)
    reference = value["rules"]  # null or "" is an error, worded below, as score words it
    if isinstance(reference, str) and reference:
        try:
            return _named_rule_set(reference, options.base)  # read once per process
        except InputError:
            pass  # read again below, to word the error for this line
    return rule_set_from_field(top.fields(*LINE_KEYS)["rules"], Path(options.base))


def _unreadable(what: str, reference: object, error: Exception) -> str:
    """A board or rule set file that fails in a way its reader did not
    foresee: worded without quoting the file (the readers turn what they
    foresee, a date like 2001-02-30 or a tag like ``!!int abc``, into
    errors of their own); running out of memory says so, and names the
    limit."""
    if isinstance(error, MemoryError):
        return f"ran out of memory reading the {what} file {reference!r}{_limit_note()}"
    kind = type(error).__name__
    return f"cannot read the {what} file {reference!r} ({kind})"


def _limit_note() -> str:
    """What a line's out-of-memory error adds when this worker has a limit."""
    if _memory_limit_mb is None:
        return ""
    return f" (the limit is {_memory_limit_mb} MiB per worker, --memory-limit)"


def _parse(number: int, text: str, options: BatchOptions) -> object:
    try:
        return loads(utf8_line(text, options.source, number))
    except DuplicateKey as duplicate:
        message = f"duplicate key {quote(duplicate.key)} (JSON would keep the last one)"
        raise InputError(options.source, message, field=duplicate.field, line=number) from None
    except json.JSONDecodeError as error:
        message = f"invalid JSON: {error.msg} (column {error.colno})"
    except RecursionError:
        message = "invalid JSON: nested too deeply"
    except ValueError:  # an integer too long to convert
        message = f"invalid JSON: a number with more than {sys.get_int_max_str_digits()} digits"
    raise InputError(options.source, message, line=number)


#: A chunk's resolved references: a board reference -> its board, and a
#: line's references (:func:`_references`) -> its board and rule set.
_Resolved = dict[object, Board | tuple[Board, RuleSet]]


def _resolve(
    number: int, text: str, options: BatchOptions, boards: _Resolved
) -> tuple[int, object, Board, RuleSet]:
    """One line read: its number, its value, its board and rule set.
    ``boards`` caches the chunk's board references (resolving a path and
    checking its file costs more than scoring), and the board and rule set
    a line's ``board`` and ``rules`` gave (names or paths, the same
    whatever the line)."""
    value = _parse(number, text, options)
    key = _references(value)
    if key is not None and key in boards:
        cached = boards[key]
        assert isinstance(cached, tuple)  # a line's references: its board and rule set
        board, rules = cached
        return number, value, board, rules
    board, rules = _resolve_anew(number, value, options, boards)
    if key is not None:
        boards[key] = (board, rules)
    return number, value, board, rules


def _references(value: object) -> tuple[str, object, object] | None:
    """A line's board and rule set references, when both are names or paths
    (or absent): what resolves them alike for every line."""
    if not isinstance(value, dict):
        return None
    board, rules = value.get("board", _ABSENT), value.get("rules", _ABSENT)
    if isinstance(board, str | tuple) and isinstance(rules, str | tuple):
        return ("line", board, rules)
    return None


#: A key a line does not give, in :func:`_references` (no JSON value is a
#: tuple: a key given as null is not a key left out).
_ABSENT = ()


def _resolve_anew(
    number: int, value: object, options: BatchOptions, boards: _Resolved
) -> tuple[Board, RuleSet]:
    top = Field(options.source, "", value, number, None)
    reference = value.get("board") if isinstance(value, dict) else None
    if not isinstance(value, dict) or "board" not in value:
        if options.board is None:
            top.fields(*LINE_KEYS, what="a game mapping")  # shape first
            raise top.error("missing key 'board' (or give --board)")
        reference = options.board  # the user's own --board: any path
    elif not isinstance(reference, str) or not reference.strip():
        top.fields(*LINE_KEYS, what="a game mapping")["board"].text("a board")
    elif _looks_like_path(reference):
        _confine(reference, "board", options, number)
    assert isinstance(reference, str)  # .text() raised for anything else
    try:
        if reference not in boards:
            boards[reference] = _board(reference, options.base, options.source)
        board = boards[reference]
        assert isinstance(board, Board)
    except InputError as error:
        # A wrong reference is worded as is; a broken board file names itself.
        message = error.message if error.source == options.source else str(error)
        raise InputError(options.source, message, field="board", line=number) from None
    except Exception as error:
        message = _unreadable("board", reference, error)
        raise InputError(options.source, message, field="board", line=number) from None
    if options.rules is None and isinstance(value, dict):
        _confine_rules(value.get("rules"), options, number)
    try:
        rules = _rule_set(top, value, options)
    except InputError:
        raise
    except Exception as error:
        named = value.get("rules") if isinstance(value, dict) else None
        message = _unreadable("rule set", options.rules or named, error)
        raise InputError(options.source, message, field="rules", line=number) from None
    return board, rules


def _checked_game(
    number: int, value: object, board: Board, rules: RuleSet, options: BatchOptions
) -> Game:
    """Clean lines take the quick path; anything unusual, the careful one,
    which says exactly what is wrong."""
    game = quick_game(value, board, options.source, rules)
    if game is None:
        top = Field(options.source, "", value, number, None)
        fields = top.fields(*LINE_KEYS, what="a game mapping")
        game = game_from_fields(fields, board, options.source, rules)
    return game


def _position(
    number: int,
    value: object,
    board: Board,
    rules: RuleSet,
    table: Compiled,
    options: BatchOptions,
) -> Position:
    """A line for the compiled encoding: read straight into masks through
    the board's tables, or (anything unusual) by the careful path."""
    check_game_end(board, rules)
    position = read_position(value, table)
    if position is None:
        game = _checked_game(number, value, board, rules, options)
        position = position_of(game, table)
    return position


# --- one chunk ---------------------------------------------------------------


def score_chunk(chunk: list[Line], options: BatchOptions) -> tuple[str, int, int]:
    """Score one chunk; returns its output lines (joined, each ending in a
    newline), how many lines failed and how many there were.  Runs in
    workers: everything it needs comes in its arguments.  Never raises:
    whatever goes wrong is the error of the line it went wrong on."""
    with cycle_collector_paused():
        return _score_chunk(chunk, options)


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while a chunk is scored.  A chunk
    makes some 100,000 short-lived objects (parsed lines, rows of shown
    atoms, report fragments), none in a cycle, and every 700 of them the
    collector walks the young ones, every few thousand all of them (the
    board's tables too), about 5% of the compiled path.  Reference
    counting still frees everything; whatever cycle a chunk leaves (an
    exception's traceback) is collected once the collector runs again."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _score_chunk(chunk: list[Line], options: BatchOptions) -> tuple[str, int, int]:
    results: dict[int, str] = {}  # line number -> its output line
    by_board: dict[tuple[Board, RuleSet], list[tuple[int, Game]]] = defaultdict(list)
    by_table: dict[tuple[Board, RuleSet], list[tuple[int, Position]]] = defaultdict(list)
    tables: dict[tuple[Board, RuleSet], Compiled | None] = {}
    boards: _Resolved = {}
    for number, text in chunk:
        try:
            _, value, board, rules = _resolve(number, text, options, boards)
            key = (board, rules)
            if key not in tables:
                tables[key] = (
                    compiled_tables.compiled(board, rules)
                    if compiled_tables.applies(board, rules)
                    else None
                )
            table = tables[key]
            if table is not None:  # parameters only: rules/batch/
                position = _position(number, value, board, rules, table, options)
                by_table[key].append((number, position))
            else:
                by_board[key].append((number, _checked_game(number, value, board, rules, options)))
        except InputError as error:
            results[number] = _json_line({"line": number, "error": str(error)})
        except Exception as error:
            results[number] = _json_line(_unexpected(number, error, options))
    for (board, rules), positions in by_table.items():
        results.update(_score_positions(board, rules, positions, options))
    for (board, rules), games in by_board.items():
        reports = _score_games(board, rules, games, options)
        results.update((number, _json_line(report)) for number, report in reports.items())
    failed = sum(_ERROR_LINE.match(line) is not None for line in results.values())
    text = "".join(results[number] for number, _ in chunk)
    return text, failed, len(chunk)


def _score_games(
    board: Board, rules: RuleSet, games: list[tuple[int, Game]], options: BatchOptions
) -> dict[int, dict]:
    """Positions on one board under one rule set, in one grounding.  When
    that fails unexpectedly (out of memory, say), each half is scored on
    its own, down to the line at fault."""
    try:
        # Positions are numbered within the chunk, not by line: clingo keeps
        # every symbol it ever made, so reusing indices keeps memory flat.
        facts = rules.program() + board_program(board)
        positions = Positions(board, [game for _, game in games])
        paths = [*rule_paths(), *rule_paths(POSITION_INPUT), *rules.programs]
        atoms = atoms_by_position(solve(facts, paths, positions))
        return {
            number: _decoded(atoms[index], game, number)
            for index, (number, game) in enumerate(games)
        }
    except InputError as error:  # the rule set's own .lp files are broken
        return {number: {"line": number, "error": str(error)} for number, _ in games}
    except Exception as error:
        if len(games) == 1:
            return {games[0][0]: _unexpected(games[0][0], error, options)}
    half = len(games) // 2
    return {
        **_score_games(board, rules, games[:half], options),
        **_score_games(board, rules, games[half:], options),
    }


def _decoded(atoms: Atoms, game: Game, number: int) -> dict:
    """The report of line ``number``, or its error when the rules refuse the
    position (past its game end, a figure past 2^31): that line's alone."""
    try:
        return {"line": number, **decode(atoms, game, number).to_dict()}
    except InputError as error:
        return {"line": number, "error": str(error)}


def _score_positions(
    board: Board,
    rules: RuleSet,
    positions: list[tuple[int, Position]],
    options: BatchOptions,
) -> dict[int, str]:
    """Positions on one board under one rule set, by the compiled encoding
    (rules/batch/), in one grounding, as output lines; split in halves when
    that fails unexpectedly, down to the line at fault."""
    try:
        table = compiled_tables.compiled(board, rules)
        scored = [position for _, position in positions]
        control = ground_chunk(table, pack(table, scored), scored)
        rows = read_rows(solve_chunk(control))
        numbers = [number for number, _ in positions]
        lines = report_lines(
            table,
            board.name,
            rules.name,
            scored,
            numbers,
            rows,
            refused=partial(_past_game_end_line, board, rules, options.source),
        )
        return dict(zip(numbers, lines, strict=True))
    except Exception as error:
        if len(positions) == 1:
            return {positions[0][0]: _json_line(_unexpected(positions[0][0], error, options))}
    half = len(positions) // 2
    return {
        **_score_positions(board, rules, positions[:half], options),
        **_score_positions(board, rules, positions[half:], options),
    }


def _past_game_end_line(
    board: Board, rules: RuleSet, source: str, number: int, states_won: int, game_end: int
) -> str:
    """The error line of line ``number``, past its game end, worded as the
    readable path and score word it."""
    error = past_game_end(source, board, rules, states_won, game_end, number)
    return _json_line({"line": number, "error": str(error)})


def _unexpected(number: int, error: BaseException, options: BatchOptions) -> dict:
    """A line's error for what no check foresaw: one line, no traceback."""
    if isinstance(error, MemoryError):
        message = f"ran out of memory scoring this line{_limit_note()}"
    else:
        message = f"cannot score this line: unexpected {type(error).__name__}"
    return {"line": number, "error": str(InputError(options.source, message, line=number))}


def _lost(number: int, lost: Lost, options: BatchOptions) -> tuple[str, int, int]:
    """A line whose worker died or ran out of time, as a chunk result."""
    message = f"scoring this line {lost.reason}" + (" (--timeout)" if lost.timed_out else "")
    error = {"line": number, "error": str(InputError(options.source, message, line=number))}
    return _json_line(error), 1, 1


#: How an error line starts (every report line starts '{"line": n, "board"').
_ERROR_LINE = re.compile(r'\{"line": \d+, "error"')


def _json_line(result: dict) -> str:
    """One output line; UTF-8 as is, but a lone surrogate (a JSON escape in the
    input, quoted back in an error) stays escaped, so the line can be written."""
    line = json.dumps(result, ensure_ascii=False)
    return (line if is_unicode(line) else json.dumps(result)) + "\n"


# --- running chunks: in-process, on worker processes, on a Dask cluster ------


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
    of failed lines.  Output goes out a whole chunk at a time, with SIGINT
    and SIGTERM held back while it is written, so an interrupted run leaves
    only whole lines behind.

    ``jobs`` worker processes score the chunks (the CLI always uses them),
    each within ``limits``; ``None`` scores in this process, with no limits.
    clingo keeps every symbol it ever creates, so a process that scores
    without end grows: workers are replaced after ``LINES_PER_WORKER``
    lines, which keeps memory flat.
    """
    pieces = chunks(lines, chunk_size)
    limits = limits or Limits()
    failed = 0
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
            for text, chunk_failed, count in results:
                _write_whole(out, text)
                failed += chunk_failed
                if progress is not None:
                    progress(count)
        except WorkersFailed as error:
            raise InputError("--jobs", f"{error}; is --memory-limit too low?") from None
    return failed


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
    global _memory_limit_mb
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
    _memory_limit_mb = memory_mb


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


# --- ending on a signal --------------------------------------------------------


class Terminated(BaseException):
    """SIGTERM arrived: the batch stops as it does on Ctrl-C (a BaseException,
    like KeyboardInterrupt, so that no ``except Exception`` swallows it)."""


@contextmanager
def terminate_raises() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` in the main thread,
    so that workers are ended and the output closed on whole lines."""

    def raise_terminated(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
