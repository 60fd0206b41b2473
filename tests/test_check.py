"""`evlogic check`: proofs, counterexamples that re-score as claimed, unknown."""

from __future__ import annotations

import yaml

from evlogic.engine import score_game
from evlogic.games import load_game


def test_a_false_property_gives_a_smallest_counterexample_that_rescores(
    cli, tmp_path, search_board
):
    (tmp_path / "big-region.lp").write_text("violation :- region_size(0, 0, N), N >= 4.\n")
    result = cli("check", "big-region.lp", "--board", "board.yaml", "--format", "json")
    assert result.code == 0, result.err
    found = result.json()
    assert found["result"] == "counterexample"
    game = found["counterexample"]
    assert game["board"] == "board.yaml" and game["rules"] == "standard"
    # Smallest: P1's home and three more states, P2's home.
    assert sum(1 + len(p["states"]) for p in game["players"]) == 5
    (tmp_path / "found.yaml").write_text(yaml.safe_dump(game))
    report = score_game(load_game(tmp_path / "found.yaml"))
    assert len(report.players[0].region) >= 4  # the claimed violation, re-scored


def test_true_properties_are_proved(cli, tmp_path, search_board):
    for prop in ("bonus-bounds", "region-connected", "siege-bonus-only"):
        result = cli("check", prop, "--board", "board.yaml", "--format", "json")
        assert result.code == 0, result.err
        assert result.json()["result"] == "holds", prop
        assert result.json()["counterexample"] is None


def test_bonus_bounds_holds_on_the_default_board_with_four_players(cli):
    result = cli("check", "bonus-bounds", "--players", "4", "--format", "json")
    assert result.json()["result"] == "holds"
    assert "holds for every position" in cli("check", "bonus-bounds").out


def test_a_tiny_time_limit_answers_unknown(cli):
    result = cli("check", "own-monotone", "--timeout", "0.01", "--format", "json")
    assert result.json()["result"] == "unknown"


def test_unknown_property_is_an_error(cli):
    result = cli("check", "bonus-bound")
    assert result.code == 2 and "did you mean 'bonus-bounds'" in result.err
