"""Facts: a board and positions as clingo symbols.

Ids and names never become program text: states are passed as
``clingo.String`` symbols and players as their input position, so any text
a user writes scores exactly like any other.  The predicates are the input
interface documented in the headers of ``rules/*.lp``.
"""

from __future__ import annotations

from functools import lru_cache

from clingo import Function, Number, String, Symbol

from evlogic.boards import Board
from evlogic.games import Game


@lru_cache(maxsize=16)
def board_facts(board: Board) -> tuple[Symbol, ...]:
    """``state/1``, ``ev/2``, ``swing/1``, ``adjacent/2``, ``game_end/1``.

    Cached per board: scoring many positions on one board builds them once.
    """
    facts = [Function("game_end", [Number(board.game_end)])]
    for state in board.states.values():
        name = String(state.id)
        facts.append(Function("state", [name]))
        facts.append(Function("ev", [name, Number(state.ev)]))
        if state.swing:
            facts.append(Function("swing", [name]))
        facts.extend(Function("adjacent", [name, String(other)]) for other in state.neighbors)
    return tuple(facts)


def game_facts(game: Game, index: int = 0) -> list[Symbol]:
    """``game/1``, ``player/2``, ``home/3``, ``owns/3`` for position ``index``."""
    g = Number(index)
    facts = [Function("game", [g])]
    for number, player in enumerate(game.players):
        p = Number(number)
        facts.append(Function("player", [g, p]))
        facts.append(Function("home", [g, p, String(player.home)]))
        facts.extend(Function("owns", [g, p, String(state)]) for state in player.states)
    return facts
