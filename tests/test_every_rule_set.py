"""Every command that takes --rules, with every rule set `score` accepts.

The rule sets are the bundled ones (rules/standard.yaml, rules/variants/)
and the examples' (examples/lakeland/: numbers only, and a program of its
own that gives every home face value from a source that is not a state).
A command either answers, in agreement with score where it reports the same
figure, or refuses in one line, exit 2, where its documentation says it
takes rule sets of numbers only (board-report, diff).  Never a traceback,
never an internal error.  The same holds for the serve API started with
--rules, and for a tune space extending a rule set with a program.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import yaml
from starlette.testclient import TestClient

from conftest import LOCAL_URL, REPO
from evlogic.loading.games import load_game
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.score import score_game
from evlogic.resources import rules_dir
from evlogic.web.app import create_app
from evlogic.web.service import Catalog
from evlogic.web.workers import Workers

LAKELAND = REPO / "examples" / "lakeland"
BOARD = LAKELAND / "board.yaml"
GAME = LAKELAND / "game.yaml"


def rule_sets() -> list[Path]:
    bundled = [rules_dir() / "standard.yaml", *sorted((rules_dir() / "variants").glob("*.yaml"))]
    read = {path: yaml.safe_load(path.read_text()) for path in REPO.glob("examples/**/*.yaml")}
    examples = [  # a rule set extends another; a tune space has a search: too
        path for path, keys in sorted(read.items()) if "extends" in keys and "search" not in keys
    ]
    return [*bundled, *examples]


RULE_SETS = rule_sets()


def has_programs(path: Path) -> bool:
    return bool(yaml.safe_load(path.read_text()).get("programs"))


def test_the_examples_hold_a_rule_set_with_a_program_of_its_own():
    assert any(has_programs(path) for path in RULE_SETS)


def answered(result, *codes: int) -> None:
    """Exit with one of ``codes``; on error, one line and no traceback."""
    assert result.code in codes, (result.code, result.err)
    assert "Traceback" not in result.err and "internal error" not in result.err
    if result.code == 2:
        assert len(result.err.strip().splitlines()) == 1, result.err


def refused_as_documented(result, rules: Path) -> None:
    """board-report and diff take rule sets of numbers only."""
    answered(result, 2)
    assert rules.name in result.err and "programs" in result.err


@pytest.fixture(params=RULE_SETS, ids=lambda path: path.stem)
def rules(request) -> Path:
    return request.param


def totals(document: dict) -> dict[str, int]:
    return {player["name"]: player["total"] for player in document["players"]}


def test_score_explain_diagram_and_facts(cli, rules, tmp_path):
    score = cli("score", GAME, "--rules", rules, "--format", "json")
    answered(score, 0)
    expected = totals(score.json())
    for name, total in expected.items():
        explained = cli("explain", GAME, "--player", name, "--rules", rules, "--format", "json")
        answered(explained, 0)
        assert explained.json()["total"] == total
        # every face value from a source that is not a state is named, and
        # counts in the total
        assert all(isinstance(s["value"], int) for s in explained.json()["face_sources"])
        assert bool(explained.json()["face_sources"]) == has_programs(rules)
    answered(cli("explain", GAME, "--player", "Ada", "--rules", rules), 0)
    drawing = tmp_path / "all.svg"
    answered(cli("diagram", GAME, "--all", "--rules", rules, "-o", drawing), 0)
    assert drawing.read_text().startswith("<svg")
    facts = cli("facts", GAME, "--rules", rules)
    answered(facts, 0)
    assert "owned(" in facts.out


def test_batch_and_verify(cli, rules, tmp_path):
    lines = tmp_path / "games.jsonl"
    game = yaml.safe_load(GAME.read_text())
    game.pop("expect")
    game.pop("board")
    lines.write_text(json.dumps(game) + "\n")
    batch = cli("batch", lines, "--board", BOARD, "--rules", rules)
    answered(batch, 0)
    (line,) = [json.loads(text) for text in batch.out.splitlines()]
    score = cli("score", GAME, "--rules", rules, "--format", "json").json()
    assert totals(line) == totals(score)
    answered(cli("verify", GAME, "--rules", rules), 0, 1)  # 1: figures the rule set changes


def test_board_report_check_and_diff(cli, rules):
    report = cli("board-report", BOARD, "--rules", rules)
    checked = cli("check", "own-monotone", "--board", BOARD, "--rules", rules, "--timeout", "60")
    answered(checked, 0, 1, 3)
    diff = cli("diff", "--rules", "standard", "--rules", rules, "--board", BOARD, "--timeout", "60")
    if has_programs(rules):
        refused_as_documented(report, rules)
        refused_as_documented(diff, rules)
    else:
        answered(report, 0)
        answered(diff, 0, 1, 3)


def test_play_balance_and_the_rulebook_page(cli, rules, tmp_path):
    played = cli("play", "--board", BOARD, "--players", "2", "--rules", rules, "--format", "json")
    answered(played, 0)
    assert played.json()["final"]["final"] is True  # played to its end
    balance = cli("balance", "--board", BOARD, "--players", "2", "--games", "2", "--rules", rules)
    answered(balance, 0)
    page = tmp_path / "page.html"
    answered(cli("rulebook", "--rules", rules, "-o", page), 0)
    assert "<html" in page.read_text()


def test_the_web_api(rules):
    """evlogic serve --board BOARD --rules RULES: score, explain and diagram
    under the rule set, score's figures throughout; a balance run too under
    a rule set with a program of its own (the others play as balance does)."""
    catalog = Catalog.build(None, str(BOARD), str(rules))
    game = yaml.safe_load(GAME.read_text())
    start = {"board": catalog.start.board, "rules": catalog.start.rules}
    body = {**start, "players": game["players"]}
    expected = totals(score_game(load_game(GAME, rules=load_rule_set(str(rules)))).to_dict())
    pool = Workers(catalog, size=1) if has_programs(rules) else None
    try:
        answered_by_the_api(catalog, pool, body, expected)
    finally:
        if pool is not None:
            pool.close()


def answered_by_the_api(catalog, pool, body: dict, expected: dict[str, int]) -> None:
    with TestClient(create_app(catalog, workers=pool), base_url=LOCAL_URL) as client:
        score = client.post("/api/score", json=body)
        assert score.status_code == 200, score.text
        assert totals(score.json()) == expected
        for name, total in expected.items():
            explained = client.post("/api/explain", json={**body, "player": name})
            assert explained.status_code == 200, explained.text
            assert explained.json()["total"] == total
        drawing = client.post("/api/diagram", json={**body, "player": "Ada"})
        assert drawing.status_code == 200 and drawing.text.startswith("<svg"), drawing.text
        if pool is None:
            return
        run = {"board": body["board"], "rules": [body["rules"]], "players": 2, "games": 2}
        started = client.post("/api/balance", json=run)
        assert started.status_code == 202, started.text
        deadline = time.monotonic() + 120
        while (done := client.get(f"/api/balance/{started.json()['id']}").json())["status"] in (
            "queued",
            "running",
        ):
            assert time.monotonic() < deadline, done
            time.sleep(0.2)
        assert done["status"] == "done", done
        assert done["report"]["games"] == 2, done["report"]


def test_tune_from_a_rule_set_with_a_program(cli, tmp_path):
    """A tune space may extend a rule set with programs: its candidates play
    and the best is written as a rule set score accepts."""
    (with_program,) = [path for path in RULE_SETS if has_programs(path)][:1]
    space = tmp_path / "space.yaml"
    space.write_text(f"extends: {with_program}\nsearch:\n  siege_penalty: [0, 10]\n")
    best = tmp_path / "best.yaml"
    tune = cli("tune", space, "--board", BOARD, "--players", "2", "--games", "2", "-o", best)
    answered(tune, 0)
    answered(cli("score", GAME, "--rules", best), 0)


def test_solve(cli, rules):
    """Perfect play under every rule set; its agents through the game-state
    API, which takes rule sets of numbers only (refused as documented)."""
    solved = cli("solve", BOARD, "--homes", "W,E", "--rules", rules, "--format", "json")
    answered(solved, 0)
    assert [seat["seat"] for seat in solved.json()["value"]] == [1, 2]
    measured = cli("solve", BOARD, "--homes", "W,E", "--rules", rules, "--agents", "greedy")
    if has_programs(rules):
        refused_as_documented(measured, rules)
    else:
        answered(measured, 0)
