"""One line of batch input: its JSON, its board, its rule set, its game.

A line may name a bundled board or rule set, or a file in the input's
folder (anything else is that line's error, before it is read); boards and
rule sets are read once per process.  A clean line is read straight into a
position (evlogic.loading.games.quick_players); anything unusual takes the
careful path, which words exactly what is wrong, as ``score`` words it.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from evlogic.asp.compiled.positions import Position, position_of, read_position
from evlogic.asp.compiled.tables import Compiled
from evlogic.errors import InputError, quote
from evlogic.loading.boards import Board, load_board, resolve_board
from evlogic.loading.games import Game, check_game_end, game_from_fields, quick_game
from evlogic.loading.jsonkeys import DuplicateKey, loads
from evlogic.loading.jsonlines import utf8_line
from evlogic.loading.rulesets import RuleSet, load_rule_set, rule_set_from_field
from evlogic.loading.yamlfile import Field
from evlogic.resources import maps_dir, rules_dir

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
        return f"ran out of memory reading the {what} file {reference!r}{limit_note()}"
    kind = type(error).__name__
    return f"cannot read the {what} file {reference!r} ({kind})"


def note_memory_limit(megabytes: int) -> None:
    """This process is a worker whose address space is capped at ``megabytes``
    (evlogic.batching.runner starts it so): its out-of-memory errors say so."""
    global _memory_limit_mb
    _memory_limit_mb = megabytes


def limit_note() -> str:
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
Resolved = dict[object, Board | tuple[Board, RuleSet]]


def resolve_line(
    number: int, text: str, options: BatchOptions, boards: Resolved
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
    number: int, value: object, options: BatchOptions, boards: Resolved
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


def line_game(
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


def line_position(
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
        game = line_game(number, value, board, rules, options)
        position = position_of(game, table)
    return position
