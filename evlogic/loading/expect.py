"""A game's ``expect:``: the figures it must score, checked as input.

Read wherever a game is read (score, the HTTP API, batch, verify), so a
malformed expectation is one error line everywhere, never silently ignored
by one command and compared by another: every player named must be a
player, every state id a state of the board, no list names a state or a
winner twice, and an expectation expects something.  ``evlogic verify``
compares (evlogic/reports/verify.py); nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from evlogic.errors import quote
from evlogic.loading.boards import Board
from evlogic.loading.yamlfile import Field, closest

#: The figures a player's expectation may name: numbers, then lists of state ids.
NUMBER_FIELDS = ("total", "face_ev", "region_bonus", "siege_penalty", "net_bonus", "region_size")
LIST_FIELDS = ("siege",)


@dataclass(frozen=True)
class Expected:
    """What a game expects: for each player named, figure -> value (a number,
    or a sorted tuple of state ids), in file order; and the winners (sorted),
    when given."""

    players: tuple[tuple[str, tuple[tuple[str, object], ...]], ...]
    winners: tuple[str, ...] | None


def read_expect(expect: Field, names: Collection[str], board: Board) -> Expected:
    """The ``expect:`` field of a game whose players are ``names``."""
    parts = expect.fields([], ["players", "winners"], what="a mapping of expected figures")
    if not parts:
        raise expect.error("expects nothing: give players: (their figures) or winners:")
    players: list[tuple[str, tuple[tuple[str, object], ...]]] = []
    if "players" in parts:
        entries = list(parts["players"].entries("a mapping of player names"))
        if not entries:
            raise parts["players"].error("expects nothing: name a player and its figures")
        for key, figures in entries:
            name = _player(key, str(key.value), names)
            wanted = figures.fields([], [*NUMBER_FIELDS, *LIST_FIELDS], what="a mapping")
            if not wanted:
                raise figures.error(f"expects nothing of {quote(name)}: name a figure")
            players.append(
                (
                    name,
                    tuple(
                        (figure, _value(figure, value, board)) for figure, value in wanted.items()
                    ),
                )
            )
    winners = None
    if "winners" in parts:
        winners = _winners(parts["winners"], names)
    return Expected(tuple(players), winners)


def _value(figure: str, value: Field, board: Board) -> object:
    if figure in LIST_FIELDS:
        states = _distinct(value, "a state id")
        for item, state in states:
            if state not in board.states:
                raise item.error(
                    f"unknown state {quote(state)}{board.suggest(state)} on board "
                    f"{quote(board.name)}"
                )
        return tuple(sorted(state for _, state in states))
    return value.integer(-(2**31), 2**31 - 1)


def _winners(winners: Field, names: Collection[str]) -> tuple[str, ...]:
    listed = _distinct(winners, "a player name")
    return tuple(sorted(_player(item, name, names) for item, name in listed))


def _player(field: Field, name: str, names: Collection[str]) -> str:
    """``name``, one of the game's players (else the error at ``field``)."""
    if name not in names:
        raise field.error(f"no player named {quote(name)}{closest(name, names)}")
    return name


def _distinct(items: Field, what: str) -> list[tuple[Field, str]]:
    """A list of texts, each given once, with their fields."""
    found: list[tuple[Field, str]] = []
    for item in items.items(f"a list of {what.removeprefix('a ')}s"):
        text = item.text(what)
        if any(text == earlier for _, earlier in found):
            raise item.error(f"{quote(text)} is listed twice")
        found.append((item, text))
    return found
