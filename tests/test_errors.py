"""Bad input: one line naming the file and the field, exit 2, no traceback."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, RULEBOOK, board_dict, run_subprocess

RULEBOOK_FULL = RULEBOOK / "full-example.yaml"


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
    "tab indentation": (
        "board: usa\nplayers:\n\t- x\n",
        ["line 3", "YAML syntax error", "a tab in the indentation"],
    ),
    "key indented one space too far": (
        "board: usa\nplayers:\n  - name: You\n   home: KY\n",
        ["line 4", "YAML syntax error", "check the indentation"],
    ),
    "key indented too little": (
        "board: usa\nplayers:\n  - name: You\n    home: KY\n  states: [IN]\n",
        ["line 5", "YAML syntax error", "check the indentation"],
    ),
    "colon in a value": (
        "board: usa\nplayers:\n  - name: You: the first\n    home: KY\n",
        ["line 3", "YAML syntax error", "needs quotes"],
    ),
    "list not closed": (
        "board: usa\nplayers:\n  - {name: You, home: KY, states: [IN}\n",
        ["line 3", "YAML syntax error", "not closed with ]"],
    ),
    "list without brackets in braces": (
        "board: usa\nplayers:\n  - {name: You, home: KY, states: IN, WV, TN}\n",
        ["line 3", "unknown key 'WV'", "a list needs brackets (states: [A, B, C])"],
    ),
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


KT_GAME = "board: usa\nplayers:\n  - {name: A, home: KT}\n  - {name: B, home: TX}\n"


def test_an_id_one_letter_off_suggests_the_ids_near_it(cli, tmp_path):
    (tmp_path / "g.yaml").write_text(KT_GAME)
    result = cli("score", tmp_path / "g.yaml")
    assert result.code == 2
    assert result.err.count("\n") == 1
    # Kentucky's name holds K..T, so KY comes first; then KS (the same first letter)
    assert (
        "players[0].home: unknown state 'KT' (did you mean 'KY' Kentucky, 'KS' Kansas or "
        "'CT' Connecticut?)" in result.err
    )


def test_an_id_one_letter_off_is_suggested_in_batch_lines_and_layout(cli, tmp_path):
    line = '{"board": "usa", "players": [{"name": "A", "home": "KT"}, {"name": "B", "home": "TX"}]}'
    (tmp_path / "lines.jsonl").write_text(line + "\n")
    out = cli("batch", tmp_path / "lines.jsonl").out
    assert "unknown state 'KT' (did you mean 'KY' Kentucky," in out
    result = cli("layout", "usa", "--keep", "KT", "-o", tmp_path / "out.yaml")
    assert result.code == 2
    assert "--keep: unknown state 'KT' (did you mean 'KY' Kentucky," in result.err


def test_nothing_near_names_the_command_that_lists_this_board(cli, tmp_path):
    (tmp_path / "g.yaml").write_text(KT_GAME.replace("KT", "Q"))
    result = cli("score", tmp_path / "g.yaml")
    assert result.code == 2
    assert "unknown state 'Q' (evlogic board usa lists the states)" in result.err
    board = REPO / "examples" / "lakeland" / "board.yaml"
    (tmp_path / "g.yaml").write_text(KT_GAME.replace("usa", str(board)).replace("KT", "Q"))
    result = cli("score", tmp_path / "g.yaml")
    assert result.code == 2
    listing = re.search(r"\((evlogic board .*) lists the states\)", result.err)
    assert listing and "BOARD" not in listing.group(1)
    assert Path(shlex.split(listing.group(1))[2]).resolve() == board.resolve()


def test_the_board_command_lists_ids_names_ev_swing_and_neighbors(cli):
    text = cli("board").out
    assert "KY  Kentucky" in text and "IN MO TN VA WV" in text
    assert "NC  North Carolina        16  swing  GA SC TN VA" in text
    document = cli("board", "usa", "--format", "json").json()
    assert document["states"]["KY"]["neighbors"] == ["IN", "MO", "TN", "VA", "WV"]
    assert cli("board", "nowhere").code == 2


# --- one line, exit 2, for every bad input -------------------------------------


def one_line_error(result, *fragments: str) -> str:
    """Exit 2, nothing on stdout, exactly one line on stderr with no traceback
    and no control character; returns the line."""
    assert result.code == 2, (result.code, result.err)
    assert "Traceback" not in result.err
    assert result.err.endswith("\n") and result.err.count("\n") == 1, result.err
    line = result.err[:-1]
    assert line.startswith("evlogic: error: ") and line.isprintable(), line
    for fragment in fragments:
        assert fragment in line, line
    return line


# Values PyYAML cannot construct (or that evlogic never reads), in a field of
# each kind of file: an error naming the field, never a traceback.
UNREADABLE = {
    "impossible date": "2001-02-30",
    "5,000 digits": "9" * 5000,
    "hex beyond reason": "0x" + "f" * 5000,
    "tagged int": "!!int abc",
    "tagged float": "!!float abc",
    "tagged bool": "!!bool maybe",
    "tagged timestamp": "!!timestamp x",
    "binary": '!!binary "@@@"',
    "python name": "!!python/name:os.system",
    "python object": "!!python/object/apply:os.system [ls]",
    "set": "!!set {a}",
    "ordered map": "!!omap [a: 1]",
    "custom tag": "!thing x",
    "str of a list": "!!str [a]",
    "map of a scalar": "!!map x",
    "nan": ".nan",
    "infinity": ".inf",
    "huge exponent": "1e99999",
}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_unreadable_values_in_a_board(cli, tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.yaml").write_text(f"states:\n  A: {{ev: {UNREADABLE[case]} }}\n")
    (tmp_path / "game.yaml").write_text("board: board.yaml\nplayers: [{name: x, home: A}]\n")
    one_line_error(cli("score", "game.yaml"), "board.yaml: line 2: states.A.ev: must be")


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_unreadable_values_in_a_rule_set(cli, tmp_path, case):
    rules = tmp_path / "rules.yaml"
    rules.write_text(f"extends: standard\ntiers: {{3: 15, 4: {UNREADABLE[case]} }}\n")
    one_line_error(cli("score", "--rules", rules), "line 2: tiers.4: must be a bonus")


@pytest.mark.parametrize(
    "case", ["tagged int", "tagged timestamp", "binary", "python name", "set", "str of a list"]
)
def test_unreadable_values_in_a_game(cli, tmp_path, case):
    game = tmp_path / "game.yaml"
    game.write_text(f"board: usa\nplayers: [{{name: {UNREADABLE[case]} , home: KY}}]\n")
    one_line_error(cli("score", game), "line 2: players[0].name: must be a player name, not !!")


def test_dates_and_long_numbers_written_plainly_are_text(cli, tmp_path):
    game = tmp_path / "game.yaml"
    game.write_text(
        f"board: usa\nplayers: [{{name: 2001-02-30, home: KY}}, {{name: {'9' * 50}, home: OH}}]\n"
    )
    names = [player["name"] for player in cli("score", game, "--format", "json").json()["players"]]
    assert names == ["2001-02-30", "9" * 50]


@pytest.mark.parametrize(
    ("written", "yaml_reads"),
    [("010", 8), ("0x10", 16), ("0b11", 3), ("1:30", 90), ("1_000", 1000), ("007", 7)],
)
def test_whole_numbers_are_written_in_decimal_digits(
    cli, tmp_path, monkeypatch, written, yaml_reads
):
    """YAML 1.1 reads these as other numbers than they look: an error naming
    the field, never a silently different EV, bonus or game end."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "board.yaml").write_text(
        f"states:\n  A: {{ev: {written}, neighbors: [B]}}\n  B: {{ev: 3, neighbors: [A]}}\n"
    )
    (tmp_path / "game.yaml").write_text("board: board.yaml\nplayers: [{name: x, home: A}]\n")
    one_line_error(
        cli("score", "game.yaml"),
        f"board.yaml: line 2: states.A.ev: must be a positive whole number written in decimal "
        f"digits, not '{written}' (YAML would read it as {yaml_reads})",
    )
    (tmp_path / "rules.yaml").write_text(f"extends: standard\nsiege_penalty: {written}\n")
    one_line_error(
        cli("score", "game.yaml", "--rules", "rules.yaml"),
        "rules.yaml: line 2: siege_penalty: must be a whole number of EV written in decimal",
    )
    assert cli("score", "game.yaml", "--format", "json").code == 2
    (tmp_path / "board.yaml").write_text("states:\n  A: {ev: +5, neighbors: []}\n")
    assert cli("score", "game.yaml", "--format", "json").json()["players"][0]["face_ev"] == 5


def test_a_tier_size_with_a_leading_zero_is_refused(cli, tmp_path):
    """3 and 03 are two keys but one region size: both tiers applied (+35
    for a 3-state region under {3: 15, 03: 20}), silently."""
    rules = tmp_path / "rules.yaml"
    rules.write_text("extends: standard\ntiers: {3: 15, 03: 20}\n")
    one_line_error(
        cli("score", "--rules", rules),
        "line 2: tiers: must be a region size written in decimal digits, not '03'",
    )


@pytest.mark.parametrize("name", ["P\u2028Q", "P\nQ", "P\x00Q", "P\x1bQ"])
def test_a_name_the_command_line_refuses_is_refused_in_batch_lines_too(cli, tmp_path, name):
    """JSON lines take a fast path for plain, clean games; a name with a
    control character or a line separator is not clean: refused, as in a file."""
    game = {"board": "usa", "players": [{"name": name, "home": "KY"}, {"name": "R", "home": "OH"}]}
    (tmp_path / "games.jsonl").write_text(json.dumps(game) + "\n")
    result = cli("batch", tmp_path / "games.jsonl", "--jobs", "1")
    assert result.code == 1
    (line,) = [json.loads(text) for text in result.out.splitlines()]
    assert "players[0].name: must be a player name, not text with a" in line["error"]


@pytest.mark.parametrize("key", ["³", "٣", "1_0", "99999999999999999999999999999999"])
def test_tier_sizes_are_plain_whole_numbers(cli, tmp_path, key):
    rules = tmp_path / "rules.yaml"
    rules.write_text(f"extends: standard\ntiers: {{{key}: 4}}\n")
    one_line_error(cli("score", "--rules", rules), "line 2: tiers: must be a region size")


# Closed and full streams: one line (when standard error is open), exit 2;
# a reader that went away (| head): exit 1, silently.


def shell(command: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    python = f"{sys.executable} -m evlogic"
    return subprocess.run(
        ["sh", "-c", command.replace("EVLOGIC", python)],
        input=stdin,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("EVLOGIC score > /dev/full", "<stdout>: cannot write: No space left on device"),
        ("EVLOGIC score --format json >&-", "<stdout>: cannot write: standard output is closed"),
        ("EVLOGIC verify >&-", "<stdout>: cannot write"),
        ("EVLOGIC sample --board usa --players 2 --count 5 > /dev/full", "<stdout>: cannot write"),
        (
            "EVLOGIC sample --board usa --players 2 --count 5 -o /dev/full",
            "/dev/full: cannot write",
        ),
        (
            "EVLOGIC sample --board usa --players 2 --count 5 | EVLOGIC batch - -o /dev/full",
            "/dev/full: cannot write: No space left on device",
        ),
        ("EVLOGIC score - <&-", "<stdin>: standard input is closed"),
        ("EVLOGIC stats - <&-", "<stdin>: standard input is closed"),
        ("EVLOGIC batch - <&-", "<stdin>: standard input is closed"),
    ],
)
def test_closed_and_full_streams(command, message):
    done = shell(command)
    assert done.returncode == 2
    err = done.stderr.decode()
    assert err == f"evlogic: error: {message}\n" or (
        err.startswith(f"evlogic: error: {message}") and err.count("\n") == 1
    ), err


def test_closed_standard_error_still_exits_2():
    done = shell("EVLOGIC score nope.yaml 2>&-")
    assert done.returncode == 2 and done.stdout == b"" and done.stderr == b""


def test_closed_standard_output_and_error_together():
    done = shell("EVLOGIC score >&- 2>&-")
    assert done.returncode == 2


def test_a_reader_that_goes_away_is_exit_1_and_silent():
    done = shell(
        "EVLOGIC sample --board usa --players 4 --count 20000 | head -c 10 >/dev/null; "
        "exit ${PIPESTATUS:-0}"
    )
    assert done.stderr == b""  # no traceback, no "Exception ignored"


def test_a_file_opened_while_standard_error_is_closed_gets_no_stray_output(tmp_path):
    out = tmp_path / "out.svg"
    done = shell(f"EVLOGIC diagram {RULEBOOK_FULL} --player You -o {out} 2>&-")
    assert done.returncode == 0
    assert out.read_text().startswith("<svg") and "wrote" not in out.read_text()


# Size limits: files and lines are read up to a limit, then refused.


def test_an_endless_file_is_refused_at_the_limit(cli):
    one_line_error(cli("score", "/dev/zero"), "/dev/zero: larger than 64 MiB")


def test_an_endless_standard_input_is_refused_at_the_limit():
    done = shell("head -c 70000000 /dev/zero | EVLOGIC score -")
    assert done.returncode == 2
    assert done.stderr == b"evlogic: error: <stdin>: larger than 64 MiB, the most evlogic reads\n"


def test_a_named_pipe_is_read(tmp_path):
    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    done = shell(f"cat {RULEBOOK_FULL} > {fifo} & EVLOGIC score {fifo} --format json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["winners"] == ["Rival"]


def test_directories_and_devices_are_refused(cli, tmp_path):
    one_line_error(cli("score", tmp_path), "is a directory")
    one_line_error(cli("stats", "/dev/zero"), "not a regular file")


def test_a_json_line_longer_than_the_limit(cli, tmp_path):
    reports = tmp_path / "out.jsonl"
    reports.write_text('{"line": 1, "error": "x"}\n' + "x" * (2 * 1024 * 1024) + "\n")
    one_line_error(cli("stats", reports), "line 2: line longer than 1 MiB")


def test_an_endless_json_line_stops_the_reading(tmp_path):
    done = shell("EVLOGIC stats - < /dev/zero")
    assert done.returncode == 2
    assert b"line 1: line longer than 64 MiB: stopped reading" in done.stderr


# User text in errors: always one line, escaped, and at most a short quote.

USER_TEXT = st.text(st.characters(codec="utf-8"), min_size=1, max_size=300) | st.text(
    st.sampled_from("\n\r\t\x00\x1b\x7f\x85\u2028\u2029\ufeffab' \"\\:"), min_size=1
)


def _yaml_text(text: str) -> str:
    """Any text as a YAML double-quoted scalar."""
    return json.dumps(text)


def _assert_short_quotes(line: str, text: str) -> None:
    """No more than 80 characters of ``text`` appear in the error in a row."""
    for start in range(0, max(0, len(text) - 80)):
        assert text[start : start + 81] not in line


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=USER_TEXT)
def test_any_text_as_an_unknown_key_is_one_short_line(cli, tmp_path, text):
    game = tmp_path / "game.yaml"
    game.write_text(f"board: usa\n{_yaml_text(text)}: 1\nplayers: [{{name: x, home: KY}}]\n")
    result = cli("score", game)
    if result.code == 0:  # the text was a known key
        return
    _assert_short_quotes(one_line_error(result), text)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=USER_TEXT, position=st.sampled_from(["home", "state", "board", "rules", "twice"]))
def test_any_text_in_a_game_is_one_short_line(cli, tmp_path, text, position):
    quoted = _yaml_text(text)
    home, states, board, rules, second = quoted, "[]", "usa", "standard", "OH"
    if position == "state":
        home, states = "KY", f"[{quoted}]"
    elif position == "board":
        home, board = "KY", quoted
    elif position == "rules":
        home, rules = "KY", quoted
    elif position == "twice":  # the name, quoted by "is used twice"
        home, second = "KY", "OH, name: " + quoted
    game = tmp_path / "game.yaml"
    game.write_text(
        f"board: {board}\nrules: {rules}\nplayers:\n  - {{name: {quoted}, home: {home}, "
        f"states: {states}}}\n  - {{home: {second}, name: {quoted}}}\n"
    )
    result = cli("score", game)
    _assert_short_quotes(one_line_error(result), text)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=USER_TEXT)
def test_any_text_as_a_state_id_or_option_is_one_short_line(cli, tmp_path, text):
    board = tmp_path / "board.yaml"
    board.write_text(f"states:\n  {_yaml_text(text)}: {{ev: 1, neighbors: [B]}}\n  B: {{ev: 1}}\n")
    _assert_short_quotes(one_line_error(cli("board-report", board)), text)
    one_line_error(cli("explain", RULEBOOK_FULL, "--player", text + "!"))
    one_line_error(cli("score", tmp_path / "missing" / text))


def test_a_newline_in_a_file_name_stays_on_one_line(cli, tmp_path):
    line = one_line_error(cli("score", tmp_path / "a\nb.yaml"), "no such file")
    assert "a\\nb.yaml" in line


def test_a_board_of_other_content_is_quoted_only_briefly(cli, tmp_path):
    """`board: /etc/shadow` must not print the file's first line."""
    secret = "root:" + "$6$" + "s" * 200 + ":19000:0:99999:7:::"
    (tmp_path / "shadow").write_text(f"{secret}: 1\n")
    game = tmp_path / "game.yaml"
    game.write_text(f"board: {tmp_path / 'shadow'}/\nplayers: [{{name: x, home: KY}}]\n")
    one_line_error(cli("score", game), "board")
    game.write_text(f"board: {tmp_path / 'shadow'}\nplayers: [{{name: x, home: KY}}]\n")
    (tmp_path / "shadow.yaml").write_text(f"{secret}: 1\n")
    game.write_text("board: shadow.yaml\nplayers: [{name: x, home: KY}]\n")
    line = one_line_error(cli("score", game), "unknown key")
    _assert_short_quotes(line, secret)


# Control characters in ids and names are refused where they are read.


@pytest.mark.parametrize("char", ["\x00", "\x01", "\n", "\t", "\x7f", "\x85", "\u2028", "\ufffe"])
def test_control_characters_in_ids_and_names_are_refused(cli, tmp_path, monkeypatch, char):
    monkeypatch.chdir(tmp_path)
    text = _yaml_text(f"A{char}B")
    (tmp_path / "board.yaml").write_text(f"states:\n  {text}: {{ev: 1}}\n  C: {{ev: 1}}\n")
    (tmp_path / "game.yaml").write_text("board: board.yaml\nplayers: [{name: x, home: C}]\n")
    one_line_error(cli("score", "game.yaml"), "board.yaml: line 2: states: must be a state id")
    (tmp_path / "game.yaml").write_text(f"board: usa\nplayers: [{{name: {text}, home: KY}}]\n")
    one_line_error(cli("diagram", "game.yaml", "--player", "x"), "players[0].name: must be")


def test_emoji_and_accents_are_fine_in_names(cli, write_game):
    board = board_dict([("H", "A")])
    name = "Zoë 👩‍👩‍👧"  # a zero-width joiner is no control character
    report = cli("score", write_game(board, [{"name": name, "home": "H"}]), "--format", "json")
    assert report.json()["winners"] == [name]


# verify: broken scenarios fail, pipes are skipped, nothing found is an error.


def test_verify_lists_a_broken_scenario_as_failed(tmp_path):
    good = RULEBOOK_FULL.read_text()
    (tmp_path / "good.yaml").write_text(good)
    (tmp_path / "syntax.yaml").write_text("board: usa\nexpect: {}\nplayers: [\n")
    (tmp_path / "date.yaml").write_text(good.replace("board: usa", "board: 2001-02-30"))
    os.mkfifo(tmp_path / "pipe.yaml")  # reading it would block
    done = run_subprocess("verify", tmp_path, "--format", "json")
    assert done.code == 2
    results = {Path(s["file"]).name: s for s in json.loads(done.out)["scenarios"]}
    assert set(results) == {"good.yaml", "syntax.yaml", "date.yaml"}
    assert results["good.yaml"]["passed"] and results["good.yaml"]["error"] is None
    assert not results["syntax.yaml"]["passed"]
    assert "line 4: YAML syntax error" in results["syntax.yaml"]["error"]
    assert "no bundled board '2001-02-30'" in results["date.yaml"]["error"]
    assert done.err.count("\n") == 2 and "Traceback" not in done.err


def test_verify_finds_nothing_is_an_error(cli, tmp_path):
    (tmp_path / "board.yaml").write_text("states:\n  A: {ev: 1}\n")
    one_line_error(cli("verify", tmp_path), "no scenarios here")


def test_verify_counts_one_scenario(cli):
    assert cli("verify", RULEBOOK_FULL).out.endswith("\n1 scenario: 1 passed, 0 failed\n")


# Sums beyond 32 bits are errors naming the rule set.


def _rule_set(tmp_path: Path, program: str, extra: str = "") -> Path:
    (tmp_path / "big.lp").write_text(program)
    rules = tmp_path / "big.yaml"
    rules.write_text(f"name: big\nextends: standard\nprograms: [big.lp]\n{extra}")
    return rules


@pytest.mark.parametrize("value", [2_000_000_000, -2_000_000_000])
def test_totals_beyond_32_bits_are_errors(cli, tmp_path, value):
    rules = _rule_set(
        tmp_path,
        f"face_value(G, P, extra1, {value}) :- home(G, P, _).\n"
        f"face_value(G, P, extra2, {value}) :- home(G, P, _).\n",
    )
    for command in (("score",), ("explain", RULEBOOK_FULL, "--player", "You")):
        line = one_line_error(cli(*command, "--rules", rules), "big.lp: rule set 'big'")
        assert "passes 2^31" in line


def test_a_total_just_within_32_bits_is_reported(cli, tmp_path):
    rules = _rule_set(tmp_path, "face_value(G, P, extra, 2000000000) :- home(G, P, _).\n")
    report = cli("score", "--rules", rules, "--format", "json").json()
    assert report["players"][0]["total"] == 2_000_000_000 + 39


@pytest.mark.slow
def test_a_siege_penalty_beyond_32_bits_is_an_error(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    count = 2200  # 2,200 siege states x 1,000,000 > 2^31
    leaves = [f"S{i}" for i in range(count)]
    board = {"game_end": count + 1, "states": {"H": {"ev": 1, "neighbors": leaves}}}
    board["states"].update({leaf: {"ev": 1, "neighbors": ["H"]} for leaf in leaves})
    (tmp_path / "board.yaml").write_text(json.dumps(board))
    players = [{"name": "A", "home": "H"}, {"name": "B", "home": "S0", "states": leaves[1:]}]
    (tmp_path / "game.yaml").write_text(json.dumps({"board": "board.yaml", "players": players}))
    (tmp_path / "rules.yaml").write_text("name: harsh\nextends: standard\nsiege_penalty: 1000000\n")
    one_line_error(
        cli("score", "game.yaml", "--rules", "rules.yaml"), "rules.yaml: rule set 'harsh'"
    )
    assert cli("score", "game.yaml").code == 0  # a penalty of 10 is fine


# stats: every line is a batch report or an error line.


@pytest.mark.parametrize(
    "line",
    [
        '"error"',
        '["error"]',
        "1",
        "null",
        "{}",
        '{"error": 1}',
        '{"players": "ab", "winners": []}',
        '{"players": [1], "winners": []}',
        '{"players": [{"name": "a", "home": "KY"}], "winners": ["a"]}',
        '{"players": [{"name": "a", "home": "K\\nY", "total": 1, "region_bonus": 0, '
        '"net_bonus": 0, "face_ev": 1}], "winners": ["a"]}',
        "[" * 100_000 + "]" * 100_000,
        "9" * 5000,
    ],
)
def test_stats_refuses_lines_batch_never_writes(cli, tmp_path, line):
    reports = tmp_path / "out.jsonl"
    reports.write_text('{"line": 1, "error": "fine"}\n' + line + "\n")
    one_line_error(cli("stats", reports), f"{reports}: line 2: not a batch report (")


# Numeric options out of range.


@pytest.mark.parametrize(
    "arguments",
    [
        ("check", "bonus-bounds", "--timeout", "1e17"),
        ("check", "bonus-bounds", "--timeout", "nan"),
        ("check", "bonus-bounds", "--timeout", "inf"),
        ("check", "bonus-bounds", "--timeout", "-1"),
        ("check", "bonus-bounds", "--players", "0"),
        ("check", "bonus-bounds", "--max-states", "0"),
        ("diff", "--rules", "standard", "--rules", "standard", "--timeout", "0"),
        ("diff", "--rules", "standard", "--rules", "standard", "--players", "-1"),
        ("batch", "-", "--jobs", "0"),
        ("batch", "-", "--jobs", "100000"),
        ("sample", "--board", "usa", "--players", "0", "--count", "1"),
        ("sample", "--board", "usa", "--players", "2", "--count", "-1"),
        ("sample", "--board", "usa", "--players", "2", "--count", "1", "--seed", "9" * 5000),
        ("score", "--format", "x\ny"),
    ],
)
def test_options_out_of_range(cli, arguments):
    one_line_error(cli(*arguments))


# An expect: is input wherever a game is read: an empty one must not pass verify, a
# malformed one is an error for score and the API too, and an unknown or repeated id is an
# error, not a mismatch.

GOOD_EXPECT = "  players:\n    You: {total: 39, face_ev: 34, region_bonus: 25, net_bonus: 5, region_size: 4, siege: [MO, VA]}\n    Rival: {total: 40, face_ev: 40, region_bonus: 0}\n  winners: [Rival]\n"  # noqa: E501


@pytest.mark.parametrize(
    ("expect", "fragments"),
    [
        ("expect: {}\n", ["expect: expects nothing"]),
        ("expect: {players: {}}\n", ["expect.players: expects nothing"]),
        ("expect: {players: {You: {}}}\n", ["expect.players.You: expects nothing of 'You'"]),
        ("expect: 5\n", ["expect: must be a mapping of expected figures"]),
        ("expect: {players: {Yuo: {total: 39}}}\n", ["no player named 'Yuo'", "You"]),
        ("expect: {players: {You: {totl: 39}}}\n", ["unknown key 'totl'"]),
        ("expect: {players: {You: {total: x}}}\n", ["expect.players.You.total"]),
        ("expect: {players: {You: {siege: [Virginia, MO]}}}\n", ["unknown state 'Virginia'"]),
        ("expect: {players: {You: {siege: [VA, MO, VA]}}}\n", ["'VA' is listed twice"]),
        ("expect: {winners: [Rival, Rival]}\n", ["'Rival' is listed twice"]),
        ("expect: {winners: [Nobody]}\n", ["no player named 'Nobody'"]),
        ("expect: {winners: 5}\n", ["expect.winners: must be a list"]),
    ],
)
@pytest.mark.parametrize("command", ["score", "verify", "explain"])
def test_a_bad_expectation_is_an_error_wherever_the_game_is_read(
    cli, tmp_path, expect, fragments, command
):
    text = RULEBOOK_FULL.read_text()
    start = text.index("expect:")
    assert text[start:] == "expect:\n" + GOOD_EXPECT  # the example's own, replaced below
    (tmp_path / "game.yaml").write_text(text[:start] + expect)
    args = ["--player", "You"] if command == "explain" else []
    line = one_line_error(cli(command, tmp_path / "game.yaml", *args), "game.yaml: line ")
    for fragment in fragments:
        assert fragment in line, line


def test_a_bad_expectation_is_a_line_error_in_batch_and_a_400_in_the_api(cli, tmp_path):
    from starlette.testclient import TestClient

    from evlogic.web.app import create_app
    from evlogic.web.service import Catalog

    game = {"board": "usa", "players": [{"name": "A", "home": "KY"}, {"name": "B", "home": "OH"}]}
    bad = {**game, "expect": {"players": {"A": {"siege": ["VA", "VA"]}}}}
    good = {**game, "expect": {"winners": ["B"]}}
    lines = tmp_path / "games.jsonl"
    lines.write_text("".join(json.dumps(line) + "\n" for line in (game, bad, good)))
    result = cli("batch", lines, "--jobs", "1")
    assert result.code == 1
    first, second, third = (json.loads(line) for line in result.out.splitlines())
    assert "error" not in first and "error" not in third
    assert third["players"] == first["players"]  # an expect: changes no figure
    assert second["error"].endswith("line 2: expect.players.A.siege[1]: 'VA' is listed twice")
    client = TestClient(create_app(Catalog.build()), base_url="http://127.0.0.1")
    response = client.post("/api/score", json=bad)
    assert response.status_code == 400
    assert response.json()["error"] == "request: expect.players.A.siege[1]: 'VA' is listed twice"
    assert client.post("/api/score", json=good).status_code == 200


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        # Were "not empty": a line or paragraph separator alone is stripped as whitespace
        ("\u2028", "not text with a line break (\\u2028)"),
        ("\u0085", "not text with a control character (\\x85)"),
        ("\u3000", "not blank"),  # an ideographic space: only spaces, not nothing
        ("", "not empty"),
        # Was "(like \\udcff)" whatever the surrogate
        ("\ud800", "not text with a lone surrogate (\\ud800)"),
    ],
)
def test_a_name_that_cannot_be_a_name_says_why(cli, tmp_path, name, phrase):
    game = {"board": "usa", "players": [{"name": name, "home": "KY"}]}
    (tmp_path / "games.jsonl").write_text(json.dumps(game) + "\n")  # JSON escapes each one
    result = cli("batch", tmp_path / "games.jsonl", "--jobs", "1")
    assert result.code == 1
    error = json.loads(result.out)["error"]
    assert f"line 1: players[0].name: must be a player name, {phrase}" in error, error


# --- bounds on what a small file expands to ---------------------------------------


def tripartite_board(size: int) -> str:
    """The complete tripartite board of three parts of ``size`` states, each
    part's neighbour list written once and shared by YAML aliases."""
    parts = [[f"{part}{n}" for n in range(size)] for part in "ABC"]
    lines = ["states:"]
    for index, part in enumerate(parts):
        others = ", ".join(s for other, ids in enumerate(parts) if other != index for s in ids)
        lines.append(f"  {part[0]}: {{ev: 3, neighbors: &n{index} [{others}]}}")
        lines.extend(f"  {state}: {{ev: 3, neighbors: *n{index}}}" for state in part[1:])
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("command", ["board", "score", "batch"])
def test_a_small_board_that_aliases_expand_to_a_dense_one_is_refused(cli, tmp_path, command):
    """10 KB of YAML whose aliases expand it to 21,675 borders (a dense
    board: seconds and a gigabyte to score, minutes to lay out): refused by
    every command that reads a board, naming the file, the anchored field
    and its line."""
    board = tmp_path / "tri.yaml"
    board.write_text(tripartite_board(85))
    assert len(board.read_bytes()) < 12_000
    game = tmp_path / "game.yaml"
    game.write_text("board: tri.yaml\nplayers: [{name: P, home: A0, states: [B0, C0]}]\n")
    if command == "board":
        result = cli("board", board, "--format", "json")
    elif command == "score":
        result = cli("score", game)
    else:
        result = cli("batch", "-", "--board", board)
    one_line_error(
        result, "tri.yaml: line 2: states.A0.neighbors: YAML aliases (*name) repeat 43,092 values"
    )


def test_aliases_that_repeat_little_are_read(cli, tmp_path, monkeypatch):
    """Shared settings merged into every state (``<<: *defaults``) and a
    shared short list are fine: they repeat less than the file writes out."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b.yaml").write_text(
        "states:\n  S0: &d {ev: 2, swing: true, neighbors: [S1]}\n"
        + "".join(f"  S{n}: {{<<: *d, neighbors: [S{n - 1}, S{n + 1}]}}\n" for n in range(1, 59))
        + "  S59: {<<: *d, neighbors: [S58]}\n"
    )
    document = cli("board", "b.yaml", "--format", "json").json()
    assert document["states"]["S30"] == {
        "name": "S30",
        "ev": 2,
        "swing": True,
        "neighbors": ["S29", "S31"],
        "hex": document["states"]["S30"]["hex"],
    }


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        (
            "name: x\nstates: &s\n  A: {ev: 1}\n  <<: *s\n",
            ["line 4", "a merge key '<<' names the mapping it is in"],
        ),
        (
            "base: &b\n  name: x\n  <<: *b\nstates: {A: {ev: 1}}\n",
            ["line 3", "a merge key '<<' names the mapping it is in"],
        ),
        (
            "states: {A: {ev: 1, neighbors: &l [B, *l]}, B: {ev: 1}}\n",
            ["line 1", "an alias names a value it is inside"],
        ),
    ],
)
def test_yaml_that_refers_to_itself_says_so(cli, tmp_path, text, fragments):
    (tmp_path / "b.yaml").write_text(text)
    line = one_line_error(cli("board", tmp_path / "b.yaml"), *fragments)
    assert "duplicate key" not in line and "recursive" not in line


@pytest.mark.parametrize(
    ("limit", "value", "fragments"),
    [
        ("MAX_STATES", 2, ["states", "3 states, more than the 2 a board may have"]),
        ("MAX_BORDERS", 2, ["states", "3 borders (neighbours listed on both sides)"]),
    ],
)
def test_a_board_past_the_bounds_is_refused_with_its_field(
    cli, tmp_path, monkeypatch, limit, value, fragments
):
    monkeypatch.setattr(f"evlogic.loading.boards.{limit}", value)
    (tmp_path / "b.yaml").write_text(
        "states:\n  A: {ev: 1, neighbors: [B, C]}\n  B: {ev: 1, neighbors: [A, C]}\n"
        "  C: {ev: 1, neighbors: [A, B]}\n"
    )
    one_line_error(cli("board", tmp_path / "b.yaml"), "b.yaml: line 2: states: ", *fragments)


def test_the_bounds_hold_every_bundled_board_and_the_largest_benchmark_boards():
    from evlogic.loading.boards import MAX_BORDERS, MAX_STATES, load_board
    from evlogic.resources import bundled_boards

    for path in bundled_boards().values():
        board = load_board(path)
        assert len(board.states) <= MAX_STATES
    assert MAX_STATES >= 71 * 71  # bench/bench_scale.py's lattice
    assert MAX_BORDERS >= 200 * 199 // 2  # tests/test_web_hostile.py's complete graph


@pytest.mark.parametrize(
    "command",
    ["board", "score", "explain", "diagram", "check", "diff", "verify", "board-report", "stats"],
)
def test_every_command_that_solves_or_lays_out_has_time_and_memory_limits(command):
    from evlogic.cli import build_parser

    commands = build_parser()._subparsers._group_actions[0].choices
    options = {
        option: action.default
        for action in commands[command]._actions
        for option in action.option_strings
    }
    assert options["--memory-limit"] == 4096
    assert options["--timeout"] >= 60


def test_the_board_layout_stops_at_its_time_limit(tmp_path):
    """A dense board written out in full (180 states, 10,800 borders: its
    layout takes seconds): board --format json stops at --timeout, one line,
    exit 3 (a time limit)."""
    parts = [[f"{part}{n}" for n in range(60)] for part in "ABC"]
    lines = ["states:"]
    for index, part in enumerate(parts):
        others = ", ".join(s for other, ids in enumerate(parts) if other != index for s in ids)
        lines.extend(f"  {state}: {{ev: 3, neighbors: [{others}]}}" for state in part)
    (tmp_path / "dense.yaml").write_text("\n".join(lines) + "\n")
    result = run_subprocess(
        "board", "dense.yaml", "--format", "json", "--timeout", "0.2", cwd=tmp_path
    )
    assert result.code == 3 and result.out == ""
    assert (
        result.err
        == "evlogic: error: board: no answer within 0.2 s (raise --timeout to give it longer)\n"
    )


# --- wording: what an error says is evlogic's, never Python's ---------------------


def test_a_byte_order_mark_inside_json_lines_is_named(cli, tmp_path):
    """A BOM before the first line is dropped; one that joined files bring
    along (line 2), or one inside a line, is that line's error in words."""
    line = '{"board": "usa", "players": [{"name": "A", "home": "KY"}]}'
    games = tmp_path / "games.jsonl"
    games.write_bytes(("\ufeff" + line + "\n\ufeff" + line + "\n" + line + " \ufeff\n").encode())
    result = cli("batch", games)
    reports = [json.loads(text) for text in result.out.splitlines()]
    assert result.code == 1 and "error" not in reports[0]
    for report, column in zip(reports[1:], (1, len(line) + 2), strict=True):
        assert report["error"].endswith(
            "invalid JSON: a byte-order mark (U+FEFF) where JSON may not hold one (files "
            f"joined together keep each one's mark): remove it (column {column})"
        )
        assert "utf-8-sig" not in report["error"]


def test_a_byte_order_mark_in_a_request_body_is_named():
    from evlogic.errors import InputError
    from evlogic.web.service import parse_json

    with pytest.raises(InputError) as error:
        parse_json('\ufeff{"board": "usa"}'.encode())
    assert "a byte-order mark (U+FEFF) where JSON may not hold one" in str(error.value)
    assert "utf-8-sig" not in str(error.value)


@pytest.mark.parametrize(
    "text", ["name: x\n\ufeffstates: {A: {ev: 1}}\n", "name: x\nstates: {A: {ev: 1}}\ufeff\n"]
)
def test_a_byte_order_mark_inside_a_yaml_file_is_named(cli, tmp_path, text):
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    one_line_error(
        cli("board", tmp_path / "b.yaml"),
        "b.yaml: line 2: YAML syntax error:",
        "(a byte-order mark, U+FEFF, on line 2: only the start of a file may hold one",
    )
    (tmp_path / "c.yaml").write_text("\ufeff" + text.replace("\ufeff", ""), encoding="utf-8")
    assert cli("board", tmp_path / "c.yaml").code == 0  # at the start: dropped


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "must be between 1 and 100000, not '0'"),
        ("100001", "must be between 1 and 100000, not '100001'"),
        ("x", "must be a whole number, not 'x'"),
    ],
)
def test_a_bad_chunk_size_is_a_usage_error_like_every_option(cli, value, message):
    result = cli("batch", "-", "--chunk-size", value)
    assert result.code == 2
    assert result.err == f"evlogic: error: --chunk-size: {message} (see evlogic batch -h)\n"


def test_one_edit_away_changes_adds_drops_or_swaps_one_letter():
    from evlogic.errors import one_edit_away

    ids = ["KY", "KS", "KYS", "K", "YK", "TX", "ky"]
    assert one_edit_away("KT", ids) == ["KY", "KS", "K", "ky"]  # case aside
    assert one_edit_away("YK", ["KY", "YK", "Y"]) == ["KY", "Y"]
    assert one_edit_away("Q", ids) == []  # every short id is one edit from one letter
