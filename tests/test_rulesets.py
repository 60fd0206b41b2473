"""Rule sets as data, and `evlogic verify`."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

from conftest import RULEBOOK
from evlogic.errors import InputError
from evlogic.loading.rulesets import bundled_rule_sets, load_rule_set


def test_bundled_rule_sets_and_what_they_change():
    assert {"standard", "gentle-siege", "open-region", "union-cores", "flat-tiers"} <= set(
        bundled_rule_sets()
    )
    standard = load_rule_set("standard")
    assert standard.tiers == ((3, 15), (4, 25), (5, 35), (6, 45))
    assert (standard.siege_penalty, standard.links_needed, standard.swing_multiplier) == (10, 2, 2)
    assert (standard.home_swing, standard.region, standard.game_end) == (False, "best-core", None)
    assert load_rule_set("gentle-siege").siege_penalty == 5
    assert load_rule_set("open-region").links_needed == 1
    assert load_rule_set("union-cores").region == "union"
    assert load_rule_set("flat-tiers").tiers == ((3, 25),)
    assert load_rule_set("gentle-siege").tiers == standard.tiers  # inherited


def test_rules_option_overrides_and_reports_name_the_rule_set(cli):
    you = cli("score", "--format", "json", "--rules", "gentle-siege").json()
    assert you["rules"] == "gentle-siege"
    assert you["players"][0]["net_bonus"] == 25 - 2 * 5
    assert cli("score", "--format", "json").json()["rules"] == "standard"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


GAME = (
    "board: usa\nplayers:\n  - {name: You, home: KY, states: [IN, WV, TN]}\n"
    "  - {name: Rival, home: OH, states: [VA, MO]}\n"
)


@pytest.mark.parametrize(
    ("rules", "net_bonus"),
    [
        ("rules: gentle-siege\n", 15),
        ("rules: mine.yaml\n", 25 - 2 * 3),
        ("rules: {extends: standard, siege_penalty: 1, tiers: {4: 40}}\n", 40 - 2),
    ],
)
def test_game_files_name_rule_sets(cli, tmp_path, rules, net_bonus):
    write(tmp_path, "mine.yaml", "name: mine\nextends: gentle-siege\nsiege_penalty: 3\n")
    game = write(tmp_path, "game.yaml", GAME + rules)
    assert cli("score", game, "--format", "json").json()["players"][0]["net_bonus"] == net_bonus


def test_game_end_from_the_rule_set(cli, tmp_path):
    game = write(tmp_path, "game.yaml", GAME + "rules: {extends: standard, game_end: 7}\n")
    report = cli("score", game, "--format", "json").json()
    assert report["final"] is True and report["game_end"] == 7


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        (
            "extends: standard\nsiege_penalti: 5\n",
            ["unknown key 'siege_penalti'", "did you mean 'siege_penalty'"],
        ),
        ("extends: standard\nsiege_penalty: -5\n", ["siege_penalty", "not -5"]),
        ("extends: standard\nregion: both\n", ["region", "best-core or union"]),
        ("extends: standard\ntiers: {three: 10}\n", ["tiers", "region size"]),
        ("extends: standard\ntiers: {}\n", ["tiers", "at least one tier"]),
        ("extends: standard\nlinks_needed: 0\n", ["links_needed", "between 1"]),
        ("extends: standard\nhome_swing: sometimes\n", ["home_swing", "true or false"]),
        ("extends: standard\nswing_multiplier: 1000\n", ["swing_multiplier", "between 1 and 100"]),
        ("siege_penalty: 5\n", ["missing", "tiers"]),
        ("extends: nowhere\n", ["extends", "no rule set 'nowhere'"]),
        ("extends: loop.yaml\n", ["rules.yaml: extends: a cycle (rules -> loop -> rules)"]),
        (
            "extends: standard\ngame_end: 52\n",
            ["rules.yaml: line 2: game_end: 52 is more than the 51 states", "could never end"],
        ),
    ],
)
def test_bad_rule_sets_are_one_line_errors(cli, tmp_path, text, fragments):
    write(tmp_path, "loop.yaml", "extends: rules.yaml\n")
    write(tmp_path, "rules.yaml", text)
    result = cli("score", "--rules", tmp_path / "rules.yaml")
    assert result.code == 2, result.out
    assert result.err.startswith("evlogic: error: ") and result.err.count("\n") == 1
    for fragment in fragments:
        assert fragment in result.err, result.err


def test_a_game_end_beyond_the_board_names_the_file_field_and_line_that_set_it(cli, tmp_path):
    """Whoever set game_end is named with its line: a game's inline rule
    set (rules.game_end of the game file), or the file a rule set extends."""
    game = write(tmp_path, "game.yaml", GAME + "rules:\n  extends: standard\n  game_end: 52\n")
    inline = cli("score", game)
    assert inline.code == 2
    assert "game.yaml: line 7: rules.game_end: 52 is more than the 51 states" in inline.err
    write(tmp_path, "long.yaml", "name: long\nextends: standard\n\ngame_end: 52\n")
    write(tmp_path, "longer.yaml", "extends: long.yaml\nsiege_penalty: 3\n")
    inherited = cli("score", "--rules", tmp_path / "longer.yaml")
    assert inherited.code == 2
    assert "long.yaml: line 4: game_end: 52 is more than the 51 states" in inherited.err
    assert "longer.yaml" not in inherited.err


def test_a_game_end_beyond_the_board_fails_each_batch_line(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "long.yaml", "extends: standard\ngame_end: 52\n")
    cli("sample", "--board", "usa", "--players", "2", "--count", "2", "-o", "games.jsonl")
    result = cli("batch", "games.jsonl", "--rules", "long.yaml", "--jobs", "1")
    assert result.code == 1
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert all("game_end: 52 is more than the 51 states" in line["error"] for line in lines)


def test_unknown_rule_set_name(cli):
    result = cli("score", "--rules", "gentle")
    assert result.code == 2 and "did you mean 'gentle-siege'" in result.err


# --- rule sets with programs of their own -------------------------------------

HOME_BONUS = "name: home-bonus\nextends: standard\nprograms: [home-bonus.lp]\n"


def test_a_rule_set_program_changes_the_scoring(cli, tmp_path):
    """A structural variant: every home is worth 5 more EV (a face value of
    its own source, so totals and winners follow)."""
    write(tmp_path, "home-bonus.lp", "face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    rules = write(tmp_path, "home-bonus.yaml", HOME_BONUS)
    standard = cli("score", "--format", "json").json()
    varied = cli("score", "--format", "json", "--rules", rules).json()
    assert varied["rules"] == "home-bonus"
    for before, after in zip(standard["players"], varied["players"], strict=True):
        assert after["face_ev"] == before["face_ev"] + 5
        assert after["total"] == before["total"] + 5


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("face_value(G, P, home_bonus, 5) :- home(G, P\n", "line 2: syntax error"),
        (
            "face_value(G, P, home_bonus, 5) :- hom(G, P, _).\n",
            "line 1: hom(G,P,_) is never defined",
        ),
        (
            "face_value(G, P, home_bonus, V) :- home(G, P, _), V = @homes().\n",
            "line 1: @homes: rule set and property programs cannot call Python",
        ),
        (
            "#script (python)\nimport pathlib\npathlib.Path('ran').touch()\n#end.\n",
            "line 1: a #script block: rule set and property programs cannot run Python",
        ),
        (
            "{ face_value(G, P, home_bonus, 5) } :- home(G, P, _).\n",
            "line 1: '{ face_value(G,P,home_bonus,5) } :- home(G,P,_).' is a choice,",
        ),
        (":- home(G, P, _).\n", "line 1: '#false :- home(G,P,_).' is an integrity constraint"),
        (
            "total(G, P, 0) :- player(G, P).\n",
            "line 1: 'total(G,P,0) :- player(G,P).' is a rule deriving total/3, which evlogic's",
        ),
    ],
)
def test_a_broken_rule_set_program_is_a_one_line_error(
    cli, tmp_path, monkeypatch, program, message
):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "home-bonus.lp", program)
    write(tmp_path, "home-bonus.yaml", HOME_BONUS)
    result = cli("score", "--rules", "home-bonus.yaml")
    assert result.code == 2
    assert result.err.count("\n") == 1
    assert result.err.startswith(f"evlogic: error: home-bonus.lp: {message}"), result.err
    assert not (tmp_path / "ran").exists()  # refused before clingo would run it


@pytest.mark.parametrize(
    ("files", "command", "culprit", "line"),
    [
        # a syntax error at the byte: clingo quotes it in its message
        ({"home-bonus.lp": b"ok.\nface(\xff).\n"}, "score", "home-bonus.lp", 2),
        # an undefined atom whose message quotes the string
        ({"home-bonus.lp": b'x :- y("\xff").\n'}, "score", "home-bonus.lp", 1),
        # in a file the program includes
        (
            {"home-bonus.lp": b'#include "more.lp".\n', "more.lp": b"\n\n\xfe\n"},
            "score",
            "more.lp",
            3,
        ),
        # a property of check
        ({"prop.lp": b'violation :- y("\xff").\n'}, "check", "prop.lp", 1),
    ],
)
def test_a_program_that_is_not_utf8_is_a_one_line_error(tmp_path, files, command, culprit, line):
    """clingo's Python logger cannot decode a message quoting such bytes and
    ends the process ("PANIC: exception in nothrow scope", a traceback,
    exit 1): run as a separate process."""
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    write(tmp_path, "home-bonus.yaml", HOME_BONUS)
    (tmp_path / "board.yaml").write_text(
        "states:\n  H: {ev: 1, neighbors: [A, B]}\n  A: {ev: 1, neighbors: [H, B]}\n"
        "  B: {ev: 1, neighbors: [H, A]}\n"
    )
    if command == "score":
        args = ["score", "--rules", "home-bonus.yaml"]
    else:
        args = ["check", "prop.lp", "--board", "board.yaml", "--players", "1", "--timeout", "20"]
    done = subprocess.run(
        [sys.executable, "-m", "evlogic", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert (done.returncode, done.stderr.count("\n")) == (2, 1), done.stderr
    assert done.stderr.startswith(f"evlogic: error: {culprit}: line {line}: not UTF-8 text"), (
        done.stderr
    )


@pytest.mark.parametrize(
    ("program", "what"),
    [("missing.lp", "not found"), (".", "is not a regular file"), ("/dev/null", "is not a")],
)
def test_a_rule_set_program_that_is_no_file_says_what_it_is(
    cli, tmp_path, monkeypatch, program, what
):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "r.yaml", f"extends: standard\nprograms: ['{program}']\n")
    result = cli("score", "--rules", "r.yaml")
    assert (result.code, result.err.count("\n")) == (2, 1)
    assert result.err.startswith(
        f"evlogic: error: r.yaml: line 2: programs[0]: rule program '{program}' {what}"
    ), result.err


@pytest.mark.parametrize("path", ["/dev/null", "/"])
def test_a_board_or_rule_set_that_is_no_file_says_what_it_is(cli, path):
    board = one_line(cli("board", path))
    assert board.startswith(f"evlogic: error: BOARD: board file '{path}' is not a regular file")
    rules = one_line(cli("score", "--rules", path))
    assert rules.startswith(f"evlogic: error: --rules: rule set file '{path}' is not a regular")


def one_line(result) -> str:
    assert (result.code, result.err.count("\n"), result.out) == (2, 1, ""), result.err
    return result.err


def test_batch_reports_a_broken_rule_set_program_on_every_line(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "home-bonus.lp", "face_value(G, P, x, 5) :- hom(G, P, _).\n")
    write(tmp_path, "home-bonus.yaml", HOME_BONUS)
    cli("sample", "--board", "usa", "--players", "2", "--count", "3", "-o", "games.jsonl")
    result = cli("batch", "games.jsonl", "--rules", "home-bonus.yaml", "--jobs", "1")
    assert result.code == 1
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert [line["line"] for line in lines] == [1, 2, 3]
    assert all("hom(G,P,_) is never defined" in line["error"] for line in lines)


def test_input_errors_survive_pickling():
    """Batch workers send them back to the main process."""
    error = InputError("games.jsonl", "bad", field="players", line=3)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.source, copy.message, copy.field, copy.line) == (
        "games.jsonl",
        "bad",
        "players",
        3,
    )
    assert str(copy) == str(error)


# --- verify -----------------------------------------------------------------


def test_rulebook_scenarios_pass_under_standard(cli):
    result = cli("verify", "--format", "json")
    assert result.code == 0, result.out
    scenarios = result.json()["scenarios"]
    assert {s["file"].rsplit("/", 1)[-1] for s in scenarios} == {
        p.name for p in RULEBOOK.glob("*.yaml")
    }
    assert all(s["passed"] for s in scenarios)


def test_verify_reports_differing_figures(cli, tmp_path):
    game = write(
        tmp_path,
        "game.yaml",
        GAME + "expect:\n  players:\n"
        "    You: {total: 40, region_size: 4, siege: [VA, MO]}\n  winners: [You]\n",
    )
    result = cli("verify", game, "--format", "json")
    assert result.code == 1
    (scenario,) = result.json()["scenarios"]
    assert scenario["passed"] is False
    assert scenario["failures"] == [
        {"player": "You", "field": "total", "expected": 40, "actual": 39},
        {"player": None, "field": "winners", "expected": ["You"], "actual": ["Rival"]},
    ]
    text = cli("verify", game).out
    assert "FAIL" in text and "You total: expected 40, got 39" in text


def test_verify_under_a_variant_fails_where_the_variant_bites(cli):
    result = cli(
        "verify",
        RULEBOOK / "diagram-1-core.yaml",
        RULEBOOK / "full-example.yaml",
        "--rules",
        "gentle-siege",
        "--format",
        "json",
    )
    assert result.code == 1
    passed = {s["file"].rsplit("/", 1)[-1]: s["passed"] for s in result.json()["scenarios"]}
    assert passed == {"diagram-1-core.yaml": True, "full-example.yaml": False}


def test_verify_errors(cli, tmp_path):
    game = write(tmp_path, "game.yaml", GAME + "expect:\n  players:\n    Yuo: {total: 1}\n")
    result = cli("verify", game)
    assert result.code == 2 and "no player named 'Yuo'" in result.err
    plain = write(tmp_path, "plain.yaml", GAME)
    assert "no expect" in cli("verify", plain).err
    assert cli("verify", tmp_path / "missing.yaml").code == 2


def test_scoring_never_reads_standard_input():
    """With no rule set programs there is nothing to parse; clingo, asked to
    parse an empty list of files, would read standard input instead and wait
    on a terminal."""
    process = subprocess.Popen(
        [sys.executable, "-m", "evlogic", "score"],
        stdin=subprocess.PIPE,  # left open: a read would block
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        process.stdin.close()
