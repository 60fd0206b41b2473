"""Searching every position for one that breaks something.

``rules/generate.lp`` lets the solver choose a position (homes and owned
states, unclaimed allowed), the scoring rules score it, and a program
(a property of ``evlogic check``, or a diff of ``evlogic diff``) derives
``violation`` when the position is a counterexample.  :func:`search` finds a
smallest one or proves there is none; ``evlogic/check.py`` and
``evlogic/diff.py`` turn the answer into reports.

How the search is engineered (see bench/bench_search.py):

* No number is materialised: properties compare points (rules/compare.lp),
  winners come from rules/winners_by_points.lp and the bonus from tier
  thresholds (rules/cores.lp), so the grounding stays small.
* One grounding, split by player 0's home: each part is a solve under the
  assumption ``home(0, 0, H)``, which propagation turns into "only the cores
  around H".  Clauses learnt in one part stay for the next.
* Phase 1 asks each part for any counterexample at all, in rounds of growing
  time slices, so that the easy parts are settled first: "none" in every
  part is the proof.  Phase 2 asks every part left for a counterexample
  with fewer owned states (homes included) than the best so far, until
  none has one: the best is then a smallest counterexample.  The one
  reported is the first of that size in the order of rules/canonical.lp,
  the same every run.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import clingo

from evlogic.boards import Board
from evlogic.errors import InputError
from evlogic.facts import board_program, state_ids
from evlogic.limits import OutOfTime, call_before
from evlogic.resources import display_path, rules_dir
from evlogic.solver import ground, read_user_programs, rule_paths, user_files

#: Scoring without materialised numbers: no totals, no region sizes, no
#: chosen core (the bonus reads tier thresholds, rules/cores.lp).
SEARCH_RULES = (
    "position.lp",
    "face.lp",
    "cores.lp",
    "siege.lp",
    "bonus.lp",
    "points.lp",
    "winners_by_points.lp",
    "compare.lp",
    "generate.lp",
)

#: Seconds phase 1 first gives each part; every round gives four times more.
QUICK_LOOK = 0.1

#: clasp's "jumpy" configuration (aggressive restarts) settled the per-home
#: proofs of bench/bench_search.py fastest of the built-in ones.
SOLVER_OPTIONS = ("--configuration=jumpy",)

#: Predicates only rules/totals.lp defines.  A program that reads them gets
#: the scoring's materialised totals: correct, but a much larger grounding.
TOTALS_ONLY = {("total", 3), ("face_ev", 3), ("outscored", 2)}

#: Predicates only rules/region.lp defines (the region that counts), loaded
#: for the programs that read them.
REGION_ONLY = {
    ("core", 3),
    ("beaten", 3),
    ("counted", 3),
    ("seed", 3),
    ("region", 3),
    ("region_size", 3),
}


def search_rules(programs: list[Path]) -> list[Path]:
    """The rule files a search loads for these property or diff programs."""
    names = list(SEARCH_RULES)
    reads = read_user_programs(programs).mentions
    if TOTALS_ONLY & reads:
        names[names.index("winners_by_points.lp")] = "totals.lp"
    if REGION_ONLY & reads:
        names.insert(names.index("cores.lp") + 1, "region.lp")
    return [*rule_paths(names), *programs]


#: The name of the atoms that say a rule deriving violation can apply.
APPLIES = "evlogic_violation_applies"


@dataclass(frozen=True)
class Applies:
    """For each rule of a property that derives violation, a relaxed copy:
    ``APPLIES(i) :- `` its positive body atoms (comparisons, negations and
    aggregates left out).  When no copy grounds, nothing the rules read can
    ever occur and the property can never fail."""

    source: str  # the property, for the error
    rules: tuple[clingo.ast.AST, ...]


def violation_applies(path: Path) -> Applies:
    """The relaxed copies of the rules of ``path`` (includes followed) that
    derive violation in the base program, built as syntax trees."""
    rules: list[clingo.ast.AST] = []
    part = ["base"]

    def statement(node: clingo.ast.AST) -> None:
        if node.ast_type == clingo.ast.ASTType.Program:
            part[0] = node.name
        if node.ast_type != clingo.ast.ASTType.Rule or part[0] != "base":
            return
        if "violation" not in str(node.head):
            return
        location = node.location
        head = clingo.ast.Literal(
            location,
            clingo.ast.Sign.NoSign,
            clingo.ast.SymbolicAtom(
                clingo.ast.Function(
                    location,
                    APPLIES,
                    [clingo.ast.SymbolicTerm(location, clingo.Number(len(rules)))],
                    0,
                )
            ),
        )
        body = [
            literal
            for literal in node.body
            if literal.ast_type == clingo.ast.ASTType.Literal
            and literal.sign == clingo.ast.Sign.NoSign
            and literal.atom.ast_type == clingo.ast.ASTType.SymbolicAtom
        ]
        rules.append(clingo.ast.Rule(location, head, body))

    clingo.ast.parse_files([str(path)], statement)
    return Applies(display_path(path), tuple(rules))


def _head_predicates(head: clingo.ast.AST) -> set[tuple[str, int]]:
    """The predicates (name, arity) of the atoms in a rule head."""
    found: set[tuple[str, int]] = set()

    class Atoms(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, node: clingo.ast.AST) -> clingo.ast.AST:
            if node.symbol.ast_type == clingo.ast.ASTType.Function:
                found.add((node.symbol.name, len(node.symbol.arguments)))
            return node

    Atoms()(head)
    return found


@dataclass(frozen=True)
class SearchOutcome:
    result: str  # holds | counterexample | unknown
    found: list[clingo.Symbol] | None  # shown atoms of the smallest counterexample found
    seconds: float
    smallest: bool  # every smaller position was ruled out (proved minimal)


@dataclass
class _Part:
    """The positions where player 0's home is ``home`` (a state number)."""

    home: int
    refuted: bool = False  # proved: no counterexample here


def search(
    board: Board,
    rule_facts: str,
    programs: list[Path],
    players: int,
    max_states: int | None,
    timeout: float,
    started: float | None = None,
    applies: Applies | None = None,
) -> SearchOutcome:
    """Search every position with ``players`` players and at most
    ``max_states`` owned states for ``violation``, until ``timeout`` seconds
    after ``started`` (time.monotonic(); default now), grounding included.

    "holds" is said only when every part was refuted and some position
    exists at all; no position is an InputError naming the programs, and so
    is a property none of whose ``applies`` rules grounds (see
    :func:`violation_applies`)."""
    if not 1 <= players <= len(board.states):
        raise InputError("--players", f"must be between 1 and {len(board.states)}")
    if not 0 < timeout < math.inf:
        raise InputError("--timeout", f"must be a positive number of seconds, not {timeout:g}")
    if max_states is not None and max_states < players:
        raise InputError(
            "--max-states", f"must be at least {players}: each of the {players} players owns a home"
        )
    started = time.monotonic() if started is None else started
    progress = _Progress(started)
    try:
        return call_before(
            started + timeout,
            lambda: _search(
                board, rule_facts, programs, players, max_states, timeout, progress, applies
            ),
        )
    except OutOfTime:  # clingo was busy past the deadline (grounding, preparing a solve)
        result = "unknown" if progress.best is None else "counterexample"
        return SearchOutcome(result, progress.best, progress.elapsed(), False)


@dataclass
class _Progress:
    """What a search has found so far, for an answer at the deadline."""

    started: float
    best: list[clingo.Symbol] | None = None  # the smallest counterexample so far

    def elapsed(self) -> float:
        return time.monotonic() - self.started


def _search(
    board: Board,
    rule_facts: str,
    programs: list[Path],
    players: int,
    max_states: int | None,
    timeout: float,
    progress: _Progress,
    applies: Applies | None,
) -> SearchOutcome:
    """The search itself (see the module's docstring); records each better
    counterexample in ``progress``."""
    started = progress.started
    deadline = started + timeout
    top = len(board.states) if max_states is None else min(max_states, len(board.states))
    facts = (
        rule_facts
        + board_program(board)
        + f"search_players({players}).\n"
        + "".join(f"#external limit({k}).\n" for k in range(players, top + 1))
    )
    statements = applies.rules if applies is not None else ()
    control = ground(facts, search_rules(programs), SOLVER_OPTIONS, statements=statements)
    if applies is not None and not any(control.symbolic_atoms.by_signature(APPLIES, 1)):
        raise InputError(
            applies.source,
            f"no rule deriving violation can apply on {board.name} with {players} player(s): "
            "what they read never occurs (position 1 not defined? a figure this board "
            "never has?), so the property could never fail and a search would prove nothing",
        )
    parts = [_Part(home) for home in range(len(board.states))]

    def elapsed() -> float:
        return time.monotonic() - started

    # Phase 1: any counterexample at all, part by part, in growing slices.
    best: list[clingo.Symbol] | None = None
    look = QUICK_LOOK
    while best is None and time.monotonic() < deadline:
        for part in parts:
            if part.refuted:
                continue
            if time.monotonic() >= deadline:
                break
            bound = None if max_states is None else top
            outcome, best = _solve(
                control, part.home, bound, min(deadline, time.monotonic() + look)
            )
            part.refuted = outcome == "unsat"
            if best is not None:
                progress.best = best
                break
        if all(part.refuted for part in parts):
            exists = _any_position(control, None if max_states is None else top, deadline)
            if exists is None:
                break  # time ran out: unknown
            if not exists:
                raise _no_position(board, programs, players, max_states)
            return SearchOutcome("holds", None, elapsed(), False)
        look *= 4
    if best is None:
        return SearchOutcome("unknown", None, elapsed(), False)

    # Phase 2: one pass over the parts left, each asked for a counterexample
    # smaller than the best so far (a bound is "at most", so a part with none
    # below one bound has none below any lower one either).  No position has
    # fewer owned states than players: their homes.
    for part in parts:
        while not part.refuted and _owned_count(best) > players:
            outcome, symbols = _solve(control, part.home, _owned_count(best) - 1, deadline)
            if outcome == "unknown":
                return SearchOutcome("counterexample", best, elapsed(), False)
            if outcome == "unsat":
                break
            best = progress.best = symbols
    canonical = _canonical(control, parts, _owned_count(best), deadline)
    return SearchOutcome("counterexample", canonical or best, elapsed(), True)


def _any_position(control: clingo.Control, bound: int | None, deadline: float) -> bool | None:
    """Whether any position exists at all (None: no answer by ``deadline``)."""
    probe = clingo.Function("probe")
    control.assign_external(probe, True)
    _set_bound(control, bound)
    try:
        with control.solve(yield_=True, async_=True) as handle:
            if not handle.wait(max(0.0, deadline - time.monotonic())):
                handle.cancel()
                return None
            return handle.model() is not None
    finally:
        control.assign_external(probe, False)


def _no_position(
    board: Board, programs: list[Path], players: int, max_states: int | None
) -> InputError:
    """The error for a search over no positions: it would prove nothing."""
    names = ", ".join(display_path(path) for path in user_files(programs) or programs)
    within = "" if max_states is None else f" and at most {max_states} owned states"
    return InputError(
        names,
        f"no position on {board.name} with {players} player(s){within} satisfies these "
        "programs (a constraint that rules out every position, or a board too small?): "
        "a search over no positions proves nothing",
    )


def _canonical(
    control: clingo.Control, parts: list[_Part], size: int, deadline: float
) -> list[clingo.Symbol] | None:
    """The first counterexample of ``size`` owned states in the order of
    rules/canonical.lp: the same one every run, however the time slices fell
    (None if the time runs out first).  Homes are tried in order, so only
    the first home with such a counterexample is optimised."""
    control.load(str(rules_dir() / "canonical.lp"))
    control.ground([("canonical", [])])
    control.configuration.solve.opt_mode = "opt"
    _set_bound(control, size)
    for part in parts:
        if part.refuted:
            continue
        if time.monotonic() >= deadline:
            return None
        best = None
        with control.solve(assumptions=[_home(part.home)], yield_=True, async_=True) as handle:
            while handle.wait(max(0.0, deadline - time.monotonic())):
                model = handle.model()
                if model is None:
                    break
                best = model.symbols(shown=True)
                handle.resume()
            else:
                handle.cancel()
                return None
        if best is not None:
            return best
    return None


def _home(home: int) -> tuple[clingo.Symbol, bool]:
    """The assumption: player 0's home is state number ``home``."""
    return clingo.Function("home", [clingo.Number(0), clingo.Number(0), clingo.Number(home)]), True


def _set_bound(control: clingo.Control, bound: int | None) -> None:
    """At most ``bound`` owned states from now on (None: any number)."""
    for atom in control.symbolic_atoms.by_signature("limit", 1):
        if atom.is_external:
            control.assign_external(atom.symbol, atom.symbol.arguments[0].number == bound)


def _solve(
    control: clingo.Control, home: int, bound: int | None, deadline: float
) -> tuple[str, list[clingo.Symbol] | None]:
    """("model" | "unsat" | "unknown", shown atoms) for positions where player
    0's home is ``home``, with at most ``bound`` owned states (None: any
    number), by ``deadline``."""
    if time.monotonic() >= deadline:
        return "unknown", None
    _set_bound(control, bound)
    with control.solve(assumptions=[_home(home)], yield_=True, async_=True) as handle:
        if not handle.wait(max(0.0, deadline - time.monotonic())):
            handle.cancel()
            return "unknown", None
        model = handle.model()
        if model is not None:
            return "model", model.symbols(shown=True)
        return "unsat", None


def _owned_count(symbols: list[clingo.Symbol]) -> int:
    return sum(symbol.name in ("home", "owned") for symbol in symbols)


def position_game(
    symbols: list[clingo.Symbol],
    board: Board,
    board_reference: str,
    rules_reference: str,
    players: int,
) -> dict:
    """A found position as a game mapping (the game-file schema)."""
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
