"""Positions for the compiled encoding: each player's states as a bit mask."""

from __future__ import annotations

from dataclasses import dataclass

from evlogic.asp.compiled.tables import Compiled
from evlogic.loading.games import Game, quick_players


@dataclass(frozen=True, slots=True)
class Position:
    """A position to score, as batch reads it from a line: the players'
    names, homes and states as listed (the home may appear), and each
    player's states, home included, as one mask (bit n: the state numbered
    n; its bytes are the masks of the groups, block by block)."""

    names: tuple[str, ...]
    homes: tuple[str, ...]
    states: tuple[tuple[str, ...], ...]
    masks: tuple[int, ...]


def read_position(value: object, board: Compiled) -> Position | None:
    """The position of a JSON line on ``board``, read and checked by
    :func:`evlogic.loading.games.quick_players` over the board's bits (the
    one quick check of a line, the one evlogic.loading.games.quick_game
    makes too); None whenever anything is unusual, so that the careful path
    finds and words the error.  Keys other than ``players`` are the
    caller's (board, rules, expect)."""
    players = quick_players(value, board.bits)
    return None if players is None else Position(*players)


def position_of(game: Game, board: Compiled) -> Position:
    """A validated game as a Position (for lines the careful path read)."""
    bits = board.bits
    return Position(
        tuple(player.name for player in game.players),
        tuple(player.home for player in game.players),
        tuple(player.states for player in game.players),
        tuple(
            sum(bits[state] for state in {player.home, *player.states}) for player in game.players
        ),
    )
