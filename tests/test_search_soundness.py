"""The search against brute force: on small boards every position is
enumerated in plain Python and scored by tests/plain_scorer.py; every answer
of the search (holds, the smallest size, the very position printed) must be
what the enumeration says.  And the reduced search (the other players merged,
rules/search/generate_player0.lp) must answer exactly as the full one."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import SEARCH_EDGES, board_dict
from evlogic.asp.cone import reads_player0_only, sees_near_states_only
from evlogic.asp.facts import state_ids
from evlogic.asp.program import read_program
from evlogic.asp.search import TimeLimit, encoding
from evlogic.errors import InputError
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.check import check
from evlogic.resources import rules_dir
from plain_scorer import Rules, score_position

# A property in ASP, and the same in Python over plain_scorer's figures of
# one position (players in seat order) under the given rules.
Figures = dict
PROPERTIES: dict[str, tuple[str, Callable[[Figures], bool]]] = {
    "p0-bonus": (
        "violation :- net_bonus(0, 0, B), B > 0.\n",
        lambda f: f["players"][0]["net_bonus"] > 0,
    ),
    "any-bonus": (
        "violation :- net_bonus(0, P, B), B > 0.\n",
        lambda f: any(p["net_bonus"] > 0 for p in f["players"]),
    ),
    "p0-besieged-core": (
        "violation :- siege(0, 0, S), region_reaches(0, 0, 3).\n",
        lambda f: bool(f["players"][0]["siege"]) and len(f["players"][0]["region"]) >= 3,
    ),
    "p0-lone-winner": (
        "violation :- winner(0, 0), player(0, 1), not winner(0, Q) : player(0, Q), Q != 0.\n",
        lambda f: len(f["players"]) > 1 and f["winners"] == [f["players"][0]["name"]],
    ),
    "p0-total-20": (
        "violation :- #sum{ V, S : points(0, 0, V, S) } >= 20.\n",
        lambda f: f["players"][0]["total"] >= 20,
    ),
    "p0-double-siege": (
        "violation :- siege_penalty(0, 0, X), X >= 20.\n",
        lambda f: len(f["players"][0]["siege"]) >= 2,
    ),
    "p0-never": (
        "violation :- net_bonus(0, 0, B), B > 1000.\n",
        lambda f: False,
    ),
}


def positions(states: list[str], players: int):
    """Every position: distinct homes, players 1.. in increasing order (as the
    search), every other state unclaimed or held by one player."""
    for homes in itertools.permutations(states, players):
        if list(homes[1:]) != sorted(homes[1:]):
            continue
        rest = [s for s in states if s not in homes]
        for owners in itertools.product(range(-1, players), repeat=len(rest)):
            yield [
                {
                    "name": f"P{p + 1}",
                    "home": homes[p],
                    "states": [s for s, o in zip(rest, owners, strict=True) if o == p],
                }
                for p in range(players)
            ]


def owned_count(players: list[dict]) -> int:
    return sum(1 + len(p["states"]) for p in players)


def canonical_key(players: list[dict], states: list[str]) -> tuple:
    """The order of rules/search/canonical.lp: player 0's home, then from the
    highest state down what each is (0 unclaimed, 1 player 0's, 2 another's
    home, 2 + P held by player P)."""
    role = dict.fromkeys(states, 0)
    for index, player in enumerate(players):
        for state in player["states"]:
            role[state] = 1 if index == 0 else 2 + index
        if index:
            role[player["home"]] = 2
    return (states.index(players[0]["home"]), [role[s] for s in reversed(states)])


def brute_force(board: dict, players: int, holds: Callable[[Figures], bool], rules: Rules):
    """(True, None) when no position violates, else (False, canonical smallest)."""
    states = sorted(board["states"])
    found = [
        position
        for position in positions(states, players)
        if holds(score_position(board["states"], position, 100, rules))
    ]
    if not found:
        return True, None
    size = min(owned_count(p) for p in found)
    smallest = [p for p in found if owned_count(p) == size]
    return False, min(smallest, key=lambda p: canonical_key(p, states))


def run_check(tmp_path: Path, board: dict, text: str, players: int, rules: str = "standard"):
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board))
    (tmp_path / "prop.lp").write_text(text)
    result = check(
        str(tmp_path / "prop.lp"),
        load_board(tmp_path / "board.yaml"),
        "board.yaml",
        load_rule_set(rules, tmp_path),
        rules,
        players=players,
        limit=TimeLimit(60),
    )
    assert result.result != "unknown"
    return result


def same_as_brute_force(result, board: dict, players: int, holds, rules: Rules) -> None:
    proved, expected = brute_force(board, players, holds, rules)
    if proved:
        assert result.result == "holds"
        return
    assert result.result == "counterexample" and result.smallest
    found = [
        {"name": p["name"], "home": p["home"], "states": sorted(p["states"])}
        for p in result.counterexample["players"]
    ]
    assert found == expected
    assert holds(score_position(board["states"], found, 100, rules))  # re-scored: a break


def checked_as_brute_force(
    tmp_path: Path, board: dict, text: str, players: int, name: str, holds, rules: Rules
) -> None:
    """check answers as the enumeration does.  A property whose rules read
    what never occurs (player 1 of a one-player search, a siege with one
    player, a region on a board without triangles) can never fail: it is
    refused, never "holds", and the enumeration must agree nothing breaks it."""
    try:
        result = run_check(tmp_path, board, text, players, name)
    except InputError as error:
        assert "the rule reading it could never apply" in str(error)
        assert brute_force(board, players, holds, rules) == (True, None)
        return
    same_as_brute_force(result, board, players, holds, rules)


@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("name", sorted(PROPERTIES))
def test_every_answer_is_the_brute_force_one(tmp_path, name, players):
    text, holds = PROPERTIES[name]
    board = board_dict(SEARCH_EDGES, ev={"C": 5, "D": 3})
    checked_as_brute_force(tmp_path, board, text, players, "standard", holds, Rules())


@pytest.mark.parametrize("name", ["p0-bonus", "p0-besieged-core", "p0-total-20"])
def test_the_reduced_search_answers_as_the_full_one(tmp_path, monkeypatch, name):
    text, _holds = PROPERTIES[name]
    board = board_dict(SEARCH_EDGES, ev={"C": 5, "D": 3})
    (tmp_path / "prop.lp").write_text(text)
    assert reads_player0_only(read_program([tmp_path / "prop.lp"]))
    reduced = run_check(tmp_path, board, text, 3)
    monkeypatch.setattr(encoding, "reads_player0_only", lambda _programs: False)
    full = run_check(tmp_path, board, text, 3)
    assert (reduced.result, reduced.counterexample) == (full.result, full.counterexample)


#: SEARCH_EDGES and three states far from H (not next to it): C, F and G.
FAR_EDGES = [*SEARCH_EDGES, ("C", "F"), ("F", "G"), ("E", "G")]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["p0-bonus", "p0-besieged-core", "p0-total-20", "p0-double-siege"])
def test_the_near_only_search_answers_as_the_reduced_one(tmp_path, monkeypatch, name, players):
    """rules/search/near_only.lp (far homes on the lowest free far states,
    no far state for seat N) must change no answer, size or printed
    position, on a board where homes can be far from player 0's."""
    text, _holds = PROPERTIES[name]
    board = board_dict(FAR_EDGES, ev={"C": 5, "D": 3, "G": 4})
    (tmp_path / "prop.lp").write_text(text)
    assert sees_near_states_only(read_program([tmp_path / "prop.lp"]))
    near = run_check(tmp_path, board, text, players)
    monkeypatch.setattr(encoding, "sees_near_states_only", lambda _programs: False)
    reduced = run_check(tmp_path, board, text, players)
    assert (near.result, near.counterexample) == (reduced.result, reduced.counterexample)


def test_near_only_keeps_far_homes_that_must_pass_free_near_states(tmp_path, monkeypatch):
    """Player 0 at home H with a bonus and no siege, with 4 players: H's
    free neighbours D and E come before the far states F and G, so the far
    homes are placed by comparing far states only (a placement that also
    waited for near states would find no such position)."""
    board = board_dict(FAR_EDGES, ev={"C": 5, "D": 3, "G": 4})
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board))
    home = state_ids(load_board(tmp_path / "board.yaml")).index("H")
    text = f"violation :- net_bonus(0, 0, B), B > 0, not besieged(0, 0), home(0, 0, {home}).\n"
    (tmp_path / "prop.lp").write_text(text)
    assert sees_near_states_only(read_program([tmp_path / "prop.lp"]))
    near = run_check(tmp_path, board, text, 4)
    monkeypatch.setattr(encoding, "sees_near_states_only", lambda _programs: False)
    reduced = run_check(tmp_path, board, text, 4)
    assert near.result == reduced.result == "counterexample"
    assert near.counterexample == reduced.counterexample


#: A path a-b-c-d-e-f and a triangle f-g-h: most states far from most homes.
PATH_EDGES = [
    ("a", "b"),
    ("b", "c"),
    ("c", "d"),
    ("d", "e"),
    ("e", "f"),
    ("f", "g"),
    ("f", "h"),
    ("g", "h"),
]

#: Properties that read what the other players hold in ways the reductions
#: must not hide: each must get the search that sees it.
SEEING = {
    "final": "violation :- final(0), #count{ S : owned(0, 0, S) } <= 1.\n",
    "far-triangle": (
        "violation :- triangle(H, _), home(0, 0, H0), H != H0, not adjacent(H0, H).\n"
    ),
    "moved-home": (
        "owned(1, P, S) :- owned(0, P, S).\n"
        "home(1, 0, X) :- home(0, 0, H), X = #max{ T : adjacent(H, T) }.\n"
        "violation :- home(0, 0, H), "
        "#count{ S : siege(1, 0, S), S != H, not adjacent(H, S) } >= 2.\n"
    ),
    "other-core": "violation :- core_member(0, P, _), P != 0.\n",
}


@pytest.mark.parametrize("name", sorted(SEEING))
def test_properties_that_see_far_holdings_answer_as_the_full_search(tmp_path, monkeypatch, name):
    board = board_dict(PATH_EDGES)
    text = SEEING[name]
    chosen = run_check(tmp_path, board, text, 2)
    monkeypatch.setattr(encoding, "sees_near_states_only", lambda _programs: False)
    monkeypatch.setattr(encoding, "reads_player0_only", lambda _programs: False)
    full = run_check(tmp_path, board, text, 2)
    assert (chosen.result, chosen.counterexample) == (full.result, full.counterexample)
    assert full.result == "counterexample"


def test_near_only_is_for_programs_that_copy_the_other_players_holdings_at_most(tmp_path):
    """A program that reads whose a state is (owned(0, _, S)), or copies it
    with a condition, may see far states: no near_only.lp for it."""
    cases = {
        "copy.lp": (
            "owned(1, P, S) :- owned(0, P, S).\nviolation :- net_bonus(0, 0, B), B > 0.\n",
            True,
        ),
        "free.lp": (
            "free(S) :- state(S), not owned(0, _, S).\nviolation :- free(S), S > 2.\n",
            False,
        ),
        "cond.lp": (
            "owned(1, P, S) :- owned(0, P, S), P != 0.\nviolation :- net_bonus(1, 0, B), B > 0.\n",
            False,
        ),
        "homes.lp": ("violation :- home(0, P, S), P != 0, S > 2.\n", False),
        "mine.lp": ("violation :- owned(0, 0, S), home(0, 0, H), S > H.\n", True),
        **{f"{name}.lp": (text, False) for name, text in SEEING.items()},
    }
    for name, (text, near) in cases.items():
        (tmp_path / name).write_text(text)
        assert sees_near_states_only(read_program([tmp_path / name])) == near, name


def test_own_monotone_broken_by_shrinking_tiers_matches_brute_force(tmp_path):
    """A test-only variant that breaks own-monotone: the smallest position
    where winning one more state lowers player 0's total, against the
    enumeration (each position, each state player 0 could still win)."""
    (tmp_path / "shrinking.yaml").write_text(
        "name: shrinking\nextends: standard\ntiers: {3: 40, 4: 5}\n"
    )
    rules = Rules(tiers={3: 40, 4: 5})
    board = board_dict(SEARCH_EDGES, ev={"C": 5, "D": 3})
    text = Path(rules_dir() / "properties" / "own-monotone.lp").read_text()

    def breaks(position: list[dict]) -> bool:
        before = score_position(board["states"], position, 100, rules)["players"][0]["total"]
        homes = {p["home"] for p in position}
        mine = {position[0]["home"], *position[0]["states"]}
        for state in sorted(set(board["states"]) - homes - mine):
            after = [{**p, "states": [s for s in p["states"] if s != state]} for p in position]
            after[0]["states"] = sorted([*after[0]["states"], state])
            if score_position(board["states"], after, 100, rules)["players"][0]["total"] < before:
                return True
        return False

    for players in (1, 2, 3):
        result = run_check(tmp_path, board, text, players, "shrinking.yaml")
        states = sorted(board["states"])
        found = [p for p in positions(states, players) if breaks(p)]
        size = min(owned_count(p) for p in found)
        expected = min(
            (p for p in found if owned_count(p) == size), key=lambda p: canonical_key(p, states)
        )
        assert result.result == "counterexample" and result.smallest
        got = [
            {"name": p["name"], "home": p["home"], "states": sorted(p["states"])}
            for p in result.counterexample["players"]
        ]
        assert got == expected and breaks(got)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    edges=st.sets(
        st.tuples(st.sampled_from("ABCDE"), st.sampled_from("ABCDE")).filter(lambda e: e[0] < e[1]),
        min_size=3,
    ),
    evs=st.lists(st.integers(1, 9), min_size=5, max_size=5),
    players=st.integers(1, 3),
    siege=st.integers(1, 30),
    union=st.booleans(),
    name=st.sampled_from(["p0-bonus", "p0-besieged-core", "p0-total-20", "any-bonus"]),
)
def test_random_small_boards_and_rule_sets(tmp_path, edges, evs, players, siege, union, name):
    board = board_dict(sorted(edges), ev=dict(zip("ABCDE", evs, strict=True)), states=list("ABCDE"))
    region = "union" if union else "best-core"
    (tmp_path / "rules.yaml").write_text(
        f"name: r\nextends: standard\nsiege_penalty: {siege}\nregion: {region}\n"
    )
    text, holds = PROPERTIES[name]
    rules = Rules(siege_penalty=siege, region=region)
    checked_as_brute_force(tmp_path, board, text, players, "rules.yaml", holds, rules)


# H touches A, B, C, D, E; A-D and B-C are cores of H, equally large alone;
# E touches B and C, so with E the core H-B-C grows further.
TIE_EDGES = [("H", s) for s in "ABCDE"] + [("A", "D"), ("B", "C"), ("E", "B"), ("E", "C")]
NOT_SMALLEST_CORE = "violation :- core(0, 0, Core), core_candidate(0, 0, Other), Other < Core.\n"


def counted_core_is_not_the_smallest(board: dict, player: dict) -> bool:
    """Player 0 (plain scorer, its listing order) counts a core other than
    the one with the smallest ids."""
    neighbors = {s: set(info["neighbors"]) for s, info in board["states"].items()}
    home, owned = player["home"], set(player["states"])
    cores = [
        [home, a, b]
        for a in sorted(owned)
        for b in sorted(owned)
        if a < b and {a, b} <= neighbors[home] and b in neighbors[a]
    ]
    counted = score_position(board["states"], [player], 100)["players"][0]["core"]
    return bool(cores) and counted != min(cores)


@pytest.mark.parametrize("players", [1, 2])
def test_a_witness_scored_again_counts_the_core_the_search_counted(tmp_path, cli, players):
    """A search reads the tie between cores in id order (positions list no
    order; the witness lists its states by id): the smallest position whose
    counted core is not the smallest one is two equally large cores, the
    smaller ids completed later; scored again, the printed witness counts the
    same core.  (Ties to the smallest ids would need E as well.)"""
    board = board_dict(TIE_EDGES)
    result = run_check(tmp_path, board, NOT_SMALLEST_CORE, players)
    states = sorted(board["states"])
    found = [
        position
        for position in positions(states, players)
        if counted_core_is_not_the_smallest(board, position[0])
    ]
    size = min(owned_count(p) for p in found)
    expected = min(
        (p for p in found if owned_count(p) == size), key=lambda p: canonical_key(p, states)
    )
    assert result.result == "counterexample" and result.smallest
    witness = result.counterexample
    assert [{**p, "states": sorted(p["states"])} for p in witness["players"]] == expected
    assert witness["players"][0] == {"name": "P1", "home": "H", "states": ["A", "B", "C", "D"]}
    (tmp_path / "witness.yaml").write_text(yaml.safe_dump({**witness, "board": "board.yaml"}))
    scored = cli("score", tmp_path / "witness.yaml", "--format", "json")
    assert scored.code == 0, scored.err
    assert scored.json()["players"][0]["core"] == ["H", "B", "C"]
    assert counted_core_is_not_the_smallest(board, witness["players"][0])
