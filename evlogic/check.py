"""Properties: true for every position on a board, or here is a counterexample.

A property is an ASP file that derives ``violation`` from the scoring
outputs of position 0 (``rules/properties/``; users may pass their own).
``rules/generate.lp`` lets the solver choose every position and the scoring
rules score it.  The bound on owned states rises one at a time, so the
first counterexample is a smallest one; no model at the last bound means the
property holds (the solver proved it).  The time limit may end the search
first: "unknown".
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import clingo

from evlogic.boards import Board
from evlogic.errors import InputError
from evlogic.facts import board_program, state_ids
from evlogic.resources import bundled_properties
from evlogic.rulesets import RuleSet
from evlogic.solver import ground, rule_paths
from evlogic.yamlfile import closest

#: Scoring without the joining order (properties do not need it).
CHECK_RULES = (
    "position.lp",
    "face.lp",
    "region.lp",
    "siege.lp",
    "bonus.lp",
    "totals.lp",
    "generate.lp",
)


@dataclass(frozen=True)
class CheckResult:
    property: str
    board: str
    players: int
    rules: str
    result: str  # holds | counterexample | unknown
    counterexample: dict | None  # a game mapping (game-file schema)
    seconds: float
    max_states: int | None  # "holds" covers positions with at most this many owned states

    def to_dict(self) -> dict[str, object]:
        return {
            "property": self.property,
            "board": self.board,
            "players": self.players,
            "rules": self.rules,
            "result": self.result,
            "counterexample": self.counterexample,
            "seconds": round(self.seconds, 3),
        }


def resolve_property(reference: str) -> tuple[str, Path]:
    bundled = bundled_properties()
    if reference in bundled:
        return reference, bundled[reference]
    path = Path(reference)
    if path.suffix == ".lp" and path.is_file():
        return path.stem, path
    raise InputError(
        "PROPERTY",
        f"no property {reference!r}{closest(reference, bundled)}; bundled: "
        f"{', '.join(bundled)}; or give the path of an .lp file defining violation",
    )


def check(
    reference: str,
    board: Board,
    board_reference: str,
    rules: RuleSet,
    rules_reference: str,
    players: int = 2,
    max_states: int | None = None,
    timeout: float = 60.0,
) -> CheckResult:
    name, path = resolve_property(reference)
    result, found, seconds = search(
        board, rules.program(), [*rules.programs, path], players, max_states, timeout
    )
    game = (
        None
        if found is None
        else position_game(found, board, board_reference, rules_reference, players)
    )
    return CheckResult(name, board.name, players, rules.name, result, game, seconds, max_states)


def search(
    board: Board,
    rule_facts: str,
    programs: list[Path],
    players: int,
    max_states: int | None,
    timeout: float,
) -> tuple[str, list[clingo.Symbol] | None, float]:
    """Search every position for ``violation``: ("holds" | "counterexample" |
    "unknown", the shown atoms of a smallest counterexample, seconds)."""
    if not 1 <= players <= len(board.states):
        raise InputError("--players", f"must be between 1 and {len(board.states)}")
    top = len(board.states) if max_states is None else min(max_states, len(board.states))
    bounds = range(players, top + 1)
    facts = (
        rule_facts
        + board_program(board)
        + f"search_players({players}).\n"
        + "".join(f"#external limit({k}).\n" for k in bounds)
    )
    started = time.monotonic()
    control = ground(facts, [*rule_paths(CHECK_RULES), *programs])

    # Smallest first: a bound on the owned states, raised one at a time.
    for bound in bounds:
        for k in bounds:
            control.assign_external(clingo.Function("limit", [clingo.Number(k)]), k == bound)
        with control.solve(yield_=True, async_=True) as handle:
            left = timeout - (time.monotonic() - started)
            if left <= 0 or not handle.wait(left):
                handle.cancel()
                return "unknown", None, time.monotonic() - started
            model = handle.model()
            if model is not None:
                return "counterexample", model.symbols(shown=True), time.monotonic() - started
    return "holds", None, time.monotonic() - started


def position_game(
    symbols: list[clingo.Symbol],
    board: Board,
    board_reference: str,
    rules_reference: str,
    players: int,
) -> dict:
    ids = state_ids(board)
    homes: dict[int, str] = {}
    states: dict[int, list[str]] = {p: [] for p in range(players)}
    for symbol in symbols:
        if symbol.name == "home":
            homes[symbol.arguments[0].number] = ids[symbol.arguments[1].number]
        elif symbol.name == "owned":
            states[symbol.arguments[0].number].append(ids[symbol.arguments[1].number])
    return {
        "board": board_reference,
        "rules": rules_reference,
        "players": [
            {"name": f"P{p + 1}", "home": homes[p], "states": sorted(states[p])}
            for p in range(players)
        ],
    }
