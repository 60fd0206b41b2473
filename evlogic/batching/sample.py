"""Random final positions for benchmarks and balance studies."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from evlogic.loading.boards import Board


def sample_games(
    board: Board, reference: str | None, players: int, count: int, seed: int
) -> Iterator[dict[str, Any]]:
    """``count`` games (game-file schema) in which exactly ``game_end`` states
    are won: distinct random homes, the other won states dealt at random.
    The same seed always gives the same games.  ``reference`` None: the
    games name no board (batch is given it with --board)."""
    rng = random.Random(seed)
    ids = sorted(board.states)
    names = [f"P{number}" for number in range(1, players + 1)]
    for _ in range(count):
        won = rng.sample(ids, board.game_end)
        homes, rest = won[:players], won[players:]
        states: list[list[str]] = [[] for _ in range(players)]
        for state in rest:
            states[rng.randrange(players)].append(state)
        game: dict[str, Any] = {} if reference is None else {"board": reference}
        game["players"] = [
            {"name": names[p], "home": homes[p], "states": sorted(states[p])}
            for p in range(players)
        ]
        yield game
