"""evlogic tune: on a board small enough to play every candidate whole, the
front is the brute-force front; a candidate that breaks a required
property never passes; the same seed gives the same answer with any jobs;
bad spaces are one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from conftest import REPO
from evlogic.loading.boards import load_board
from evlogic.loading.space import load_space
from evlogic.simulation.balance import Setup, play_games

LAKELAND = str(REPO / "examples" / "lakeland" / "board.yaml")

SPACE = {
    "extends": "standard",
    "search": {"siege_penalty": [0, 5, 15], "tiers": {3: [5, 25]}},
    "objectives": ["first_seat_advantage", "seat_spread"],
}


def write(tmp_path: Path, space: dict, name: str = "space.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(space, sort_keys=False))
    return path


def tune(cli, *args: str) -> dict:
    result = cli("tune", *args, "--board", LAKELAND, "--players", "2", "--format", "json")
    assert result.code == 0, result.err
    return result.json()


def plain_objectives(records: list[dict]) -> tuple[float, float]:
    """Seat 1's distance from a fair share and the seat spread, recounted."""
    seats = [0.0, 0.0]
    for record in records:
        winners = record["final"]["winners"]
        for index, player in enumerate(record["final"]["players"]):
            if player["name"] in winners:
                seats[index] += 1 / len(winners)
    rates = [s / len(records) for s in seats]
    return round(abs(rates[0] - 0.5), 6), round(max(rates) - min(rates), 6)


@pytest.mark.exhaustive
def test_the_front_is_the_brute_force_front(cli, tmp_path):
    path = write(tmp_path, SPACE)
    document = tune(cli, path, "--games", "30", "--seed", "4")
    assert document["candidates_tried"] == 6
    assert document["games_played"] == 6 * 30
    space = load_space(path)
    board = load_board(LAKELAND)
    points = {}
    for candidate in space.candidates:
        setup = Setup(board, (candidate.rules,), "greedy", 2, "snake", 30, 4)
        points[candidate.rules.name] = plain_objectives(list(play_games(setup)))

    def dominated(name: str) -> bool:
        mine = points[name]
        return any(
            all(a <= b for a, b in zip(other, mine, strict=True)) and other != mine
            for other in points.values()
        )

    expected = {name for name in points if not dominated(name)}
    front = {entry["rule_set"]["name"]: entry for entry in document["front"]}
    assert set(front) == expected
    for name, entry in front.items():
        objectives = entry["objectives"]
        assert (
            objectives["first_seat_advantage"]["value"],
            objectives["seat_spread"]["value"],
        ) == (
            pytest.approx(points[name][0], abs=1e-6),
            pytest.approx(points[name][1], abs=1e-6),
        )
        for interval in objectives.values():
            assert interval["low"] <= interval["value"] <= interval["high"]
    best = document["front"][document["best"]]
    assert best == min(
        document["front"],
        key=lambda e: (*(e["objectives"][o]["value"] for o in SPACE["objectives"]), e["distance"]),
    )


def test_a_candidate_that_breaks_a_required_property_never_passes(cli, tmp_path):
    # A property that fails for every rule set whose siege penalty is above 5.
    (tmp_path / "gentle.lp").write_text(
        "violation :- rule_set(R), param(R, siege_penalty, P), P > 5.\n"
    )
    space = {**SPACE, "require": {"properties": [str(tmp_path / "gentle.lp")]}}
    document = tune(cli, write(tmp_path, space), "--games", "20")
    assert document["front"]
    for entry in document["front"]:
        assert entry["rule_set"]["siege_penalty"] <= 5
        assert entry["requirements"][str(tmp_path / "gentle.lp")] == "proved"


def test_a_play_requirement_keeps_out_what_it_rules_out(cli, tmp_path):
    space = {**SPACE, "require": {"bonus_decides": {"at_most": 0.0}}}
    document = tune(cli, write(tmp_path, space), "--games", "20")
    for entry in document["front"]:
        assert entry["requirements"]["bonus_decides"] == "met"


def test_successive_halving_keeps_to_the_budget(cli, tmp_path):
    document = tune(cli, write(tmp_path, SPACE), "--games", "40", "--budget", "100")
    assert document["games_played"] <= 100
    assert [r["candidates"] for r in document["rounds"]] == sorted(
        (r["candidates"] for r in document["rounds"]), reverse=True
    )


def test_the_same_seed_gives_the_same_answer_with_any_jobs(cli, tmp_path):
    path = write(tmp_path, SPACE)
    one = tune(cli, path, "--games", "20", "--seed", "7")
    assert tune(cli, path, "--games", "20", "--seed", "7", "--jobs", "2") == one


def test_the_best_candidate_is_written_as_a_rule_set_every_command_reads(cli, tmp_path):
    best = tmp_path / "out" / "best.yaml"
    best.parent.mkdir()
    document = tune(cli, write(tmp_path, SPACE), "--games", "10", "-o", best)
    written = yaml.safe_load(best.read_text())
    as_json = json.loads(json.dumps(written))  # tier sizes as JSON writes keys
    assert as_json == document["front"][document["best"]]["rule_set"]
    score = cli("score", "--rules", best, "--format", "json")
    assert score.code == 0, score.err
    assert score.json()["rules"] == written["name"]


@pytest.mark.parametrize(
    ("space", "says"),
    [
        ({"search": {"siege": [5]}}, "unknown parameter 'siege'"),
        ({"search": {"siege_penalty": []}}, "must list at least one value"),
        ({"search": {"siege_penalty": [-5]}}, "search.siege_penalty[0]"),
        ({"search": {"siege_penalty": [5]}, "objectives": ["fun"]}, "unknown objective 'fun'"),
        ({"search": {"tiers": {3: ["x"]}}}, "bonus"),
        (
            {"search": {"siege_penalty": [5]}, "require": {"bonus_decides": {"at_least": 2}}},
            "between 0 and 1",
        ),
        ({"search": {"siege_penalty": [5]}, "require": {"properties": ["nope"]}}, "'nope'"),
        ({"search": {"siege_penalty": list(range(40))}}, "--budget"),
    ],
)
def test_a_bad_space_is_one_line_and_exit_2(cli, tmp_path, space, says):
    result = cli("tune", write(tmp_path, space), "--board", LAKELAND, "--players", "2")
    assert result.code == 2, result.out
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert says in result.err
    assert "Traceback" not in result.err


def test_the_report_is_one_self_contained_page_with_the_front(cli, tmp_path):
    page = tmp_path / "tune.html"
    document = tune(cli, write(tmp_path, SPACE), "--games", "10", "--report", page)
    text = page.read_text()
    assert text.count("<svg") >= 2  # the front, and the best candidate's charts
    assert "The Pareto front" in text and "The best candidate in play" in text
    for entry in document["front"]:
        assert entry["rule_set"]["name"] in text
    assert not re.search(r'(src|href)="https?:', text)


def test_the_document_meets_its_schema(cli, tmp_path):
    from test_schemas import assert_valid

    assert_valid("tune", tune(cli, write(tmp_path, SPACE), "--games", "5"))


def test_past_its_timeout_tune_stops_with_3_and_writes_nothing(cli, tmp_path):
    """A budget far past what the time allows, over 1,000 candidates."""
    space = {"extends": "standard", "search": {"siege_penalty": list(range(1000))}}
    result = cli(
        "tune",
        write(tmp_path, space),
        "--board",
        LAKELAND,
        "--players",
        "2",
        "--budget",
        "100000",
        "--timeout",
        "3",
        "-o",
        tmp_path / "best.yaml",
        "--report",
        tmp_path / "tune.html",
    )
    assert result.code == 3, result.err
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert "within 3 s" in result.err and "games played" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["space.yaml"]


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon"])
def test_a_bad_check_timeout_names_check_timeout(cli, tmp_path, value):
    result = cli("tune", write(tmp_path, SPACE), "--check-timeout", value)
    assert result.code == 2
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert result.err.startswith("evlogic: error: --check-timeout:"), result.err


def test_a_space_s_property_files_are_found_from_its_own_folder(cli, tmp_path, monkeypatch):
    folder = tmp_path / "spaces"
    folder.mkdir()
    (folder / "gentle.lp").write_text(
        "violation :- rule_set(R), param(R, siege_penalty, P), P > 5.\n"
    )
    path = write(folder, {**SPACE, "require": {"properties": ["gentle.lp"]}})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    document = tune(cli, path, "--games", "10")
    assert document["front"]
    for entry in document["front"]:
        assert entry["rule_set"]["siege_penalty"] <= 5
        assert entry["requirements"]["gentle.lp"] == "proved"


@pytest.mark.parametrize(
    ("require", "field"),
    [
        ({"properties": ["missing.lp"]}, "require.properties[0]"),
        ({"properties": ["own-monotone", "sub/missing.lp"]}, "require.properties[1]"),
        ({"bonus_decides": {"at_least": 0.9, "at_most": 0.1}}, "require.bonus_decides.at_least"),
        ({"siege_decides": {"at_most": 0.2, "at_least": 0.3}}, "require.siege_decides.at_least"),
    ],
)
def test_a_requirement_that_cannot_be_met_or_read_names_the_space_and_field(
    cli, tmp_path, monkeypatch, require, field
):
    (tmp_path / "missing.lp").write_text("violation.\n")  # beside the caller, not the space
    folder = tmp_path / "spaces"
    folder.mkdir()
    path = write(folder, {**SPACE, "require": require})
    monkeypatch.chdir(tmp_path)
    result = cli("tune", path, "--board", LAKELAND, "--players", "2")
    assert result.code == 2, result.err
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert str(path) in result.err and field in result.err, result.err
    assert "PROPERTY" not in result.err and "Traceback" not in result.err
