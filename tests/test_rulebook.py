"""The rulebook page's worked examples, as golden cases (CLI and Python API)."""

from __future__ import annotations

import pytest

from conftest import RULEBOOK, board_dict, run_subprocess
from evlogic import score_file


def player(report: dict, name: str = "You") -> dict:
    return next(p for p in report["players"] if p["name"] == name)


def test_step_1_core_of_three_earns_15(cli):
    you = player(cli("score", RULEBOOK / "diagram-1-core.yaml", "--format", "json").json())
    assert you["core"] == ["KY", "IN", "WV"]
    assert sorted(you["region"]) == ["IN", "KY", "WV"]
    assert you["region_bonus"] == 15
    assert you["face_ev"] == 8 + 11 + 4


def test_step_2_tennessee_touches_two_region_states_and_joins(cli):
    you = player(cli("score", RULEBOOK / "diagram-2-tennessee.yaml", "--format", "json").json())
    assert sorted(you["region"]) == ["IN", "KY", "TN", "WV"]
    assert you["region_bonus"] == 25


def test_missouri_touches_only_kentucky_and_stays_out_but_scores_face(cli):
    you = player(cli("score", RULEBOOK / "diagram-3-missouri.yaml", "--format", "json").json())
    assert "MO" in you["states"]
    assert "MO" not in you["region"]
    assert you["region_bonus"] == 15
    assert you["face_ev"] == 8 + 11 + 4 + 10


def test_siege_by_virginia_and_missouri_cuts_25_to_5(cli):
    you = player(cli("score", RULEBOOK / "diagram-4-siege.yaml", "--format", "json").json())
    assert you["siege"] == ["MO", "VA"]
    assert (you["region_bonus"], you["siege_penalty"], you["net_bonus"]) == (25, 20, 5)


def test_full_example_totals_39():
    report = score_file(RULEBOOK / "full-example.yaml")
    you = report.players[0]
    assert (you.face_ev, you.region_bonus, you.siege_penalty, you.net_bonus, you.total) == (
        34,
        25,
        20,
        5,
        39,
    )
    assert report.final is False
    assert report.states_won == 7


def test_bare_score_scores_the_full_example_from_any_directory(tmp_path):
    result = run_subprocess("score", "--format", "json", cwd=tmp_path)
    assert result.code == 0, result.err
    assert player(result.json())["total"] == 39
    text = run_subprocess("score", cwd=tmp_path)
    assert text.code == 0
    assert "39" in text.out and "not a final position" in text.out


def test_one_core_only_two_triangles_give_three_states(cli, write_game):
    # H-A-B and H-D-E are triangles with no other links: 3 states, not 5.
    board = board_dict([("H", "A"), ("H", "B"), ("A", "B"), ("H", "D"), ("H", "E"), ("D", "E")])
    game = write_game(board, [{"name": "You", "home": "H", "states": ["A", "B", "D", "E"]}])
    you = player(cli("score", game, "--format", "json").json())
    assert len(you["region"]) == 3
    assert you["region_bonus"] == 15
    assert you["core"] == ["H", "A", "B"]  # the tie goes to the smaller core


@pytest.mark.parametrize(
    ("owned", "bonus"),
    [([], 0), (["IN"], 0), (["IN", "WV"], 15), (["IN", "WV", "TN"], 25)],
)
def test_bonus_tiers_grow_with_the_region(cli, write_game, owned, bonus):
    board = board_dict(
        [("KY", "IN"), ("KY", "WV"), ("KY", "TN"), ("IN", "WV"), ("IN", "TN"), ("WV", "TN")]
    )
    you = player(
        cli(
            "score",
            write_game(board, [{"name": "You", "home": "KY", "states": owned}]),
            "--format",
            "json",
        ).json()
    )
    assert you["region_bonus"] == bonus


def test_game_from_standard_input_with_board_relative_to_cwd(tmp_path):
    (tmp_path / "tiny.yaml").write_text(
        "states:\n  H: {ev: 2, neighbors: [A, B]}\n  A: {ev: 3, neighbors: [H, B]}\n"
        "  B: {ev: 4, swing: true, neighbors: [H, A]}\n"
    )
    game = "board: tiny.yaml\nplayers: [{name: Solo, home: H, states: [A, B]}]\n"
    result = run_subprocess("score", "-", "--format", "json", cwd=tmp_path, stdin=game)
    assert result.code == 0, result.err
    report = result.json()
    assert report["final"] is True  # game_end defaults to the 3 states of the board
    assert player(report, "Solo")["total"] == 2 + 3 + 8 + 15
