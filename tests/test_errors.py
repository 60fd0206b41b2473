"""Bad input: one line naming the file and the field, exit 2, no traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import board_dict, run_subprocess


def expect_error(cli, game, *fragments: str, source: str | None = None) -> str:
    result = cli("score", game)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    line = lines[0]
    assert line.startswith(f"evlogic: error: {source or game}: "), line
    for fragment in fragments:
        assert fragment in line, line
    return line


GAME_CASES = {
    "yaml syntax": ("board: usa\nplayers: [\n", ["line 3", "YAML syntax error"]),
    "tab indentation": ("board: usa\nplayers:\n\t- x\n", ["line 3", "YAML syntax error"]),
    "empty file": ("", ["file is empty"]),
    "only a comment": ("# nothing\n", ["file is empty"]),
    "top level list": ("- board: usa\n", ["must be a game mapping, not a list"]),
    "top level text": ("hello\n", ["must be a game mapping, not text"]),
    "duplicate key": (
        "board: usa\nboard: usa\nplayers: []\n",
        ["line 2", "duplicate key 'board'", "first on line 1"],
    ),
    "duplicate nested key": (
        "board: usa\nplayers:\n  - name: You\n    home: KY\n    name: Me\n",
        ["line 5", "duplicate key 'name'"],
    ),
    "missing players": ("board: usa\n", ["missing key 'players'"]),
    "missing board": ("players: [{name: You, home: KY}]\n", ["missing key 'board'"]),
    "players not a list": ("board: usa\nplayers: You\n", ["players", "must be a list of players"]),
    "no players": ("board: usa\nplayers: []\n", ["players", "at least one player"]),
    "player not a mapping": ("board: usa\nplayers: [You]\n", ["players[0]", "player mapping"]),
    "missing home": ("board: usa\nplayers: [{name: You}]\n", ["players[0]", "missing key 'home'"]),
    "misspelled key": (
        "board: usa\nplayers: [{name: You, home: KY, stats: [IN]}]\n",
        ["players[0]", "unknown key 'stats'", "did you mean 'states'"],
    ),
    "unknown top key": ("board: usa\nplayer: []\n", ["unknown key 'player'", "did you mean"]),
    "empty name": (
        "board: usa\nplayers: [{name: '', home: KY}]\n",
        ["players[0].name: must be a player name, not empty"],
    ),
    "name is a list": (
        "board: usa\nplayers: [{name: [a], home: KY}]\n",
        ["players[0].name", "not a list"],
    ),
    "states not a list": (
        "board: usa\nplayers: [{name: You, home: KY, states: IN}]\n",
        ["players[0].states", "must be a list"],
    ),
    "unknown home": (
        "board: usa\nplayers: [{name: You, home: KYY}]\n",
        ["players[0].home", "unknown state 'KYY'", "did you mean 'KY'"],
    ),
    "unknown state": (
        "board: usa\nplayers:\n  - {name: You, home: KY, states: [IN, wv]}\n",
        ["line 3", "players[0].states[1]", "unknown state 'wv'", "did you mean 'WV'"],
    ),
    "state owned twice": (
        "board: usa\nplayers:\n  - {name: A, home: KY, states: [IN]}\n"
        "  - {name: B, home: OH, states: [IN]}\n",
        ["line 4", "players[1].states[0]", "'IN' is already owned by 'A'"],
    ),
    "state listed twice": (
        "board: usa\nplayers: [{name: A, home: KY, states: [IN, IN]}]\n",
        ["players[0].states[1]", "listed twice"],
    ),
    "another player's home": (
        "board: usa\nplayers:\n  - {name: A, home: KY, states: [OH]}\n  - {name: B, home: OH}\n",
        ["line 3", "players[0].states[0]", "'OH' is the home of 'B'"],
    ),
    "duplicate player name": (
        "board: usa\nplayers:\n  - {name: A, home: KY}\n  - {name: A, home: OH}\n",
        ["line 4", "players[1].name", "'A' is used twice"],
    ),
    "duplicate home": (
        "board: usa\nplayers:\n  - {name: A, home: KY}\n  - {name: B, home: KY}\n",
        ["line 4", "players[1].home", "already the home of 'A'"],
    ),
    "unknown bundled board": (
        "board: usaa\nplayers: [{name: A, home: KY}]\n",
        ["board", "no bundled board 'usaa'", "did you mean 'usa'"],
    ),
    "missing board file": (
        "board: maps/none.yaml\nplayers: [{name: A, home: KY}]\n",
        ["board", "not found"],
    ),
}


@pytest.mark.parametrize("case", sorted(GAME_CASES))
def test_bad_game_files(cli, tmp_path, case):
    text, fragments = GAME_CASES[case]
    game = tmp_path / "game.yaml"
    game.write_text(text)
    expect_error(cli, game, *fragments)


BOARD_CASES = {
    "not a mapping": ("- A\n", ["must be a board mapping"]),
    "no states": ("name: x\nstates: {}\n", ["states", "at least one state"]),
    "missing ev": ("states:\n  A: {neighbors: []}\n", ["states.A", "missing key 'ev'"]),
    "ev zero": ("states:\n  A: {ev: 0}\n", ["line 2", "states.A.ev", "positive", "not 0"]),
    "ev negative": ("states:\n  A: {ev: -3}\n", ["states.A.ev", "not -3"]),
    "ev fractional": ("states:\n  A: {ev: 2.5}\n", ["states.A.ev", "whole number"]),
    "ev text": ("states:\n  A: {ev: ten}\n", ["states.A.ev", "whole number"]),
    "ev boolean": ("states:\n  A: {ev: true}\n", ["states.A.ev", "whole number"]),
    "ev overflows clingo": ("states:\n  A: {ev: 3000000000}\n", ["states.A.ev", "3000000000"]),
    "sum overflows clingo": (
        "states:\n" + "".join(f"  S{i}: {{ev: 9000000}}\n" for i in range(300)),
        ["states", "add up to"],
    ),
    "unknown neighbour": (
        "states:\n  A: {ev: 1, neighbors: [B]}\n  C: {ev: 1}\n",
        ["line 2", "states.A.neighbors[0]", "unknown state 'B'"],
    ),
    "self neighbour": (
        "states:\n  A: {ev: 1, neighbors: [A]}\n",
        ["states.A.neighbors[0]", "itself"],
    ),
    "one-sided neighbour": (
        "states:\n  A: {ev: 1, neighbors: [B]}\n  B: {ev: 1}\n",
        ["states.A.neighbors[0]", "'B' does not list 'A'"],
    ),
    "swing not boolean": (
        "states:\n  A: {ev: 1, swing: maybe}\n",
        ["states.A.swing", "true or false"],
    ),
    "game_end too large": ("game_end: 5\nstates:\n  A: {ev: 1}\n", ["game_end", "between 1 and 1"]),
    "duplicate state": ("states:\n  A: {ev: 1}\n  A: {ev: 2}\n", ["line 3", "duplicate key 'A'"]),
    "unknown state key": (
        "states:\n  A: {ev: 1, neighbours: []}\n",
        ["unknown key 'neighbours'", "did you mean 'neighbors'"],
    ),
}


@pytest.mark.parametrize("case", sorted(BOARD_CASES))
def test_bad_board_files_are_named_by_the_game(cli, tmp_path, monkeypatch, case):
    text, fragments = BOARD_CASES[case]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.yaml").write_text(text)
    (tmp_path / "game.yaml").write_text("board: board.yaml\nplayers: [{name: A, home: A}]\n")
    expect_error(cli, "game.yaml", *fragments, source="board.yaml")


def test_missing_game_file(cli, tmp_path):
    expect_error(cli, tmp_path / "nope.yaml", "no such file")


def test_directory_instead_of_a_file(cli, tmp_path):
    expect_error(cli, tmp_path, "directory")


def test_binary_file(cli, tmp_path):
    game = tmp_path / "game.yaml"
    game.write_bytes(b"\xff\xfe\x00board")
    expect_error(cli, game, "UTF-8")


def test_binary_standard_input():
    done = subprocess.run(
        [sys.executable, "-m", "evlogic", "score", "-"],
        input=b"board: usa\nplayers: [{name: \xff, home: KY}]\n",
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 2
    message = b"evlogic: error: <stdin>: not UTF-8 text (invalid start byte at byte 28)\n"
    assert done.stderr == message


def test_errors_through_a_real_process_have_no_traceback(tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text("board: usa\nplayers: [{name: A, home: XX}]\n")
    result = run_subprocess("score", game)
    assert result.code == 2
    assert "Traceback" not in result.err
    assert result.err.count("\n") == 1


def test_unknown_format_is_a_usage_error(cli):
    assert cli("score", "--format", "xml").code == 2


# --- hostile and literal names ---------------------------------------------

HOSTILE = 'x). owns("y","CA"). %'


def test_hostile_player_name_scores_like_a_plain_one(cli, write_game):
    board = board_dict([("H", "A"), ("H", "B"), ("A", "B"), ("B", "C")], ev={"C": 5})
    plain = cli(
        "score",
        write_game(
            board, [{"name": "x", "home": "H", "states": ["A", "B"]}, {"name": "y", "home": "C"}]
        ),
        "--format",
        "json",
    )
    hostile = cli(
        "score",
        write_game(
            board,
            [{"name": HOSTILE, "home": "H", "states": ["A", "B"]}, {"name": "y", "home": "C"}],
        ),
        "--format",
        "json",
    )
    mine, theirs = plain.json(), hostile.json()
    assert theirs["players"][0]["name"] == HOSTILE
    assert theirs["winners"] == [HOSTILE]
    theirs["players"][0]["name"] = "x"
    theirs["winners"] = ["x"]
    assert mine == theirs


def test_hostile_state_ids_score_like_plain_ones(cli, write_game):
    rename = {"H": 'H"). %', "A": "A :- B.", "B": "#show.", "C": "C"}
    edges = [("H", "A"), ("H", "B"), ("A", "B"), ("B", "C")]
    board = board_dict([(rename[a], rename[b]) for a, b in edges], ev={"C": 5})
    players = [
        {"name": "x", "home": rename["H"], "states": [rename["A"], rename["B"]]},
        {"name": "y", "home": "C"},
    ]
    report = cli("score", write_game(board, players), "--format", "json").json()
    assert report["players"][0]["region_bonus"] == 15
    assert report["players"][0]["siege"] == []
    assert report["players"][1]["siege"] == [rename["B"]]


def test_yaml_1_1_booleans_are_ids_as_written(cli, tmp_path):
    # Norway (NO) and Ontario (ON) are not false and true.
    (tmp_path / "board.yaml").write_text(
        "states:\n  NO: {ev: 3, neighbors: [ON, 1]}\n  ON: {ev: 4, neighbors: [NO, 1]}\n"
        "  1: {ev: 5, neighbors: [NO, ON]}\n"
    )
    (tmp_path / "game.yaml").write_text(
        "board: board.yaml\nplayers: [{name: Yes, home: NO, states: [ON, 1]}]\n"
    )
    report = cli("score", tmp_path / "game.yaml", "--format", "json").json()
    you = report["players"][0]
    assert you["name"] == "Yes"
    assert you["core"] == ["NO", "1", "ON"]
    assert you["total"] == 3 + 4 + 5 + 15


def test_an_unknown_state_named_by_its_name_suggests_its_id(cli, tmp_path):
    (tmp_path / "g.yaml").write_text(
        "board: usa\nplayers:\n  - {name: You, home: Kentucky}\n  - {name: B, home: Tenessee}\n"
    )
    result = cli("score", tmp_path / "g.yaml")
    assert result.code == 2
    assert "unknown state 'Kentucky' (did you mean 'KY'? states are named by id)" in result.err
    (tmp_path / "g.yaml").write_text("board: usa\nplayers:\n  - {name: You, home: Tenessee}\n")
    assert "(did you mean 'TN', Tennessee?)" in cli("score", tmp_path / "g.yaml").err


def test_the_board_command_lists_ids_names_ev_swing_and_neighbors(cli):
    text = cli("board").out
    assert "KY  Kentucky" in text and "IN MO TN VA WV" in text
    assert "NC  North Carolina        16  swing  GA SC TN VA" in text
    document = cli("board", "usa", "--format", "json").json()
    assert document["states"]["KY"]["neighbors"] == ["IN", "MO", "TN", "VA", "WV"]
    assert cli("board", "nowhere").code == 2
