"""The board report: what every home state can reach under a rule set.

The figures come from ``rules/board_report.lp`` on top of ``rules/region.lp``:
one position per home (the home's number is the position index), first
owning everything (cores, largest region, the tiers within reach and
whether one pays), then, tier by tier, the fewest
owned states that reach it: per home one grounding, one optimisation per
tier (the tier is an ``#external`` switch).  Optimising all homes in one
call would prove a sum of 51 minima at once, which is far slower.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from clingo import Function, Number

from evlogic.boards import Board
from evlogic.facts import board_program, state_ids
from evlogic.report import atoms_by_position
from evlogic.rulesets import RuleSet
from evlogic.solver import Search, SolverError, rule_paths, solve

REPORT_RULES = ("position.lp", "cores.lp", "region.lp", "board_report.lp")


@dataclass(frozen=True)
class HomeReport:
    state: str
    cores: int  # core candidates when every state is owned
    max_region: int  # region size when every state is owned
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


def _positions(homes: list[int], mode: str) -> str:
    return "".join(
        f"game({h}). player({h},0). home({h},0,{h}). report({h},{mode}).\n" for h in homes
    )


def board_report(board: Board, rules: RuleSet) -> BoardReport:
    ids = state_ids(board)
    paths = [*rule_paths(REPORT_RULES), *rules.programs]
    base = rules.program() + board_program(board)
    everything = atoms_by_position(solve(base + _positions(list(range(len(ids))), "all"), paths))
    cores = {h: everything[h]["cores_available"][0][0] for h in range(len(ids))}
    largest = {h: everything[h]["max_region"][0][0] for h in range(len(ids))}

    fewest: dict[int, dict[str, int | None]] = {}
    for h in range(len(ids)):
        fewest[h] = {str(size): None for size, _ in rules.tiers}
        sizes = sorted(size for (size,) in everything[h]["reachable_tier"])  # searched tiers
        if not sizes:
            continue
        switches = "".join(f"#external report({h},tier({size})).\n" for size in sizes)
        search = Search(base + _positions([h], "none") + switches, paths)
        for size in sizes:
            found = search.optimal(
                [Function("report", [Number(h), Function("tier", [Number(size)])])]
            )
            if found is None:
                raise SolverError(
                    f"{ids[h]}: tier {size} is within reach but no position reaches it"
                )
            fewest[h][str(size)] = len(atoms_by_position(found)[h]["owned"])  # home included

    homes = [
        HomeReport(
            state=ids[h],
            cores=cores[h],
            max_region=largest[h],
            states_for_tier=fewest[h],
            neighbors=len(board.states[ids[h]].neighbors),
            can_earn_bonus=bool(everything[h]["can_earn_bonus"]),
        )
        for h in range(len(ids))
    ]
    return BoardReport(board=board.name, rules=rules.name, homes=homes)
