"""The games behind ``evlogic ladder``: each agent against the one before
it, every deal played in every seating of the two, so that seat and deal
cancel.

A step (weaker, stronger) plays K deals (the games of balance's run:
game ``i`` has the same seed, homes and tie orders in every seating and
every step).  With two players each deal is played twice, the stronger in
seat 1 and then in seat 2; with N players N times, the stronger in one
seat and the weaker in every other, the stronger's seat rotated.  The
games run as balance's do (evlogic.simulation.balance: in chunks, in this
process, on worker processes or on a Dask cluster, back in order), so the
tallies are the same however they ran.

Who won is read off the final reports the rules made: the stronger's
score in a game is the share of the weaker seats whose total it beat, a
tie counting a half (for two players: 1 a win, 1/2 a tie, 0 a loss).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from evlogic.batching.fanout import Progress
from evlogic.loading.boards import Board
from evlogic.loading.rulesets import RuleSet
from evlogic.reports.ladder import Comparison, LadderReport, depth, ratings, step_figures
from evlogic.simulation.balance import Record, Setup, play_games, tasks_of
from evlogic.simulation.table import Order


@dataclass(frozen=True)
class LadderSetup:
    """What a ladder plays: its agents as typed (weakest first), where,
    under which rules, and K deals a step."""

    board: Board
    rules: RuleSet
    agents: tuple[str, ...]
    players: int
    order: Order
    games: int
    seed: int


@dataclass(frozen=True)
class StepTally:
    """A step's games and the stronger's score in them: ``score`` sums its
    per-game score (each in [0, 1])."""

    weaker: str
    stronger: str
    games: int
    score: Fraction


def seatings(setup: LadderSetup) -> tuple[str, ...]:
    """Every step's seatings in step order: the stronger in seat 1, then
    seat 2, ..., the weaker in the other seats (agents as --agents types
    them, one a seat)."""
    found = []
    for weaker, stronger in zip(setup.agents, setup.agents[1:], strict=False):
        for seat in range(setup.players):
            found.append(
                ",".join(stronger if other == seat else weaker for other in range(setup.players))
            )
    return tuple(found)


def play_ladder(
    setup: LadderSetup,
    jobs: int | None = None,
    dask_address: str | None = None,
    progress: Progress | None = None,
    on_game: Callable[[Record], None] | None = None,
) -> tuple[StepTally, ...]:
    """Every step's tally, from games played as balance plays them."""
    runs = Setup(
        setup.board,
        (setup.rules,),
        setup.agents[0],
        setup.players,
        setup.order,
        setup.games,
        setup.seed,
        record=on_game is not None,
        seatings=seatings(setup),
    )
    steps = len(setup.agents) - 1
    scores = [Fraction(0)] * steps
    records = play_games(runs, jobs, dask_address, progress)
    for seating, record in _by_seating(runs, records):
        if on_game is not None:
            on_game(record)
        step, seat = divmod(seating, setup.players)
        scores[step] += stronger_score(record, seat)
    return tuple(
        StepTally(
            weaker=setup.agents[step],
            stronger=setup.agents[step + 1],
            games=setup.games * setup.players,
            score=scores[step],
        )
        for step in range(steps)
    )


def _by_seating(runs: Setup, records: Iterator[Record]) -> Iterator[tuple[int, Record]]:
    """Each record with its seating's index: the records come in the order
    of balance's tasks, a chunk of games a seating in turn."""
    for seating, _rules, start, stop in tasks_of(runs):
        for _game in range(start, stop):
            yield seating, next(records)


def stronger_score(record: Record, seat: int) -> Fraction:
    """The share of the other seats whose final total seat ``seat`` (from
    0) beat, a tie a half: the rules' totals, compared."""
    totals: Sequence[int] = [player["total"] for player in record["final"]["players"]]
    others = [total for other, total in enumerate(totals) if other != seat]
    mine = totals[seat]
    won = sum(
        (Fraction(1) if mine > t else Fraction(1, 2) if mine == t else Fraction(0) for t in others),
        Fraction(0),
    )
    return won / len(others)


def ladder_report(setup: LadderSetup, tallies: tuple[StepTally, ...]) -> LadderReport:
    """The report of a ladder's games (evlogic.reports.ladder's figures)."""
    comparisons = [
        Comparison(tally.weaker, tally.stronger, tally.games, float(tally.score))
        for tally in tallies
    ]
    steps = tuple(step_figures(comparison) for comparison in comparisons)
    return LadderReport(
        board=setup.board.name,
        rules=setup.rules.name,
        moves_model=setup.rules.moves_model,
        players=setup.players,
        order=setup.order,
        games=setup.games,
        seed=setup.seed,
        agents=setup.agents,
        steps=steps,
        depth=depth(steps),
        ratings=ratings(setup.agents, comparisons),
    )
