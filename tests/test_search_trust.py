"""check and diff never print a proof they did not make: a property that
cannot fail, a search over no positions, and a search cut short are errors
or unknown; exit statuses a CI job can gate on; time limits honoured."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from conftest import board_dict, run_subprocess

# --- a property that can never fail is an error, not a proof -----------------


@pytest.mark.parametrize(
    "files",
    [
        {"typo.lp": "violaton :- net_bonus(0, P, B), B < 0.\n"},
        {"typo.lp": "% nothing here but a comment\n"},
        {"typo.lp": ":- home(0, 0, S), state(S), S < 0.\n"},
        {"typo.lp": "#program later.\nviolation :- net_bonus(0, P, B), B < 0.\n"},
        {"typo.lp": '#include "inner.lp".\n', "inner.lp": "violaton :- net_bonus(0, P, B).\n"},
    ],
    ids=["misspelt-head", "empty", "constraint-only", "other-part", "include-misspelt-head"],
)
def test_a_property_that_derives_no_violation_is_refused(cli, tmp_path, search_board, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    result = cli("check", "typo.lp", "--board", "board.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: typo.lp: ")
    assert any(
        phrase in line
        for phrase in (
            "no rule derives violation",
            "#program part other than base",
            "is an integrity constraint",
        )
    ), line
    assert result.out == ""


@pytest.mark.parametrize(
    "text",
    [
        "violation :- total(1, 0, T), T > 5.\n",  # position 1 is never defined
        "violation :- net_bonus(0, 7, B).\n",  # a player the search never has
        "violation :- points(0, P, V, bonus), points(1, P, W, bonus), V != W.\n",
    ],
    ids=["position-1", "player-7", "one-rule-reads-nothing"],
)
def test_a_property_whose_rules_read_what_never_occurs_is_refused(
    cli, tmp_path, search_board, text
):
    (tmp_path / "never.lp").write_text(text)
    result = cli("check", "never.lp", "--board", "board.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: never.lp: line 1: ")
    assert "never occurs on test board with 2 players" in line
    assert "the rule reading it could never apply" in line


def test_each_atom_is_tested_on_its_own_not_the_whole_body(cli, tmp_path, search_board):
    """Under a siege of 5, a region of 4 with a net bonus of 0 needs five
    besiegers, which no position on this board has; each atom on its own
    occurs, so the property holds, written either way."""
    (tmp_path / "gentle.yaml").write_text("extends: standard\nsiege_penalty: 5\n")
    for text in (
        "violation :- region_reaches(0, 0, 4), net_bonus(0, 0, 0).\n",
        "violation :- region_reaches(0, 0, 4), net_bonus(0, 0, B), B = 0.\n",
    ):
        (tmp_path / "four.lp").write_text(text)
        result = cli("check", "four.lp", "--board", "board.yaml", "--rules", "gentle.yaml")
        assert result.code == 0, result.err
        assert "four: holds for every position" in result.out


def test_a_rule_that_grounding_proves_false_is_still_a_proof(cli, tmp_path, search_board):
    """bonus-bounds' first rule never fires (no net bonus is negative), but
    it reads what occurs: its "holds" is a real proof."""
    (tmp_path / "neg.lp").write_text("violation :- net_bonus(0, P, B), B < 0.\n")
    result = cli("check", "neg.lp", "--board", "board.yaml")
    assert result.code == 0, result.err
    assert "holds" in result.out


def test_a_misspelt_predicate_in_an_included_file_names_that_file(cli, tmp_path, search_board):
    (tmp_path / "sub").mkdir()
    (tmp_path / "outer.lp").write_text('#include "sub/inner.lp".\n')
    (tmp_path / "sub" / "inner.lp").write_text("violation :- net_bonsu(0, P, B), B < 0.\n")
    result = cli("check", "outer.lp", "--board", "board.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert "sub/inner.lp: line 1: net_bonsu(0,P,B) is never defined" in line


def test_an_include_from_outside_the_program_s_folder_is_refused(cli, tmp_path, search_board):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "outer.lp").write_text('#include "../inner.lp".\n')
    (tmp_path / "inner.lp").write_text("violation :- net_bonus(0, P, B), B < 0.\n")
    result = cli("check", "sub/outer.lp", "--board", "board.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: sub/../inner.lp: line 1: ")
    assert "from a file #included from outside the program's folder" in line


def test_a_property_that_can_derive_violation_still_counts(cli, tmp_path, search_board):
    """A plain rule for violation, through an include: a counterexample."""
    (tmp_path / "outer.lp").write_text('#include "inner.lp".\n')
    (tmp_path / "inner.lp").write_text("violation :- home(0, 0, _).\n")
    result = cli("check", "outer.lp", "--board", "board.yaml", "--format", "json")
    assert result.code == 1, result.err
    assert result.json()["result"] == "counterexample"


# --- a search over no positions proves nothing ----------------------------


@pytest.fixture
def no_positions(tmp_path: Path) -> Path:
    """A rule set whose own program rules out every position."""
    (tmp_path / "none.lp").write_text(":- home(_, _, _).\n")
    path = tmp_path / "none.yaml"
    path.write_text("name: none\nextends: standard\nprograms: [none.lp]\n")
    return path


@pytest.mark.parametrize("prop", ["bonus-bounds", "own-monotone"])
def test_check_over_no_positions_is_an_error(cli, search_board, no_positions, prop):
    result = cli("check", prop, "--board", "board.yaml", "--rules", "none.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    # A rule set's constraint is refused as the rule set is read: it would
    # narrow the positions searched.
    assert line.startswith("evlogic: error: none.lp: line 1: '#false :- home(_,_,_).'")
    assert "is an integrity constraint" in line and result.out == ""


@pytest.mark.parametrize("order", [("none.yaml", "standard"), ("standard", "none.yaml")])
def test_diff_over_no_positions_is_an_error(cli, search_board, no_positions, order):
    result = cli("diff", "--board", "board.yaml", "--rules", order[0], "--rules", order[1])
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: none.lp: line 1: '#false :- home(_,_,_).'")


def test_score_refuses_the_same_rule_set(cli, tmp_path, search_board, no_positions):
    game = {"board": "board.yaml", "players": [{"name": "A", "home": "H", "states": []}]}
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(game))
    result = cli("score", "game.yaml", "--rules", "none.yaml")
    assert result.code == 2 and "none.lp" in result.err


def test_a_property_whose_own_constraints_leave_no_position_is_an_error(
    cli, tmp_path, search_board
):
    (tmp_path / "picky.lp").write_text(
        ":- home(0, 0, _).\nviolation :- net_bonus(0, P, B), B < 0.\n"
    )
    result = cli("check", "picky.lp", "--board", "board.yaml")
    assert result.code == 2
    assert "picky.lp: line 1: '#false :- home(0,0,_).' is an integrity constraint" in result.err


def test_a_board_too_small_for_the_property_is_an_error(cli, tmp_path, monkeypatch):
    """own-monotone needs a state to win: with both states homes, none."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pair.yaml").write_text(yaml.safe_dump(board_dict([("A", "B")])))
    result = cli("check", "own-monotone", "--board", "pair.yaml", "--players", "2")
    assert result.code == 2
    assert "no position on test board with 2 player(s)" in result.err


def test_a_bounded_proof_says_its_bound_in_json(cli, search_board):
    """ "holds" with --max-states covers only those positions: JSON says so."""
    result = cli(
        "check", "own-monotone", "--board", "board.yaml", "--max-states", "3", "--format", "json"
    )
    assert result.code == 0, result.err
    assert result.json()["result"] == "holds" and result.json()["max_states"] == 3
    unbounded = cli("check", "bonus-bounds", "--board", "board.yaml", "--format", "json")
    assert unbounded.json()["max_states"] is None


# --- exit statuses --------------------------------------------------------


def test_check_exit_status_says_holds_counterexample_or_unknown(tmp_path):
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board_dict([("A", "B"), ("B", "C")])))
    (tmp_path / "always.lp").write_text("violation.\n")
    holds = run_subprocess("check", "bonus-bounds", "--board", "board.yaml", cwd=tmp_path)
    fails = run_subprocess("check", "always.lp", "--board", "board.yaml", cwd=tmp_path)
    unknown = run_subprocess("check", "own-monotone", "--timeout", "0.01", cwd=tmp_path)
    assert (holds.code, fails.code, unknown.code) == (0, 1, 3), (holds, fails, unknown)
    assert "holds" in holds.out and "counterexample" in fails.out and "unknown" in unknown.out


def test_diff_exit_status_says_equivalent_differs_or_unknown(tmp_path):
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board_dict([("A", "B"), ("B", "C")])))
    same = run_subprocess(
        "diff", "--board", "board.yaml", "--rules", "standard", "--rules", "standard", cwd=tmp_path
    )
    (tmp_path / "plus.yaml").write_text("name: plus\nextends: standard\nswing_multiplier: 3\n")
    (tmp_path / "swing.yaml").write_text(
        yaml.safe_dump(board_dict([("A", "B"), ("B", "C")], swing={"C"}))
    )
    differs = run_subprocess(
        "diff", "--board", "swing.yaml", "--rules", "standard", "--rules", "plus.yaml", cwd=tmp_path
    )
    unknown = run_subprocess(
        "diff", "--rules", "standard", "--rules", "union-cores", "--timeout", "0.01", cwd=tmp_path
    )
    assert (same.code, differs.code, unknown.code) == (0, 1, 3), (same, differs, unknown)


# --- time and memory limits -----------------------------------------------


@pytest.fixture
def huge_rules(tmp_path: Path) -> Path:
    """A rule set whose program grounds for minutes and needs gigabytes."""
    (tmp_path / "huge.lp").write_text("huge(X) :- X = 1..200000000.\n")
    path = tmp_path / "huge.yaml"
    path.write_text("name: huge\nextends: standard\nprograms: [huge.lp]\n")
    return path


def test_a_search_stuck_in_grounding_answers_unknown_at_its_time_limit(tmp_path, huge_rules):
    started = time.monotonic()
    result = run_subprocess(
        "check", "bonus-bounds", "--rules", "huge.yaml", "--timeout", "2", cwd=tmp_path
    )
    took = time.monotonic() - started
    assert result.code == 3, result.err
    assert "unknown" in result.out and result.err == ""
    assert took < 60  # the grounding alone takes minutes: this tells a stop at any load


def test_scoring_stuck_in_grounding_stops_at_its_time_limit(tmp_path, huge_rules):
    result = run_subprocess("score", "--rules", "huge.yaml", "--timeout", "1", cwd=tmp_path)
    assert result.code == 3  # a time limit
    assert result.err.splitlines() == [
        "evlogic: error: score: no answer within 1 s (raise --timeout to give it longer)"
    ]


@pytest.mark.slow
def test_running_out_of_memory_is_one_line(tmp_path, huge_rules):
    result = run_subprocess(
        "score", "--rules", "huge.yaml", "--memory-limit", "400", "--timeout", "100", cwd=tmp_path
    )
    assert result.code == 2
    assert result.err.splitlines() == [
        "evlogic: error: score: out of memory (limit 400 MiB; raise --memory-limit)"
    ]


def cpu_seconds(pid: int) -> float:
    """The CPU time a running process has used (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_ends_a_search(tmp_path):
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "evlogic",
            "diff",
            "--rules",
            "standard",
            "--rules",
            "union-cores",
            "--players",
            "4",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Well into grounding or solving, at any load: a second of the process's
    # own CPU time (start-up takes a third of that; the 4-player diff about 7).
    while cpu_seconds(process.pid) < 1.0 and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)  # the status says Ctrl-C ended it
    assert process.returncode == 130
    assert err.splitlines() == ["evlogic: interrupted"]


@pytest.mark.parametrize(
    "program",
    [
        "region(G, P, S) :- owned(G, P, S).\n",  # a figure of evlogic's
        "face_value(G, 1, unfair, 50) :- player(G, 1).\n",  # seat 1 by number
        "face_value(G, P, unfair, 50) :- player(G, P), P > 0.\n",  # seats compared
        "first(G, P) :- home(G, P, _).\nface_value(G, Q, x, 1) :- first(G, 0), player(G, Q).\n",
    ],
    ids=["region", "seat-1", "compared", "through-a-helper"],
)
def test_a_rule_set_program_that_treats_players_unalike_is_refused(
    cli, tmp_path, search_board, program
):
    """The searches take player 0 to stand for every player, which holds
    while the rules treat players alike: a rule set's program that names a
    seat, compares seats or derives a figure of evlogic's is refused."""
    (tmp_path / "unfair.lp").write_text(program)
    (tmp_path / "unfair.yaml").write_text(
        "name: unfair\nextends: standard\nprograms: [unfair.lp]\n"
    )
    result = cli("check", "own-monotone", "--board", "board.yaml", "--rules", "unfair.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: unfair.lp: line ")
    assert "treats every player alike" in line or "evlogic's rules derive or read" in line


def test_clingo_running_out_of_memory_in_a_solve_is_one_line_not_a_counterexample(cli, monkeypatch):
    """clingo's std::bad_alloc from inside a solve came out
    as a RuntimeError traceback with exit 1, which a CI job reads as a
    counterexample; it is the out-of-memory line, exit 2."""
    import evlogic.reports.check

    def exhausted(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("std::bad_alloc")

    monkeypatch.setattr(evlogic.reports.check, "check", exhausted)
    result = cli("check", "bonus-bounds", "--players", "1")
    assert result.code == 2
    assert result.err == (
        "evlogic: error: check: out of memory (limit 4096 MiB; raise --memory-limit)\n"
    )
