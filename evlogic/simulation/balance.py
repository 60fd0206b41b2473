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

from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

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


Record = dict[str, Any]


Task = tuple[int, int, int]  # rule set, first game, game after the last


def tasks_of(setup: Setup) -> Iterator[Task]:
    """The chunks, made as they are needed: a chunk of games under each rule
    set, then the next chunk."""
    end = setup.first + setup.games
    for start in range(setup.first, end, CHUNK):
        for rules in range(len(setup.rule_sets)):
            yield rules, start, min(start + CHUNK, end)


def play_games(
    setup: Setup,
    jobs: int | None = None,
    dask_address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Record]:
    """Every game's record: ten games (a chunk) under each rule set in
    turn, game by game, then the next ten."""
    tasks = tasks_of(setup)
    with ExitStack() as stack:
        results: Iterator[list[Record]]
        if dask_address is not None:
            results = _on_dask(stack, setup, tasks, dask_address)
        elif jobs is not None and jobs > 1:
            results = _on_workers(stack, setup, tasks, jobs)
        else:
            agents = load_agents(setup.agents, setup.players)
            results = (play_chunk(setup, agents, *task) for task in tasks)
        for records in results:
            yield from records
            if progress is not None:
                progress(len(records))


def play_chunk(
    setup: Setup, agents: tuple[Agent, ...], rules: int, start: int, stop: int
) -> list[Record]:
    """The records of games ``start`` to ``stop`` under rule set ``rules``,
    played side by side (evlogic.simulation.engine.play_games: one grounding a
    turn for them all)."""
    from evlogic.simulation.report import players_of

    rule_set = setup.rule_sets[rules]
    tables = [
        deal(setup.board, rule_set, agents, setup.order, game_seed(setup.seed, game))
        for game in range(start, stop)
    ]
    records = []
    for game, played in zip(range(start, stop), play_games_together(tables), strict=True):
        records.append(
            {
                "rules": rule_set.name,
                "game": game,
                "seed": played.table.seed,
                "players": players_of(played),
                "moves": [
                    {"turn": move.turn, "player": move.player, "state": move.state}
                    for move in played.moves
                ],
                "final": played.report.to_dict(),
            }
        )
    return records


# --- worker processes ------------------------------------------------------------------

_worker_agents: dict[str, tuple[Agent, ...]] = {}


def _worker_chunk(setup: Setup, rules: int, start: int, stop: int) -> list[Record] | InputError:
    """A task on a worker: its records, or the InputError that stopped it
    (an agent that chose two states), sent back as a value to be raised."""
    try:
        agents = _worker_agents.get(setup.agents)
        if agents is None:
            agents = _worker_agents[setup.agents] = load_agents(setup.agents, setup.players)
        return play_chunk(setup, agents, rules, start, stop)
    except InputError as error:
        return error


def _raised(result: list[Record] | InputError) -> list[Record]:
    if isinstance(result, InputError):
        raise result
    return result


def _on_workers(
    stack: ExitStack, setup: Setup, tasks: Iterator[Task], jobs: int
) -> Iterator[list[Record]]:
    from evlogic.batching.workers import Lost, Workers

    load_agents(setup.agents, setup.players)  # errors here, once, not in a worker
    workers = stack.enter_context(Workers(jobs, tasks_per_worker=TASKS_PER_WORKER))
    pending = enumerate(tasks)
    done: dict[int, list[Record]] = {}
    submitted = 0
    for _ in range(2 * jobs):
        item = next(pending, None)
        if item is not None:
            workers.submit(item[0], _worker_chunk, setup, *item[1])
            submitted += 1
    wanted = 0
    while wanted < submitted:
        while wanted not in done:
            key, result = workers.next_result()
            if isinstance(result, Lost):
                raise InputError("--jobs", f"a worker process failed: {result.reason}")
            done[key] = result  # type: ignore[index]
            item = next(pending, None)
            if item is not None:
                workers.submit(item[0], _worker_chunk, setup, *item[1])
                submitted += 1
        yield _raised(done.pop(wanted))
        wanted += 1


# --- a Dask cluster --------------------------------------------------------------------


def _on_dask(
    stack: ExitStack, setup: Setup, tasks: Iterator[Task], address: str
) -> Iterator[list[Record]]:
    from evlogic.batching.runner import _dask_client

    load_agents(setup.agents, setup.players)
    client = stack.enter_context(_dask_client(address))
    window = 64
    futures: deque[Any] = deque()
    left = True
    while left or futures:
        while left and len(futures) < window:
            task = next(tasks, None)
            if task is None:
                left = False
            else:
                futures.append(client.submit(_worker_chunk, setup, *task, pure=False))
        if not futures:
            break
        future = futures.popleft()
        try:
            result = future.result()
        except Exception as error:
            what = type(error).__name__
            raise InputError("--dask", f"a game failed on the cluster ({what})") from None
        yield _raised(result)
