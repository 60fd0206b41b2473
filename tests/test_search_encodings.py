"""The searches' own encodings against the plain Python scorer, position by
position: rules/search/cores.lp (every core grows its own closure) must give
the regions of rules/scoring/cores.lp (only uncovered cores grow), which the scorer
defines, on boards where covering is common; and search_rules must keep
rules/scoring/cores.lp for a program that reads what only it gives."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from test_differential import game_under, rule_variants
from test_search_soundness import owned_count
from test_search_soundness import positions as every_position

from conftest import SEARCH_EDGES, board_dict
from evlogic.asp.facts import board_program, game_program, state_ids
from evlogic.asp.program import read_program
from evlogic.asp.search import (
    Floor,
    SearchOutcome,
    SearchRequest,
    TimeLimit,
    search,
    search_rules,
)
from evlogic.asp.solver import rule_paths, solve
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.diff import diff
from evlogic.resources import rules_dir
from plain_scorer import Rules, score_position
from strategies import big_positions, positions

FIGURES = {"region", "core", "region_size", "points"}
SEARCH_CORES = [
    "scoring/position.lp",
    "scoring/face.lp",
    "search/cores.lp",
    "scoring/region.lp",
    "scoring/siege.lp",
    "scoring/bonus.lp",
    "search/points.lp",
]


def assert_search_cores_score_like_the_scorer(board: dict, players: list[dict], variant: dict):
    game = game_under(board, players, variant)
    facts = game.rules.program() + board_program(game.board) + game_program(game)
    atoms = solve(facts, rule_paths(SEARCH_CORES))
    ids = state_ids(game.board)
    plain = score_position(
        board["states"],
        players,
        board["game_end"],
        Rules(**{**variant, "tiers": dict(variant["tiers"])}),
    )
    for index, theirs in enumerate(plain["players"]):
        mine = [
            a
            for a in atoms
            if a.name in FIGURES and a.arguments[0].number == 0 and a.arguments[1].number == index
        ]
        region = sorted(ids[a.arguments[2].number] for a in mine if a.name == "region")
        cores = [a.arguments[2].arguments for a in mine if a.name == "core"]
        core = [ids[s.number] for s in cores[0]] if cores else []
        (size,) = [a.arguments[2].number for a in mine if a.name == "region_size"]
        total = sum(a.arguments[2].number for a in mine if a.name == "points")
        assert region == sorted(theirs["region"])
        assert size == len(theirs["region"])
        assert core == theirs["core"][1:]  # (A, B): the home is not in the pair
        assert total == theirs["total"]


@pytest.mark.exhaustive
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_positions(), rule_variants)
def test_search_cores_on_dense_boards_and_lattices(position, variant):
    """Dense boards: many cores around a home, most covered by an earlier one
    (which rules/scoring/cores.lp never grows and the search encoding grows anyway)."""
    board, players = position
    assert_search_cores_score_like_the_scorer(board, players, variant)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), rule_variants)
def test_search_cores_on_small_boards(position, variant):
    board, players = position
    assert_search_cores_score_like_the_scorer(board, players, variant)


@pytest.mark.exhaustive
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), rule_variants)
def test_a_copied_position_scores_its_own_rule_set_whether_closures_are_shared(position, variant):
    """diff's copy of a position (rules/diff/position.lp) takes the
    closures of position 0 when its rule set needs as many links
    (rules/search/cores.lp, evlogic_copies_closures/2) and grows its own otherwise:
    either way position 1 scores as the scorer scores it under its own
    rule set, position 0 under the standard one."""
    board, players = position
    # Position 1 lists nothing (as in a search): its ties between cores go by
    # state ids, so list position 0's states in that order too.
    order = state_ids(game_under(board, players, variant).board)
    players = [{**p, "states": sorted(p["states"], key=order.index)} for p in players]
    game = game_under(board, players, variant)
    facts = (
        load_rule_set("standard").program(0)
        + game.rules.program(1, default=False)
        + board_program(game.board)
        + game_program(game)
    )
    atoms = solve(facts, [*rule_paths(SEARCH_CORES), rules_dir() / "diff" / "position.lp"])
    ids = state_ids(game.board)
    shared = any(a.name == "evlogic_copies_closures" for a in atoms)
    assert shared == (variant["links_needed"] == Rules().links_needed)
    for number, rules in ((0, Rules()), (1, Rules(**{**variant, "tiers": dict(variant["tiers"])}))):
        plain = score_position(board["states"], players, board["game_end"], rules)
        for index, theirs in enumerate(plain["players"]):
            region = sorted(
                ids[a.arguments[2].number]
                for a in atoms
                if a.name == "region"
                and a.arguments[0].number == number
                and a.arguments[1].number == index
            )
            total = sum(
                a.arguments[2].number
                for a in atoms
                if a.name == "points"
                and a.arguments[0].number == number
                and a.arguments[1].number == index
            )
            assert region == sorted(theirs["region"])
            assert total == theirs["total"]


def test_a_program_reading_closures_gets_the_scoring_cores(tmp_path: Path):
    """grown/4 and leading/3 differ between the two encodings (every core, or
    only uncovered ones): a program that reads them gets rules/scoring/cores.lp."""
    reads_grown = tmp_path / "grown.lp"
    reads_grown.write_text("violation :- grown(0, 0, _, S), state(S), S > 3.\n")
    reads_region = tmp_path / "region.lp"
    reads_region.write_text("violation :- region(0, 0, S), state(S), S > 3.\n")
    names = rule_names(search_rules(read_program([reads_grown])))
    assert "scoring/cores.lp" in names and "search/cores.lp" not in names
    names = rule_names(search_rules(read_program([reads_region])))
    assert "search/cores.lp" in names and "scoring/cores.lp" not in names


def rule_names(paths: list[Path]) -> list[str]:
    """evlogic's rule files among ``paths``, relative to rules/."""
    return [
        path.relative_to(rules_dir()).as_posix() for path in paths if rules_dir() in path.parents
    ]


# --- diff's winner search: a different winner where player 0's total differs --

WINNER_VARIANTS = {
    "union": ("region: union\n", {"region": "union"}),
    "gentle": ("siege_penalty: 5\n", {"siege_penalty": 5}),
    "tiers": ("tiers: {3: 40}\n", {"tiers": {3: 40}}),
    "swing": ("swing_multiplier: 3\n", {"swing_multiplier": 3}),
    # links needed differ: position 1 grows closures of its own
    # (rules/search/cores.lp shares them only where the links agree)
    "links": ("links_needed: 1\n", {"links_needed": 1}),
}


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("variant", sorted(WINNER_VARIANTS))
def test_winner_diff_answers_as_brute_force(tmp_path: Path, variant: str, players: int):
    """rules/diff/winner.lp also asks that player 0's total differ (the
    players are interchangeable); the smallest different-winner position of
    the enumeration over every position must still be found, or equivalence
    proved exactly when the enumeration finds none."""
    text, figures = WINNER_VARIANTS[variant]
    board = board_dict(SEARCH_EDGES, ev={"C": 5, "D": 3}, swing={"E"})
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board))
    (tmp_path / "other.yaml").write_text(f"name: other\nextends: standard\n{text}")
    result = diff(
        load_rule_set("standard"),
        "standard",
        load_rule_set(str(tmp_path / "other.yaml")),
        "other.yaml",
        load_board(tmp_path / "board.yaml"),
        "board.yaml",
        players,
        TimeLimit(60),
    ).winner_diff

    def winners(position: list[dict], rules: Rules) -> list[str]:
        return score_position(board["states"], position, 100, rules)["winners"]

    other = Rules(**figures)
    found = [
        position
        for position in every_position(sorted(board["states"]), players)
        if winners(position, Rules()) != winners(position, other)
    ]
    if not found:
        assert result.result == "equivalent"
        return
    assert result.result == "differs" and result.smallest
    witness = [
        {"name": p["name"], "home": p["home"], "states": p["states"]}
        for p in result.counterexample["players"]
    ]
    assert owned_count(witness) == min(owned_count(p) for p in found)
    assert winners(witness, Rules()) != winners(witness, other)  # re-scored: a difference


@pytest.mark.parametrize("known", ["floor", "guess"])
@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("variant", sorted(WINNER_VARIANTS))
def test_winner_search_reading_the_total_searchs_floor_answers_as_brute_force(
    tmp_path: Path, variant: str, players: int, known: str
):
    """diff's winner search reads what the total search proved (a Floor):
    every winner witness is a total witness, so "no total witness" is
    equivalence and "none below size L" a floor for the winner's smallest.
    Run one after the other (in diff they race, and the floor may come
    late or never), the winner search must still give the enumeration's
    answer and smallest size, and the total search's answer must be the
    enumeration's too.  ``guess``: only the total search's best size is
    known, not proved (as while it is still proving it): the winner search
    asks for that size through the total search's player 0 parts first, and
    must still answer as the enumeration."""
    text, figures = WINNER_VARIANTS[variant]
    board = board_dict(SEARCH_EDGES, ev={"C": 5, "D": 3}, swing={"E"})
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board))
    (tmp_path / "other.yaml").write_text(f"name: other\nextends: standard\n{text}")
    loaded = load_board(tmp_path / "board.yaml")
    facts = load_rule_set("standard").program(0) + load_rule_set(
        str(tmp_path / "other.yaml")
    ).program(1, default=False)
    diff_rules = rules_dir() / "diff"

    def run(kind: str, publish: Floor, within: Floor) -> SearchOutcome:
        programs = [diff_rules / "position.lp", diff_rules / f"{kind}.lp"]
        request = SearchRequest(
            loaded, facts, read_program(programs), players, None, 60, publish=publish, within=within
        )
        return search(request)

    proved = Floor()
    total = run("total", proved, Floor())
    assert total.result != "unknown"
    assert proved.none == (total.result == "holds")
    assert proved.size == (_owned(total.found) if total.result == "counterexample" else None)
    if known == "guess" and proved.size is not None:
        # stood since 0.0; done: the total search has answered, so the
        # winner search does not wait for a floor that will never come
        proved = Floor(best=proved.size, rules=proved.rules, done=True)
    winner = run("winner", Floor(), proved)

    other = Rules(**figures)
    scored = [
        (
            position,
            score_position(board["states"], position, 100, Rules()),
            score_position(board["states"], position, 100, other),
        )
        for position in every_position(sorted(board["states"]), players)
    ]
    totals = [p for p, a, b in scored if a["players"][0]["total"] != b["players"][0]["total"]]
    winners = [p for p, a, b in scored if a["winners"] != b["winners"]]
    assert (total.result == "holds") == (not totals)
    if totals:
        assert total.smallest and _owned(total.found) == min(owned_count(p) for p in totals)
    if not winners:
        assert winner.result == "holds"
        return
    assert winner.result == "counterexample" and winner.smallest
    assert _owned(winner.found) == min(owned_count(p) for p in winners)
    # the fixed-order witness, found part by part of the total search's
    # counterexamples, is the one the search alone prints
    alone = run("winner", Floor(), Floor())
    assert sorted(map(str, winner.found)) == sorted(map(str, alone.found))


def _owned(symbols) -> int:
    return sum(symbol.name in ("home", "owned") for symbol in symbols)
