"""The Python API: the README's example, paths and rule sets, and games
built in Python checked as files are."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import evlogic
from conftest import REPO, RULEBOOK


def readme_example() -> str:
    text = (REPO / "README.md").read_text()
    return re.search(r"## Python API.*?```python\n(.*?)```", text, re.S).group(1)


def test_the_readme_example_prints_what_it_says(monkeypatch):
    monkeypatch.chdir(REPO)
    code = readme_example()
    expected = [
        line.split("# ", 1)[1].split(": ", 1)[0].strip()
        for line in code.splitlines()
        if line.startswith("print(")
    ]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue().splitlines() == expected


def test_paths_may_be_text_or_path_like(tmp_path):
    game = REPO / "examples" / "rulebook" / "full-example.yaml"
    for path in (str(game), game, Path(str(game))):
        assert evlogic.score_file(path).players[0].total == 39
        assert evlogic.load_game(path).players[0].name == "You"
    assert len(evlogic.load_board(str(REPO / "maps" / "usa.yaml")).states) == 51


def test_a_board_may_be_a_bundled_name_as_on_the_command_line(tmp_path, monkeypatch):
    usa = evlogic.load_board("usa")
    assert (usa.name, len(usa.states), usa.states["KY"].ev) == (
        "United States (2024 electors)",
        51,
        8,
    )
    from_file = evlogic.load_board(REPO / "maps" / "usa.yaml")
    assert {state: (s.ev, s.neighbors) for state, s in usa.states.items()} == {
        state: (s.ev, s.neighbors) for state, s in from_file.states.items()
    }
    players = (
        evlogic.Player("You", "KY", ("IN", "WV", "TN")),
        evlogic.Player("Rival", "OH", ("VA", "MO")),
    )
    report = evlogic.score_game(evlogic.Game(usa, players, source="python"))
    assert [player.total for player in report.players] == [39, 40]
    with pytest.raises(evlogic.InputError) as raised:
        evlogic.load_board("usx")
    assert str(raised.value).startswith("board: no bundled board 'usx' (did you mean 'usa'?)")
    # Text with a '/' or a .yaml ending is a path, as a game's board: is.
    monkeypatch.chdir(REPO / "examples" / "lakeland")
    assert evlogic.load_board("board.yaml").name == "Lakeland"
    assert evlogic.load_board("./board.yaml").name == "Lakeland"


def test_dir_lists_the_public_names_before_they_are_imported():
    program = "import evlogic, json, sys; print(json.dumps([dir(evlogic), sorted(sys.modules)]))"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    names, modules = json.loads(done.stdout)
    public = [name for name in names if not name.startswith("__")]
    assert public == sorted(name for name in evlogic.__all__ if not name.startswith("__"))
    assert {"__version__", "__doc__", "__name__"} <= set(names)
    assert "evlogic.reports.score" not in modules  # listing the names imported nothing
    for name in public:  # and each one is there
        assert getattr(evlogic, name).__name__ == name


def test_a_rule_set_may_be_a_name_a_file_or_a_rule_set(tmp_path):
    game = REPO / "examples" / "rulebook" / "full-example.yaml"
    (tmp_path / "soft.yaml").write_text("name: soft\nextends: standard\nsiege_penalty: 0\n")
    assert evlogic.score_file(game, rules="gentle-siege").players[0].total == 49
    assert evlogic.score_file(game, rules=str(tmp_path / "soft.yaml")).players[0].total == 59
    rules = evlogic.load_rule_set("gentle-siege")
    assert evlogic.score_file(game, rules=rules).players[0].total == 49


def test_bad_input_raises_input_error_with_the_cli_wording(tmp_path):
    with pytest.raises(evlogic.InputError) as raised:
        evlogic.score_file(tmp_path / "nowhere.yaml")
    assert str(raised.value).endswith("nowhere.yaml: no such file")


def _usa_game(*players: tuple[str, str, tuple[str, ...]], **changes: object) -> evlogic.Game:
    board = evlogic.load_board(REPO / "maps" / "usa.yaml")
    game = evlogic.Game(board, tuple(evlogic.Player(*player) for player in players), "<api>")
    return dataclasses.replace(game, **changes)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (
            [("A", "TX", ("OK",)), ("B", "NY", ("OK",))],
            "game: players[1].states[0]: 'OK' is already owned by 'A'",
        ),
        (
            [("A", "TX", ()), ("B", "TX", ())],
            "game: players[1].home: 'TX' is already the home of 'A'",
        ),
        (
            [("A", "TX", ("NY",)), ("B", "NY", ())],
            "game: players[0].states[0]: 'NY' is the home of 'B'; homes never change hands",
        ),
        (
            [("A", "TX", ()), ("A", "NY", ())],
            "game: players[1].name: player name 'A' is used twice",
        ),
        ([("A", "TX", ("OK", "OK"))], "game: players[0].states[1]: 'OK' is listed twice"),
        ([("A", "Texas", ())], "game: players[0].home: unknown state 'Texas' (did you mean"),
        ([("A", "TX", "OK")], "game: players[0].states: must be a list of state ids, not text"),
        ([(None, "TX", ())], "game: players[0].name: must be a player name, not nothing"),
        ([], "game: players: must list at least one player"),
    ],
)
def test_a_game_built_in_python_is_checked_as_a_file_is(tmp_path, players, message):
    game = _usa_game(*players)
    with pytest.raises(evlogic.InputError) as raised:
        evlogic.score_game(game)
    assert str(raised.value).startswith(message)
    with pytest.raises(evlogic.InputError) as explained:
        evlogic.explain_game(game, "A")
    assert str(explained.value) == str(raised.value)
    # the same position as a file: the same check, worded for the file
    written = {
        "board": str(REPO / "maps" / "usa.yaml"),
        "players": [
            {"name": n, "home": h, "states": list(s) if isinstance(s, tuple) else s}
            for n, h, s in players
        ],
    }
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump(written))
    with pytest.raises(evlogic.InputError) as from_file:
        evlogic.load_game(path)
    assert from_file.value.message == raised.value.message
    assert from_file.value.field == raised.value.field


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ("game.yaml", "game: must be a Game (evlogic.load_game reads one), not str"),
        (None, "game: must be a Game (evlogic.load_game reads one), not nothing"),
        (
            _usa_game(("A", "TX", ()), board="usa"),
            "game: board: must be a Board (evlogic.load_board reads one), not str",
        ),
        (
            _usa_game(("A", "TX", ()), rules="standard"),
            "game: rules: must be a RuleSet (evlogic.load_rule_set reads one), not str",
        ),
        (
            _usa_game(("A", "TX", ()), players=({"name": "A", "home": "TX"},)),
            "game: players[0]: must be a Player, not dict",
        ),
        (_usa_game(("A", "TX", ()), players="A"), "game: players: must be a list of players"),
        (
            _usa_game(("A", "TX", (5,))),  # (a file's plain 5 is the id '5')
            "game: players[0].states[0]: must be a state id, not a number",
        ),
    ],
)
def test_wrong_types_are_input_errors_naming_the_field(game, message):
    with pytest.raises(evlogic.InputError) as raised:
        evlogic.score_game(game)
    assert str(raised.value).startswith(message)


def test_a_board_built_in_python_is_checked_as_a_file_is():
    usa = evlogic.load_board(REPO / "maps" / "usa.yaml")
    one_sided = dataclasses.replace(usa.states["TX"], neighbors=("NY",))
    board = dataclasses.replace(usa, states={**usa.states, "TX": one_sided})
    game = evlogic.Game(board, (evlogic.Player("A", "TX", ()),), "<api>")
    with pytest.raises(evlogic.InputError) as raised:
        evlogic.score_game(game)
    assert str(raised.value).startswith("game: board.states.AR.neighbors[")
    assert "'AR' lists 'TX' as a neighbour, but 'TX' does not list 'AR'" in str(raised.value)
    worthless = dataclasses.replace(usa.states["TX"], ev=0)
    board = dataclasses.replace(usa, states={**usa.states, "TX": worthless})
    with pytest.raises(evlogic.InputError, match=r"^game: board\.states\.TX\.ev: must be"):
        evlogic.score_game(dataclasses.replace(game, board=board))


def test_a_valid_game_built_in_python_scores_as_its_file_does():
    loaded = evlogic.load_game(RULEBOOK / "full-example.yaml")
    players = tuple(evlogic.Player(p.name, p.home, tuple(p.states)) for p in loaded.players)
    board = dataclasses.replace(loaded.board)  # a copy: checked afresh
    built = evlogic.Game(board, players, "<api>", loaded.rules)
    assert evlogic.score_game(built).players[0].total == 39
    assert evlogic.explain_game(built, "You").score.total == 39
