"""Searching every position for one that breaks something.

``rules/generate.lp`` lets the solver choose a position (homes and owned
states, unclaimed allowed), the scoring rules score it, and a program
(a property of ``evlogic check``, or a diff of ``evlogic diff``) derives
``violation`` when the position is a counterexample.  :func:`search` finds a
smallest one or proves there is none; ``evlogic/reports/check.py`` and
``evlogic/reports/diff.py`` turn the answer into reports.

How the search is engineered (see bench/bench_search.py):

* No number is materialised: properties compare points (rules/compare.lp),
  winners come from rules/winners_by_points.lp and the bonus from tier
  thresholds (rules/cores.lp), so the grounding stays small.
* One grounding and one solve over every home of player 0, in which the
  solver decides player 0's home first (clasp's domain heuristic,
  rules/search/home_first.lp): each home is a case of its own, as under an
  assumption, without a solve's set-up per home, and clauses learnt for
  one home stay for the next: less work than a solve per home.
* Programs that read only player 0's figures (evlogic/asp/cone.py) get
  rules/search/generate_player0.lp: the other players are merged, and no
  one but player 0 is scored in full.
* The first solve asks for any counterexample: none is the proof.  Once
  one is known, one optimising solve (rules/search/smallest.lp) asks for
  fewer owned states, states tried as unclaimed first, until none is
  smaller.  A search may be given a :class:`Floor`, what a search whose
  counterexamples include all of its own proved (diff's total search, for
  its winner search): then it asks bound by bound from that floor up, and
  the first bound with a counterexample is the smallest size.
* Programs that, besides, see no far state of the other players get
  rules/search/near_only.lp too (far homes on the lowest free far states).
* A search whose counterexamples are all the including search's (diff's
  winner search) asks a bound through the including search's player 0
  parts (:func:`_guided`), once that search has proved its floor, or as a
  guess, once its best size so far has stood a while.
* The counterexample reported is the first of that size in the order of
  rules/canonical.lp, the same every run: homes in order, a solve each under
  an assumption (one optimising solve over every home took 80 s against
  0.9 s on diff's total search).
"""

from __future__ import annotations

import functools
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import clingo

from evlogic.asp.cone import (
    reads_player0_only,
    sees_near_states_only,
    treats_other_seats_alike,
)
from evlogic.asp.facts import board_program, state_ids
from evlogic.asp.predicates import BETWEEN, having, loaded_by
from evlogic.asp.program import UserProgram
from evlogic.asp.solver import ground, rule_paths
from evlogic.asp.soundness import refuse_unsound
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

#: clasp's "frumpy" configuration (conservative) proved the bounded per-home
#: questions of a diff (no smaller witness) in half the time of "jumpy" and
#: "tweety", and the unbounded ones of own-monotone as fast (bench/bench_search.py);
#: the domain heuristic reads rules/search/home_first.lp.
SOLVER_OPTIONS = ("--configuration=frumpy", "--heuristic=Domain")

#: Predicates between players: a program that reads them gets the winners.
BETWEEN_PLAYERS = having(BETWEEN)

#: Predicates only rules/totals.lp defines.  A program that reads them gets
#: the scoring's materialised totals: correct, but a much larger grounding.
TOTALS_ONLY = loaded_by("totals.lp")

#: Predicates only rules/region.lp defines (the region that counts), loaded
#: for the programs that read them.
REGION_ONLY = loaded_by("region.lp")

#: Predicates whose atoms rules/search/cores.lp (every core grows its own
#: closure, no lookup atoms) gives differently from rules/cores.lp.  A
#: program that reads them gets rules/cores.lp; every other one the search
#: encoding, whose regions are the same and which solves faster.
COVERING_ONLY = loaded_by("cores.lp")


def search_rules(program: UserProgram) -> list[Path]:
    """evlogic's rule files a search loads for these property or diff
    programs (grounded after them): the lean scoring, plus what the
    programs read (a cone of influence: winners only for programs that
    read them; only player 0 scored in full when the programs read nothing
    else, evlogic/asp/cone.py; the search's own cores encoding unless they
    read what only rules/cores.lp gives)."""
    names = list(SEARCH_RULES)
    reads = program.mentions
    if TOTALS_ONLY & reads:
        names[names.index("winners_by_points.lp")] = "totals.lp"
    elif not BETWEEN_PLAYERS & reads:
        names.remove("winners_by_points.lp")
    if REGION_ONLY & reads:
        names.insert(names.index("cores.lp") + 1, "region.lp")
    if not COVERING_ONLY & reads:
        names[names.index("cores.lp")] = "search/cores.lp"
    if reads_player0_only(program):
        names[names.index("generate.lp")] = "search/generate_player0.lp"
        if sees_near_states_only(program):
            names.append("search/near_only.lp")
    names.append("search/home_first.lp")  # the order of decisions (SOLVER_OPTIONS)
    return rule_paths(names)


#: The name of the atoms that say an atom a property reads can occur.
APPLIES = "evlogic_property_reads"


@dataclass(frozen=True)
class Applies:
    """For each atom a property's rules read (a plain positive body atom of
    a predicate the property does not derive itself: a figure, the board, a
    position), a relaxed rule ``APPLIES(i) :- atom.``.  An atom no position
    can have is a misspelt figure, a player the search never seats, a
    position the property never builds: the rule reading it could never
    apply, and a search would prove nothing of it.  Each atom is tested on
    its own, never a rule's whole body: a body no position satisfies is a
    property that holds."""

    atoms: tuple[tuple[str, str, int], ...]  # each atom as written, its file and line
    rules: tuple[clingo.ast.AST, ...]

    def refused(self, index: int, board: Board, players: int, where: str) -> InputError:
        atom, source, line = self.atoms[index]
        seated = f"{players} player{'s' if players != 1 else ''}"
        return InputError(
            source,
            f"{atom} {where} on {board.name} with {seated} (a figure this board never has? "
            "a player not seated, or a position never built?): the rule reading it could "
            "never apply, so a search would prove nothing of it",
            line=line,
        )


def violation_applies(program: UserProgram) -> Applies:
    """The relaxed copies of what the rules of ``program`` read (see
    :class:`Applies`), built as syntax trees from the program's own."""
    own = program.defines
    atoms: list[tuple[str, str, int]] = []
    rules: list[clingo.ast.AST] = []
    seen: set[str] = set()
    for node in program.rules():
        for literal in node.body:
            if not (
                literal.ast_type == clingo.ast.ASTType.Literal
                and literal.sign == clingo.ast.Sign.NoSign
                and literal.atom.ast_type == clingo.ast.ASTType.SymbolicAtom
                and literal.atom.symbol.ast_type == clingo.ast.ASTType.Function
            ):
                continue
            symbol = literal.atom.symbol
            if (symbol.name, len(symbol.arguments)) in own or str(literal) in seen:
                continue
            seen.add(str(literal))
            location = literal.location
            number = clingo.ast.SymbolicTerm(location, clingo.Number(len(rules)))
            head = clingo.ast.Literal(
                location,
                clingo.ast.Sign.NoSign,
                clingo.ast.SymbolicAtom(clingo.ast.Function(location, APPLIES, [number], 0)),
            )
            rules.append(clingo.ast.Rule(location, head, [literal]))
            where = location.begin
            atoms.append((str(literal), display_path(Path(where.filename)), where.line))
    return Applies(tuple(atoms), tuple(rules))


@dataclass(frozen=True)
class SearchOutcome:
    result: str  # holds | counterexample | unknown
    found: list[clingo.Symbol] | None  # shown atoms of the smallest counterexample found
    seconds: float
    smallest: bool  # every smaller position was ruled out (proved minimal)


@dataclass
class Floor:
    """What one search proved, for a search running beside it whose
    counterexamples are all counterexamples of the first (a diff's different
    winner asks that player 0's total differ, which is the total search's
    counterexample), on the same board, with the same players and bound.
    The first search writes it, the other reads it while it runs (a plain
    attribute, written once: no lock needed)."""

    none: bool = False  # proved: no counterexample at all
    size: int | None = None  # proved: none with fewer owned states than this
    #: the first search's smallest counterexample so far (owned states, not
    #: proved smallest) and when it was found (time.monotonic()): the other
    #: search asks for as many, through the first's, once it has stood a while
    best: int | None = None
    best_since: float = 0.0
    done: bool = False  # the first search has answered: no more is coming
    #: the files the first search grounds, its programs last (written when
    #: it starts): the other search grounds them again on its own thread to
    #: enumerate player 0's part of their counterexamples (see
    #: :func:`_guided`).  Paths, not the syntax trees the first search
    #: read: those are its thread's alone (evlogic/asp/program.py).
    rules: list[Path] | None = None

    def found(self, size: int) -> None:
        """A counterexample of ``size`` owned states, the smallest so far."""
        if self.best is None or size < self.best:
            self.best_since = time.monotonic()
            self.best = size


def search(
    board: Board,
    rule_facts: str,
    program: UserProgram,
    players: int,
    max_states: int | None,
    timeout: float,
    started: float | None = None,
    applies: Applies | None = None,
    label: str = "search",
    publish: Floor | None = None,
    within: Floor | None = None,
) -> SearchOutcome:
    """Search every position with ``players`` players and at most
    ``max_states`` owned states for ``violation`` of ``program`` (read once,
    evlogic.asp.program: its trees go to the search's thread, and are no
    one else's while it runs), until ``timeout`` seconds after ``started``
    (time.monotonic(); default now), grounding included.  Progress goes to
    standard error when it is a terminal, named ``label``.

    "holds" is said only when the solver refuted every position and some
    position exists at all; no position is an InputError naming the
    programs, and so is a property none of whose ``applies`` rules grounds
    (see :func:`violation_applies`).  What this search proves is written to
    ``publish``; ``within`` is what a search whose counterexamples include
    all of this one's proved (see :class:`Floor`): its "none" is this
    search's "holds", its smallest size a size below which this search has
    none either."""
    if not 1 <= players <= len(board.states):
        count = len(board.states)
        raise InputError(
            "--players",
            f"must be between 1 and {count}: {board.name} has {count} "
            f"state{'s' if count != 1 else ''}, one home a player",
        )
    if not 0 < timeout < math.inf:
        raise InputError("--timeout", f"must be a positive number of seconds, not {timeout:g}")
    if max_states is not None and max_states < players:
        raise InputError(
            "--max-states", f"must be at least {players}: each of the {players} players owns a home"
        )
    started = time.monotonic() if started is None else started
    progress = _Progress(started, label)
    publish = publish or Floor()
    try:
        return call_before(
            started + timeout,
            lambda: _search(
                board,
                rule_facts,
                program,
                players,
                max_states,
                timeout,
                progress,
                applies,
                publish,
                within or Floor(),
            ),
        )
    except OutOfTime:  # clingo was busy past the deadline (grounding, preparing a solve)
        result = "unknown" if progress.best is None else "counterexample"
        return SearchOutcome(result, progress.best, progress.elapsed(), False)
    except RuntimeError as error:
        if "Integer overflow" not in str(error):
            raise
        # clasp adds a sum's weights in 32 bits: a rule set's program may give
        # figures near 2^31, which score refuses too (rules/overflow.lp)
        names = ", ".join(display_path(path) for path in program.users or program.paths)
        raise InputError(
            names,
            "a sum of figures passes 2^31, the largest number clingo adds exactly (are "
            "face values or penalties too large?): the search cannot weigh these positions",
        ) from None
    finally:
        progress.done()
        publish.done = True


@dataclass
class _Progress:
    """What a search has found so far, for an answer at the deadline, and a
    line on standard error now and then when it is a terminal."""

    started: float
    label: str
    best: list[clingo.Symbol] | None = None  # the smallest counterexample so far
    phase: str = "grounding"
    shown: float = 0.0  # when the last line was shown
    live: bool = field(default_factory=lambda: sys.stderr.isatty())

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def show(self) -> None:
        """At most one line a second, after the first second."""
        now = self.elapsed()
        if not self.live or now < 1.0 or now - self.shown < 1.0:
            return
        self.shown = now
        best = "" if self.best is None else f" (best: {_owned_count(self.best)} owned states)"
        sys.stderr.write(f"evlogic: {self.label}: {now:.0f} s: {self.phase}{best}\n")
        sys.stderr.flush()

    def done(self) -> None:
        self.live = False


def _search(
    board: Board,
    rule_facts: str,
    program: UserProgram,
    players: int,
    max_states: int | None,
    timeout: float,
    progress: _Progress,
    applies: Applies | None,
    publish: Floor,
    within: Floor,
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
        # the homes of seats 1.. in increasing order only (rules/generate.lp)
        + ("evlogic_interchangeable.\n" if treats_other_seats_alike(program) else "")
    )
    rules = search_rules(program)
    publish.rules = [*rules, *program.paths]
    refuse_unsound(rules, program)
    statements = applies.rules if applies is not None else ()
    control = ground(
        facts,
        rules,
        (*SOLVER_OPTIONS, "--opt-mode=ignore"),
        statements=statements,
        program=program,
    )
    _refuse_homes_past_game_end(control, board, players)
    if applies is not None:
        grounded = {
            atom.symbol.arguments[0].number
            for atom in control.symbolic_atoms.by_signature(APPLIES, 1)
        }
        for index in range(len(applies.atoms)):
            if index not in grounded:
                raise applies.refused(index, board, players, "never occurs")

    def elapsed() -> float:
        return time.monotonic() - started

    def proved_holds() -> SearchOutcome | None:
        bound = None if max_states is None else top
        exists = _any_position(control, bound, deadline)
        if exists is None:
            return None  # time ran out: unknown
        if not exists:
            raise _no_position(board, program, players, max_states)
        for index in range(len(applies.atoms) if applies is not None else 0):
            # Each atom a property reads, on its own: some position has it.
            assert applies is not None
            reads = clingo.Function(APPLIES, [clingo.Number(index)])
            live = _any_position(control, bound, deadline, [reads])
            if live is None:
                return None
            if not live:
                raise applies.refused(index, board, players, "holds in no position")
        return SearchOutcome("holds", None, elapsed(), False)

    control.load(str(rules_dir() / "search" / "smallest.lp"))
    control.ground([("smallest", [])])

    guide = _Guide(within, facts)
    guessed: dict[int, list[clingo.Symbol]] = {}  # the fixed-order one of a guessed size

    def speculate(size: int) -> None:
        """The first counterexample of ``size`` owned states, while the
        including search still proves whether ``size`` is the smallest."""
        first = _canonical(
            control,
            board,
            size,
            deadline,
            progress,
            guide,
            functools.partial(_overtaken, within, size),
        )
        if first is not None:
            guessed[size] = first

    def ripe() -> bool:
        """The including search's best so far has stood a while: asking for
        that size through it (:func:`_guided`) beats looking on alone."""
        best = within.best
        return (
            guide.possible()
            and best is not None
            and time.monotonic() - within.best_since >= SETTLED
        )

    # 1. Any counterexample at all: every home in one solve (the solver
    # decides player 0's home first, rules/search/home_first.lp), or, once
    # the including search's best has stood a while, one of that size
    # through it.
    progress.phase = "looking for any counterexample"
    everything = None if max_states is None else top
    found = _solve(control, everything, deadline, progress, within, stop=ripe)
    floor = players  # proved: none with fewer owned states
    asked: set[int] = set()
    if found == "stopped":
        bound = within.size if within.size is not None else within.best
        assert bound is not None
        asked.add(bound)
        progress.phase = f"asking for {bound} owned states, the including search's best so far"
        asking = time.monotonic()

        def given_up(bound: int = bound) -> bool:
            """The guess overtaken, or taking so long that looking on alone
            (for any counterexample to answer with) must go on."""
            return _overtaken(within, bound) or time.monotonic() - asking > timeout * GUESS_SHARE

        found = _guided(control, guide.control(), bound, deadline, progress, stop=given_up)
        if found == "none":
            floor = bound + 1
        if not isinstance(found, list) and found != "unknown":
            # none within the guess, or the guess overtaken: look on alone
            progress.phase = "looking for any counterexample"
            found = _solve(control, everything, deadline, progress, within)
    if found == "unknown":
        return SearchOutcome("unknown", None, elapsed(), False)
    if found == "within":  # the including search has none, so this one has none
        return SearchOutcome("holds", None, elapsed(), False)
    if found == "none":
        outcome = proved_holds()
        if outcome is None:
            return SearchOutcome("unknown", None, elapsed(), False)
        publish.none = True
        return outcome
    assert not isinstance(found, str)
    progress.best = found
    publish.found(_owned_count(found))

    # 2. As few owned states as there can be (unclaimed tried first from now on).
    control.assign_external(clingo.Function("evlogic_few"), SMALL_FIRST)
    if asked and _owned_count(found) in asked and within.size in (None, *asked):
        speculate(_owned_count(found))

    if not _smallest(control, progress, deadline, floor, within, guide, publish, speculate, asked):
        return SearchOutcome("counterexample", progress.best, elapsed(), False)
    size = _owned_count(progress.best)
    publish.size = size
    canonical = guessed.get(size) or _canonical(control, board, size, deadline, progress, guide)
    return SearchOutcome("counterexample", canonical or progress.best, elapsed(), True)


#: Once a counterexample is known, the solver tries states as unclaimed
#: first (rules/search/home_first.lp).
SMALL_FIRST = True

#: Seconds between two looks, while the solver runs, at the deadline, at a
#: floor proved beside (:class:`Floor`) and at the progress line.
POLL = 0.05


def _solve(
    control: clingo.Control,
    bound: int | None,
    deadline: float,
    progress: _Progress,
    within: Floor | None = None,
    assumptions: list[tuple[clingo.Symbol, bool]] | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> list[clingo.Symbol] | str:
    """The shown atoms of a counterexample with at most ``bound`` owned
    states (None: any number) and the ``assumptions``, in one solve over
    every home; or "none" (the solver proved there is none), "within"
    (``within`` proved there is none first), "stopped" (``stop()`` said
    so) or "unknown" (``deadline`` came
    first)."""
    _set_bound(control, bound)

    def halt() -> str | None:
        if within is not None and within.none:
            return "within"
        return "stopped" if stop() else None

    handle: clingo.SolveHandle  # (clingo leaves __enter__ unannotated)
    with control.solve(assumptions=assumptions or [], yield_=True, async_=True) as handle:
        reason = _await(handle, progress, deadline, halt)
        if reason is not None:
            return reason
        model = handle.model()
        if model is not None:
            return _position(model)
        return "none" if handle.get().unsatisfiable else "unknown"


def _await(
    handle: clingo.SolveHandle,
    progress: _Progress,
    deadline: float,
    halt: Callable[[], str | None],
) -> str | None:
    """Wait for a running solve's next answer (a model, or the end), a
    progress line now and then: None once it is there; else the solve is
    cancelled, and the reason returned: ``halt()``'s, or "unknown" at the
    deadline."""
    while not handle.wait(POLL):
        progress.show()
        reason = halt()
        if reason is None and time.monotonic() >= deadline:
            reason = "unknown"
        if reason is not None:
            handle.cancel()
            return reason
    return None


def _stopped(stop: Callable[[], bool]) -> Callable[[], str | None]:
    """``stop`` as a reason for :func:`_await`: "stopped" when it says so."""
    return lambda: "stopped" if stop() else None


def _smallest(
    control: clingo.Control,
    progress: _Progress,
    deadline: float,
    floor: int,
    within: Floor,
    guide: _Guide,
    publish: Floor,
    speculate: Callable[[int], None] = lambda _size: None,
    guessed: set[int] | None = None,
) -> bool:
    """Make ``progress.best`` a counterexample with the fewest owned states;
    True once that is proved (False: ``deadline`` came first).

    One optimising solve over every home (rules/search/smallest.lp) below the
    best so far, each better one recorded, until none is smaller.  Once a
    floor is proved beside (``within.size``: none with fewer owned states),
    bound by bound from that floor up instead, each bound guided by the
    including search's counterexamples (:func:`_guided`): the first bound
    with a counterexample is the smallest size.  Before that floor, once
    the including search's best so far has stood for SETTLED seconds, a
    guided bound at that size (a guess at the floor, made while the
    including search is still proving it); a counterexample of that size
    is passed to ``speculate`` at once (the fixed-order one is worked out
    while the floor is still being proved), and then the search waits for
    the including search rather than proving the same floor beside it."""
    # floor: proved, no counterexample with fewer owned states; guessed:
    # the sizes already asked for through the including search
    guessed = set() if guessed is None else guessed

    def record(model: clingo.Model) -> None:
        progress.best = _position(model)
        size = _owned_count(progress.best)
        publish.found(size)
        progress.phase = f"looking for one with at most {size - 1} owned states"

    def guess() -> int | None:
        """The including search's best so far, once it has stood a while."""
        if within.size is not None or not guide.possible():
            return None
        best, since = within.best, within.best_since
        if best is None or best in guessed or time.monotonic() - since < SETTLED:
            return None
        assert progress.best is not None
        return best if floor <= best < _owned_count(progress.best) else None

    while True:
        assert progress.best is not None
        best = _owned_count(progress.best)
        if within.size is not None:
            floor = max(floor, within.size)
        if floor >= best:
            return True
        if time.monotonic() >= deadline:
            return False
        if within.size is not None:
            progress.phase = f"none below {floor} owned states: asking for {floor}"
            if guide.ready():
                found = _guided(control, guide.control(), floor, deadline, progress)
            else:
                found = _solve(control, floor, deadline, progress)
            if found == "none":
                floor += 1
            elif isinstance(found, list):
                progress.best = found
            else:
                return False
            continue
        bound = guess()
        if bound is not None:
            guessed.add(bound)
            progress.phase = f"asking for {bound} owned states, the including search's best so far"
            found = _guided(
                control,
                guide.control(),
                bound,
                deadline,
                progress,
                stop=functools.partial(_overtaken, within, bound),
            )
            if found == "none":  # proved: none with at most `bound` owned states
                floor = max(floor, bound + 1)
            elif isinstance(found, list):
                progress.best = found
                if _owned_count(found) == bound and within.size in (None, bound):
                    speculate(bound)
            elif found == "unknown":
                return False
            continue
        if guide.possible() and not within.done and within.best is not None and best <= within.best:
            # As small as the including search's best: whether it is the
            # smallest is what that search is proving; wait for its answer.
            progress.phase = f"{best} owned states: waiting for the including search's floor"
            while (
                within.size is None and not within.done and within.best >= best and guess() is None
            ):
                if time.monotonic() >= deadline:
                    return False
                time.sleep(POLL)
                progress.show()
            continue
        progress.phase = f"looking for one with at most {best - 1} owned states"

        def settled(floor: int = floor) -> bool:
            # a counterexample as small as the floor is the smallest: no
            # need to wait for the solver to prove it
            assert progress.best is not None
            return (
                within.size is not None
                or guess() is not None
                or _owned_count(progress.best) <= floor
            )

        status = _optimise(control, best - 1, deadline, progress, record, settled)
        if status == "exhausted":
            return True
        if status == "unknown":
            return False


#: The share of the timeout a guess may take before a search that has no
#: counterexample yet goes back to looking for any (without one, the answer
#: at the deadline would be "unknown").  A third: with 4 players a guided
#: bound takes 9 s of CPU to its first counterexample on the 51-state board,
#: and twice that when the two searches share one core; looking for any
#: counterexample instead took 14 to 23 s to a first one of 50 owned states.
GUESS_SHARE = 1 / 3

#: Seconds a best-so-far of the including search stands before the other
#: search guesses it is the smallest (:func:`_smallest`).
SETTLED = 1.0


def _overtaken(within: Floor, bound: int) -> bool:
    """The including search has proved a floor other than ``bound``, or met
    a smaller counterexample: a guess at ``bound`` no longer pays."""
    if within.size is not None:
        return within.size != bound
    return within.best is not None and within.best < bound


@dataclass
class _Guide:
    """The search whose counterexamples include this one's (``within``, its
    files written there), grounded with rules/search/player0_part.lp
    once this search first needs it (:func:`_guided`), with this search's
    facts."""

    within: Floor
    facts: str
    grounded: clingo.Control | None = None

    def possible(self) -> bool:
        """The including search's files are known."""
        return self.within.rules is not None

    def ready(self) -> bool:
        """A floor proved by the including search, whose files are known."""
        return self.within.size is not None and self.possible()

    def control(self) -> clingo.Control:
        if self.grounded is None:
            assert self.within.rules is not None
            self.grounded = ground(
                self.facts,
                [*self.within.rules, rules_dir() / "search" / "player0_part.lp"],
                (*SOLVER_OPTIONS, "--opt-mode=ignore", "--project=project", "--models=0"),
            )
        return self.grounded


Assumptions = list[tuple[clingo.Symbol, bool]]


def _guided(
    control: clingo.Control,
    guide: clingo.Control,
    bound: int,
    deadline: float,
    progress: _Progress,
    home: int | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> list[clingo.Symbol] | str:
    """A counterexample with at most ``bound`` owned states, or "none" or
    "unknown", as :func:`_solve`, found through the search whose
    counterexamples include this one's (``guide``, grounded with
    rules/search/player0_part.lp): each player 0 part (home and owned
    states) of its counterexamples within the bound, enumerated once each,
    is asked of this search as assumptions, only the other players chosen.

    Complete: a counterexample here is one of the guide's, the same
    position within the same bound, so its player 0 part is among those
    enumerated (the guide may be reduced to player 0's view,
    rules/search/generate_player0.lp: that keeps player 0's part and the
    number of owned states).  So when every part is refuted, there is none.
    On diff's winner search this meets a 6-state witness in about a second
    where the search over every position took 14 to 50 s (2 players).
    ``home``: player 0's home is that state; "stopped" when ``stop()`` says so."""
    found: list[list[clingo.Symbol] | str] = []

    def ask(part: Assumptions, tried: int) -> bool:
        if home is None:
            phase = progress.phase.split(": player 0's part")[0]
            progress.phase = f"{phase}: player 0's part {tried} of the including search's"
        answer = _solve(control, bound, deadline, progress, assumptions=part, stop=stop)
        if answer == "none":
            return False
        found.append(answer)
        return True

    status = _each_part(control, guide, bound, deadline, progress, home, stop, ask)
    return found[0] if status == "visited" else status


def _each_part(
    control: clingo.Control,
    guide: clingo.Control,
    bound: int,
    deadline: float,
    progress: _Progress,
    home: int | None,
    stop: Callable[[], bool],
    visit: Callable[[Assumptions, int], bool],
) -> str:
    """Pass each player 0 part of the guide's counterexamples within
    ``bound`` (with player 0's ``home``, if given) to ``visit``, as
    assumptions for ``control`` (the part, and nothing else of player 0's),
    with how many so far, until ``visit`` says True ("visited").  Else
    "none" (every part visited), "stopped" (``stop()``) or "unknown" (the
    deadline)."""
    _set_bound(guide, bound)
    owned = [
        atom.symbol
        for atom in control.symbolic_atoms.by_signature("owned", 3)
        if atom.symbol.arguments[0].number == 0 and atom.symbol.arguments[1].number == 0
    ]
    tried = 0
    homes = [] if home is None else [_home(home)]
    handle: clingo.SolveHandle  # (clingo leaves __enter__ unannotated)
    with guide.solve(assumptions=homes, yield_=True, async_=True) as handle:
        while True:
            reason = _await(handle, progress, deadline, _stopped(stop))
            if reason is not None:
                return reason
            model = handle.model()
            if model is None:
                return "none" if handle.get().exhausted else "unknown"
            part = {
                clingo.Function(symbol.name, [clingo.Number(0), *symbol.arguments])
                for symbol in model.symbols(shown=True)
                if symbol.name in ("home", "owned") and symbol.arguments[0].number == 0
            }
            its_home = {atom.arguments[2] for atom in part if atom.name == "home"}
            assumptions = [(atom, True) for atom in sorted(part)]
            assumptions += [
                (atom, False)  # and nothing else (its home is owned, not shown)
                for atom in owned
                if atom not in part and atom.arguments[2] not in its_home
            ]
            tried += 1
            if visit(assumptions, tried):
                return "visited"
            handle.resume()


def _optimise(
    control: clingo.Control,
    bound: int,
    deadline: float,
    progress: _Progress,
    record: Callable[[clingo.Model], None],
    stop: Callable[[], bool] = lambda: False,
    assumptions: list[tuple[clingo.Symbol, bool]] | None = None,
) -> str:
    """Optimise over every home: counterexamples with at most ``bound`` owned
    states, each better one passed to ``record``.  "exhausted" (the last one
    recorded is optimal, or there is none within the bound), "stopped"
    (``stop()`` said so) or "unknown" (the deadline came first)."""
    _set_bound(control, bound)
    solving = control.configuration.solve
    assert isinstance(solving, clingo.Configuration)  # clingo types every option as a union
    solving.opt_mode = "opt"
    try:
        handle: clingo.SolveHandle  # (clingo leaves __enter__ unannotated)
        with control.solve(assumptions=assumptions or [], yield_=True, async_=True) as handle:
            while True:
                reason = _await(handle, progress, deadline, _stopped(stop))
                if reason is not None:
                    return reason
                model = handle.model()
                if model is None:
                    return "exhausted" if handle.get().exhausted else "unknown"
                record(model)
                handle.resume()
    finally:
        solving.opt_mode = "ignore"


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
            handle: clingo.SolveHandle  # (clingo leaves __enter__ unannotated)
            with control.solve(assumptions=assumptions, yield_=True, async_=True) as handle:
                if not handle.wait(max(0.0, deadline - time.monotonic())):
                    handle.cancel()
                    return None
                if handle.model() is not None:
                    return True
        return False
    finally:
        control.assign_external(probe, False)


def _refuse_homes_past_game_end(control: clingo.Control, board: Board, players: int) -> None:
    """More players than a game end the rules give (game_end/2 of
    rules/position.lp, a fact of the grounding): the homes alone are more
    states won than that, so no position could happen."""
    ends = [atom.symbol.arguments[1] for atom in control.symbolic_atoms.by_signature("game_end", 2)]
    numbers = [value.number for value in ends if value.type == clingo.SymbolType.Number]
    end = min(numbers, default=None)
    if end is not None and players > end:
        raise InputError(
            "--players",
            f"must be at most {end} on {board.name}: the game ends when state {end} is won, "
            "and each player's home is a state won",
        )


def _no_position(
    board: Board, program: UserProgram, players: int, max_states: int | None
) -> InputError:
    """The error for a search over no positions: it would prove nothing."""
    names = ", ".join(display_path(path) for path in program.users or program.paths)
    within = "" if max_states is None else f" and at most {max_states} owned states"
    return InputError(
        names,
        f"no position on {board.name} with {players} player(s){within} satisfies these "
        "programs (a constraint that rules out every position, a board too small, or a "
        "position they build past the game end?): "
        "a search over no positions proves nothing",
    )


def _canonical(
    control: clingo.Control,
    board: Board,
    size: int,
    deadline: float,
    progress: _Progress,
    guide: _Guide,
    stop: Callable[[], bool] = lambda: False,
) -> list[clingo.Symbol] | None:
    """The first counterexample of ``size`` owned states (the smallest size)
    in the order of rules/canonical.lp: the same one every run, whatever the
    solver met first (None if the time runs out first).  Homes are tried in
    order, a solve each under an assumption, so only the first home with such
    a counterexample is optimised (one optimising solve over every home took
    a hundred times longer: it kept proving homes after the first worse)."""
    if not any(control.symbolic_atoms.by_signature(CANONICAL_GROUNDED, 0)):
        control.load(str(rules_dir() / "canonical.lp"))
        control.ground([("canonical", [])])
        control.add("evlogic_canonical_grounded", [], f"{CANONICAL_GROUNDED}.")
        control.ground([("evlogic_canonical_grounded", [])])
    best: list[clingo.Symbol] | None = None

    def record(model: clingo.Model) -> None:
        nonlocal best
        best = _position(model)

    for home in range(len(board.states)):  # the lowest home first
        progress.phase = f"the first counterexample of {size} owned states, in a fixed order"
        if guide.possible():
            status, first = _first_by_parts(
                control, guide.control(), size, deadline, progress, home, stop
            )
            if status != "none":
                return None
            if first is not None:
                return first
            continue
        status = _optimise(
            control, size, deadline, progress, record, stop, assumptions=[_home(home)]
        )
        if status != "exhausted":
            return None
        if best is not None:
            return best
    return None


def _first_by_parts(
    control: clingo.Control,
    guide: clingo.Control,
    size: int,
    deadline: float,
    progress: _Progress,
    home: int,
    stop: Callable[[], bool],
) -> tuple[str, list[clingo.Symbol] | None]:
    """The first counterexample of ``size`` owned states with player 0 at
    ``home``, in the order of rules/canonical.lp, part by part of the guide
    (:func:`_each_part`): each player 0 part with a counterexample is
    optimised under its assumptions (only the other players chosen, fast),
    and the first of them is the one whose cost is least: rules/canonical.lp
    is one set of #minimize statements, so costs compare across solves as
    within one.  ("none", None): no counterexample at that home; "unknown"
    or "stopped" as the deadline or ``stop`` said."""
    best: tuple[list[int], list[clingo.Symbol]] | None = None
    status = ""

    def first(part: Assumptions, _tried: int) -> bool:
        nonlocal best, status
        found: list[tuple[list[int], list[clingo.Symbol]]] = []

        def record(model: clingo.Model) -> None:
            found[:] = [(list(model.cost), _position(model))]

        assumptions = [_home(home), *part]
        status = _optimise(control, size, deadline, progress, record, stop, assumptions)
        if status != "exhausted":
            return True  # time ran out, or stopped
        if found and (best is None or found[0][0] < best[0]):
            best = found[0]
        return False

    answer = _each_part(control, guide, size, deadline, progress, home, stop, first)
    if answer == "visited":
        return status, None
    return answer, None if best is None else best[1]


#: A fact that says rules/canonical.lp is grounded (once per control).
CANONICAL_GROUNDED = "evlogic_canonical_grounded"


def _home(home: int) -> tuple[clingo.Symbol, bool]:
    """The assumption: player 0's home is state number ``home``."""
    return clingo.Function("home", [clingo.Number(0), clingo.Number(0), clingo.Number(home)]), True


def _set_bound(control: clingo.Control, bound: int | None) -> None:
    """At most ``bound`` owned states from now on (None: any number)."""
    for atom in control.symbolic_atoms.by_signature("evlogic_limit", 1):
        if atom.is_external:
            control.assign_external(atom.symbol, atom.symbol.arguments[0].number == bound)


def _position(model: clingo.Model) -> list[clingo.Symbol]:
    """Position 0 of a model as rules/generate.lp shows it, ``home(P, S)``
    and ``owned(P, S)`` (not homes), read from the model's atoms rather than
    from what it shows: a property may #show terms of its own, and a term
    computed from a variable (``#show X : X = owned(0, 4).``) would pass for
    a state of the position found."""
    zero = clingo.Number(0)
    atoms = model.context.symbolic_atoms
    homes = [
        atom.symbol
        for atom in atoms.by_signature("home", 3)
        if atom.symbol.arguments[0] == zero and model.contains(atom.symbol)
    ]
    at_home = {tuple(home.arguments[1:]) for home in homes}
    owned = [
        atom.symbol
        for atom in atoms.by_signature("owned", 3)
        if atom.symbol.arguments[0] == zero
        and tuple(atom.symbol.arguments[1:]) not in at_home
        and model.contains(atom.symbol)
    ]
    return [clingo.Function(atom.name, atom.arguments[1:]) for atom in (*homes, *owned)]


def _owned_count(symbols: list[clingo.Symbol]) -> int:
    return sum(symbol.name in ("home", "owned") for symbol in symbols)


def position_game(
    symbols: list[clingo.Symbol],
    board: Board,
    board_reference: str,
    rules_reference: str,
    players: int,
) -> dict[str, object]:
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
