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
* Programs that read only player 0's figures (evlogic/cone.py) get
  rules/search/generate_player0.lp: the other players are merged, and no
  one but player 0 is scored in full.
* In rounds of growing time slices (easy parts are settled first) each part
  is asked for any counterexample while none is known, and once one is, for
  the fewest owned states below the best so far (one optimising solve,
  rules/search/smallest.lp).  A part is settled when it has none, or none
  smaller: "none" in every part is the proof, else the best is a smallest
  counterexample.  The one reported is the first of that size in the order
  of rules/canonical.lp, the same every run.
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import clingo

from evlogic.asp.cone import BETWEEN_PLAYERS, reads_player0_only
from evlogic.asp.facts import board_program, state_ids
from evlogic.asp.solver import ground, read_user_programs, rule_paths, user_files
from evlogic.errors import InputError
from evlogic.limits import OutOfTime, call_before
from evlogic.loading.boards import Board
from evlogic.resources import display_path, rules_dir

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

#: Conflicts the first round gives each part; every round gives four times
#: more.  A slice counted in the solver's own work, not in seconds, costs the
#: same on a busy machine: a slice of wall time there ends before the solver
#: has done anything, and every home is asked again in the next round.
QUICK_LOOK = 250

#: clasp's "frumpy" configuration (conservative) proved the bounded per-home
#: questions of a diff (no smaller witness) in half the time of "jumpy" and
#: "tweety", and the unbounded ones of own-monotone as fast (bench/bench_search.py).
SOLVER_OPTIONS = ("--configuration=frumpy",)

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


#: Predicates whose atoms rules/search/cores.lp (every core grows its own
#: closure, no lookup atoms) gives differently from rules/cores.lp.  A
#: program that reads them gets rules/cores.lp; every other one the search
#: encoding, whose regions are the same and which solves faster.
COVERING_ONLY = {
    ("grown", 4),
    ("leading", 3),
    ("covered", 3),
    ("core_link", 5),
    ("owned_link", 4),
    ("core_state", 4),
    ("core_pair", 5),
}


def search_rules(programs: list[Path]) -> list[Path]:
    """The rule files a search loads for these property or diff programs:
    the lean scoring, plus what the programs read (a cone of influence:
    winners only for programs that read them; only player 0 scored in full
    when the programs read nothing else, evlogic/cone.py; the search's own
    cores encoding unless they read what only rules/cores.lp gives)."""
    names = list(SEARCH_RULES)
    reads = read_user_programs(programs).mentions
    if TOTALS_ONLY & reads:
        names[names.index("winners_by_points.lp")] = "totals.lp"
    elif not BETWEEN_PLAYERS & reads:
        names.remove("winners_by_points.lp")
    if REGION_ONLY & reads:
        names.insert(names.index("cores.lp") + 1, "region.lp")
    if not COVERING_ONLY & reads:
        names[names.index("cores.lp")] = "search/cores.lp"
    if reads_player0_only(programs):
        names[names.index("generate.lp")] = "search/generate_player0.lp"
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
    derive violation/0 in the base program, built as syntax trees."""
    rules: list[clingo.ast.AST] = []
    base = [True]

    def statement(node: clingo.ast.AST) -> None:
        if node.ast_type == clingo.ast.ASTType.Program:
            base[0] = node.name == "base" and not node.parameters
        if node.ast_type != clingo.ast.ASTType.Rule or not base[0]:
            return
        if ("violation", 0) not in _head_predicates(node.head):
            return
        if node.head.ast_type != clingo.ast.ASTType.Literal:
            where = node.location.begin
            chosen.append((display_path(Path(where.filename)), where.line))
            return
        location = node.location
        number = clingo.ast.SymbolicTerm(location, clingo.Number(len(rules)))
        atom = clingo.ast.SymbolicAtom(clingo.ast.Function(location, APPLIES, [number], 0))
        head = clingo.ast.Literal(location, clingo.ast.Sign.NoSign, atom)
        body = [
            literal
            for literal in node.body
            if literal.ast_type == clingo.ast.ASTType.Literal
            and literal.sign == clingo.ast.Sign.NoSign
            and literal.atom.ast_type == clingo.ast.ASTType.SymbolicAtom
        ]
        rules.append(clingo.ast.Rule(location, head, body))

    chosen: list[tuple[str, int]] = []  # violation in a choice or disjunction
    clingo.ast.parse_files([str(path)], statement)
    if chosen:
        source, line = chosen[0]
        raise InputError(
            source,
            "violation in a choice or disjunction is chosen, not derived: a search could "
            "leave it out (or pick it where nothing breaks); derive it with a plain rule",
            line=line,
        )
    return Applies(display_path(path), tuple(rules))


#: Statements a search cannot take from a property: an #external is never
#: switched on, an optimisation would fight the search's own, and a part
#: other than base is never grounded (or is one of the search's own parts).
PROPERTY_REFUSED = {
    "external": "an #external, which no search ever switches on",
    "optimisation": "an optimisation (#minimize, #maximize or a weak constraint), which "
    "would fight the search's own",
    "part": "a #program part other than base, which a search never grounds as yours",
}

#: ... nor from a rule set's programs, whose positions a search must not
#: narrow (score refuses what a constraint rules out; a search would just
#: skip those positions and could prove a property by leaving its
#: counterexamples out) nor choose among (scores would not be the scores).
RULE_SET_REFUSED = {
    **PROPERTY_REFUSED,
    "constraint": "a constraint, which rules positions out: a search would skip them and "
    "could prove a property by leaving its counterexamples out",
    "choice": "a choice or disjunction: the scores a search sees would not be the scores",
}


def guard_programs(properties: list[Path], rule_programs: list[Path]) -> None:
    """Refuse what a search cannot prove soundly over: a statement kind in
    PROPERTY_REFUSED or RULE_SET_REFUSED, or a name of the search's own
    (evlogic_*, which would steer the search's bound or probe)."""
    for programs, refused, whose in (
        (properties, PROPERTY_REFUSED, "a property"),
        (rule_programs, RULE_SET_REFUSED, "a rule set's program"),
    ):
        read = read_user_programs(programs)
        found = read.first(*refused)
        if found is not None:
            kind, source, line = found
            raise InputError(source, f"{whose} for check and diff has {refused[kind]}", line=line)
        reserved = sorted(name for name, _ in read.mentions if name.startswith("evlogic_"))
        if reserved:
            source = ", ".join(display_path(path) for path in programs)
            raise InputError(source, f"{reserved[0]}: names starting evlogic_ are the search's own")


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
    empty_upto: int = 0  # proved: no counterexample here with at most this many owned states

    def settled(self, best: list[clingo.Symbol] | None) -> bool:
        """Nothing left to ask: no counterexample here, or none smaller than ``best``."""
        return self.refuted or (best is not None and self.empty_upto >= _owned_count(best) - 1)


def search(
    board: Board,
    rule_facts: str,
    programs: list[Path],
    players: int,
    max_states: int | None,
    timeout: float,
    started: float | None = None,
    applies: Applies | None = None,
    label: str = "search",
) -> SearchOutcome:
    """Search every position with ``players`` players and at most
    ``max_states`` owned states for ``violation``, until ``timeout`` seconds
    after ``started`` (time.monotonic(); default now), grounding included.
    Progress goes to standard error when it is a terminal, named ``label``.

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
    progress = _Progress(started, label)
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
    finally:
        progress.done()


@dataclass
class _Progress:
    """What a search has found so far, for an answer at the deadline, and a
    line on standard error now and then when it is a terminal."""

    started: float
    label: str
    best: list[clingo.Symbol] | None = None  # the smallest counterexample so far
    shown: float = 0.0  # when the last line was shown
    live: bool = field(default_factory=lambda: sys.stderr.isatty())

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def show(self, parts: list[_Part]) -> None:
        """At most one line a second, after the first second."""
        now = self.elapsed()
        if not self.live or now < 1.0 or now - self.shown < 1.0:
            return
        self.shown = now
        settled = sum(part.settled(self.best) for part in parts)
        if self.best is None:
            phase = "looking for any counterexample"
        else:
            phase = f"looking for one with at most {_owned_count(self.best) - 1} owned states"
        sys.stderr.write(
            f"evlogic: {self.label}: {now:.0f} s: {phase}: {settled} homes of player 0 "
            f"settled, {len(parts) - settled} left\n"
        )
        sys.stderr.flush()

    def done(self) -> None:
        self.live = False


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
        + f"evlogic_players({players}).\n"
        + "".join(f"#external evlogic_limit({k}).\n" for k in range(players, top + 1))
    )
    statements = applies.rules if applies is not None else ()
    control = ground(
        facts,
        search_rules(programs),
        (*SOLVER_OPTIONS, "--opt-mode=ignore"),
        statements=statements,
    )
    if applies is not None and not any(control.symbolic_atoms.by_signature(APPLIES, 1)):
        raise InputError(
            applies.source,
            f"no rule deriving violation can apply on {board.name} with {players} player(s): "
            "what they read never occurs (position 1 not defined? a figure this board "
            "never has?), so the property could never fail and a search would prove nothing",
        )
    # Homes with the most neighbours first: the most cores and sieges, where
    # counterexamples are likeliest (the order only changes what is found
    # first; the answer printed is the canonical one).
    ids = state_ids(board)
    parts = sorted(
        (_Part(home) for home in range(len(ids))),
        key=lambda part: (-len(board.states[ids[part.home]].neighbors), part.home),
    )

    def elapsed() -> float:
        return time.monotonic() - started

    def proved_holds() -> SearchOutcome | None:
        bound = None if max_states is None else top
        exists = _any_position(control, bound, deadline)
        if exists is None:
            return None  # time ran out: unknown
        if not exists:
            raise _no_position(board, programs, players, max_states)
        if applies is not None:
            # Some position the property's own constraints allow must also
            # hold the positive body of a rule deriving violation: else the
            # constraints rule out exactly where it could fail.
            rules = [
                clingo.Function(APPLIES, [clingo.Number(i)]) for i in range(len(applies.rules))
            ]
            live = _any_position(control, bound, deadline, rules)
            if live is None:
                return None
            if not live:
                raise InputError(
                    applies.source,
                    f"no rule deriving violation can apply on {board.name} with {players} "
                    "player(s): no position has what they read (a siege with one player? "
                    "or the property's own constraints rule those positions out), so it "
                    "could never fail and a search would prove nothing",
                )
        return SearchOutcome("holds", None, elapsed(), False)

    control.load(str(rules_dir() / "search" / "smallest.lp"))
    control.ground([("smallest", [])])
    look = QUICK_LOOK
    while time.monotonic() < deadline:
        for part in parts:
            if part.settled(progress.best) or time.monotonic() >= deadline:
                continue
            progress.show(parts)
            if progress.best is None:
                # Any counterexample at all: none in every part is the proof.
                outcome, symbols = _solve(
                    control, part.home, None if max_states is None else top, deadline, look
                )
                part.refuted = outcome == "unsat"
                if symbols is not None:
                    progress.best = symbols
            else:
                # Fewer owned states than the best so far, as few as the part has.
                _smallest_in(control, part, progress, deadline, look)
        if all(part.settled(progress.best) for part in parts):
            break
        look *= 4
    else:
        result = "unknown" if progress.best is None else "counterexample"
        return SearchOutcome(result, progress.best, elapsed(), False)
    if progress.best is None:
        return proved_holds() or SearchOutcome("unknown", None, elapsed(), False)
    size = _owned_count(progress.best)
    canonical = _canonical(control, parts, size, deadline)
    return SearchOutcome("counterexample", canonical or progress.best, elapsed(), True)


def _smallest_in(
    control: clingo.Control, part: _Part, progress: _Progress, deadline: float, conflicts: int
) -> None:
    """Optimise in ``part``: counterexamples with fewer owned states than the
    best so far, each better one recorded in ``progress``, until the part
    has none smaller (it is settled), ``deadline``, or the solver has met
    ``conflicts`` conflicts."""
    assert progress.best is not None
    bound = _owned_count(progress.best) - 1
    _set_bound(control, bound)
    control.configuration.solve.opt_mode = "opt"
    control.configuration.solve.solve_limit = str(conflicts)
    try:
        with control.solve(assumptions=[_home(part.home)], yield_=True, async_=True) as handle:
            while handle.wait(max(0.0, deadline - time.monotonic())):
                model = handle.model()
                if model is None:
                    # Searched to the end (the last model found here, if any,
                    # is optimal), or stopped at the conflict limit: unsettled.
                    if handle.get().exhausted:
                        part.empty_upto = min(bound, _owned_count(progress.best) - 1)
                    return
                progress.best = model.symbols(shown=True)
                handle.resume()
            handle.cancel()
    finally:
        control.configuration.solve.opt_mode = "ignore"
        control.configuration.solve.solve_limit = NO_LIMIT


def _any_position(
    control: clingo.Control,
    bound: int | None,
    deadline: float,
    one_of: list[clingo.Symbol] | None = None,
) -> bool | None:
    """Whether any position exists at all, or (``one_of``) any position where
    one of these atoms holds (None: no answer by ``deadline``)."""
    probe = clingo.Function("evlogic_probe")
    control.assign_external(probe, True)
    _set_bound(control, bound)
    try:
        for atom in [None] if one_of is None else one_of:
            assumptions = [] if atom is None else [(atom, True)]
            with control.solve(assumptions=assumptions, yield_=True, async_=True) as handle:
                if not handle.wait(max(0.0, deadline - time.monotonic())):
                    handle.cancel()
                    return None
                if handle.model() is not None:
                    return True
        return False
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
    for part in sorted(parts, key=lambda part: part.home):  # the lowest home first
        if part.refuted or part.empty_upto >= size:
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
    for atom in control.symbolic_atoms.by_signature("evlogic_limit", 1):
        if atom.is_external:
            control.assign_external(atom.symbol, atom.symbol.arguments[0].number == bound)


def _solve(
    control: clingo.Control, home: int, bound: int | None, deadline: float, conflicts: int
) -> tuple[str, list[clingo.Symbol] | None]:
    """("model" | "unsat" | "unknown", shown atoms) for positions where player
    0's home is ``home``, with at most ``bound`` owned states (None: any
    number), by ``deadline`` and within ``conflicts`` conflicts."""
    if time.monotonic() >= deadline:
        return "unknown", None
    _set_bound(control, bound)
    control.configuration.solve.solve_limit = str(conflicts)
    try:
        with control.solve(assumptions=[_home(home)], yield_=True, async_=True) as handle:
            if not handle.wait(max(0.0, deadline - time.monotonic())):
                handle.cancel()
                return "unknown", None
            model = handle.model()
            if model is not None:
                return "model", model.symbols(shown=True)
            # No model: refuted, or stopped at the conflict limit.
            return ("unsat" if handle.get().unsatisfiable else "unknown"), None
    finally:
        control.configuration.solve.solve_limit = NO_LIMIT


#: clasp's solve_limit when a solve has none.
NO_LIMIT = "umax,umax"


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
    seated: list[int] = []  # homes on seats of their own (rules/search/generate_player0.lp)
    states: dict[int, list[str]] = {p: [] for p in range(players)}
    for symbol in symbols:
        if symbol.name not in ("home", "owned"):
            continue  # a program's own #show
        owner, state = (argument.number for argument in symbol.arguments)
        if symbol.name == "home" and owner < players:
            homes[owner] = ids[state]
        elif symbol.name == "home":
            seated.append(state)
        elif symbol.name == "owned":  # seat N's states (generate_player0.lp) are player 1's
            states[owner if owner < players else 1].append(ids[state])
    for seat, state in enumerate(sorted(seated), start=1):
        homes[seat] = ids[state]
    return {
        "board": board_reference,
        "rules": rules_reference,
        "players": [
            {"name": f"P{p + 1}", "home": homes[p], "states": sorted(states[p])}
            for p in range(players)
        ],
    }
