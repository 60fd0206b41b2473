"""Deterministic boards and positions for the benchmarks."""

from __future__ import annotations

import random

from evlogic.loading.boards import Board, State
from evlogic.loading.games import Game, Player

HEX_DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def hex_board(width: int, height: int, seed: int = 0) -> Board:
    """A width x height hex grid (axial coordinates), random EVs, some swing states."""
    rng = random.Random(seed)
    cells = {(q, r): f"H{q:02d}.{r:02d}" for q in range(width) for r in range(height)}
    states = {}
    for (q, r), name in cells.items():
        neighbors = tuple(
            cells[q + dq, r + dr] for dq, dr in HEX_DIRECTIONS if (q + dq, r + dr) in cells
        )
        states[name] = State(name, name, rng.randint(1, 30), rng.random() < 0.1, neighbors)
    return Board(f"hex {width}x{height}", len(states), states, "<bench>")


def random_position(board: Board, players: int, won: int, seed: int = 0) -> Game:
    """`won` states (homes included) dealt at random to `players` players."""
    rng = random.Random(seed)
    taken = rng.sample(sorted(board.states), won)
    homes, rest = taken[:players], taken[players:]
    owned: list[list[str]] = [[] for _ in range(players)]
    for state in rest:
        owned[rng.randrange(players)].append(state)
    return Game(
        board,
        tuple(Player(f"P{i + 1}", homes[i], tuple(owned[i])) for i in range(players)),
        "<bench>",
    )


def banded_position(board: Board, players: int) -> Game:
    """Every state won, each player holding one contiguous band: huge regions."""
    names = sorted(board.states)
    band = len(names) // players
    bands = [names[i * band : (i + 1) * band if i < players - 1 else None] for i in range(players)]
    return Game(
        board,
        tuple(
            Player(f"P{i + 1}", bands[i][len(bands[i]) // 2], tuple(bands[i]))
            for i in range(players)
        ),
        "<bench>",
    )


def complete_board(size: int) -> Board:
    """Every state touches every other: the most cores a home can have."""
    names = [f"K{i:03d}" for i in range(size)]
    states = {
        name: State(name, name, 1 + i % 9, False, tuple(n for n in names if n != name))
        for i, name in enumerate(names)
    }
    return Board(f"complete {size}", size, states, "<bench>")


def owned_by_one(board: Board, home: str) -> Game:
    """One player owns every state of the board."""
    return Game(board, (Player("P1", home, tuple(sorted(board.states))),), "<bench>")


def board_yaml(board: Board) -> dict:
    """The board as a board file's mapping (for the CLI)."""
    return {
        "name": board.name,
        "game_end": board.game_end,
        "states": {
            s.id: {"ev": s.ev, "swing": s.swing, "neighbors": list(s.neighbors)}
            for s in board.states.values()
        },
    }
