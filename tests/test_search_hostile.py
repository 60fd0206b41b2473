"""check and diff, tried as a hostile (or careless) user would: each test is
a property or rule set for which the search must not print a proof it did
not make.  Each case is a way to get a false "holds" (exit 0) or
"equivalent" (exit 0), or a traceback, out of a search that does not guard
against it (each says how, in a comment).

Each test says what a correct answer must NOT be (exit 0 and the proof
line) and, where the contract is clear, what it must be.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from conftest import board_dict

# A triangle: A (3 EV), B (4), C (5), every pair adjacent.
TRIANGLE = board_dict([("A", "B"), ("B", "C"), ("A", "C")], ev={"A": 3, "B": 4, "C": 5})


@pytest.fixture
def triangle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "tri.yaml"
    path.write_text(yaml.safe_dump(TRIANGLE))
    (tmp_path / "game.yaml").write_text(
        "board: tri.yaml\nplayers:\n  - {name: P1, home: A}\n  - {name: P2, home: B}\n"
    )
    return path


def rule_set(tmp_path: Path, name: str, program: str) -> str:
    """A rule set extending standard with one program; its file name."""
    (tmp_path / f"{name}.lp").write_text(program)
    (tmp_path / f"{name}.yaml").write_text(
        f"name: {name}\nextends: standard\nprograms: [{name}.lp]\n"
    )
    return f"{name}.yaml"


def total(cli, rules: str) -> int | None:
    """Player P1's total in game.yaml under ``rules`` (None: score refuses it)."""
    result = cli("score", "game.yaml", "--rules", rules, "--format", "json")
    if result.code != 0:
        return None
    return json.loads(result.out)["players"][0]["total"]


def refused_property(cli, tmp_path: Path, text: str) -> str:
    """check of a property ``text`` (prop.lp, on the triangle): refused,
    exit 2, in one line; that line."""
    (tmp_path / "prop.lp").write_text(text)
    result = cli("check", "prop.lp", "--board", "tri.yaml")
    assert result.code == 2, result.out
    [error] = result.err.splitlines()
    return error


# --- diff: a rule set's program scores the other rule set's position too ---------------


# A false proof: diff loads both rule sets' programs over both positions: a program like
# docs/formats.md's home-bonus.lp (face_value(G, P, home_bonus, 5) :- home(G, P, _).) adds its
# points to position 0 (scored by the first rule set) as well, so the totals always agree
def test_diff_sees_a_rule_set_program_that_changes_totals(cli, tmp_path, triangle):
    bonus = rule_set(tmp_path, "home-bonus", "face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    assert total(cli, "standard") != total(cli, bonus)  # score sees the difference
    result = cli("diff", "--board", "tri.yaml", "--rules", "standard", "--rules", bonus)
    # A difference, or a refusal (diff compares rule sets of numbers): never a proof.
    assert result.code in (1, 2), result.out
    assert result.code == 1 or "brings .lp programs" in result.err
    assert "No position gives a different total" not in result.out


# A false proof: the same cause: two rule sets with different programs (+5 and +9 per home)
# both apply to both positions, so diff proves them equivalent
def test_diff_of_two_programmed_rule_sets(cli, tmp_path, triangle):
    five = rule_set(tmp_path, "plus-five", "face_value(G, P, plus, 5) :- home(G, P, _).\n")
    nine = rule_set(tmp_path, "plus-nine", "face_value(G, P, plus, 9) :- home(G, P, _).\n")
    assert total(cli, five) != total(cli, nine)
    result = cli("diff", "--board", "tri.yaml", "--rules", five, "--rules", nine)
    assert result.code in (1, 2), result.out  # a difference or a refusal, never a proof
    assert "No position gives" not in result.out


# --- a rule set whose constraint rules out some positions --------------------------------


# A false proof: diff proves 'equivalent' although score refuses every position the second
# rule set's constraint rules out (and scores them under the first): the probe only asks that
# some position exist, not that both rule sets score the same positions
def test_diff_of_a_rule_set_that_refuses_positions_is_not_equivalent(cli, tmp_path, triangle):
    refusing = rule_set(tmp_path, "never-c", ":- owned(G, P, S), ev(S, 5).\n")
    (tmp_path / "owns-c.yaml").write_text(
        "board: tri.yaml\nplayers:\n  - {name: P1, home: A, states: [C]}\n"
    )
    assert cli("score", "owns-c.yaml").code == 0
    assert cli("score", "owns-c.yaml", "--rules", refusing).code == 2
    result = cli("diff", "--board", "tri.yaml", "--rules", "standard", "--rules", refusing)
    assert result.code != 0, result.out  # differs (1) or refused (2), never a proof


# A false proof: check proves 'holds' when the rule set's own constraint rules out exactly
# the positions that break the property (score refuses them): every position where player 0's
# home is A is excluded, and the probe finds positions with other homes
def test_check_under_a_rule_set_that_refuses_the_counterexamples(cli, tmp_path, triangle):
    refusing = rule_set(tmp_path, "no-home-a", ":- home(_, _, S), ev(S, 3).\n")
    (tmp_path / "home-a.lp").write_text("violation :- home(0, 0, S), ev(S, 3).\n")
    assert cli("check", "home-a.lp", "--board", "tri.yaml").code == 1  # standard: broken
    result = cli("check", "home-a.lp", "--board", "tri.yaml", "--rules", refusing)
    assert result.code != 0, result.out
    assert "holds" not in result.out


# --- properties whose violation rule can never fire, yet pass the checks -----------------


# A false proof: an #external guard: the relaxed copy 'applies :- armed, net_bonus(...)'
# grounds (an external is an atom), but the search never switches it on, so violation never
# holds and check says 'holds' for a property that fails on every position
def test_a_violation_guarded_by_an_external_is_not_a_proof(cli, tmp_path, triangle):
    (tmp_path / "guarded.lp").write_text(
        "#external armed.\nviolation :- armed, net_bonus(0, P, B), B >= 0.\n"
    )
    result = cli("check", "guarded.lp", "--board", "tri.yaml")
    assert result.code != 0, result.out
    assert "holds" not in result.out


# A false proof: '#program base(k).' is a part named base with a parameter:
# reading a program and its per-atom check counted its rules as the base program's, but only
# base/0 is grounded, so the violation rule is never grounded and check says 'holds'
def test_a_violation_in_a_parametrised_base_part_is_refused(cli, tmp_path, triangle):
    (tmp_path / "part.lp").write_text(
        "#program base(k).\nviolation :- net_bonus(0, P, B), B >= 0.\n"
    )
    result = cli("check", "part.lp", "--board", "tri.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: part.lp:")


# A false proof: the per-atom check kept every rule whose head *text* contains 'violation':
# a rule for violation/1 (or 'violations', 'no_violation') grounds and vouches for a violation/0
# rule that reads a predicate with no atoms (declared #defined), so check says 'holds'
def test_a_decoy_violation_with_arguments_does_not_vouch_for_violation(cli, tmp_path, triangle):
    (tmp_path / "decoy.lp").write_text(
        "#defined net_bonuss/3.\n"
        "violation(1) :- state(S).\n"
        "violation :- net_bonuss(0, P, B), B >= 0.\n"
    )
    result = cli("check", "decoy.lp", "--board", "tri.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: decoy.lp: line 3: net_bonuss(0,P,B) never occurs")


# A false proof: rules/search/generate.lp's own predicates are not namespaced: a property (or rule
# set program) with a helper fact named limit/1 bounds the owned states through ':- limit(K),
# #count{...} > K.' for every part and for the probe, so check says 'holds for every position'
# with no bound printed
def test_a_helper_named_like_the_generators_bound_does_not_bound_the_search(
    cli, tmp_path, triangle
):
    (tmp_path / "plain.lp").write_text("violation :- owned(0, 0, S), not home(0, 0, S).\n")
    assert cli("check", "plain.lp", "--board", "tri.yaml").code == 1
    (tmp_path / "helper.lp").write_text(
        "limit(2).\nviolation :- owned(0, 0, S), not home(0, 0, S).\n"
    )
    result = cli("check", "helper.lp", "--board", "tri.yaml")
    assert result.code != 0, result.out  # a counterexample, or a refused name


# --- a rule set score refuses on this board -----------------------------------------------


# A false proof: check and diff did not call games.check_game_end, so a
# rule set whose game_end is beyond the board (score refuses it) was proved.
@pytest.mark.parametrize("command", ["check", "diff"])
def test_a_game_end_beyond_the_board_is_refused_as_score_refuses_it(
    cli, tmp_path, triangle, command
):
    (tmp_path / "long.yaml").write_text("name: long\nextends: standard\ngame_end: 99\n")
    scored = cli("score", "game.yaml", "--rules", "long.yaml")
    assert scored.code == 2
    [refusal] = scored.err.splitlines()
    assert "the game could never end" in refusal
    if command == "check":
        result = cli("check", "own-monotone", "--board", "tri.yaml", "--rules", "long.yaml")
    else:
        result = cli("diff", "--board", "tri.yaml", "--rules", "standard", "--rules", "long.yaml")
    assert result.code == 2, result.out
    assert result.err.splitlines() == [refusal]


# --- a property's own constraints and choices (found on the merged search) -----------------


# A false proof: the constraint rules out exactly the positions where the
# violation rule could fire (home A), and other homes remain, so the probe's
# "some position exists" passed.  A property holds no constraint at all now:
# one that only narrows the positions is refused as well (write the
# restriction into the violation rule's body instead).
@pytest.mark.parametrize(
    "text",
    [
        "violation :- home(0, 0, S), ev(S, 3).\n:- home(0, 0, S), ev(S, 3).\n",
        "violation :- net_bonus(0, 0, B), B < 0.\n:- home(0, 0, S), not ev(S, 3).\n",
    ],
    ids=["hides", "narrows"],
)
def test_a_property_with_a_constraint_of_its_own_is_refused(cli, tmp_path, triangle, text):
    error = refused_property(cli, tmp_path, text)
    assert error.startswith("evlogic: error: prop.lp: line 2: '#false :- home(0,0,S);")
    assert "is an integrity constraint" in error


# A false proof: violation in a choice head is chosen, not derived ('{ violation }
# 0 :- ...' can never choose it, so check said 'holds'); only plain rules may derive it.
@pytest.mark.parametrize(
    "program",
    [
        "{ violation } 0 :- net_bonus(0, P, B), B >= 0.\n",
        "1 { violation ; calm } 1 :- net_bonus(0, P, B), B >= 0.\n:- not calm, state(S).\n",
    ],
    ids=["bound-0", "forced-alternative"],
)
def test_violation_in_a_choice_head_is_refused(cli, tmp_path, triangle, program):
    (tmp_path / "chosen.lp").write_text(program)
    result = cli("check", "chosen.lp", "--board", "tri.yaml")
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: chosen.lp:")


# A wrong witness: a property's '#show owned(P, S) : owned(1, P, S).' was read as
# part of the position found, so check printed a "smallest" position that is none
@pytest.mark.parametrize(
    "show", ["#show owned(P, S) : owned(1, P, S).", "#show home/2.", "#show owned/3."]
)
def test_a_property_showing_position_terms_is_refused(cli, tmp_path, triangle, show):
    (tmp_path / "shows.lp").write_text(
        f"violation :- net_bonus(0, 0, B), B > 0.\nowned(1, P, S) :- owned(0, P, S).\n{show}\n"
    )
    result = cli("check", "shows.lp", "--board", "tri.yaml")
    assert result.code == 2, result.out
    assert "shows.lp: line 3" in result.err and "home or owned" in result.err
    assert len(result.err.strip().splitlines()) == 1


# A wrong witness, or a traceback: a term computed from a variable or written
# with a minus passed for a state of the position found, and a constant named
# home ended in a ValueError (exit 1)
@pytest.mark.parametrize(
    "show",
    [
        "#show X : home(0, P, S), adjacent(S, T), X = owned(P, T).",
        "#show -owned(0, 2).",
        "#show home.",
    ],
)
def test_what_a_property_shows_is_not_read_as_the_position(cli, tmp_path, triangle, show):
    (tmp_path / "shows.lp").write_text(f"violation :- home(0, 0, S), ev(S, 3).\n{show}\n")
    result = cli("check", "shows.lp", "--board", "tri.yaml", "--format", "json")
    assert result.code == 1, result.err
    players = result.json()["counterexample"]["players"]
    assert [(p["home"], p["states"]) for p in players] == [("A", []), ("B", [])]


# --- what a program hides from the refusals of constraints and choices --------------------
# Each is a false "holds" (exit 0) or a traceback where unguarded.

# The property fails where the home is worth 3 (A, on the triangle), so "holds" is false.
HOME_WORTH_3 = "violation :- home(0, 0, S), ev(S, E), E < 4.\n"


@pytest.mark.parametrize(
    ("program", "phrase"),
    [
        # A false proof: an odd loop is a constraint in disguise (score refuses the
        # positions it rules out, "a constraint?"), and the search skipped them
        ("evl_p(G) :- home(G, P, S), ev(S, 3), not evl_p(G).\n", "evl_p/1 depends on itself"),
        ("evl_q(G) :- home(G, P, S), ev(S, 3), not evl_q(G).\n", "evl_q/1 depends on itself"),
        # A false proof: an even loop gives a position two scorings (score: "more than
        # one answer"); the search took whichever hid the counterexample
        (
            "evl_a(G) :- game(G), not evl_b(G).\nevl_b(G) :- game(G), not evl_a(G).\n"
            "face_value(G, P, bonusx, 100) :- player(G, P), evl_a(G).\n",
            "depends on itself through negation",
        ),
    ],
)
def test_a_rule_set_loop_through_negation_is_refused(cli, tmp_path, triangle, program, phrase):
    (tmp_path / "home3.lp").write_text(HOME_WORTH_3)
    assert cli("check", "home3.lp", "--board", "tri.yaml").code == 1  # a counterexample
    looped = rule_set(tmp_path, "looped", program)
    result = cli("check", "home3.lp", "--board", "tri.yaml", "--rules", looped)
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: looped.lp: line 1: ") and phrase in line


@pytest.mark.parametrize(
    ("property_text", "line", "phrase"),
    [
        # A false proof: the property's own constraint on violation rules out every
        # counterexample
        (HOME_WORTH_3 + ":- violation.\n", 2, "is an integrity constraint"),
        (HOME_WORTH_3 + "bad :- violation.\n:- bad.\n", 3, "is an integrity constraint"),
        # A traceback (IndexError decoding the position): a property derived a home of
        # position 0 beyond the board
        (HOME_WORTH_3 + "home(0, 0, 99).\n", 2, "a rule deriving home/3 of position 0"),
        (HOME_WORTH_3 + "state(99).\n", 2, "a rule deriving state/1, which the scoring rules"),
        (HOME_WORTH_3 + "owned(G, 0, 2) :- game(G).\n", 2, "a rule deriving owned/3 of position 0"),
    ],
)
def test_a_property_that_hides_its_counterexamples_is_refused(
    cli, tmp_path, triangle, property_text, line, phrase
):
    error = refused_property(cli, tmp_path, property_text)
    assert error.startswith(f"evlogic: error: prop.lp: line {line}: ") and phrase in error


def test_another_position_derived_from_position_0_is_a_property_s_own(cli, tmp_path, triangle):
    """own-monotone builds position 1 from position 0 (home/3, owned/3 of
    position 1, a choice reading owned/3 of position 0): no loop, no input
    derived; a copy of it outside evlogic's rules/ is checked as the bundled
    one is."""
    bundled = cli("check", "own-monotone", "--board", "tri.yaml", "--format", "json")
    own = Path(__file__).resolve().parents[1] / "rules" / "properties" / "own-monotone.lp"
    (tmp_path / "mine.lp").write_text(own.read_text())
    mine = cli("check", "mine.lp", "--board", "tri.yaml", "--format", "json")
    assert (bundled.code, mine.code) == (0, 0), mine.err
    assert mine.json()["result"] == bundled.json()["result"] == "holds"


# Was several lines on standard error: clingo's warning for a file that includes itself went
# out once a parse (three), and its detail was joined by "; " ("already included file:; p6.lp")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('#include "prop.lp".\n' + HOME_WORTH_3, "line 1: already included file: prop.lp"),
        (
            "violation :- &diff{x}.\n",
            "line 1: 'violation :- &diff { x }.' is a rule with a body element outside the "
            "fragment (a theory atom?) (what a property may hold: docs/verification.md)",
        ),
    ],
)
def test_what_clingo_says_of_a_property_is_one_line(cli, tmp_path, triangle, text, message):
    (tmp_path / "prop.lp").write_text(text)
    result = cli("check", "prop.lp", "--board", "tri.yaml")
    assert result.code == 2
    assert result.err == f"evlogic: error: prop.lp: {message}\n"


# Was "--players: must be between 1 and 1" on a board of one state, the default 2 players
# never given: it says why
def test_too_many_players_for_the_board_says_why(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "one.yaml").write_text("name: one\nstates:\n  A: {ev: 3}\n")
    result = cli("check", "bonus-bounds", "--board", "one.yaml")
    assert result.code == 2
    assert result.err == (
        "evlogic: error: --players: must be between 1 and 1: one has 1 state, one home a player\n"
    )


# a pool, a classically negated atom and an #edge hid a
# constraint from them (each a false "holds", exit 0)
@pytest.mark.parametrize(
    ("extra", "phrase"),
    [
        ("q(1) :- violation.\n:- q(1;1).\n", "is an integrity constraint"),
        ("p(1) :- violation, not p(1;1).\n", "is a rule with a pool (p(1;2))"),
        ("p(1) :- violation, not p(1).\n", "p/1 depends on itself"),
        ("-violation.\n", "(classical negation?)"),
        ("x :- violation.\n-x.\n", "(classical negation?)"),
        ("#edge (a, b) : violation.\n#edge (b, a) : violation.\n", "is an #edge"),
        (
            "owned(0;0, 1, S) :- state(S), not home(0, 0, S).\n",
            "is a rule with a pool (p(1;2))",
        ),
    ],
)
def test_a_constraint_hidden_in_a_pool_a_negated_atom_or_an_edge_is_refused(
    cli, tmp_path, triangle, extra, phrase
):
    error = refused_property(cli, tmp_path, HOME_WORTH_3 + extra)
    assert error.startswith("evlogic: error: prop.lp: line ") and phrase in error, error


# Once refused (a loop through evlogic's own region
# rules, positions 0 and 1 taken for one): a property that builds position 1 from position 0's
# region is stratified, and proves as before
@pytest.mark.parametrize(
    "building",
    [
        "owned(1, 0, S) :- owned(0, 0, S), region(0, 0, S).\n"
        "owned(1, P, S) :- owned(0, P, S), P != 0.\n",
        "outside(S) :- owned(0, 0, S), not region(0, 0, S).\n"
        "owned(1, P, S) :- owned(0, P, S), not outside(S).\n",
    ],
)
def test_a_position_built_from_position_0_s_region_is_no_loop(cli, tmp_path, triangle, building):
    (tmp_path / "prop.lp").write_text(
        "game(1).\nplayer(1, P) :- player(0, P).\nhome(1, P, S) :- home(0, P, S).\n"
        + building
        + "violation :- net_bonus(0, 0, A), net_bonus(1, 0, B), B < A.\n"
    )
    result = cli("check", "prop.lp", "--board", "tri.yaml", "--players", "1")
    assert result.code == 0, result.err
    assert "prop: holds for every position" in result.out


def test_the_readme_s_rule_set_program_still_proves_on_usa(cli, tmp_path, monkeypatch):
    """A rule set with its own program on the 51-state board: proved (the
    review found a first version of these checks searching past 120 s)."""
    monkeypatch.chdir(tmp_path)
    rules = rule_set(tmp_path, "home-bonus", "face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    result = cli("check", "bonus-bounds", "--rules", rules, "--players", "2")
    assert result.code == 0, result.err
    assert "holds for every position on United States" in result.out


# the search scores winners through points/4 (rules/search/points.lp), which
# score never reads; a rule set deriving points/4 changed check's winners, not score's
def test_a_rule_set_deriving_the_search_s_own_predicates_is_refused(cli, tmp_path, triangle):
    boost = rule_set(tmp_path, "boost", "points(G, P, 1000, boost) :- home(G, P, S), P > 0.\n")
    (tmp_path / "wins.lp").write_text("violation :- winner(0, P), P = 0.\n")
    assert cli("check", "wins.lp", "--board", "tri.yaml").code == 1
    result = cli("check", "wins.lp", "--board", "tri.yaml", "--rules", boost)
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: boost.lp: line 1: 'points(G,P,1000,boost) :-")
    assert "is a rule deriving points/4, which evlogic's rules derive or read" in line


# a property that rescores position 0 proves things of scores score never
# gives (here totals lowered by 100, so "no total above 5" held)
def test_a_property_that_rescores_position_0_is_refused(cli, tmp_path, triangle):
    error = refused_property(
        cli,
        tmp_path,
        "violation :- total(0, 0, T), T > 5.\nface_value(0, P, fudge, -100) :- player(0, P).\n",
    )
    assert error.startswith("evlogic: error: prop.lp: line 2: 'face_value(0,P,fudge,-100) :-")
    assert "is a rule deriving face_value/4, which the scoring rules or the rule set" in error


# A false "holds": a source given two values (two rules for one name) made
# compare.lp pair each value with the other's, so winning C was a change of
# +50 where the total drops by 50 - 5 (A alone: 100 + 50 + 3; with C: 100 + 3 + 5)
def test_a_source_of_two_values_changes_as_its_sum(cli, tmp_path, triangle):
    rules = rule_set(
        tmp_path,
        "crowded",
        "face_value(G, P, extra, 100) :- home(G, P, _).\n"
        "face_value(G, P, extra, 50) :- home(G, P, _), not crowded(G, P).\n"
        "crowded(G, P) :- player(G, P), #count{ S : owned(G, P, S) } >= 2.\n",
    )
    result = cli("check", "own-monotone", "--board", "tri.yaml", "--rules", rules)
    assert result.code == 1, result.out
    before = total(cli, rules)
    (tmp_path / "game.yaml").write_text(
        "board: tri.yaml\nplayers:\n  - {name: P1, home: A, states: [C]}\n  - {name: P2, home: B}\n"
    )
    assert before == 153 and total(cli, rules) == 108


# A false "holds": the homes of seats 1.. were searched in increasing order
# only, which is sound only when nothing tells those seats apart; this property
# names seat 2, which then never had the lowest home
def test_a_property_naming_seat_2_searches_every_order_of_the_homes(cli, tmp_path, triangle):
    (tmp_path / "seat2.lp").write_text("violation :- home(0, 2, H), ev(H, 3).\n")
    result = cli("check", "seat2.lp", "--board", "tri.yaml", "--players", "3", "--format", "json")
    assert result.code == 1, result.out
    players = result.json()["counterexample"]["players"]
    assert [p["home"] for p in players] == ["B", "C", "A"]


# A traceback, exit 1 (which CI reads as "counterexample"): clasp's
# "Integer overflow" on a rule set's face value near 2^31, which score refuses
def test_figures_past_32_bits_are_refused_in_one_line(cli, tmp_path, triangle):
    rules = rule_set(tmp_path, "big", "face_value(G, P, big, 2147483640) :- home(G, P, _).\n")
    (tmp_path / "low.lp").write_text("violation :- total(0, 0, T), T < 0.\n")
    result = cli("check", "low.lp", "--board", "tri.yaml", "--rules", rules)
    assert result.code == 2, result.out
    [line] = result.err.splitlines()
    assert "passes 2^31" in line
    (tmp_path / "game.yaml").write_text(
        "board: tri.yaml\nplayers:\n  - {name: P1, home: A, states: [C]}\n  - {name: P2, home: B}\n"
    )
    assert total(cli, rules) is None  # score refuses such a position too
