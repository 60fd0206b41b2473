"""Many played games a rule set, on the same deals: the games behind
``evlogic balance``.

Game ``i`` has the same seed under every rule set (evlogic.simulation.table.game_seed):
the same homes and the same tie-break orders, so what differs between rule
sets is the rules' doing (common random numbers).  Games run in chunks, in
this process, on worker processes (``jobs``) or on a Dask cluster, and come
back in order: the output is the same however they ran.  The order is a
chunk of games under each rule set in turn, then the next chunk, so that
game ``i`` of every rule set comes in close together and the report pairs
them as they come (nothing waits for the end).  Each game is a record, the
line ``--games-out`` writes; evlogic.reports.balance sums records up.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from typing import Any, NoReturn

from evlogic.batching.fanout import Pool, Progress, dask_pool, ordered_map
from evlogic.batching.workers import Lost, Workers
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.rulesets import RuleSet
from evlogic.simulation.agents import Agent, load_agents
from evlogic.simulation.engine import play_games as play_games_together
from evlogic.simulation.table import Order, deal, game_seed

#: Games a task plays (one rule set, consecutive games).
CHUNK = 10

#: Tasks a worker process runs before a fresh one takes over (clingo keeps
#: every symbol it makes: a fresh process gives the memory back).
TASKS_PER_WORKER = 20


@dataclass(frozen=True)
class Setup:
    """What every game of a run shares.  ``agents`` as typed (--agents),
    read again in each worker process."""

    board: Board
    rule_sets: tuple[RuleSet, ...]
    agents: str
    players: int
    order: Order
    games: int
    seed: int
    first: int = 0  # the first game's number: games first .. first + games - 1
    #: Each move's record keeps its legal set and the model's visible state
    #: (what --games-out writes).
    record: bool = False
    #: Seatings (evlogic ladder): agents as typed, each seating playing
    #: every game; none: ``agents`` alone.
    seatings: tuple[str, ...] = ()

    def seating_agents(self) -> tuple[str, ...]:
        """The agents of each seating, as typed."""
        return self.seatings or (self.agents,)


Record = dict[str, Any]


Task = tuple[int, int, int, int]  # seating, rule set, first game, game after the last


def tasks_of(setup: Setup) -> Iterator[Task]:
    """The chunks, made as they are needed: a chunk of games under each
    seating and rule set in turn, then the next chunk."""
    end = setup.first + setup.games
    for start in range(setup.first, end, CHUNK):
        for seating in range(len(setup.seating_agents())):
            for rules in range(len(setup.rule_sets)):
                yield seating, rules, start, min(start + CHUNK, end)


def play_games(
    setup: Setup,
    jobs: int | None = None,
    dask_address: str | None = None,
    progress: Progress | None = None,
) -> Iterator[Record]:
    """Every game's record: ten games (a chunk) under each rule set in
    turn, game by game, then the next ten (evlogic.batching.fanout: in
    order, however they ran)."""
    with ExitStack() as stack:
        results: Iterator[list[Record] | InputError]
        if dask_address is None and (jobs is None or jobs <= 1):
            seatings = tuple(load_agents(a, setup.players) for a in setup.seating_agents())
            results = ordered_map(
                _play_task, tasks_of(setup), (setup, seatings), progress=progress, size=_games
            )
        else:
            for agents in setup.seating_agents():  # errors here, once, not in a worker
                load_agents(agents, setup.players)
            pool: Pool
            if dask_address is not None:
                pool, window, where = stack.enter_context(dask_pool(dask_address)), 64, "--dask"
            else:
                assert jobs is not None
                pool = stack.enter_context(Workers(jobs, tasks_per_worker=TASKS_PER_WORKER))
                window, where = 2 * jobs, "--jobs"
            results = ordered_map(
                _worker_chunk,
                tasks_of(setup),
                (setup,),
                pool=pool,
                window=window,
                recover=partial(_failed, where),
                progress=progress,
                size=_games,
            )
        for records in results:
            yield from _raised(records)


def play_chunk(
    setup: Setup, agents: tuple[Agent, ...], rules: int, start: int, stop: int
) -> list[Record]:
    """The records of games ``start`` to ``stop`` under rule set ``rules``,
    played side by side (evlogic.simulation.engine.play_games: one grounding a
    turn for them all)."""
    from evlogic.simulation.report import model_numbers, move_record, players_of

    rule_set = setup.rule_sets[rules]
    tables = [
        deal(setup.board, rule_set, agents, setup.order, game_seed(setup.seed, game))
        for game in range(start, stop)
    ]
    records = []
    played_games = play_games_together(tables, record=setup.record)
    for game, played in zip(range(start, stop), played_games, strict=True):
        records.append(
            {
                "rules": rule_set.name,
                "game": game,
                "seed": played.table.seed,
                "players": players_of(played),
                "moves_model": rule_set.moves_model,
                **model_numbers(rule_set),
                "moves": [move_record(move) for move in played.moves],
                "final": played.report.to_dict(),
            }
        )
    return records


# --- worker processes ------------------------------------------------------------------

_worker_agents: dict[str, tuple[Agent, ...]] = {}


def _play_task(task: Task, setup: Setup, seatings: tuple[tuple[Agent, ...], ...]) -> list[Record]:
    seating, *rest = task
    return play_chunk(setup, seatings[seating], *rest)


def _worker_chunk(task: Task, setup: Setup) -> list[Record] | InputError:
    """A task on a worker: its records, or the InputError that stopped it
    (an agent that chose two states), sent back as a value to be raised."""
    try:
        seating, *rest = task
        typed = setup.seating_agents()[seating]
        agents = _worker_agents.get(typed)
        if agents is None:
            agents = _worker_agents[typed] = load_agents(typed, setup.players)
        return play_chunk(setup, agents, *rest)
    except InputError as error:
        return error


def _failed(where: str, task: Task, lost: Lost) -> NoReturn:
    """A task whose worker died or that failed on the cluster ends the run."""
    if where == "--dask":
        raise InputError(where, f"a game failed on the cluster ({_cause(lost)})")
    raise InputError(where, f"a worker process failed: {lost.reason}")


def _cause(lost: Lost) -> str:
    """The exception's name in "failed on the Dask cluster (NAME)"."""
    return lost.reason.rpartition("(")[2].rstrip(")")


def _games(result: list[Record] | InputError) -> int:
    """Games a task played, for the progress bar."""
    return 0 if isinstance(result, InputError) else len(result)


def _raised(result: list[Record] | InputError) -> list[Record]:
    if isinstance(result, InputError):
        raise result
    return result
