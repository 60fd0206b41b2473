"""Properties: true for every position on a board, or here is a counterexample.

A property is an ASP file that derives ``violation`` from the scoring
outputs of position 0 (``rules/properties/``; users may pass their own).
``rules/generate.lp`` lets the solver choose every position and the scoring
rules score it; see :func:`search` for how a smallest counterexample is
found and how "holds" is proved.  The time limit may end the search first:
"unknown", or the smallest counterexample found so far.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import clingo

from evlogic.boards import Board
from evlogic.errors import InputError
from evlogic.facts import board_program, state_ids
from evlogic.resources import bundled_properties, rules_dir
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
    "unknown", the shown atoms of the smallest counterexample found, seconds).

    Two phases share the time.  First an optimisation (rules/smallest.lp)
    finds some counterexample quickly and shrinks it.  Then the bound on
    owned states rises one at a time below the best size found: no model at
    a bound proves nothing smaller exists there, a model is a smaller one,
    and no model at the last bound proves the property.
    """
    if not 1 <= players <= len(board.states):
        raise InputError("--players", f"must be between 1 and {len(board.states)}")
    started = time.monotonic()
    top = len(board.states) if max_states is None else min(max_states, len(board.states))
    facts = rule_facts + board_program(board) + f"search_players({players}).\n"
    if max_states is not None:
        facts += f"limit({top}).\n"
    rules = [*rule_paths(CHECK_RULES), *programs]

    def left() -> float:
        return max(0.0, timeout - (time.monotonic() - started))

    # Phase 1: some counterexample, as small as the time allows.
    best: list[clingo.Symbol] | None = None
    optimiser = ground(facts, [*rules, rules_dir() / "smallest.lp"], ["--opt-mode=opt"])
    with optimiser.solve(yield_=True, async_=True) as handle:
        budget = time.monotonic() + left() / 2
        while True:
            if not handle.wait(max(0.0, budget - time.monotonic())):
                handle.cancel()
                break
            model = handle.model()
            if model is None:  # the search is over
                if best is None and handle.get().unsatisfiable:
                    return "holds", None, time.monotonic() - started
                break
            best = model.symbols(shown=True)
            if model.optimality_proven:
                return "counterexample", best, time.monotonic() - started
            handle.resume()
    if left() <= 0:
        return ("unknown" if best is None else "counterexample"), best, timeout
    size = _owned_count(best) if best is not None else top + 1

    # Phase 2: nothing smaller (or nothing at all), one bound at a time.
    bounds = range(players, min(size - 1, top) + 1)
    control = ground(facts + "".join(f"#external limit({k}).\n" for k in bounds), rules)
    for bound in bounds:
        for k in bounds:
            control.assign_external(clingo.Function("limit", [clingo.Number(k)]), k == bound)
        with control.solve(yield_=True, async_=True) as handle:
            if not handle.wait(left()):
                handle.cancel()
                outcome = "unknown" if best is None else "counterexample"
                return outcome, best, time.monotonic() - started
            model = handle.model()
            if model is not None:
                return "counterexample", model.symbols(shown=True), time.monotonic() - started
    if best is not None:
        return "counterexample", best, time.monotonic() - started
    return "holds", None, time.monotonic() - started


def _owned_count(symbols: list[clingo.Symbol]) -> int:
    return sum(symbol.name in ("home", "owned") for symbol in symbols)


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
