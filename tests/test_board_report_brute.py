"""The board report's own encodings (rules/board_report/) against the
scoring rules, by brute force on small random boards.

Every set of states a home could own is scored by the readable rules, one
position per set, all in one grounding; the ways to earn each tier, the
fewest states that reach it, the largest region, whether a bonus can be
earned and the bonus after the worst siege are then counted from those
scores and compared with ``board_report``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evlogic.asp.facts import board_program, state_ids
from evlogic.asp.solver import solve
from evlogic.loading.boards import board_from_field
from evlogic.loading.rulesets import load_rule_set
from evlogic.loading.yamlfile import yaml_document
from evlogic.reports.boardreport import board_report
from evlogic.reports.report import atoms_by_position
from strategies import boards

small_boards = boards().filter(lambda board: len(board["states"]) <= 8)


@st.composite
def rule_sets(draw):
    sizes = draw(st.lists(st.integers(1, 7), min_size=1, max_size=4, unique=True))
    return dataclasses.replace(
        load_rule_set("standard"),
        name="random",
        tiers=tuple(sorted((size, draw(st.integers(0, 50))) for size in sizes)),
        siege_penalty=draw(st.integers(0, 30)),
        links_needed=draw(st.integers(1, 3)),
        region=draw(st.sampled_from(["best-core", "union"])),
    )


def brute_force(board, rules):
    """The report's figures, counted from the scoring rules' answer for
    every owned set (and, for every way, the position under siege)."""
    ids = state_ids(board)
    neighbors = {
        ids.index(name): [ids.index(n) for n in state.neighbors]
        for name, state in board.states.items()
    }
    positions: list[tuple[int, tuple[int, ...], bool]] = []  # home, owned, besieged
    for home in range(len(ids)):
        others = [s for s in range(len(ids)) if s != home]
        for size in range(len(others) + 1):
            for chosen in itertools.combinations(others, size):
                positions.append((home, chosen, False))
                outside = [n for n in neighbors[home] if n not in chosen]
                if outside:
                    positions.append((home, chosen, True))
    facts = []
    for g, (home, chosen, besieged) in enumerate(positions):
        facts.append(f"home({g},0,{home}).")
        facts += [f"owned({g},0,{s})." for s in chosen]
        if besieged:
            facts.append(f"player({g},1).")
            facts += [f"owned({g},1,{n})." for n in neighbors[home] if n not in chosen]
    facts.append("#show region_size/3.")  # beside the score atoms of rules/scoring/output.lp
    atoms = atoms_by_position(solve(rules.program() + board_program(board) + "\n".join(facts)))
    expected = defaultdict(
        lambda: {"ways": defaultdict(int), "fewest": {}, "worst": {}, "earn": False, "max": 0}
    )
    for g, (home, chosen, besieged) in enumerate(positions):
        size = len(chosen) + 1
        region = dict(atoms[g]["region_size"])[0]
        bonus = _net_bonus(atoms[g])
        figures = expected[ids[home]]
        if besieged:
            continue
        figures["max"] = max(figures["max"], region)
        figures["earn"] |= bonus > 0
        outside = [n for n in neighbors[home] if n not in chosen]
        siege_bonus = _net_bonus(atoms[g + 1]) if outside else bonus
        for tier, _ in rules.tiers:
            if region >= tier:
                best = figures["fewest"].get(tier)
                figures["fewest"][tier] = size if best is None else min(best, size)
            if size == tier and region == tier:
                figures["ways"][tier] += 1
                worst = figures["worst"].get(tier)
                figures["worst"][tier] = siege_bonus if worst is None else min(worst, siege_bonus)
    return expected


def _net_bonus(atoms) -> int:
    """Player 0's net bonus, from score(G, P, Face, Bonus, Penalty, Net, Total)."""
    return next(figures[4] for figures in atoms["score"] if figures[0] == 0)


@pytest.mark.exhaustive
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_boards, rule_sets())
def test_the_board_report_counts_what_the_scoring_rules_score(board_map, rules):
    board = board_from_field(yaml_document(yaml.safe_dump(board_map), "board.yaml"), "board")
    expected = brute_force(board, rules)
    report = board_report(board, rules)
    for home in report.homes:
        want = expected[home.state]
        tiers = [tier for tier, _ in rules.tiers]
        assert home.max_region == want["max"], home.state
        assert home.can_earn_bonus == want["earn"], home.state
        assert home.ways_to_earn == {str(t): want["ways"][t] for t in tiers}, home.state
        assert home.states_for_tier == {str(t): want["fewest"].get(t) for t in tiers}, home.state
        assert home.bonus_after_worst_siege == {str(t): want["worst"].get(t) for t in tiers}, (
            home.state
        )
