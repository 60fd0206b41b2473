"""Hypothesis strategies: random boards and positions, and engine helpers.

Boards come in three shapes (hex-like grids with holes, dense random graphs,
and boards of several islands), with odd state ids, random EVs and swing
flags (homes included); positions have 2-6 players and unclaimed states.
"""

from __future__ import annotations

import itertools
import random

import yaml
from hypothesis import strategies as st

from evlogic.loading.boards import board_from_field
from evlogic.loading.games import Game, game_from_fields
from evlogic.loading.yamlfile import yaml_document

# Ids that stress ordering and escaping: case, digits, spaces, quotes,
# ASP punctuation and non-ASCII letters.
ID_ALPHABET = "abcAB z019'\"().%:-_éßΩ北"
state_ids = st.text(ID_ALPHABET, min_size=1, max_size=4).filter(lambda s: s.strip() != "")
HEX_DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]


def hex_edges(draw, ids: list[str]) -> list[tuple[str, str]]:
    width = draw(st.integers(2, 5))
    cells = {(i % width, i // width): name for i, name in enumerate(ids)}
    return [
        (cells[q, r], cells[q + dq, r + dr])
        for (q, r) in cells
        for dq, dr in HEX_DIRECTIONS
        if (q + dq, r + dr) in cells and (q, r) < (q + dq, r + dr)
    ]


def dense_edges(draw, ids: list[str]) -> list[tuple[str, str]]:
    pairs = list(itertools.combinations(ids, 2))
    keep = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return [pair for pair, kept in zip(pairs, keep, strict=True) if kept]


def island_edges(draw, ids: list[str]) -> list[tuple[str, str]]:
    cut = draw(st.integers(1, len(ids) - 1))
    lonely = draw(st.integers(0, 2))
    left, right = ids[:cut], ids[cut : len(ids) - lonely]
    return dense_edges(draw, left) + (dense_edges(draw, right) if len(right) > 1 else [])


def sparse_edges(draw, ids: list[str]) -> list[tuple[str, str]]:
    """A random graph with few edges (about 8% of the pairs), for boards too
    large to draw a flag per pair."""
    rng = random.Random(draw(st.integers(0, 2**16)))
    return [pair for pair in itertools.combinations(ids, 2) if rng.random() < 0.08]


@st.composite
def boards(draw, sizes: st.SearchStrategy[int] | None = None, dense_up_to: int = 16) -> dict:
    """A board of ``sizes`` states (default 3 to 16; then sparse graphs are
    drawn too), shaped as a hex grid, a dense graph or islands; boards of
    more than ``dense_up_to`` states are hex grids or sparse graphs only (a
    home on a large dense board has a thousand cores, which the readable
    rules compare pairwise)."""
    if sizes is None:
        ids = draw(st.lists(state_ids, min_size=3, max_size=16, unique=True))
    else:
        count = draw(sizes)
        ids = draw(st.lists(state_ids, min_size=count, max_size=count, unique=True))
    if len(ids) == 1:
        shapes = [dense_edges]
    elif len(ids) > dense_up_to:
        shapes = [hex_edges, sparse_edges]
    elif sizes is None:
        shapes = [hex_edges, dense_edges, island_edges]
    else:
        shapes = [hex_edges, dense_edges, island_edges, sparse_edges]
    shape = draw(st.sampled_from(shapes))
    edges = shape(draw, ids)
    neighbors: dict[str, list[str]] = {name: [] for name in ids}
    for a, b in edges:
        neighbors[a].append(b)
        neighbors[b].append(a)
    return {
        "name": "random",
        "game_end": draw(st.integers(1, len(ids))),
        "states": {
            name: {
                "ev": draw(st.integers(1, 60)),
                "swing": draw(st.booleans()),
                "neighbors": neighbors[name],
            }
            for name in ids
        },
    }


@st.composite
def positions(
    draw, board_strategy: st.SearchStrategy[dict] | None = None, min_players: int = 2
) -> tuple[dict, list[dict]]:
    """A board (default :func:`boards`) and ``min_players`` to 6 players."""
    board = draw(boards() if board_strategy is None else board_strategy)
    ids = list(board["states"])
    count = draw(st.integers(min(min_players, len(ids)), min(6, len(ids))))
    homes = draw(st.permutations(ids))[:count]
    players = [{"name": f"P{i} ){homes[i]}", "home": homes[i], "states": []} for i in range(count)]
    # Player 0 gets a tunable share of the board so that regions actually form;
    # -1 stands for unclaimed.
    owners = [-1, *range(count)] + [0] * draw(st.integers(0, 8))
    for state in ids:
        if state in homes:
            continue
        owner = draw(st.sampled_from(owners))
        if owner >= 0:
            players[owner]["states"].append(state)
    # Often, player 0 also takes a ball around their home: big regions, ties
    # between cores and sieges of their own neighbours.
    radius = draw(st.integers(0, 3))
    ball, frontier = {homes[0]}, {homes[0]}
    for _ in range(radius):
        frontier = {n for s in frontier for n in board["states"][s]["neighbors"]} - ball
        ball |= frontier
    for player in players:
        player["states"] = [s for s in player["states"] if s not in ball]
    players[0]["states"] += sorted(ball - set(homes))
    # Players list their states in any order: the order they were won, which
    # breaks ties between equally large cores.
    for player in players:
        player["states"] = draw(st.permutations(player["states"]))
    # Only positions that can happen: the board's game end is never below
    # the states won (tests/test_game_end.py tests the refusal).
    board["game_end"] = max(board["game_end"], states_won(players))
    return board, players


def states_won(players: list[dict]) -> int:
    """The states the players own, homes included."""
    return sum(len({player["home"], *player["states"]}) for player in players)


def within_game_end(variant: dict, players: list[dict]) -> dict:
    """A rule set ``variant`` whose game end the position can have: raised
    to its states won when lower (a position past its game end cannot
    happen and is refused; tests/test_game_end.py)."""
    if variant.get("game_end", 0) >= states_won(players) or "game_end" not in variant:
        return variant
    return {**variant, "game_end": states_won(players)}


def as_game(board: dict, players: list[dict]) -> Game:
    """Load a board and players through the same validation as files."""
    parsed = board_from_field(yaml_document(yaml.safe_dump(board), "board.yaml"), "board")
    fields = yaml_document(yaml.safe_dump({"players": players}), "game.yaml").fields(["players"])
    return game_from_fields(fields, parsed, "game.yaml")


@st.composite
def big_positions(draw) -> tuple[dict, list[dict]]:
    """Larger boards where cores abound: dense graphs (many triangles around a
    home, most closures covered by an earlier one) and full hex lattices,
    with one player owning most of the board and a rival holding the rest."""
    size = draw(st.integers(8, 24))
    ids = [f"S{i:02d}" for i in range(size)]
    if draw(st.booleans()):
        keep = draw(st.floats(0.5, 1.0))
        pairs = list(itertools.combinations(ids, 2))
        flags = draw(st.lists(st.floats(0, 1), min_size=len(pairs), max_size=len(pairs)))
        edges = [pair for pair, flag in zip(pairs, flags, strict=True) if flag <= keep]
    else:
        edges = hex_edges(draw, ids)
    neighbors: dict[str, list[str]] = {name: [] for name in ids}
    for a, b in edges:
        neighbors[a].append(b)
        neighbors[b].append(a)
    board = {
        "name": "big",
        "game_end": size,
        "states": {
            name: {"ev": draw(st.integers(1, 60)), "swing": False, "neighbors": neighbors[name]}
            for name in ids
        },
    }
    home, rival = draw(st.permutations(ids))[:2]
    share = draw(st.floats(0.6, 1.0))
    mine = [s for s in ids if s not in (home, rival) and draw(st.floats(0, 1)) <= share]
    theirs = [s for s in ids if s not in (home, rival, *mine)]
    players = [
        {"name": "Me", "home": home, "states": draw(st.permutations(mine))},
        {"name": "Rival", "home": rival, "states": theirs},
    ]
    return board, players
