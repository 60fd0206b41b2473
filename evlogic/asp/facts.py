"""Facts: a board and positions as clingo facts over numbers.

States are numbered by their rank among the board's sorted ids, players by
their place in the game's list, so facts hold integers only: no id or name a
user writes ever becomes program text, and comparing state numbers in the
rules is comparing ids.  The predicates are the input interface documented
in the headers of ``rules/scoring/*.lp``.

Boards and one-off positions are program text: clingo parses text faster
than it takes symbols one API call at a time.  Positions to score
(:class:`Positions`) reach the grounder as symbols through
rules/scoring/position_input.lp: a call per position answers with symbols made once
per board, which costs less than parsing either.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from clingo import Number, Symbol

from evlogic.errors import escaped
from evlogic.loading.boards import Board
from evlogic.loading.games import Game, Player


@lru_cache(maxsize=16)
def state_ids(board: Board) -> tuple[str, ...]:
    """State ids in number order (sorted)."""
    return tuple(sorted(board.states))


@lru_cache(maxsize=16)
def state_numbers(board: Board) -> dict[str, int]:
    return {state: number for number, state in enumerate(state_ids(board))}


@lru_cache(maxsize=16)
def board_program(board: Board) -> str:
    """``state/1``, ``ev/2``, ``swing/1``, ``adjacent/2``, ``board_game_end/1``.

    Cached per board: scoring many positions on one board builds it once.
    """
    number = state_numbers(board)
    lines = [f"board_game_end({board.game_end})."]
    for state_id in state_ids(board):
        state, s = board.states[state_id], number[state_id]
        swing = f" swing({s})." if state.swing else ""
        adjacent = "".join(f" adjacent({s},{number[other]})." for other in state.neighbors)
        lines.append(f"state({s}). ev({s},{state.ev}).{swing}{adjacent}")
    return "\n".join(lines) + "\n"


def listing(player: Player) -> list[tuple[int, str]]:
    """(Index, state) for the states ``player`` won, in the order the game
    lists them (1 for the first; the home, won at setup, is not one of them):
    the order rules/scoring/cores.lp breaks ties between cores by."""
    return [(i, s) for i, s in enumerate(player.states, start=1) if s != player.home]


def game_program(game: Game, index: int = 0) -> str:
    """``home/3``, ``owned/3`` (the other states) and ``listed/4`` for
    position ``index``; rules/scoring/position.lp derives the rest (every fact parsed
    costs, in batches)."""
    number = state_numbers(game.board)
    lines = []
    for p, player in enumerate(game.players):
        parts = [f"home({index},{p},{number[player.home]})."]
        for i, s in listing(player):
            parts.append(f"owned({index},{p},{number[s]}). listed({index},{p},{number[s]},{i}).")
        lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


def game_facts(game: Game) -> str:
    """Every fact evlogic grounds beside the rules to score ``game``, as one
    program that plain clingo reads with rules/score.lp: the rule set's
    (RuleSet.program), the board's (:func:`board_program`) and the
    position's (:func:`game_program`: what :class:`Positions` hands over
    through @-calls, which plain clingo cannot answer).  Comments name the
    number of every state and player; a name is escaped onto its line, so
    no text a user wrote is ever more than a comment."""
    ids = state_ids(game.board)
    board_lines = board_program(game.board).splitlines()
    lines = [
        f"% --- the rule set {escaped(game.rules.name)}: param/3, tier/3, rule_set/1 ---",
        *game.rules.program().splitlines(),
        "",
        f"% --- the board {escaped(game.board.name)}: board_game_end/1, then a line a state",
        "% (numbered by the rank of its id): state/1, ev/2, swing/1, adjacent/2 ---",
        board_lines[0],
        *(f"{line}  % {escaped(ids[s])}" for s, line in enumerate(board_lines[1:])),
        "",
        "% --- the position (number 0), a line a player (numbered in the game's order):",
        "% home/3, owned/3 and listed/4, the states won in the order listed ---",
        *(
            f"{line}  % {escaped(player.name)}"
            for line, player in zip(game_program(game).splitlines(), game.players, strict=True)
        ),
    ]
    return "\n".join(lines) + "\n"


class Positions:
    """Positions as the grounding context of ``rules/scoring/position_input.lp``:
    the same ``home/3``, ``owned/3`` and ``listed/4`` as :func:`game_program`,
    handed to clingo as number symbols made once per board, one code
    P * Base + S per player P and state S (Base: the board's number of
    states), and one code Index * Base + S per listed state.  For many
    positions this is the cheap way in: clingo parses text at ~4 us an atom.
    Position ``G`` is the G-th game; every game is on ``board``."""

    def __init__(self, board: Board, games: Sequence[Game]) -> None:
        self._positions = [Number(index) for index in range(len(games))]
        self._homes: list[list[Symbol]] = []
        self._owned: list[list[Symbol]] = []
        self._listed: list[list[Symbol]] = []
        numbers = state_numbers(board)
        base = len(numbers)
        for game in games:
            if game.board != board:
                raise ValueError(f"a game on board {game.board.name!r}, not {board.name!r}")
            mine = [_player_codes(board, p) for p in range(len(game.players))]
            self._homes.append([mine[p][player.home] for p, player in enumerate(game.players)])
            self._owned.append(
                [mine[p][state] for p, player in enumerate(game.players) for state in player.states]
            )
            self._listed.append(
                [
                    number_symbol(index * base + numbers[state])
                    for player in game.players
                    for index, state in listing(player)
                ]
            )

    # The calls of rules/scoring/position_input.lp:

    def positions(self) -> list[Symbol]:
        return self._positions

    def homes(self, position: Symbol) -> list[Symbol]:
        return self._homes[position.number]

    def owned(self, position: Symbol) -> list[Symbol]:
        return self._owned[position.number]

    def listed(self, position: Symbol) -> list[Symbol]:
        return self._listed[position.number]


@lru_cache(maxsize=256)
def _player_codes(board: Board, player: int) -> dict[str, Symbol]:
    """State id -> the symbol of P * Base + S for player P, made once."""
    numbers = state_numbers(board)
    return {state: Number(player * len(numbers) + s) for state, s in numbers.items()}


@lru_cache(maxsize=1 << 16)
def number_symbol(value: int) -> Symbol:
    """``Number(value)``, made once for each value (positions reuse them)."""
    return Number(value)


def focus_program(player: int, index: int = 0) -> str:
    """``focus(G, P)``: the player an explanation or diagram is about."""
    return f"focus({index},{player}).\n"


def what_if_program(game: Game, player: int, index: int = 0) -> str:
    """Hypothetical positions for ``rules/explain/what_if.lp``: one per state the player
    could still win (not theirs, nobody's home), in which they also own it.

    World ``W = (G, P, X)`` has two players: ``P`` (home and states as now,
    plus ``X``) and ``others`` (every other owned state, less ``X``).  ``P``
    lists its states as in the game and not ``X``: won last (rules/scoring/cores.lp).
    """
    number = state_numbers(game.board)
    me = game.players[player]
    homes = {number[other.home] for other in game.players}
    mine = {number[s] for s in (me.home, *me.states)}
    theirs = {
        number[s] for other in game.players if other is not me for s in (other.home, *other.states)
    }
    home = number[me.home]
    parts = []
    for x in range(len(number)):
        if x in mine or x in homes:
            continue
        world = f"({index},{player},{x})"
        parts.append(
            f"what_if_world({index},{player},{x},{world}). game({world}). "
            f"player({world},{player}). player({world},others). home({world},{player},{home})."
        )
        parts.extend(f"owned({world},{player},{s})." for s in sorted(mine | {x}))
        parts.extend(f"listed({world},{player},{number[s]},{i})." for i, s in listing(me))
        parts.extend(f"owned({world},others,{s})." for s in sorted(theirs - {x}))
    return "\n".join(parts) + "\n"
