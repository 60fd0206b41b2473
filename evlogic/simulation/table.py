"""The table of a played game: who sits where, with which home and agent,
in which turn order, from which position, by which seed.

Dealing is bookkeeping, not a rule: homes are drawn from the board's
states by the game's seed; the rules then score what the agents do.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.games import Game, Player, check_game_end
from evlogic.loading.rulesets import RuleSet
from evlogic.simulation.agents import Agent

Order = Literal["snake", "round-robin"]
ORDERS: tuple[Order, ...] = ("snake", "round-robin")


@dataclass(frozen=True)
class Seat:
    """A player at the table: name, home, the states already won (in the
    order won) and the agent that plays for it."""

    name: str
    home: str
    states: tuple[str, ...]
    agent: Agent


@dataclass(frozen=True)
class Table:
    board: Board
    rules: RuleSet
    seats: tuple[Seat, ...]
    order: Order
    seed: int

    def game(self, won: dict[str, list[str]] | None = None) -> Game:
        """The position: each seat's states as given, then those ``won``
        in play, in the order won."""
        won = won or {}
        players = tuple(
            Player(seat.name, seat.home, seat.states + tuple(won.get(seat.name, ())))
            for seat in self.seats
        )
        return Game(self.board, players, "play", self.rules)


def playable(board: Board, rules: RuleSet) -> None:
    """Refuse what a game cannot be played under: a game end beyond the
    board's states (as score refuses it)."""
    check_game_end(board, rules)


def seatable(board: Board, rules: RuleSet, players: int) -> None:
    """Refuse a game that cannot be played, or not by ``players``: each
    needs a home, won before the game ends."""
    playable(board, rules)
    ends = board.game_end if rules.game_end is None else rules.game_end
    if players > ends:
        raise InputError(
            "--players",
            f"{players} players need {players} homes, but the game ends when {ends} states are won",
        )


def turn_order(players: int, order: Order) -> Iterator[int]:
    """Seat indices (from 0) in turn order, without end."""
    forward = list(range(players))
    while True:
        yield from forward
        if order == "snake":
            yield from reversed(forward)


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` (from 0) of a run seeded ``seed``: the same
    under every rule set, so rule sets are compared on the same deals."""
    return random.Random(f"evlogic-play:{seed}:{game}").getrandbits(63)


def deal(
    board: Board,
    rules: RuleSet,
    agents: tuple[Agent, ...],
    order: Order,
    seed: int,
) -> Table:
    """Homes dealt at random by ``seed``, players named P1 ... PN."""
    seatable(board, rules, len(agents))
    homes = random.Random(seed).sample(sorted(board.states), len(agents))
    return homed(board, rules, tuple(homes), agents, order, seed)


def homed(
    board: Board,
    rules: RuleSet,
    homes: tuple[str, ...],
    agents: tuple[Agent, ...],
    order: Order,
    seed: int,
) -> Table:
    """Players P1 ... PN at the given homes (states of ``board``, one a
    seat, in seat order), nothing else won yet."""
    seatable(board, rules, len(agents))
    seats = tuple(
        Seat(f"P{number}", home, (), agent)
        for number, (home, agent) in enumerate(zip(homes, agents, strict=True), start=1)
    )
    return Table(board, rules, seats, order, seed)


def seated(game: Game, agents: tuple[Agent, ...], order: Order, seed: int) -> Table:
    """A game file's players, homes and states already won, at a table."""
    playable(game.board, game.rules)
    if len(agents) != len(game.players):
        raise InputError("--agents", f"{len(agents)} agents for {len(game.players)} players")
    seats = tuple(
        Seat(
            player.name,
            player.home,
            tuple(state for state in player.states if state != player.home),
            agent,
        )
        for player, agent in zip(game.players, agents, strict=True)
    )
    return Table(game.board, game.rules, seats, order, seed)
