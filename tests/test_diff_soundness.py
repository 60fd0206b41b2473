"""diff against the enumeration of every position, on random small boards
and random pairs of rule sets (every parameter a rule set of numbers may
set), 1-4 players: each answer ("equivalent", or "differs" with the size
of the smallest witness) must be the enumeration's, and each witness must
show the difference when scored again by the plain scorer.

The winner search asks more than a different winner (rules/diff/winner.lp:
player 0's total differs, player 0 wins under one rule set, another player
comes level with it under one); these conditions are implied, so they may
never cost a witness or its size.  The total search asks it of player 0
alone (rules/diff/total.lp)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import rule_variants
from test_search_soundness import owned_count
from test_search_soundness import positions as every_position

from conftest import board_dict
from evlogic.asp.search import TimeLimit
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.diff import diff
from plain_scorer import Rules, score_position

STATES = "ABCDE"

#: A rule set of numbers, every parameter but game_end (which diff checks
#: against the board and which changes no total).
rule_sets = rule_variants.map(
    lambda variant: {key: value for key, value in variant.items() if key != "game_end"}
)

boards = st.builds(
    lambda edges, evs, swing: board_dict(
        sorted(edges), ev=dict(zip(STATES, evs, strict=True)), swing=swing, states=list(STATES)
    ),
    edges=st.sets(
        st.tuples(st.sampled_from(STATES), st.sampled_from(STATES)).filter(lambda e: e[0] < e[1]),
        min_size=3,
    ),
    evs=st.lists(st.integers(1, 12), min_size=len(STATES), max_size=len(STATES)),
    swing=st.sets(st.sampled_from(STATES), max_size=2),
)


def written(path: Path, name: str, variant: dict) -> Path:
    path.write_text(yaml.safe_dump({"name": name, **variant}))
    return path


def smallest(found: list[list[dict]]) -> int | None:
    return min((owned_count(p) for p in found), default=None)


@pytest.mark.exhaustive
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(board=boards, first=rule_sets, second=rule_sets, players=st.integers(1, 4))
def test_diff_answers_as_the_enumeration(tmp_path: Path, board, first, second, players):
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board))
    result = diff(
        load_rule_set(str(written(tmp_path / "first.yaml", "first", first))),
        "first.yaml",
        load_rule_set(str(written(tmp_path / "second.yaml", "second", second))),
        "second.yaml",
        load_board(tmp_path / "board.yaml"),
        "board.yaml",
        players,
        TimeLimit(60),
    )
    rules = (Rules(**first), Rules(**second))

    def scored(position: list[dict]) -> tuple[dict, dict]:
        a, b = (score_position(board["states"], position, 100, r) for r in rules)
        return a, b

    def totals_differ(position: list[dict]) -> bool:
        a, b = scored(position)
        return [p["total"] for p in a["players"]] != [p["total"] for p in b["players"]]

    def winners_differ(position: list[dict]) -> bool:
        a, b = scored(position)
        return a["winners"] != b["winners"]

    everything = list(every_position(sorted(board["states"]), players))
    for search, differs in (
        (result.total_diff, totals_differ),
        (result.winner_diff, winners_differ),
    ):
        size = smallest([p for p in everything if differs(p)])
        if size is None:
            assert search.result == "equivalent", (search, first, second)
            continue
        assert search.result == "differs" and search.smallest, (search, first, second)
        witness = [
            {"name": p["name"], "home": p["home"], "states": p["states"]}
            for p in search.counterexample["players"]
        ]
        assert owned_count(witness) == size, (witness, size, first, second)
        assert differs(witness), (witness, first, second)  # scored again: a difference
