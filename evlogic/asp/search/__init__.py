"""Searching every position for one that breaks something.

``rules/search/generate.lp`` lets the solver choose a position (homes and owned
states, unclaimed allowed), the scoring rules score it, and a program
(a property of ``evlogic check``, or a diff of ``evlogic diff``) derives
``violation`` when the position is a counterexample.  :func:`search` finds a
smallest one or proves there is none; ``evlogic/reports/check.py`` and
``evlogic/reports/diff.py`` turn the answer into reports.

The package: :func:`search` takes one :class:`SearchRequest` (board,
rule facts, program, players, bounds, time, progress callback, stop),
checks its limits and runs one
:class:`~evlogic.asp.search.running.RunningSearch` (its control, deadline
and progress, and its steps) on a thread of its own; every solve of a
search, guided or not, goes through one loop
(``RunningSearch.each_model``: progress, deadline and stop heeded
everywhere), its ends and the search's answers words of ``answers``
(StrEnums); ``encoding`` says which rule files it grounds, ``reads``
builds the per-atom check of what a property reads, ``guide`` is diff's
winner search guided by its total search, and ``positions`` reads
positions off models.

How the search is engineered (see bench/bench_search.py):

* No number is materialised: properties compare points (rules/search/compare.lp),
  winners come from rules/search/winners_by_points.lp and the bonus from tier
  thresholds (rules/scoring/cores.lp), so the grounding stays small.
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
  parts (evlogic/asp/search/guide.py), once that search has proved its
  floor, or as a guess, once its best size so far has stood a while; when
  those parts come slowly, a plain solve within the bound runs beside it on
  a second control, the first answer taken (RunningSearch.ask: neither is
  the faster on every rule set).
* The counterexample reported is the first of that size in the order of
  rules/search/canonical.lp, the same every run: homes in order, a solve each under
  an assumption (one optimising solve over every home took 80 s against
  0.9 s on diff's total search).
"""

from __future__ import annotations

import math
import time

from evlogic.asp.search.answers import Answer, Ended
from evlogic.asp.search.encoding import SEARCH_RULES, SOLVER_OPTIONS, search_rules
from evlogic.asp.search.guide import Floor
from evlogic.asp.search.positions import position_game
from evlogic.asp.search.reads import AtomsRead, atoms_read
from evlogic.asp.search.running import (
    Progress,
    RunningSearch,
    SearchOutcome,
    SearchRequest,
    TimeLimit,
    Watch,
    to_standard_error,
)
from evlogic.errors import InputError
from evlogic.limits import OutOfTime, call_before
from evlogic.resources import display_path

__all__ = [
    "SEARCH_RULES",
    "SOLVER_OPTIONS",
    "Answer",
    "AtomsRead",
    "Ended",
    "Floor",
    "SearchOutcome",
    "SearchRequest",
    "TimeLimit",
    "Watch",
    "atoms_read",
    "position_game",
    "search",
    "search_rules",
    "to_standard_error",
]


def search(request: SearchRequest) -> SearchOutcome:
    """Search every position the ``request`` covers (see
    :class:`SearchRequest`) for ``violation`` of its program.

    HOLDS is said only when the solver refuted every position and some
    position exists at all; no position is an InputError naming the
    programs, and so is a property one of whose ``reads`` never grounds or
    holds in no position (see evlogic/asp/search/reads.py).  What this
    search proves is written to ``request.publish``; ``request.within`` is
    what a search whose counterexamples include all of this one's proved
    (see :class:`Floor`): its ``none`` is this search's HOLDS, its smallest
    size a size below which this search has none either.

    The deadline is the search's own: it stops itself there (a solve under
    way interrupted) and answers with what it found so far, as it does
    once ``request.stop()`` says so; a grounding under way (clingo cannot
    interrupt one) runs on, on a thread no one waits for."""
    board, players, max_states = request.board, request.players, request.max_states
    if not 1 <= players <= len(board.states):
        count = len(board.states)
        raise InputError(
            "--players",
            f"must be between 1 and {count}: {board.name} has {count} "
            f"state{'s' if count != 1 else ''}, one home a player",
        )
    if not 0 < request.timeout < math.inf:
        raise InputError(
            "--timeout", f"must be a positive number of seconds, not {request.timeout:g}"
        )
    if max_states is not None and max_states < players:
        raise InputError(
            "--max-states", f"must be at least {players}: each of the {players} players owns a home"
        )
    started = time.monotonic() if request.started is None else request.started
    progress = Progress(started, request.label, request.progress)
    watch = request.watch
    if watch is not None:
        watch.progress[request.label] = progress
    run = RunningSearch(request, progress)
    try:
        try:
            outcome = call_before(run.deadline, run.answer)
        except OutOfTime:  # clingo was busy past the deadline (grounding, preparing a solve)
            outcome = progress.so_far()
        if watch is not None:
            watch.outcomes[request.label] = outcome
        return outcome
    except RuntimeError as error:
        if "Integer overflow" not in str(error):
            raise
        # clasp adds a sum's weights in 32 bits: a rule set's program may give
        # figures near 2^31, which score refuses too (rules/scoring/overflow.lp)
        program = request.program
        names = ", ".join(display_path(path) for path in program.users or program.paths)
        raise InputError(
            names,
            "a sum of figures passes 2^31, the largest number clingo adds exactly (are "
            "face values or penalties too large?): the search cannot weigh these positions",
        ) from None
    finally:
        progress.done()
        run.publish.done = True
