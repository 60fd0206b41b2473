"""The library: every command a function of evlogic whose result's
to_json() is the command's --format json output, whose help() names
every parameter, whose bad input is the command's error; docs/api.md is
what docs/generate_api.py writes."""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import evlogic
from conftest import REPO

LAKELAND = "examples/lakeland"
BOARD = f"{LAKELAND}/board.yaml"
GAME = f"{LAKELAND}/game.yaml"

#: Figures that differ from run to run: a search's seconds.
TIMING = [
    (re.compile(r'"seconds": \d+(?:\.\d+)?'), '"seconds": …'),
    (re.compile(r"\b(proved|found) in \d+(?:\.\d+)? s\b"), r"\1 in … s"),
]


def steady(text: str) -> str:
    for pattern, replacement in TIMING:
        text = pattern.sub(replacement, text)
    return text


def _generator():
    spec = importlib.util.spec_from_file_location("generate_api", REPO / "docs" / "generate_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_api_page_is_what_the_functions_say():
    """Regenerate with: python docs/generate_api.py"""
    page = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    assert page == _generator().page()


def test_the_api_page_has_every_command_function():
    functions = {function.__name__ for function in _generator().command_functions()}
    assert {
        "score",
        "explain",
        "diagram",
        "verify",
        "batch",
        "sample",
        "check",
        "diff",
        "board_report",
        "layout",
        "rulebook",
        "play",
        "balance",
        "tune",
    } <= functions
    for name in functions:  # each reachable from evlogic, and listed
        assert name in evlogic.__all__
        assert callable(getattr(evlogic, name))


@pytest.mark.parametrize(
    ("command", "call"),
    [
        (
            ["score", "examples/rulebook/full-example.yaml"],
            lambda: evlogic.score("examples/rulebook/full-example.yaml"),
        ),
        (
            ["score", f"{LAKELAND}/game.yaml", "--rules", f"{LAKELAND}/home-bonus.yaml"],
            lambda: evlogic.score(
                Path(LAKELAND) / "game.yaml", rules=f"{LAKELAND}/home-bonus.yaml"
            ),
        ),
        (
            ["explain", "examples/rulebook/diagram-4-siege.yaml", "--player", "You"],
            lambda: evlogic.explain("examples/rulebook/diagram-4-siege.yaml", player="You"),
        ),
        (["verify", f"{LAKELAND}/game.yaml"], lambda: evlogic.verify(f"{LAKELAND}/game.yaml")),
        (["verify", "examples/rulebook"], lambda: evlogic.verify(["examples/rulebook"])),
        (["board-report", BOARD], lambda: evlogic.board_report(BOARD)),
        (
            ["check", "bonus-bounds", "--board", BOARD],
            lambda: evlogic.check("bonus-bounds", board=BOARD),
        ),
        (
            ["check", f"{LAKELAND}/bonus-survives.lp", "--board", BOARD],
            lambda: evlogic.check(f"{LAKELAND}/bonus-survives.lp", board=BOARD),
        ),
        (
            [
                "diff",
                "--rules",
                "rules/standard.yaml",
                "--rules",
                "rules/variants/flat-tiers.yaml",
                "--board",
                BOARD,
            ],
            lambda: evlogic.diff(
                ["rules/standard.yaml", "rules/variants/flat-tiers.yaml"], board=BOARD
            ),
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_to_json_is_the_commands_json_output(cli, monkeypatch, command, call):
    monkeypatch.chdir(REPO)
    done = cli(*command, "--format", "json")
    result = call()
    assert steady(result.to_json() + "\n") == steady(done.out)
    status = getattr(result, "exit_status", lambda: 0)()
    assert status == done.code


@pytest.mark.parametrize(
    ("command", "call"),
    [
        (
            ["score", f"{LAKELAND}/game.yaml", "--rules", "rules/variants/gentle-siege.yaml"],
            lambda: evlogic.score(
                f"{LAKELAND}/game.yaml", rules=evlogic.load_rule_set("gentle-siege")
            ).to_text(),
        ),
        (
            ["explain", f"{LAKELAND}/game.yaml", "--player", "Ada"],
            lambda: evlogic.explain(
                evlogic.load_game(f"{LAKELAND}/game.yaml"), player="Ada"
            ).to_text(),
        ),
        (["verify", "examples/rulebook"], lambda: evlogic.verify("examples/rulebook").to_text()),
        (["layout", BOARD], lambda: evlogic.layout(BOARD).to_text()),
        (
            ["sample", "--board", BOARD, "--players", "2", "--count", "3", "--seed", "7"],
            lambda: evlogic.sample(board=BOARD, players=2, count=3, seed=7).to_jsonl(),
        ),
        (
            ["batch", "tests/golden/games.jsonl", "--board", BOARD, "--jobs", "1"],
            lambda: "".join(
                line.to_json() + "\n"
                for line in evlogic.batch("tests/golden/games.jsonl", board=BOARD, jobs=1)
            ),
        ),
        (
            ["rulebook", "--rules", "gentle-siege", "--against", "standard"],
            lambda: evlogic.rulebook(rules="gentle-siege", against="standard").html,
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_the_results_own_output_is_the_commands(cli, monkeypatch, command, call):
    monkeypatch.chdir(REPO)
    done = cli(*command)
    assert done.code == 0, done.err
    assert steady(call()) == steady(done.out)


def test_diagram_draws_what_the_command_writes(cli, monkeypatch, tmp_path):
    monkeypatch.chdir(REPO)
    for flags, call in [
        (["--player", "Bo"], lambda: evlogic.diagram(f"{LAKELAND}/game.yaml", player="Bo")),
        (["--all"], lambda: evlogic.diagram(f"{LAKELAND}/game.yaml", all=True)),
    ]:
        written = tmp_path / "drawn.svg"
        done = cli("diagram", f"{LAKELAND}/game.yaml", *flags, "-o", written)
        assert done.code == 0, done.err
        assert call().svg == written.read_text(encoding="utf-8")


def test_a_batch_line_tells_its_number_and_error():
    lines = [
        '{"players": [{"name": "A", "home": "KY", "states": ["IN"]}]}',
        "",
        '{"players": [{"name": "A", "home": "KX"}]}',
    ]
    first, third = evlogic.batch(lines, board="usa", jobs=1)
    assert (first.line, first.error, first.to_dict()["players"][0]["total"]) == (1, None, 19)
    assert third.line == 3
    assert "unknown state 'KX'" in (third.error or "")


@pytest.mark.parametrize("function", _generator().command_functions(), ids=lambda f: f.__name__)
def test_help_teaches_every_parameter(function):
    doc = inspect.getdoc(function) or ""
    assert "Returns" in doc or "returns" in doc or "iterator" in doc
    assert ">>> " in doc  # an example
    for name in inspect.signature(function).parameters:
        assert f"``{name}``" in doc, f"{function.__name__}'s docstring never explains {name}"


@pytest.mark.parametrize(
    ("command", "call"),
    [
        (["score", f"{LAKELAND}/missing.yaml"], lambda: evlogic.score(f"{LAKELAND}/missing.yaml")),
        (
            ["score", f"{LAKELAND}/game.yaml", "--rules", "nope"],
            lambda: evlogic.score(f"{LAKELAND}/game.yaml", rules="nope"),
        ),
        (
            ["explain", f"{LAKELAND}/game.yaml", "--player", "Nobody"],
            lambda: evlogic.explain(f"{LAKELAND}/game.yaml", player="Nobody"),
        ),
        (
            ["diagram", f"{LAKELAND}/game.yaml", "--player", "Bo", "--all"],
            lambda: evlogic.diagram(f"{LAKELAND}/game.yaml", player="Bo", all=True),
        ),
        (["verify", f"{LAKELAND}/nowhere"], lambda: evlogic.verify(f"{LAKELAND}/nowhere")),
        (
            ["batch", "tests/golden/games.jsonl", "--board", "usx"],
            lambda: list(evlogic.batch("tests/golden/games.jsonl", board="usx")),
        ),
        (
            ["sample", "--board", BOARD, "--players", "9", "--count", "1"],
            lambda: evlogic.sample(board=BOARD, players=9, count=1),
        ),
        (
            ["check", "no-such-property", "--board", BOARD],
            lambda: evlogic.check("no-such-property", board=BOARD),
        ),
        (["diff", "--rules", "standard"], lambda: evlogic.diff(["standard"])),
        (["board-report", "usx"], lambda: evlogic.board_report("usx")),
        (["layout", BOARD, "--keep", "ZZ"], lambda: evlogic.layout(BOARD, keep=["ZZ"])),
        (["rulebook", "--template", "nowhere.j2"], lambda: evlogic.rulebook(template="nowhere.j2")),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_bad_input_is_the_commands_error(cli, monkeypatch, command, call):
    monkeypatch.chdir(REPO)
    done = cli(*command)
    assert done.code == 2
    with pytest.raises(evlogic.InputError) as raised:
        call()
    assert done.err == f"evlogic: error: {raised.value}\n"
