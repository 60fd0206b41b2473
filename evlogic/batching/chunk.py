"""One chunk of batch input scored: its lines read, grouped by board and
rule set, each group in one grounding.

A group whose rule set is of parameters only is scored by the compiled
encoding (evlogic.asp.compiled, written as lines by evlogic.batching.lines),
any other by the readable rules, as ``score`` scores one position.  Nothing
is lost: a grounding that fails is split in halves down to the line at
fault, and whatever goes wrong with a line is that line's error.
"""

from __future__ import annotations

import gc
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from evlogic.asp.compiled import tables as compiled_tables
from evlogic.asp.compiled.chunk import ground_chunk, pack
from evlogic.asp.compiled.chunk import solve as solve_chunk
from evlogic.asp.compiled.positions import Position
from evlogic.asp.compiled.rows import read_rows
from evlogic.asp.compiled.tables import Compiled
from evlogic.asp.facts import Positions, board_program
from evlogic.asp.solver import POSITION_INPUT, rule_paths, solve
from evlogic.batching.lines import report_lines
from evlogic.batching.reading import (
    BatchOptions,
    Resolved,
    limit_note,
    line_game,
    line_position,
    resolve_line,
)
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.games import Game, past_game_end
from evlogic.loading.jsonlines import Line
from evlogic.loading.rulesets import RuleSet
from evlogic.loading.yamlfile import is_unicode
from evlogic.reports.report import Atoms, atoms_by_position, decode

#: A report line as JSON: a game's report (score --format json plus "line")
#: or its error.
JsonObject = dict[str, Any]


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
    boards: Resolved = {}
    for number, text in chunk:
        try:
            _, value, board, rules = resolve_line(number, text, options, boards)
            key = (board, rules)
            if key not in tables:
                tables[key] = (
                    compiled_tables.compiled(board, rules)
                    if compiled_tables.applies(board, rules)
                    else None
                )
            table = tables[key]
            if table is not None:  # parameters only: rules/batch/
                position = line_position(number, value, board, rules, table, options)
                by_table[key].append((number, position))
            else:
                by_board[key].append((number, line_game(number, value, board, rules, options)))
        except InputError as error:
            results[number] = json_line({"line": number, "error": str(error)})
        except Exception as error:
            results[number] = json_line(_unexpected(number, error, options))
    for (board, rules), positions in by_table.items():
        results.update(_score_positions(board, rules, positions, options))
    for (board, rules), games in by_board.items():
        reports = _score_games(board, rules, games, options)
        results.update((number, json_line(report)) for number, report in reports.items())
    failed = sum(_ERROR_LINE.match(line) is not None for line in results.values())
    text = "".join(results[number] for number, _ in chunk)
    return text, failed, len(chunk)


def _score_games(
    board: Board, rules: RuleSet, games: list[tuple[int, Game]], options: BatchOptions
) -> dict[int, JsonObject]:
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


def _decoded(atoms: Atoms, game: Game, number: int) -> JsonObject:
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
            return {positions[0][0]: json_line(_unexpected(positions[0][0], error, options))}
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
    return json_line({"line": number, "error": str(error)})


def _unexpected(number: int, error: BaseException, options: BatchOptions) -> JsonObject:
    """A line's error for what no check foresaw: one line, no traceback."""
    if isinstance(error, MemoryError):
        message = f"ran out of memory scoring this line{limit_note()}"
    else:
        message = f"cannot score this line: unexpected {type(error).__name__}"
    return {"line": number, "error": str(InputError(options.source, message, line=number))}


#: How an error line starts (every report line starts '{"line": n, "board"').
_ERROR_LINE = re.compile(r'\{"line": \d+, "error"')


def json_line(result: JsonObject) -> str:
    """One output line; UTF-8 as is, but a lone surrogate (a JSON escape in the
    input, quoted back in an error) stays escaped, so the line can be written."""
    line = json.dumps(result, ensure_ascii=False)
    return (line if is_unicode(line) else json.dumps(result)) + "\n"
