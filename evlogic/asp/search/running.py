"""One search under way: its grounding, its solves and its steps.

A :class:`RunningSearch` holds what every step needs (the control, the
deadline, the progress shown and kept for an answer at the deadline, the
limits on players and owned states, what this search proves and what the
search that includes it proves) and runs on the search's own thread
(evlogic.limits.call_before, from :func:`evlogic.asp.search.search`).
"""

from __future__ import annotations

import contextlib
import functools
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import clingo

from evlogic.asp.cone import treats_other_seats_alike
from evlogic.asp.facts import board_program
from evlogic.asp.program import UserProgram
from evlogic.asp.search.answers import Answer, Ended, halting
from evlogic.asp.search.encoding import control_options, search_rules
from evlogic.asp.search.guide import GUESS_SHARE, SETTLED, Floor, Guide, never, overtaken
from evlogic.asp.search.positions import (
    Assumptions,
    Found,
    at_home,
    owned_count,
    position,
    set_bound,
)
from evlogic.asp.search.reads import AtomsRead
from evlogic.asp.solver import ground
from evlogic.asp.soundness import refuse_unsound
from evlogic.errors import InputError
from evlogic.limits import checkpoint
from evlogic.loading.boards import Board
from evlogic.resources import display_path, rules_dir

#: Once a counterexample is known, the solver tries states as unclaimed
#: first (rules/search/home_first.lp).
SMALL_FIRST = True

#: Seconds between two looks, while the solver runs, at the deadline, at a
#: floor proved beside (:class:`Floor`) and at the progress line.
POLL = 0.05

#: Parts of the including search a guided ask visits alone before a plain
#: solve within the bound starts beside it (RunningSearch.ask).  Neither
#: way is the faster everywhere: usa, 2 players, diff standard vs
#: union-cores or open-region, the guide answers at its second part (5 s,
#: where a plain solve takes 13 s and 30 s); vs gentle-siege the guide's
#: parts come slowly (97 parts, 40 s) and a plain solve answers in 2 s.
#: Counted in parts, not seconds: a loaded machine changes how long a
#: search takes, not which way it goes.
PARTS_ALONE = 4

#: A fact that says rules/search/canonical.lp is grounded (once per control).
CANONICAL_GROUNDED = "evlogic_canonical_grounded"


@dataclass(frozen=True)
class SearchOutcome:
    result: Answer
    found: Found | None  # shown atoms of the smallest counterexample found
    seconds: float
    smallest: bool  # every smaller position was ruled out (proved minimal)


def to_standard_error(line: str) -> None:
    """The default progress callback: the line on standard error."""
    sys.stderr.write(f"evlogic: {line}\n")
    sys.stderr.flush()


@dataclass
class Progress:
    """What a search has found so far, for an answer at the deadline, and a
    line to ``write`` now and then (none when ``write`` is None)."""

    started: float
    label: str
    write: Callable[[str], None] | None = None
    best: Found | None = None  # the smallest counterexample so far
    smallest: bool = False  # best is proved to have the fewest owned states
    phase: str = "grounding"
    shown: float = 0.0  # when the last line was shown

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def show(self) -> None:
        """At most one line a second, after the first second."""
        now = self.elapsed()
        if self.write is None or now < 1.0 or now - self.shown < 1.0:
            return
        self.shown = now
        best = "" if self.best is None else f" (best: {owned_count(self.best)} owned states)"
        self.write(f"{self.label}: {now:.0f} s: {self.phase}{best}")

    def done(self) -> None:
        self.write = None

    def so_far(self) -> SearchOutcome:
        """The answer now: the smallest counterexample so far (proved
        smallest or not, as ``smallest`` says), else unknown."""
        result = Answer.UNKNOWN if self.best is None else Answer.COUNTEREXAMPLE
        return SearchOutcome(result, self.best, self.elapsed(), self.smallest)


@dataclass
class Watch:
    """The searches of one command as they go, by label: each one's
    :class:`Progress` while it runs, its outcome once it has answered.  The
    command line reads it from another thread at its watchdog, for the
    command's answer so far (evlogic/commands/answer.py)."""

    progress: dict[str, Progress] = field(default_factory=dict)
    outcomes: dict[str, SearchOutcome] = field(default_factory=dict)

    def so_far(self, label: str, started: float) -> SearchOutcome:
        """The search ``label``'s answer, or its answer so far (unknown if it
        has not started; ``started``: when the command started)."""
        outcome = self.outcomes.get(label)
        if outcome is not None:
            return outcome
        progress = self.progress.get(label)
        if progress is None:
            return SearchOutcome(Answer.UNKNOWN, None, time.monotonic() - started, False)
        return progress.so_far()


@dataclass(frozen=True)
class TimeLimit:
    """How long a command's searches may take: ``timeout`` seconds, until
    ``deadline`` (time.monotonic()) when given, else from when they start;
    reading their programs and grounding included."""

    timeout: float = 60.0
    deadline: float | None = None

    def started(self) -> float:
        """When the time began (time.monotonic()): now, unless a deadline was given."""
        return time.monotonic() if self.deadline is None else self.deadline - self.timeout


def _terminal_or_none() -> Callable[[str], None] | None:
    return to_standard_error if sys.stderr.isatty() else None


@dataclass(frozen=True)
class SearchRequest:
    """One search, all it is asked: every position on ``board`` with
    ``players`` players and at most ``max_states`` owned states (None: any
    number), scored by ``rule_facts`` (a rule set's facts), searched for
    ``violation`` of ``program`` (read once, evlogic.asp.program: its trees
    go to the search's thread, and are no one else's while it runs), until
    ``timeout`` seconds after ``started`` (time.monotonic(); None: when the
    search starts), grounding included.

    ``reads``: the atoms a property reads, each of which must ground and
    hold in some position (evlogic/asp/search/reads.py).  ``label`` names
    the search in progress lines and in ``watch``, which is shown its
    progress as it goes, then its outcome.  ``publish`` is written what
    this search proves; ``within`` is what a search whose counterexamples
    include all of this one's proved (see :class:`Floor`).  ``progress`` is
    passed a progress line about once a second (default: standard error,
    when it is a terminal; None: no lines).  ``stop``: asked while the
    solver runs; once it says True, the search answers as at its deadline,
    with what it found so far."""

    board: Board
    rule_facts: str
    program: UserProgram
    players: int
    max_states: int | None = None
    timeout: float = 60.0
    started: float | None = None
    reads: AtomsRead | None = None
    label: str = "search"
    publish: Floor = field(default_factory=Floor)
    within: Floor = field(default_factory=Floor)
    watch: Watch | None = None
    progress: Callable[[str], None] | None = field(default_factory=_terminal_or_none)
    stop: Callable[[], bool] = never


@dataclass
class RunningSearch:
    """A :class:`SearchRequest` under way, its ``progress`` kept for an
    answer at the deadline.  :meth:`answer` grounds it and runs its steps;
    every solve goes through :meth:`each_model`."""

    request: SearchRequest
    progress: Progress
    #: the search's own deadline (time.monotonic()): it stops itself there
    deadline: float = field(init=False)
    # set by start(), on the search's thread
    control: clingo.Control = field(init=False)
    guide: Guide = field(init=False)
    grounding: Callable[[], clingo.Control] = field(init=False)  # control's, again
    #: a second control like ``control``, for the plain solve beside a guided
    #: one (:meth:`ask`), grounded when first needed
    beside: clingo.Control | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.deadline = self.progress.started + self.request.timeout

    @property
    def board(self) -> Board:
        return self.request.board

    @property
    def program(self) -> UserProgram:
        return self.request.program

    @property
    def players(self) -> int:
        return self.request.players

    @property
    def max_states(self) -> int | None:
        return self.request.max_states

    @property
    def reads(self) -> AtomsRead | None:
        return self.request.reads

    @property
    def publish(self) -> Floor:
        return self.request.publish

    @property
    def within(self) -> Floor:
        return self.request.within

    def over(self) -> bool:
        """The deadline has come, or the request's stop() says so."""
        return time.monotonic() >= self.deadline or self.request.stop()

    @property
    def top(self) -> int:
        """The most owned states a position searched has."""
        states = len(self.board.states)
        return states if self.max_states is None else min(self.max_states, states)

    @property
    def everything(self) -> int | None:
        """The bound of a solve over every position searched (None: any number)."""
        return None if self.max_states is None else self.top

    def outcome(
        self, result: Answer, found: Found | None = None, smallest: bool = False
    ) -> SearchOutcome:
        return SearchOutcome(result, found, self.progress.elapsed(), smallest)

    # --- grounding -------------------------------------------------------------------

    def start(self) -> None:
        """Ground the search (what the programs read decides which rule
        files, evlogic/asp/search/encoding.py), refusing first what it could
        prove nothing of."""
        facts = (
            self.request.rule_facts
            + board_program(self.board)
            + f"evlogic_players({self.players}).\n"
            + "".join(f"#external evlogic_limit({k}).\n" for k in range(self.players, self.top + 1))
            # the homes of seats 1.. in increasing order only (rules/search/generate.lp)
            + ("evlogic_interchangeable.\n" if treats_other_seats_alike(self.program) else "")
        )
        rules = search_rules(self.program)
        self.publish.rules = [*rules, *self.program.paths]
        refuse_unsound(rules, self.program)
        self.grounding = functools.partial(
            ground,
            facts,
            rules,
            control_options("--opt-mode=ignore"),
            statements=self.reads.rules if self.reads is not None else (),
            program=self.program,
        )
        self.control = self.grounding()
        self._refuse_homes_past_game_end()
        if self.reads is not None:
            grounded = self.reads.grounded(self.control)
            for index in range(len(self.reads.atoms)):
                if index not in grounded:
                    raise self.reads.refused(index, self.board, self.players, "never occurs")
        self.control.load(str(rules_dir() / "search" / "smallest.lp"))
        self.control.ground([("smallest", [])])
        checkpoint()
        self.guide = Guide(self.within, facts)

    def _refuse_homes_past_game_end(self) -> None:
        """More players than a game end the rules give (game_end/2 of
        rules/scoring/position.lp, a fact of the grounding): the homes alone are more
        states won than that, so no position could happen."""
        ends = [
            atom.symbol.arguments[1]
            for atom in self.control.symbolic_atoms.by_signature("game_end", 2)
        ]
        numbers = [value.number for value in ends if value.type == clingo.SymbolType.Number]
        end = min(numbers, default=None)
        if end is not None and self.players > end:
            raise InputError(
                "--players",
                f"must be at most {end} on {self.board.name}: the game ends when state {end} "
                "is won, and each player's home is a state won",
            )

    def no_position(self) -> InputError:
        """The error for a search over no positions: it would prove nothing."""
        program = self.program
        names = ", ".join(display_path(path) for path in program.users or program.paths)
        bounded = "" if self.max_states is None else f" and at most {self.max_states} owned states"
        return InputError(
            names,
            f"no position on {self.board.name} with {self.players} player(s){bounded} satisfies "
            "these programs (a constraint that rules out every position, a board too small, or "
            "a position they build past the game end?): "
            "a search over no positions proves nothing",
        )

    # --- the steps -------------------------------------------------------------------

    def answer(self) -> SearchOutcome:
        """The search itself (see evlogic/asp/search/__init__.py); records
        each better counterexample in ``progress``."""
        self.start()
        within, progress = self.within, self.progress
        guide = self.guide
        guessed: dict[int, Found] = {}  # the fixed-order one of a guessed size

        def speculate(size: int) -> None:
            """The first counterexample of ``size`` owned states, while the
            including search still proves whether ``size`` is the smallest."""
            first = self.canonical(size, functools.partial(overtaken, within, size))
            if first is not None:
                guessed[size] = first

        def ripe() -> bool:
            """The including search's best so far has stood a while: asking for
            that size through it (Guide.guided) beats looking on alone."""
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
        found = self.solve(self.everything, within=True, stop=ripe)
        floor = self.players  # proved: none with fewer owned states
        asked: set[int] = set()
        while found is Ended.STOPPED:
            bound = within.size if within.size is not None else within.best
            assert bound is not None
            asked.add(bound)
            progress.phase = f"asking for {bound} owned states, the including search's best so far"
            asking = time.monotonic()

            def given_up(bound: int = bound, asking: float = asking) -> bool:
                """The guess overtaken, or, not yet proved the including
                search's smallest size, taking so long that looking on alone
                (for any counterexample to answer with) must go on."""
                return overtaken(within, bound) or (
                    within.size != bound
                    and time.monotonic() - asking > self.request.timeout * GUESS_SHARE
                )

            found = self.ask(bound, stop=given_up)
            if found is Ended.NONE:
                floor = bound + 1
            if not isinstance(found, list) and found is not Ended.UNKNOWN:
                # none within the guess, or the guess overtaken: look on
                # alone, until the including search proves a smallest size
                # not asked for yet (then ask for that one)
                progress.phase = "looking for any counterexample"
                found = self.solve(
                    self.everything,
                    within=True,
                    stop=lambda: within.size is not None and within.size not in asked,
                )
        if found is Ended.UNKNOWN:
            return self.outcome(Answer.UNKNOWN)
        if found is Ended.WITHIN:  # the including search has none, so this one has none
            return self.outcome(Answer.HOLDS)
        if found is Ended.NONE:
            outcome = self.proved_holds()
            if outcome is None:
                return self.outcome(Answer.UNKNOWN)
            self.publish.none = True
            return outcome
        assert isinstance(found, list)
        progress.best = found
        self.publish.found(owned_count(found))

        # 2. As few owned states as there can be (unclaimed tried first from now on).
        self.control.assign_external(clingo.Function("evlogic_few"), SMALL_FIRST)
        if asked and owned_count(found) in asked and within.size in (None, *asked):
            speculate(owned_count(found))

        if not self.smallest(floor, speculate, asked):
            return self.outcome(Answer.COUNTEREXAMPLE, progress.best)
        size = owned_count(progress.best)
        progress.smallest = True
        self.publish.size = size
        canonical = guessed.get(size) or self.canonical(size)
        return self.outcome(Answer.COUNTEREXAMPLE, canonical or progress.best, smallest=True)

    def proved_holds(self) -> SearchOutcome | None:
        """ "holds", once the solver refuted every position: only when some
        position exists at all (no position is an InputError) and each atom
        the property reads holds in some position (:class:`AtomsRead`);
        None when the time runs out first."""
        bound = None if self.max_states is None else self.top
        exists = self.any_position(bound)
        if exists is None:
            return None  # time ran out: unknown
        if not exists:
            raise self.no_position()
        reads = self.reads
        for index in range(len(reads.atoms) if reads is not None else 0):
            # Each atom a property reads, on its own: some position has it.
            assert reads is not None
            live = self.any_position(bound, [reads.marker(index)])
            if live is None:
                return None
            if not live:
                raise reads.refused(index, self.board, self.players, "holds in no position")
        return self.outcome(Answer.HOLDS)

    def smallest(
        self,
        floor: int,
        speculate: Callable[[int], None] = lambda _size: None,
        guessed: set[int] | None = None,
    ) -> bool:
        """Make ``progress.best`` a counterexample with the fewest owned states;
        True once that is proved (False: the deadline came first).

        One optimising solve over every home (rules/search/smallest.lp) below the
        best so far, each better one recorded, until none is smaller.  Once a
        floor is proved beside (``within.size``: none with fewer owned states),
        bound by bound from that floor up instead, each bound guided by the
        including search's counterexamples (Guide.guided): the first bound
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
        within, progress, guide = self.within, self.progress, self.guide

        def record(model: clingo.Model) -> None:
            progress.best = position(model)
            size = owned_count(progress.best)
            self.publish.found(size)
            progress.phase = f"looking for one with at most {size - 1} owned states"

        def guess() -> int | None:
            """The including search's best so far, once it has stood a while."""
            if within.size is not None or not guide.possible():
                return None
            best, since = within.best, within.best_since
            if best is None or best in guessed or time.monotonic() - since < SETTLED:
                return None
            assert progress.best is not None
            return best if floor <= best < owned_count(progress.best) else None

        while True:
            assert progress.best is not None
            best = owned_count(progress.best)
            if within.size is not None:
                floor = max(floor, within.size)
            if floor >= best:
                return True
            if self.over():
                return False
            if within.size is not None:
                asked = self.ask_at_floor(floor)
            elif (bound := guess()) is not None:
                guessed.add(bound)
                asked = self.ask_guess(bound, floor, speculate)
            elif self.waiting_pays(best):
                asked = floor if self.wait_for_floor(best, guess) else None
            else:
                status = self.optimise_below(best, floor, record, guess)
                if status is not Ended.STOPPED:  # NONE: none smaller, proved
                    return status is Ended.NONE
                continue
            if asked is None:
                return False
            floor = asked

    def ask_at_floor(self, floor: int) -> int | None:
        """Once the including search proved its floor: a counterexample of
        ``floor`` owned states; the floor proved now (one more, when there is
        none of that size), None at the deadline."""
        self.progress.phase = f"none below {floor} owned states: asking for {floor}"
        found = self.ask(floor)
        if found is Ended.NONE:
            return floor + 1
        if isinstance(found, list):
            self.progress.best = found
            return floor
        return None

    def ask_guess(self, bound: int, floor: int, speculate: Callable[[int], None]) -> int | None:
        """A counterexample of ``bound`` owned states, the including
        search's best so far (a guess at its floor), through it; one of
        that size is passed to ``speculate``.  The floor proved now, None at
        the deadline."""
        within = self.within
        self.progress.phase = f"asking for {bound} owned states, the including search's best so far"
        found = self.ask(bound, stop=functools.partial(overtaken, within, bound))
        if found is Ended.NONE:  # proved: none with at most `bound` owned states
            return max(floor, bound + 1)
        if isinstance(found, list):
            self.progress.best = found
            if owned_count(found) == bound and within.size in (None, bound):
                speculate(bound)
        return None if found is Ended.UNKNOWN else floor

    def waiting_pays(self, best: int) -> bool:
        """A best so far as small as the including search's: whether it is
        the smallest is what that search is proving."""
        within = self.within
        return (
            self.guide.possible()
            and not within.done
            and within.best is not None
            and best <= within.best
        )

    def wait_for_floor(self, best: int, guess: Callable[[], int | None]) -> bool:
        """Wait for the including search's answer (a floor, its end, a
        smaller best, or a best to ``guess`` at); False at the deadline."""
        within, progress = self.within, self.progress
        progress.phase = f"{best} owned states: waiting for the including search's floor"
        while (
            within.size is None
            and not within.done
            and within.best is not None
            and within.best >= best
            and guess() is None
        ):
            if self.over():
                return False
            time.sleep(POLL)
            progress.show()
        return True

    def optimise_below(
        self,
        best: int,
        floor: int,
        record: Callable[[clingo.Model], None],
        guess: Callable[[], int | None],
    ) -> Ended:
        """One optimising solve below ``best`` owned states, each better one
        passed to ``record``, until none is smaller (NONE), a floor or a
        guess comes from the including search or the best found is as small
        as ``floor`` (STOPPED), or the deadline (UNKNOWN)."""
        within, progress = self.within, self.progress
        progress.phase = f"looking for one with at most {best - 1} owned states"

        def settled() -> bool:
            # a counterexample as small as the floor is the smallest: no
            # need to wait for the solver to prove it
            assert progress.best is not None
            return (
                within.size is not None
                or guess() is not None
                or owned_count(progress.best) <= floor
            )

        return self.optimise(best - 1, record, settled)

    def canonical(self, size: int, stop: Callable[[], bool] = never) -> Found | None:
        """The first counterexample of ``size`` owned states (the smallest size)
        in the order of rules/search/canonical.lp: the same one every run, whatever the
        solver met first (None if the time runs out first).  Homes are tried in
        order, a solve each under an assumption, so only the first home with such
        a counterexample is optimised (one optimising solve over every home took
        a hundred times longer: it kept proving homes after the first worse)."""
        control = self.control
        if not any(control.symbolic_atoms.by_signature(CANONICAL_GROUNDED, 0)):
            control.load(str(rules_dir() / "search" / "canonical.lp"))
            control.ground([("canonical", [])])
            control.add("evlogic_canonical_grounded", [], f"{CANONICAL_GROUNDED}.")
            control.ground([("evlogic_canonical_grounded", [])])
            checkpoint()
        best: Found | None = None

        def record(model: clingo.Model) -> None:
            nonlocal best
            best = position(model)

        for home in range(len(self.board.states)):  # the lowest home first
            self.progress.phase = (
                f"the first counterexample of {size} owned states, in a fixed order"
            )
            if self.guide.possible():
                status, first = self.guide.first_by_parts(self, size, home, stop)
                if status is not Ended.NONE:
                    return None
                if first is not None:
                    return first
                continue
            ended = self.optimise(size, record, stop, assumptions=[at_home(home)])
            if ended is not Ended.NONE:
                return None
            if best is not None:
                return best
        return None

    # --- solving ---------------------------------------------------------------------

    def ask(self, bound: int, stop: Callable[[], bool] = never) -> Found | Ended:
        """A counterexample with at most ``bound`` owned states, or how it ended
        without one (NONE, STOPPED, UNKNOWN), as :meth:`solve` says.  Once the including
        search is known, through it (Guide.guided, on this control); and
        once that walk has visited PARTS_ALONE parts without an answer, a
        plain solve within the bound beside it, on a second control
        (:attr:`beside`), the first answer taken."""
        if not self.guide.possible():
            return self.solve(bound, stop=stop)
        with contextlib.ExitStack() as stack:
            plain: list[clingo.SolveHandle] = []
            parts = self.guide.parts

            def halt() -> bool:
                if stop():
                    return True
                if plain:
                    return plain[0].wait(0)
                if self.guide.parts - parts >= PARTS_ALONE:
                    if self.beside is None:
                        self.beside = self.grounding()
                        checkpoint()
                    set_bound(self.beside, bound)
                    plain.append(stack.enter_context(self.beside.solve(yield_=True, async_=True)))
                return False

            answer = self.guide.guided(self, bound, stop=halt)
            if answer is not Ended.STOPPED or stop() or not plain:
                return answer
            handle = plain[0]  # the plain solve answered first
            model = handle.model()
            if model is not None:
                return position(model)
            return Ended.NONE if handle.get().exhausted else Ended.UNKNOWN

    def solve(
        self,
        bound: int | None,
        within: bool = False,
        assumptions: Assumptions | None = None,
        stop: Callable[[], bool] = never,
    ) -> Found | Ended:
        """The shown atoms of a counterexample with at most ``bound`` owned
        states (None: any number) and the ``assumptions``, in one solve over
        every home; or how the solve ended without one (:class:`Ended`:
        NONE, WITHIN when ``within`` and the including search proved there
        is none first, STOPPED or UNKNOWN)."""
        floor = self.within
        found: list[Found] = []

        def halt() -> Ended | None:
            if within and floor.none:
                return Ended.WITHIN
            return Ended.STOPPED if stop() else None

        def take(model: clingo.Model) -> bool:
            found.append(position(model))
            return True

        ended = self.each_model(take, bound, assumptions=assumptions, halt=halt)
        return found[0] if ended is Ended.FOUND else ended

    def optimise(
        self,
        bound: int,
        record: Callable[[clingo.Model], None],
        stop: Callable[[], bool] = never,
        assumptions: Assumptions | None = None,
    ) -> Ended:
        """Optimise over every home: counterexamples with at most ``bound`` owned
        states, each better one passed to ``record``.  NONE: the last one
        recorded is optimal, or there is none within the bound; else
        STOPPED or UNKNOWN."""
        solving = self.control.configuration.solve
        assert isinstance(solving, clingo.Configuration)  # clingo types every option as a union
        solving.opt_mode = "opt"

        def keep(model: clingo.Model) -> bool:
            record(model)
            return False

        try:
            return self.each_model(keep, bound, assumptions=assumptions, halt=halting(stop))
        finally:
            solving.opt_mode = "ignore"

    def any_position(
        self, bound: int | None, one_of: list[clingo.Symbol] | None = None
    ) -> bool | None:
        """Whether any position exists at all, or (``one_of``) any position where
        one of these atoms holds (None: no answer by the deadline)."""
        control = self.control
        probe = clingo.Function("evlogic_probe")
        control.assign_external(probe, True)
        try:
            for atom in [None] if one_of is None else one_of:
                assumptions = [] if atom is None else [(atom, True)]
                ended = self.each_model(lambda _model: True, bound, assumptions=assumptions)
                if ended is Ended.FOUND:
                    return True
                if ended is not Ended.NONE:
                    return None
            return False
        finally:
            control.assign_external(probe, False)

    def each_model(
        self,
        visit: Callable[[clingo.Model], bool],
        bound: int | None,
        *,
        control: clingo.Control | None = None,
        assumptions: Assumptions | None = None,
        halt: Callable[[], Ended | None] = lambda: None,
    ) -> Ended:
        """The one solve loop of a search: one solve on ``control`` (default:
        the search's own) within ``bound`` owned states and under
        ``assumptions``, each model passed to ``visit`` until it says True
        (FOUND).  NONE: every model visited (the solver proved there is no
        other); else the solve is cancelled and the reason returned:
        ``halt()``'s, or UNKNOWN at the deadline or the request's stop.  A
        progress line now and then while it waits."""
        if self.request.stop():
            return Ended.UNKNOWN  # (no solve starts once the request's stop says so)
        control = self.control if control is None else control
        set_bound(control, bound)
        handle: clingo.SolveHandle  # (clingo leaves __enter__ unannotated)
        with control.solve(assumptions=assumptions or [], yield_=True, async_=True) as handle:
            while True:
                reason = self.wait(handle, halt)
                if reason is not None:
                    return reason
                model = handle.model()
                if model is None:
                    return Ended.NONE if handle.get().exhausted else Ended.UNKNOWN
                if visit(model):
                    return Ended.FOUND
                handle.resume()

    def wait(self, handle: clingo.SolveHandle, halt: Callable[[], Ended | None]) -> Ended | None:
        """Wait for a running solve's next answer (a model, or the end), a
        progress line now and then: None once it is there; else the solve is
        cancelled, and the reason returned: ``halt()``'s, or UNKNOWN at the
        deadline or the request's stop."""
        while not handle.wait(POLL):
            self.progress.show()
            reason = halt()
            if reason is None and self.over():
                reason = Ended.UNKNOWN
            if reason is not None:
                handle.cancel()
                return reason
        return None
