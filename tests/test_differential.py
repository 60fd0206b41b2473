"""The engine against the plain Python scorer on random boards and positions.

Boards come in three shapes (hex-like grids with holes, dense random graphs,
and boards of several islands), with odd state ids, random EVs and swing
flags (homes included); positions have 2-6 players and unclaimed states.
"""

from __future__ import annotations

import itertools

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evlogic.boards import board_from_field
from evlogic.engine import score_game
from evlogic.games import game_from_fields
from evlogic.yamlfile import yaml_document
from plain_scorer import score_position

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


@st.composite
def boards(draw) -> dict:
    ids = draw(st.lists(state_ids, min_size=3, max_size=16, unique=True))
    shape = draw(st.sampled_from([hex_edges, dense_edges, island_edges]))
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
def positions(draw) -> tuple[dict, list[dict]]:
    board = draw(boards())
    ids = list(board["states"])
    count = draw(st.integers(2, min(6, len(ids))))
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
    return board, players


def engine_report(board: dict, players: list[dict]) -> dict:
    parsed = board_from_field(yaml_document(yaml.safe_dump(board), "board.yaml"), "board")
    fields = yaml_document(yaml.safe_dump({"players": players}), "game.yaml").fields(["players"])
    return score_game(game_from_fields(fields, parsed, "game.yaml")).to_dict()


def assert_valid_join_order(region: list[str], core: list[str], board: dict) -> None:
    assert region[:3] == core
    for index, state in enumerate(region[3:], start=3):
        earlier = set(region[:index])
        links = [n for n in board["states"][state]["neighbors"] if n in earlier]
        assert len(links) >= 2, f"{state} joined with links {links}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_engine_agrees_with_the_plain_scorer(position):
    board, players = position
    engine = engine_report(board, players)
    plain = score_position(board["states"], players, board["game_end"])
    assert engine["final"] == plain["final"]
    assert engine["states_won"] == plain["states_won"]
    assert engine["winners"] == plain["winners"]
    for mine, theirs in zip(engine["players"], plain["players"], strict=True):
        for key in (
            "name",
            "home",
            "states",
            "face_ev",
            "core",
            "region_bonus",
            "siege",
            "siege_penalty",
            "net_bonus",
            "total",
        ):
            assert mine[key] == theirs[key], key
        assert sorted(mine["region"]) == sorted(theirs["region"])
        if mine["core"]:
            assert_valid_join_order(mine["region"], mine["core"], board)
        else:
            assert mine["region"] == []
