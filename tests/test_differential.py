"""The engine against the plain Python scorer on random boards and positions
(see strategies.py for the boards and positions)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from evlogic.engine import score_game
from plain_scorer import score_position
from strategies import as_game, positions


def engine_report(board: dict, players: list[dict]) -> dict:
    return score_game(as_game(board, players)).to_dict()


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
