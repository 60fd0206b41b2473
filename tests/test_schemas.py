"""The published JSON Schemas hold for every bundled file and every JSON
document the commands print, and refuse what the loaders refuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from conftest import REPO, RULEBOOK
from evlogic.loading.schema import CHECKS, CHECKS_DIRECTORY, _check, generated_check, validate
from evlogic.schemas import schema_names, schema_path


def validator(name: str) -> Draft202012Validator:
    """A validator for one schema; the others resolve by file name ($ref)."""
    registry = Registry().with_resources(
        (f"{other}.schema.json", Resource.from_contents(json.loads(schema_path(other).read_text())))
        for other in schema_names()
    )
    schema = json.loads(schema_path(name).read_text())
    return Draft202012Validator(schema, registry=registry)


def yaml_as_json(path: Path) -> object:
    """A YAML file as an editor's YAML language server sees it: JSON data
    (mapping keys are text, as JSON Schema requires)."""
    return json.loads(json.dumps(yaml.safe_load(path.read_text())))


def assert_valid(name: str, document: object) -> None:
    errors = [error.message for error in validator(name).iter_errors(document)]
    assert errors == [], errors


def test_the_schemas_are_valid_draft_2020_12():
    assert schema_names() == [
        "balance",
        "balance-game",
        "board",
        "board-report",
        "check",
        "diff",
        "explain",
        "game",
        "ladder",
        "play",
        "rules",
        "score",
        "solve",
        "tune",
    ]
    for name in schema_names():
        Draft202012Validator.check_schema(json.loads(schema_path(name).read_text()))


@pytest.mark.parametrize("path", sorted(RULEBOOK.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_example_game_is_valid(path: Path):
    assert_valid("game", yaml_as_json(path))


@pytest.mark.parametrize("path", sorted((REPO / "maps").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_board_is_valid(path: Path):
    assert_valid("board", yaml_as_json(path))


@pytest.mark.parametrize(
    "path",
    [REPO / "rules" / "standard.yaml", *sorted((REPO / "rules" / "variants").glob("*.yaml"))],
    ids=lambda p: p.stem,
)
def test_every_bundled_rule_set_is_valid(path: Path):
    assert_valid("rules", yaml_as_json(path))


@pytest.mark.parametrize(
    ("name", "document"),
    [
        ("game", {"board": "usa", "players": [{"name": "A", "home": "KY", "colour": "red"}]}),
        ("game", {"board": "usa", "players": []}),
        ("board", {"states": {"A": {"ev": 0}}}),
        ("rules", {"extends": "standard", "region": "biggest"}),
        ("rules", {"tiers": {"three": 15}}),
    ],
    ids=["unknown-key", "no-players", "ev-zero", "bad-region", "tier-not-a-size"],
)
def test_the_schemas_refuse_what_the_loaders_refuse(name, document):
    assert list(validator(name).iter_errors(document))


@pytest.mark.parametrize("path", sorted(RULEBOOK.glob("*.yaml")), ids=lambda p: p.stem)
def test_score_and_explain_output_is_valid(cli, path: Path):
    assert_valid("score", cli("score", path, "--format", "json").json())
    first = yaml.safe_load(path.read_text())["players"][0]["name"]
    assert_valid("explain", cli("explain", path, "--player", first, "--format", "json").json())


def test_check_output_is_valid_for_every_answer(cli, tmp_path, search_board):
    (tmp_path / "always.lp").write_text("violation.\n")
    holds = cli("check", "bonus-bounds", "--board", "board.yaml", "--format", "json")
    found = cli("check", "always.lp", "--board", "board.yaml", "--format", "json")
    unknown = cli("check", "own-monotone", "--timeout", "0.01", "--format", "json")
    for answer, result in ((holds, "holds"), (found, "counterexample"), (unknown, "unknown")):
        assert answer.json()["result"] == result
        assert_valid("check", answer.json())


@pytest.mark.parametrize("rules", ["standard", "union-cores"])
def test_board_report_output_is_valid(cli, rules):
    assert_valid("board-report", cli("board-report", "--rules", rules, "--format", "json").json())


def test_diff_output_is_valid(cli, search_board):
    answer = cli(
        "diff",
        "--board",
        "board.yaml",
        "--rules",
        "standard",
        "--rules",
        "gentle-siege",
        "--format",
        "json",
    )
    assert answer.json()["total_diff"]["result"] == "differs"
    assert_valid("diff", answer.json())


def test_batch_lines_are_score_reports(cli, tmp_path):
    game = yaml.safe_load((RULEBOOK / "full-example.yaml").read_text())
    game.pop("expect")
    (tmp_path / "games.jsonl").write_text(json.dumps(game) + "\n")
    result = cli("batch", tmp_path / "games.jsonl", "--jobs", "1")
    line = json.loads(result.out)
    assert line.pop("line") == 1
    assert_valid("score", line)


def test_the_schema_command_prints_each_schema(cli):
    for name in schema_names():
        printed = cli("schema", name)
        assert printed.code == 0
        assert json.loads(printed.out) == json.loads(schema_path(name).read_text())
    unknown = cli("schema", "gam")
    assert unknown.code == 2 and "did you mean 'game'?" in unknown.err


def test_play_and_balance_documents_meet_their_schemas(cli, tmp_path):
    board = str(REPO / "examples" / "lakeland" / "board.yaml")
    played = cli("play", "--board", board, "--players", "3", "--format", "json")
    assert played.code == 0, played.err
    assert_valid("play", played.json())
    games = tmp_path / "games.jsonl"
    balance = cli(
        "balance",
        "--board",
        board,
        "--players",
        "2",
        "--games",
        "4",
        "--format",
        "json",
        "--rules",
        "standard",
        "--rules",
        "union-cores",
        "--agents",
        "greedy,face",
        "--games-out",
        games,
    )
    assert balance.code == 0, balance.err
    assert_valid("balance", balance.json())
    for line in games.read_text().splitlines():
        assert_valid("balance-game", json.loads(line))


@pytest.mark.parametrize(("name", "part"), list(CHECKS))
def test_the_generated_checks_are_in_step_with_the_schemas(name, part):
    """evlogic/loading/checks/ is what fastjsonschema makes of the schemas
    today: after changing a schema, run python -m evlogic.loading.schema."""
    written = (CHECKS_DIRECTORY / f"{CHECKS[name, part]}.py").read_text(encoding="utf-8")
    assert written == generated_check(name, part), "run: python -m evlogic.loading.schema"


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ({"states": {"A": {"ev": 1, "neighbours": []}}}, "unknown key 'neighbours'"),
        ({"states": {"A": {"ev": 0}}}, "between 1 and 10000000"),
        ({"states": {"A": {"ev": 1, "hex": [0, 0, 0]}}}, "not 3 items"),
        ({"states": {}}, "at least one state"),
    ],
)
def test_a_board_the_generated_check_refuses_is_refused_by_the_schema(document, problem):
    """The fast check and the wording check (jsonschema) agree: what one
    refuses the other words."""
    from evlogic.errors import InputError
    from evlogic.loading.yamlfile import Field

    with pytest.raises(ValueError):
        _check("board")(document)
    with pytest.raises(InputError, match=problem):
        validate(Field("board.yaml", "", document, None, None), "board", "a board mapping")
