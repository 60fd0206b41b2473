"""A search guided by another: diff's winner search, through its total search.

Every counterexample of diff's winner search is one of its total search
(rules/diff/winner.lp asks for a different winner only where player 0's
total differs).  So what the total search proves holds for the winner
search too (a :class:`Floor`: none at all, or none below a size), and the
winner search may ask a bound through the total search's counterexamples
(:class:`Guide`): each player 0 part of them, tried as assumptions, only
the other players chosen.  Nothing here is used by a search that runs alone
(``evlogic check``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

from evlogic.asp.search.answers import Ended, halting
from evlogic.asp.search.encoding import control_options
from evlogic.asp.search.positions import Assumptions, Found, at_home, position
from evlogic.asp.solver import ground
from evlogic.resources import rules_dir

if TYPE_CHECKING:
    from evlogic.asp.search.running import RunningSearch

#: The share of the timeout a guess may take before a search that has no
#: counterexample yet goes back to looking for any (without one, the answer
#: at the deadline would be "unknown").  A third: with 4 players a guided
#: bound takes 9 s of CPU to its first counterexample on the 51-state board,
#: and twice that when the two searches share one core; looking for any
#: counterexample instead took 14 to 23 s to a first one of 50 owned states.
GUESS_SHARE = 1 / 3

#: Seconds a best-so-far of the including search stands before the other
#: search guesses it is the smallest (RunningSearch.smallest).
SETTLED = 1.0


def never() -> bool:
    """A stop() that never says stop."""
    return False


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
    #: :meth:`Guide.guided`).  Paths, not the syntax trees the first search
    #: read: those are its thread's alone (evlogic/asp/program.py).
    rules: list[Path] | None = None

    def found(self, size: int) -> None:
        """A counterexample of ``size`` owned states, the smallest so far."""
        if self.best is None or size < self.best:
            self.best_since = time.monotonic()
            self.best = size


def overtaken(within: Floor, bound: int) -> bool:
    """The including search has proved a floor other than ``bound``, or met
    a smaller counterexample: a guess at ``bound`` no longer pays."""
    if within.size is not None:
        return within.size != bound
    return within.best is not None and within.best < bound


@dataclass
class Guide:
    """The search whose counterexamples include this one's (``within``, its
    files written there), grounded with rules/search/player0_part.lp once
    this search first needs it, with this search's facts."""

    within: Floor
    facts: str
    grounded: clingo.Control | None = None
    parts: int = 0  # the parts visited so far, in every walk

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
                control_options("--opt-mode=ignore", "--project=project", "--models=0"),
            )
        return self.grounded

    def guided(
        self,
        run: RunningSearch,
        bound: int,
        home: int | None = None,
        stop: Callable[[], bool] = never,
    ) -> Found | Ended:
        """A counterexample with at most ``bound`` owned states, or how the
        walk ended without one (NONE, STOPPED, UNKNOWN), as
        RunningSearch.solve, found through the search whose
        counterexamples include this one's: each player 0 part (home and
        owned states) of its counterexamples within the bound, enumerated
        once each, is asked of this search as assumptions, only the other
        players chosen.

        Complete: a counterexample here is one of the guide's, the same
        position within the same bound, so its player 0 part is among those
        enumerated (the guide may be reduced to player 0's view,
        rules/search/generate_player0.lp: that keeps player 0's part and the
        number of owned states).  So when every part is refuted, there is none.
        On diff's winner search this meets a 6-state witness in about a second
        where the search over every position took 14 to 50 s (2 players).
        ``home``: player 0's home is that state; STOPPED when ``stop()`` says so."""
        found: list[Found | Ended] = []
        progress = run.progress

        def ask(part: Assumptions, tried: int) -> bool:
            if home is None:
                phase = progress.phase.split(": player 0's part")[0]
                progress.phase = f"{phase}: player 0's part {tried} of the including search's"
            answer = run.solve(bound, assumptions=part, stop=stop)
            if answer is Ended.NONE:
                return False
            found.append(answer)
            return True

        status = self.each_part(run, bound, home, stop, ask)
        return found[0] if status is Ended.FOUND else status

    def each_part(
        self,
        run: RunningSearch,
        bound: int,
        home: int | None,
        stop: Callable[[], bool],
        visit: Callable[[Assumptions, int], bool],
    ) -> Ended:
        """Pass each player 0 part of the guide's counterexamples within
        ``bound`` (with player 0's ``home``, if given) to ``visit``, as
        assumptions for the running search's control (the part, and nothing
        else of player 0's), with how many so far, until ``visit`` says True
        (FOUND).  Else NONE (every part visited), STOPPED (``stop()``) or
        UNKNOWN (the deadline): the guide's solve is one of the running
        search's (RunningSearch.each_model)."""
        guide = self.control()
        owned = [
            atom.symbol
            for atom in run.control.symbolic_atoms.by_signature("owned", 3)
            if atom.symbol.arguments[0].number == 0 and atom.symbol.arguments[1].number == 0
        ]
        tried = 0

        def part_of(model: clingo.Model) -> bool:
            nonlocal tried
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
            self.parts += 1
            return visit(assumptions, tried)

        homes = [] if home is None else [at_home(home)]
        return run.each_model(part_of, bound, control=guide, assumptions=homes, halt=halting(stop))

    def first_by_parts(
        self, run: RunningSearch, size: int, home: int, stop: Callable[[], bool]
    ) -> tuple[Ended, Found | None]:
        """The first counterexample of ``size`` owned states with player 0 at
        ``home``, in the order of rules/search/canonical.lp, part by part of the guide
        (:meth:`each_part`): each player 0 part with a counterexample is
        optimised under its assumptions (only the other players chosen, fast),
        and the first of them is the one whose cost is least: rules/search/canonical.lp
        is one set of #minimize statements, so costs compare across solves as
        within one.  (NONE, None): no counterexample at that home; UNKNOWN
        or STOPPED as the deadline or ``stop`` said."""
        best: tuple[list[int], Found] | None = None
        status: list[Ended] = []  # how an optimisation that ended the walk ended

        def first(part: Assumptions, _tried: int) -> bool:
            nonlocal best
            found: list[tuple[list[int], Found]] = []

            def record(model: clingo.Model) -> None:
                found[:] = [(list(model.cost), position(model))]

            ended = run.optimise(size, record, stop, [at_home(home), *part])
            if ended is not Ended.NONE:  # optimal, or none: go on
                status.append(ended)
                return True  # time ran out, or stopped
            if found and (best is None or found[0][0] < best[0]):
                best = found[0]
            return False

        answer = self.each_part(run, size, home, stop, first)
        if answer is Ended.FOUND:  # an optimisation ended the walk
            return status[0], None
        return answer, None if best is None else best[1]
