"""Agents that plan: their choice at a decision, from a search of their own.

A planning agent (``lookahead[:K]``) chooses as the other agents do, among
the moves the move model makes legal, but by solving a program of its own
once a decision: rules/planning/lookahead.lp, an optimisation program over
the mover's next K states, beside the scoring rules on the position with
the plan won (rivals held fixed).  The engine (evlogic.simulation.engine)
grounds the decision without the agent, hands this module what the
decision shows (the legal moves, the states nobody holds, the turn's
random order) and makes the move it returns, as the game-state API makes
a move (evlogic.simulation.state).

What Python does here is bookkeeping: the position as facts, how many
moves the mover has left before the game ends (the turn order), and
reading the optimum's ``choose/1``.  Every total is the scoring rules'.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import clingo

from evlogic.asp.facts import board_program, state_numbers
from evlogic.asp.solver import SolverError, ground, rule_paths
from evlogic.limits import checkpoint
from evlogic.resources import rules_dir
from evlogic.simulation.agents import Planner
from evlogic.simulation.table import Table, turn_order

#: clasp's "trendy" configuration proved a usa plan of three (the default)
#: in 0.13 s against 0.22 s by default; "usc" optimisation took minutes.
SOLVER_OPTIONS = ("--opt-mode=opt", "--warn=none")
CONFIGURATION = "--configuration=trendy"

#: The scoring files a plan is scored by: the mover's total, no more.
PLAN_SCORING = (
    "scoring/position.lp",
    "scoring/face.lp",
    "scoring/cores.lp",
    "scoring/region.lp",
    "scoring/siege.lp",
    "scoring/bonus.lp",
)


@dataclass(frozen=True)
class PlanDecision:
    """What a planning agent reads at a decision: the table, the states
    each seat holds now (homes included, by number), the mover's seat,
    the turn (from 1, passes counted), the legal states and the states
    nobody holds (numbers), and each state's rank in the turn's random
    order (``ranks[x]``: the rank of state number x)."""

    table: Table
    held: tuple[tuple[int, ...], ...]
    mover: int
    turn: int
    legal: frozenset[int]
    unclaimed: frozenset[int]
    ranks: tuple[int, ...]


def plan_decision(
    table: Table,
    won: dict[str, list[str]],
    mover: int,
    turn: int,
    legal: frozenset[int],
    free: frozenset[int],
    ranks: Sequence[int],
) -> PlanDecision:
    """A played game's decision as a planning agent reads it: ``won``,
    each seat's states won in play (by name), beside those it sat down
    with."""
    number = state_numbers(table.board)
    held = tuple(
        tuple(
            sorted(
                {number[seat.home], *(number[s] for s in seat.states)}
                | {number[s] for s in won[seat.name]}
            )
        )
        for seat in table.seats
    )
    return PlanDecision(table, held, mover, turn, legal, free, tuple(ranks))


def moves_left(table: Table, turn: int, mover: int, won: int) -> int:
    """The mover's turns among the next ones until the game ends, were
    every move to win a state (``won``: the states won now, homes
    included): the turn order's bookkeeping."""
    end = table.board.game_end if table.rules.game_end is None else table.rules.game_end
    order = turn_order(len(table.seats), table.order)
    movers = list(itertools.islice(order, turn - 1, turn - 1 + max(0, end - won)))
    return movers.count(mover)


def plan_choice(
    planner: Planner, decision: PlanDecision, options: Sequence[str] = ()
) -> int | None:
    """The planning agent's move: a legal state's number, or None (no
    legal state: a pass, where the model allows one).  ``options``: clingo's
    (a test's: the choice is the same whatever path the solver takes)."""
    if not decision.legal:
        return None
    won = sum(len(states) for states in decision.held)
    size = min(
        planner.depth,
        len(decision.unclaimed),
        max(1, moves_left(decision.table, decision.turn, decision.mover, won)),
    )
    table = decision.table
    lines = [
        board_program(table.board),
        table.rules.program(),
        f"mover({decision.mover}).",
        f"plan_size({size}).",
    ]
    number = state_numbers(table.board)
    for seat, sitting in enumerate(table.seats):
        lines.append(f"home(0,{seat},{number[sitting.home]}).")
        lines.extend(f"held({seat},{x})." for x in decision.held[seat])
    lines.extend(f"legal({x})." for x in sorted(decision.legal))
    lines.extend(f"unclaimed({x})." for x in sorted(decision.unclaimed))
    lines.extend(f"tie_break({x},{decision.ranks[x]})." for x in sorted(decision.unclaimed))
    paths = [
        *rule_paths(PLAN_SCORING),
        *table.rules.programs,
        rules_dir() / "planning" / "lookahead.lp",
    ]
    control = ground("\n".join(lines) + "\n", paths, [*SOLVER_OPTIONS, *_configured(options)])
    best: Sequence[clingo.Symbol] = ()
    handle: clingo.SolveHandle
    with control.solve(yield_=True) as handle:
        for model in handle:  # each better than the last: the last is optimal
            best = model.symbols(shown=True)
    checkpoint()
    chosen = [symbol.arguments[0].number for symbol in best if symbol.name == "choose"]
    if len(chosen) != 1:
        raise SolverError(f"the lookahead plan chose {len(chosen)} moves at turn {decision.turn}")
    return chosen[0]


def _configured(options: Sequence[str]) -> list[str]:
    """``options``, with :data:`CONFIGURATION` unless they name their own."""
    if any(option.startswith("--configuration") for option in options):
        return list(options)
    return [CONFIGURATION, *options]
