"""What a search grounds for its programs, and how clasp is set to solve it.

The lean scoring (no number materialised: properties compare points,
rules/search/compare.lp; winners come from rules/search/winners_by_points.lp and the
bonus from tier thresholds, rules/scoring/cores.lp), plus what the programs read:
a cone of influence, decided from evlogic's table of predicates
(evlogic/asp/predicates.py) and the programs' text (evlogic/asp/cone.py).
"""

from __future__ import annotations

from pathlib import Path

from evlogic.asp.cone import reads_player0_only, sees_near_states_only
from evlogic.asp.predicates import BETWEEN, having, loaded_by
from evlogic.asp.program import UserProgram
from evlogic.asp.solver import rule_paths

#: Scoring without materialised numbers: no totals, no region sizes, no
#: chosen core (the bonus reads tier thresholds, rules/scoring/cores.lp).
SEARCH_RULES = (
    "scoring/position.lp",
    "scoring/face.lp",
    "scoring/cores.lp",
    "scoring/siege.lp",
    "scoring/bonus.lp",
    "search/points.lp",
    "search/winners_by_points.lp",
    "search/compare.lp",
    "search/generate.lp",
)

#: clasp's "frumpy" configuration (conservative) proved the bounded per-home
#: questions of a diff (no smaller witness) in half the time of "jumpy" and
#: "tweety", and the unbounded ones of own-monotone as fast (bench/bench_search.py);
#: the domain heuristic reads rules/search/home_first.lp.
SOLVER_OPTIONS = ("--configuration=frumpy", "--heuristic=Domain")

#: Predicates between players: a program that reads them gets the winners.
BETWEEN_PLAYERS = having(BETWEEN)

#: Predicates only rules/scoring/totals.lp defines.  A program that reads them gets
#: the scoring's materialised totals: correct, but a much larger grounding.
TOTALS_ONLY = loaded_by("scoring/totals.lp")

#: Predicates only rules/scoring/region.lp defines (the region that counts), loaded
#: for the programs that read them.
REGION_ONLY = loaded_by("scoring/region.lp")

#: Predicates whose atoms rules/search/cores.lp (every core grows its own
#: closure, no lookup atoms) gives differently from rules/scoring/cores.lp.  A
#: program that reads them gets rules/scoring/cores.lp; every other one the search
#: encoding, whose regions are the same and which solves faster.
COVERING_ONLY = loaded_by("scoring/cores.lp")


def control_options(*more: str) -> tuple[str, ...]:
    """A search control's options: SOLVER_OPTIONS, then ``more``."""
    return (*SOLVER_OPTIONS, *more)


def search_rules(program: UserProgram) -> list[Path]:
    """evlogic's rule files a search loads for these property or diff
    programs (grounded after them): the lean scoring, plus what the
    programs read (a cone of influence: winners only for programs that
    read them; only player 0 scored in full when the programs read nothing
    else, evlogic/asp/cone.py; the search's own cores encoding unless they
    read what only rules/scoring/cores.lp gives)."""
    names = list(SEARCH_RULES)
    reads = program.mentions
    if TOTALS_ONLY & reads:
        names[names.index("search/winners_by_points.lp")] = "scoring/totals.lp"
    elif not BETWEEN_PLAYERS & reads:
        names.remove("search/winners_by_points.lp")
    if REGION_ONLY & reads:
        names.insert(names.index("scoring/cores.lp") + 1, "scoring/region.lp")
    if not COVERING_ONLY & reads:
        names[names.index("scoring/cores.lp")] = "search/cores.lp"
    if reads_player0_only(program):
        names[names.index("search/generate.lp")] = "search/generate_player0.lp"
        if sees_near_states_only(program):
            names.append("search/near_only.lp")
    names.append("search/home_first.lp")  # the order of decisions (SOLVER_OPTIONS)
    return rule_paths(names)
