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


def focus_fact(player: int, index: int = 0) -> Symbol:
    """``focus(G, P)``: the player an explanation or diagram is about."""
    return Function("focus", [Number(index), Number(player)])


def what_if_facts(game: Game, player: int, index: int = 0) -> list[Symbol]:
    """Hypothetical positions for ``rules/what_if.lp``: one per state the player
    could still win (not theirs, nobody's home), in which they also own it.

    World ``W = (G, P, X)`` has two players: ``P`` (home and states as now,
    plus ``X``) and ``others`` (every other owned state, less ``X``).
    """
    g, p, others = Number(index), Number(player), Function("others")
    me = game.players[player]
    homes = {other.home for other in game.players}
    mine = {me.home, *me.states}
    theirs = {s for other in game.players if other is not me for s in (other.home, *other.states)}
    facts = []
    for state in game.board.states:
        if state in mine or state in homes:
            continue
        x = String(state)
        world = Function("", [g, p, x])
        facts += [
            Function("what_if_world", [g, p, x, world]),
            Function("game", [world]),
            Function("player", [world, p]),
            Function("player", [world, others]),
            Function("home", [world, p, String(me.home)]),
            Function("owns", [world, p, x]),
        ]
        facts += [Function("owns", [world, p, String(s)]) for s in sorted(mine) if s != me.home]
        facts += [
            Function("owns", [world, others, String(s)]) for s in sorted(theirs) if s != state
        ]
    return facts
