"""`evlogic diff`: witnesses re-score as claimed; equivalence is proved."""

from __future__ import annotations

import yaml

from evlogic.loading.games import load_game
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.score import score_game


def run(cli, *args):
    result = cli("diff", "--board", "board.yaml", "--format", "json", "--timeout", "60", *args)
    found = result.json()
    results = {found["total_diff"]["result"], found["winner_diff"]["result"]}
    # Exit status: 1 when either search differs, 0 when both prove equivalence.
    assert result.code == (1 if "differs" in results else 0), result.err
    assert "unknown" not in results
    return found


def totals(tmp_path, game: dict, rules: str) -> list[int]:
    (tmp_path / "witness.yaml").write_text(yaml.safe_dump(game))
    scored = score_game(load_game(tmp_path / "witness.yaml", rules=load_rule_set(rules)))
    return [player.total for player in scored.players]


def test_gentle_siege_differs_on_a_smallest_position(cli, tmp_path, search_board):
    found = run(cli, "--rules", "standard", "--rules", "gentle-siege")
    assert found["rules"] == ["standard", "gentle-siege"]
    total = found["total_diff"]
    assert total["result"] == "differs"
    game = total["counterexample"]
    # A core (3 states) besieged by the other player's home: 4 owned states.
    assert sum(1 + len(p["states"]) for p in game["players"]) == 4
    assert totals(tmp_path, game, "standard") != totals(tmp_path, game, "gentle-siege")
    winner = found["winner_diff"]
    assert winner["result"] == "differs"
    (tmp_path / "w.yaml").write_text(yaml.safe_dump(winner["counterexample"]))
    standard = score_game(load_game(tmp_path / "w.yaml", rules=load_rule_set("standard")))
    gentle = score_game(load_game(tmp_path / "w.yaml", rules=load_rule_set("gentle-siege")))
    assert standard.winners != gentle.winners


def test_union_cores_needs_two_cores_and_never_changes_a_lone_winner(cli, tmp_path, search_board):
    found = run(
        cli,
        "--rules",
        "standard",
        "--rules",
        "union-cores",
        "--players",
        "1",
    )
    game = found["total_diff"]["counterexample"]
    assert found["total_diff"]["result"] == "differs" and found["total_diff"]["smallest"]
    assert len(game["players"][0]["states"]) == 4  # home + two triangles: 5 states
    assert totals(tmp_path, game, "standard") != totals(tmp_path, game, "union-cores")
    assert found["winner_diff"] == {
        "result": "equivalent",
        "counterexample": None,
        "smallest": False,
        "seconds": found["winner_diff"]["seconds"],
    }


def test_a_rule_set_is_equivalent_to_itself(cli, tmp_path, search_board):
    found = run(cli, "--rules", "standard", "--rules", "standard", "--players", "1")
    assert found["total_diff"]["result"] == "equivalent"
    assert found["winner_diff"]["result"] == "equivalent"


def test_diff_needs_two_rule_sets(cli):
    result = cli("diff", "--rules", "standard")
    assert result.code == 2 and "exactly two" in result.err


def test_a_rule_set_with_programs_is_refused_not_proved_equivalent(cli, tmp_path, search_board):
    """Both positions of a diff are grounded together, so a rule set's own
    program would score both alike (docs/formats.md's home-bonus.lp: every home
    worth 5 more would look equivalent to standard): refused, one line."""
    (tmp_path / "home-bonus.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    (tmp_path / "home-bonus.yaml").write_text(
        "name: home-bonus\nextends: standard\nprograms: [home-bonus.lp]\n"
    )
    result = cli(
        "diff", "--board", "board.yaml", "--rules", "standard", "--rules", "home-bonus.yaml"
    )
    assert result.code == 2 and result.out == ""
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: home-bonus.yaml: diff compares rule sets of numbers")
