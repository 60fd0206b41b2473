"""The board report: what every home state can reach under a rule set.

Two groundings, no search:

1. ``rules/board_report/ways.lp`` and ``full_closure.lp`` over the board
   alone: for each home the cores around it, the largest region owning every
   state, the ways to earn each tier (the sets of exactly that many states
   whose region is all of them, generated as terms), the fewest states that
   reach each tier, whether a tier that pays is within reach, and for each
   tier the way with the fewest of the home's neighbours.
2. The scoring rules over one position per home and tier: that way owned by
   player 0, every other neighbour of the home held by player 1
   (``worst_siege.lp``): the bonus left after the worst siege.

Both encodings of step 1 are second encodings of the region rules, made so
that the report grows with the board instead of with homes times states;
tests/test_board_report.py proves they agree with the scoring rules.  A rule
set that brings its own ``.lp`` programs could change what a region is, which
these encodings cannot see, so it is refused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import clingo

from evlogic.asp.facts import board_program, state_ids
from evlogic.asp.solver import SolverError, rule_paths, solve
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.rulesets import RuleSet
from evlogic.reports.report import atoms_by_position

REACH_RULES = (
    "board_report/ways.lp",
    "board_report/full_closure.lp",
    "board_report/figures.lp",
)
SIEGE_RULES = (
    "scoring/position.lp",
    "scoring/cores.lp",
    "scoring/siege.lp",
    "scoring/bonus.lp",
    "board_report/worst_siege.lp",
)


@dataclass(frozen=True)
class HomeReport:
    state: str
    cores: int  # core candidates when every state is owned
    max_region: int  # region size when every state is owned
    ways_to_earn: dict[str, int]  # tier size -> sets of exactly that size that are all region
    bonus_after_worst_siege: dict[str, int | None]  # tier size -> bonus left, None: no way
    states_for_tier: dict[str, int | None]  # tier size -> fewest owned states, home included
    neighbors: int  # siege exposure
    can_earn_bonus: bool


@dataclass(frozen=True)
class BoardReport:
    board: str
    rules: str
    homes: list[HomeReport]

    def to_dict(self) -> dict[str, object]:
        return {
            "board": self.board,
            "rules": self.rules,
            "homes": [asdict(home) for home in self.homes],
        }


def board_report(board: Board, rules: RuleSet, reference: str | None = None) -> BoardReport:
    if rules.programs:
        raise InputError(
            reference or rules.source,
            f"board-report takes rule sets of numbers; {rules.name} brings .lp programs "
            f"({', '.join(path.name for path in rules.programs)}), which could change what "
            "a region is (score positions with score --rules instead)",
        )
    ids = state_ids(board)
    base = rules.program() + board_program(board)
    reach = _by_home(solve(base, rule_paths(REACH_RULES)))
    tiers = [size for size, _ in rules.tiers]

    # Step 2: one position per (home, tier) that has a way to earn it.
    asked: list[tuple[int, int]] = []
    facts: list[str] = []
    for home in range(len(ids)):
        for tier, way in sorted(reach[home]["worst_way"].items()):
            position = len(asked)
            asked.append((home, tier))
            facts.append(f"home({position},0,{home}). asked_tier({position},{tier}).")
            facts.extend(f"way_state({position},{state})." for state in _members(way))
    left: dict[tuple[int, int], int] = {}
    if asked:
        siege = atoms_by_position(solve(base + "\n".join(facts) + "\n", rule_paths(SIEGE_RULES)))
        for position, (home, tier) in enumerate(asked):
            if not siege[position]["earns_tier"]:
                raise SolverError(
                    f"{ids[home]}: board_report/ways.lp and the scoring rules disagree "
                    f"on a way to earn tier {tier}"
                )
            left[home, tier] = siege[position]["net_bonus"][0][0]

    homes = [
        HomeReport(
            state=ids[home],
            cores=reach[home]["cores_available"],
            max_region=reach[home]["max_region"],
            ways_to_earn={str(t): reach[home]["ways"].get(t, 0) for t in tiers},
            bonus_after_worst_siege={str(t): left.get((home, t)) for t in tiers},
            states_for_tier={str(t): reach[home]["fewest"].get(t) for t in tiers},
            neighbors=len(board.states[ids[home]].neighbors),
            can_earn_bonus=reach[home]["can_earn_bonus"],
        )
        for home in range(len(ids))
    ]
    return BoardReport(board=board.name, rules=rules.name, homes=homes)


def _by_home(symbols: Sequence[clingo.Symbol]) -> dict[int, dict[str, Any]]:
    """The shown atoms of step 1, by home number."""
    figures: dict[int, dict[str, Any]] = defaultdict(
        lambda: {"ways": {}, "fewest": {}, "worst_way": {}, "can_earn_bonus": False}
    )
    for symbol in symbols:
        home, *rest = symbol.arguments
        entry = figures[home.number]
        if symbol.name in ("cores_available", "max_region"):
            entry[symbol.name] = rest[0].number
        elif symbol.name in ("ways", "fewest"):
            entry[symbol.name][rest[0].number] = rest[1].number
        elif symbol.name == "worst_way":
            entry["worst_way"][rest[0].number] = rest[1]
        elif symbol.name == "can_earn_bonus":
            entry["can_earn_bonus"] = True
    return figures


def _members(way: clingo.Symbol) -> list[int]:
    """The state numbers of a set term s(X, s(Y, ... nil))."""
    members = []
    while way.name == "s":
        members.append(way.arguments[0].number)
        way = way.arguments[1]
    return members
