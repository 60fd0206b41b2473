"""check's "holds" and diff's "equivalent" against every position of boards
of up to seven states, in one solve: a plain generator of every position
(any homes, every other state unclaimed or one player's, at most the game
end won) beside score's own rules (one-shot region layers, no search
encoding), asked for a position that breaks the property or tells the rule
sets apart.  The search's encodings (rules/search/, the reduced and
near-only searches, the order of homes, diff's shared positions) must
answer as that enumeration does, for random properties and rule set
programs drawn from the fragment (evlogic/asp/fragment.py).  Score's rules
are not made to search (they materialise every total and region a position
could have), so the boards stay sparse: nine borders at most, two players."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import rule_variants
from test_fragment import PROPERTIES, RULE_SET_PROGRAMS, checked

from conftest import board_dict
from evlogic.asp.facts import board_program
from evlogic.asp.search import TimeLimit
from evlogic.asp.solver import SCORING_RULES_ONE_SHOT, ground, rule_paths
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.diff import diff

pytestmark = pytest.mark.exhaustive

STATES = "ABCDEFG"

#: The search's sums of points and changes, which a property may read.
READ_BY_PROPERTIES = ("search/points.lp", "search/compare.lp")


def every_position(players: int, positions: tuple[int, ...] = (0,)) -> str:
    """A generator of every position 0 (copied to the other ``positions``)."""
    copies = "".join(
        f"game({g}).\nhome({g}, P, S) :- home(0, P, S).\nowned({g}, P, S) :- owned(0, P, S).\n"
        for g in positions[1:]
    )
    return (
        "game(0).\n"
        f"player(0, 0..{players - 1}).\n"
        "1 { home(0, P, S) : state(S) } 1 :- player(0, P).\n"
        ":- home(0, P, S), home(0, Q, S), P < Q.\n"
        "{ owned(0, P, S) : player(0, P) } 1 :- state(S), not home(0, _, S).\n"
        ":- states_won(0, N), game_end(0, End), N > End.\n" + copies
    )


def some_position(tmp_path: Path, facts: str, generator: str, programs: list[Path]) -> bool:
    """Whether some answer of score's rules, ``programs`` and the generator
    holds ``found``."""
    (tmp_path / "every.lp").write_text(generator + ":- not found.\n")
    rules = [*rule_paths((*SCORING_RULES_ONE_SHOT, *READ_BY_PROPERTIES)), *programs]
    control = ground(facts, [*rules, tmp_path / "every.lp"], ["--models=1"])
    return bool(control.solve().satisfiable)


boards = st.builds(
    lambda edges, evs, swing: board_dict(
        sorted(edges),
        ev={s: e for s, e in zip(STATES, evs, strict=False)},
        swing=swing,
        states=sorted({s for edge in edges for s in edge}),
    ),
    edges=st.sets(
        st.tuples(st.sampled_from(STATES), st.sampled_from(STATES)).filter(lambda e: e[0] < e[1]),
        min_size=4,
        max_size=9,
    ),
    evs=st.lists(st.integers(1, 12), min_size=len(STATES), max_size=len(STATES)),
    swing=st.sets(st.sampled_from(STATES), max_size=3),
)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    board=boards,
    players=st.integers(1, 2),
    prop=st.sampled_from(PROPERTIES),
    program=st.sampled_from(RULE_SET_PROGRAMS),
    op=st.sampled_from(["<", ">", ">=", "!="]),
    k=st.integers(0, 40),
)
def test_check_answers_as_every_position_does(tmp_path, board, players, prop, program, op, k):
    text = prop.format(op=op, k=k) + "found :- violation.\n"
    loaded, rules, result = checked(tmp_path, board, text, program, k, players)
    players = min(players, len(loaded.states))
    facts = rules.program() + board_program(loaded)
    broken = some_position(
        tmp_path, facts, every_position(players), [*rules.programs, tmp_path / "p.lp"]
    )
    answer = "holds" if result is None else result.result
    assert answer == ("counterexample" if broken else "holds")


DIFFERENT_TOTALS = "found :- total(0, P, T), total(1, P, U), T != U.\n"
DIFFERENT_WINNERS = (
    "found :- winner(0, P), not winner(1, P).\nfound :- winner(1, P), not winner(0, P).\n"
)


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    board=boards,
    first=rule_variants,
    second=rule_variants,
    players=st.integers(1, 2),
)
def test_diff_answers_as_every_position_does(tmp_path, board, first, second, players):
    (tmp_path / "b.yaml").write_text(yaml.safe_dump(board))
    loaded = load_board(tmp_path / "b.yaml")
    players = min(players, len(loaded.states))
    rule_sets = []
    for name, variant in (("one", first), ("two", second)):
        variant = {key: value for key, value in variant.items() if key != "game_end"}
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump({"name": name, **variant}))
        rule_sets.append(load_rule_set(str(tmp_path / f"{name}.yaml"), tmp_path))
    limit = TimeLimit(60)
    result = diff(rule_sets[0], "one", rule_sets[1], "two", loaded, "b.yaml", players, limit)
    facts = rule_sets[0].program(0) + rule_sets[1].program(1, default=False)
    facts += "scored_by(1, 1).\n" + board_program(loaded)
    generator = every_position(players, positions=(0, 1))
    for search, found in (
        (result.total_diff, DIFFERENT_TOTALS),
        (result.winner_diff, DIFFERENT_WINNERS),
    ):
        (tmp_path / "found.lp").write_text(found)
        differs = some_position(tmp_path, facts, generator, [tmp_path / "found.lp"])
        assert search.result == ("differs" if differs else "equivalent")
