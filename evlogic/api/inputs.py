"""What the library's functions accept: a game, a board or a rule set as
a path (text or path-like), a bundled name, or the object loaded already;
read as the command line reads them, so bad input is the same InputError."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path
from typing import TypeAlias

from evlogic.errors import InputError
from evlogic.loading.boards import Board, load_board, resolve_board
from evlogic.loading.games import Game, load_game, load_game_text
from evlogic.loading.rulesets import RuleSet, load_rule_set
from evlogic.loading.yamlfile import Field, read_stream, utf8_text
from evlogic.resources import default_game

#: A file named by its path, as text or path-like.
PathText: TypeAlias = str | os.PathLike[str]

#: A game: a game file's path ("-": standard input) or a loaded Game.
GameInput: TypeAlias = Game | PathText

#: A board: a bundled name, a board file's path, or a loaded Board.
BoardInput: TypeAlias = Board | PathText

#: A rule set: a bundled name, a rule set file's path, or a loaded RuleSet.
RulesInput: TypeAlias = RuleSet | PathText


def rule_set(rules: RulesInput | None) -> RuleSet | None:
    """``rules`` loaded (as --rules reads it); None stays None."""
    if rules is None or isinstance(rules, RuleSet):
        return rules
    return load_rule_set(
        _path_text(rules, "--rules", "a rule set name, a path or a RuleSet"), Path.cwd()
    )


def rules_name(rules: RulesInput | None) -> str | None:
    """How a report names ``rules``: as given (a name or a path), a loaded
    rule set by its name; None when not given."""
    if rules is None:
        return None
    if isinstance(rules, RuleSet):
        return rules.name
    return os.fspath(rules)


def read_game(argument: str | None, rules: RuleSet | None = None) -> Game:
    """The game the command line names: a path, ``-`` (standard input) or
    None (the rulebook's full example); ``rules`` override its own."""
    if argument is None:
        return load_game(default_game(), source="rulebook full example", rules=rules)
    if argument == "-":
        if sys.stdin is None:
            raise InputError("<stdin>", "standard input is closed")
        text = utf8_text(read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>")
        return load_game_text(text, "<stdin>", Path.cwd(), rules)
    return load_game(Path(argument), source=argument, rules=rules)


def game_of(game: GameInput | None, rules: RulesInput | None = None) -> Game:
    """``game`` loaded (None: the rulebook's full example), under ``rules``
    when given (they override the game's own)."""
    override = rule_set(rules)
    if isinstance(game, Game):
        return game if override is None else dataclasses.replace(game, rules=override)
    return read_game(None if game is None else os.fspath(game), override)


def board_argument(reference: str, option: str = "--board") -> Board:
    """A board named on the command line (``option``): a bundled name or a path."""
    field = Field(option, "", reference, None, None)
    return load_board(resolve_board(field, Path.cwd()), reference)


def board_of(board: BoardInput, option: str = "--board") -> Board:
    """``board`` loaded, as the command line's ``option`` reads it."""
    if isinstance(board, Board):
        return board
    return board_argument(_path_text(board, option, "a board name, a path or a Board"), option)


def _path_text(value: object, option: str, what: str) -> str:
    """A name or path given as text or path-like (else an InputError)."""
    if not isinstance(value, (str, os.PathLike)):
        raise InputError(option, f"must be {what}, not {value!r}")
    return os.fspath(value)


def board_name(board: BoardInput) -> str:
    """How a report names ``board``: as given, a loaded board by its name."""
    return board.name if isinstance(board, Board) else os.fspath(board)
