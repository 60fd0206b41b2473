"""The search behind ``evlogic tune``: candidates played on common random
numbers, the budget spent by successive halving, the Pareto front proved.

Every candidate plays the same games (game ``i``: the same deal and seed
under every rule set, evlogic.simulation.table.game_seed), so candidates differ by
their rules alone.  With a budget smaller than every candidate's full
``games``, rounds double the games of the better half (ranked by Pareto
rank over the objectives' estimates, then by the objectives in order of
importance): a candidate whose play requirement is clearly out of reach (its
interval leaves the bound out) stops at once; of candidates alike in every
objective, the one nearest the base rule set ranks first.  The front is the
non-dominated set of the last round's candidates that meet every
requirement; a required property is proved by ``check`` for each
candidate of the front, and one with a counterexample leaves it (then the
front is found again without it).  Same seed, same answer, with any jobs.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from evlogic.batching.fanout import Progress
from evlogic.loading.boards import Board
from evlogic.loading.space import Candidate, Space
from evlogic.reports.balance import Tally, rule_set_figures
from evlogic.reports.balance_figures import Estimate, RuleSetFigures
from evlogic.reports.tune import distance, objectives
from evlogic.simulation.balance import Setup, play_games
from evlogic.simulation.table import Order


@dataclass
class Contender:
    """A candidate as the search knows it: its tally of games so far."""

    index: int
    candidate: Candidate
    tally: Tally
    figures: RuleSetFigures | None = None
    scores: dict[str, Estimate] = field(default_factory=dict)
    requirements: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class TuneOptions:
    board: Board
    agents: str
    players: int
    order: Order
    games: int  # the most games a candidate plays
    budget: int  # games in all
    seed: int
    check_timeout: float = 60.0


@dataclass
class TuneResult:
    rounds: list[dict[str, int]]
    games_played: int
    front: list[Contender]
    best: int | None
    tried: int


def plan(candidates: int, games: int, budget: int) -> list[tuple[int, int]]:
    """The rounds: (candidates playing, games each has played by then).
    Every candidate its full ``games`` when the budget allows; else the most
    first-round games for which halving the candidates and doubling the
    games, until one is left or it has its full games, fits the budget."""
    if candidates * games <= budget:
        return [(candidates, games)]
    for first in range(min(games, budget // candidates), 0, -1):
        schedule, alive, target, played, spent = [], candidates, first, 0, 0
        while True:
            spent += alive * (target - played)
            schedule.append((alive, target))
            played = target
            if alive == 1 or target == games:
                break
            alive, target = math.ceil(alive / 2), min(games, 2 * target)
        if spent <= budget:
            return schedule
    return [(candidates, 1)]


def tune(
    space: Space,
    options: TuneOptions,
    jobs: int | None = None,
    dask_address: str | None = None,
    progress: Progress | None = None,
    prove: Callable[[str, Candidate], str] | None = None,
) -> TuneResult:
    """Search ``space``; ``prove(property, candidate)`` answers ``holds``,
    ``counterexample`` or ``unknown`` (default: evlogic check)."""
    prove = prove or _checker(options)
    contenders = [
        Contender(i, candidate, Tally(candidate.rules.name))
        for i, candidate in enumerate(space.candidates)
    ]
    alive = list(contenders)
    played = 0
    games_played = 0
    rounds = []
    for want, target in plan(len(contenders), options.games, options.budget):
        alive = _ranked(alive, space)[:want]
        if target > played:
            setup = Setup(
                options.board,
                tuple(c.candidate.rules for c in alive),
                options.agents,
                options.players,
                options.order,
                target - played,
                options.seed,
                first=played,
            )
            by_name = {c.candidate.rules.name: c for c in alive}
            for record in play_games(setup, jobs, dask_address, progress):
                by_name[record["rules"]].tally.add(record)
            games_played += len(alive) * (target - played)
            played = target
        for contender in alive:
            _score(contender, space, options.players)
        rounds.append({"candidates": len(alive), "games": played})
        alive = [c for c in alive if not _clearly_out(c, space)]
        if not alive:
            break
    front = _front(alive, space, prove)
    best = None
    if front:
        best = min(range(len(front)), key=lambda i: _order_key(front[i], space))
    return TuneResult(rounds, games_played, front, best, len(contenders))


def _score(contender: Contender, space: Space, players: int) -> None:
    contender.tally.ask()
    contender.figures = rule_set_figures(contender.tally, players)
    contender.scores = objectives(space.objectives, contender.figures)


def _clearly_out(contender: Contender, space: Space) -> bool:
    """A play requirement its interval leaves out."""
    for requirement in space.play:
        rate = _figures(contender).rate(requirement.figure)
        if requirement.at_least is not None and rate.high < requirement.at_least:
            return True
        if requirement.at_most is not None and rate.low > requirement.at_most:
            return True
    return False


def _figures(contender: Contender) -> RuleSetFigures:
    """A scored contender's figures."""
    if contender.figures is None:
        raise ValueError("a contender not yet scored")
    return contender.figures


def _point(contender: Contender, space: Space) -> tuple[float, ...]:
    return tuple(contender.scores[name].value for name in space.objectives)


def _dominates(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(x <= y for x, y in zip(a, b, strict=True)) and a != b


def _order_key(contender: Contender, space: Space) -> tuple[Any, ...]:
    """The objectives in order; of candidates alike in all, the one nearest
    the base rule set; then as listed."""
    _, moved = distance(contender.candidate, space.base)
    return (*_point(contender, space), moved, contender.index)


def _ranked(contenders: list[Contender], space: Space) -> list[Contender]:
    """By Pareto rank over the estimates (before any game: as listed), then
    by the objectives in order, then as listed."""
    if not contenders or not contenders[0].scores:
        return list(contenders)
    rank: dict[int, int] = {}
    left = list(contenders)
    level = 0
    while left:
        points = {c.index: _point(c, space) for c in left}
        layer = [
            c for c in left if not any(_dominates(points[o.index], points[c.index]) for o in left)
        ]
        for c in layer:
            rank[c.index] = level
        left = [c for c in left if c.index not in rank]
        level += 1
    return sorted(contenders, key=lambda c: (rank[c.index], *_order_key(c, space)))


def _front(
    alive: list[Contender], space: Space, prove: Callable[[str, Candidate], str]
) -> list[Contender]:
    """The non-dominated candidates meeting every requirement (properties
    proved for front members only; one disproved leaves, and the front is
    found again)."""
    meeting = []
    for contender in alive:
        contender.requirements = {}
        for requirement in space.play:
            met = requirement.met(_figures(contender).rate(requirement.figure).rate)
            contender.requirements[requirement.figure] = "met" if met else "not met"
        if all(answer == "met" for answer in contender.requirements.values()):
            meeting.append(contender)
    proved: dict[tuple[int, str], str] = {}
    while True:
        points = {c.index: _point(c, space) for c in meeting}
        front = [
            c
            for c in meeting
            if not any(_dominates(points[o.index], points[c.index]) for o in meeting)
        ]
        failed = False
        for contender in front:
            for name, reference in zip(
                space.properties, space.property_references or space.properties, strict=True
            ):
                key = (contender.index, name)
                if key not in proved:
                    proved[key] = prove(reference, contender.candidate)
                answer = proved[key]
                contender.requirements[name] = {
                    "holds": "proved",
                    "counterexample": "broken",
                }.get(answer, "unknown")
            if any(contender.requirements[name] == "broken" for name in space.properties):
                meeting.remove(contender)
                failed = True
        if not failed:
            return sorted(front, key=lambda c: _order_key(c, space))


def _checker(options: TuneOptions) -> Callable[[str, Candidate], str]:
    def prove(name: str, candidate: Candidate) -> str:
        from evlogic.asp.search import TimeLimit
        from evlogic.reports.check import check

        result = check(
            name,
            options.board,
            options.board.source,
            candidate.rules,
            candidate.rules.name,
            players=options.players,
            limit=TimeLimit(options.check_timeout),
        )
        return result.result

    return prove
