"""``POST /api/balance``: ``evlogic balance`` through the server, as a job.

A balance run plays hundreds of games, far longer than one request may
solve, so it is a job: the POST checks the request and answers 202 with the
job's id at once; ``GET /api/balance/{id}`` says how far it has got and,
once done, gives the report, the charts and the page ``--report`` writes;
``DELETE`` stops it.  The games are played in the server's workers, a few
at a time (each batch sized to take about :data:`BATCH_SECONDS`, so
progress moves and no batch nears the request timeout), each batch taking
a heavy request's turn (evlogic.web.admission): a run never holds a
worker between batches, and small requests always find one.  The games
are the command line's (evlogic.simulation.balance.play_chunk, the same seeds),
so the report is the one ``evlogic balance --format json`` prints.

Bounded work: at most :data:`MAX_GAMES` games a rule set and
:data:`MAX_RULE_SETS` rule sets, and a board's cost times the games at most
:data:`MAX_WORK` (413 past either); one run in progress a client (429) and
:data:`MAX_RUNS` in all (503).  Agents are the bundled ones only: a
request names no file.

The functions :func:`plan`, :func:`play` and :func:`result` run in a worker
(evlogic.web.service names them); :class:`Runs` in the server.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import anyio

from evlogic.errors import InputError, quote
from evlogic.loading.rulesets import MOVE_MODELS
from evlogic.loading.yamlfile import Field, closest
from evlogic.reports.balance import BalanceHeading
from evlogic.simulation.balance import Setup
from evlogic.web.admission import LIGHT_COST, Admission, Refused, board_size
from evlogic.web.service import TooLarge  # a run over the server's bounds: 413
from evlogic.web.workers import Solved

#: The most games a rule set a request may ask for (the command line: any).
MAX_GAMES = 200

#: The most rule sets one run compares.
MAX_RULE_SETS = 6

#: The most players a table has through the web.
MAX_PLAYERS = 10

#: The most work a run may ask for: the board's cost (admission.Size.cost)
#: times the games of all rule sets: every game of the largest run on a
#: board that is light (at most LIGHT_COST).
MAX_WORK = MAX_GAMES * MAX_RULE_SETS * LIGHT_COST

#: How many times a game's work a game with a planning agent costs (a usa
#: game of two: 0.1 s by greedy agents, some 2 s with one lookahead seat).
PLANNING_COST = 20

#: Runs in progress (queued or playing) at once, and a client's.
MAX_RUNS = 4
RUNS_PER_CLIENT = 1

#: Finished runs kept for GET (the oldest is forgotten first).
KEPT = 8

#: About how long a batch of games takes in a worker.
BATCH_SECONDS = 1.0

#: The most games one batch plays.
MAX_BATCH = 25

#: How many request timeouts summing up a run may take (the report, its
#: charts and its page: bounded by the bounds above, and slower than a
#: batch: the first in a worker imports matplotlib).
SUMMING_TIMEOUTS = 6

SOURCE = "request"


@dataclass(frozen=True)
class Plan:
    """A checked request: what every game shares, and the report's heading."""

    setup: Setup
    heading: BalanceHeading
    rules: tuple[str, ...]

    @property
    def total(self) -> int:
        return self.setup.games * len(self.setup.rule_sets)


# --- in a worker -------------------------------------------------------------------


def plan(catalog: Any, top: Field) -> Plan:
    """The request checked as the command line checks its options, with the
    server's bounds; InputError (400) or TooLarge (413) in one line."""
    from evlogic.simulation.agents import BUNDLED, PLANNERS, load_agents
    from evlogic.simulation.table import ORDERS, deal

    fields = top.fields(
        ["board", "games"],
        ["rules", "agents", "players", "order", "seed", "moves"],
        what="a balance mapping",
    )
    board = catalog.board(fields["board"])
    if "rules" in fields:
        listed = fields["rules"].items("a list of rule sets")
        if not listed:
            raise fields["rules"].error("must name at least one rule set")
        if len(listed) > MAX_RULE_SETS:
            raise fields["rules"].error(
                f"{len(listed)} rule sets: at most {MAX_RULE_SETS} in one run"
            )
        rule_sets = tuple(catalog.rule_set(item) for item in listed)
        seen: set[str] = set()
        for item, rules in zip(listed, rule_sets, strict=True):
            if rules.name in seen:
                raise item.error(f"two rule sets named {quote(rules.name)}: a report names them")
            seen.add(rules.name)
    else:
        rule_sets = (catalog.rule_set(None),)
    if "moves" in fields:
        moves = fields["moves"].text("a move model name")
        if moves not in MOVE_MODELS:
            raise fields["moves"].error(
                f"unknown move model {quote(moves)}{closest(moves, MOVE_MODELS)} (bundled: "
                f"{', '.join(MOVE_MODELS)}; a request cannot name a file)"
            )
        rule_sets = tuple(replace(rules, moves=moves) for rules in rule_sets)
    players = fields["players"].integer(1, MAX_PLAYERS) if "players" in fields else 4
    agents = fields["agents"].text("agent names") if "agents" in fields else "greedy"
    for part in agents.split(","):
        name = part.strip()
        if name and name not in BUNDLED and name.partition(":")[0] not in PLANNERS:
            known = (*BUNDLED, *PLANNERS)
            raise fields["agents"].error(
                f"unknown agent {quote(name)}{closest(name, known)} (bundled: "
                f"{', '.join(BUNDLED)}, {', '.join(f'{p}[:K]' for p in PLANNERS)}; "
                "a request cannot name a file)"
            )
    order = fields["order"].text("a turn order") if "order" in fields else "snake"
    if order not in ORDERS:
        raise fields["order"].error(f"must be one of {', '.join(ORDERS)}, not {quote(order)}")
    games = fields["games"].integer(1, 10_000_000, "a number of games")
    if games > MAX_GAMES:
        raise TooLarge(
            SOURCE,
            f"{games} games a rule set: at most {MAX_GAMES} through the server "
            "(evlogic balance on the command line has no such bound)",
            field="games",
        )
    seed = fields["seed"].integer(-(2**63), 2**63 - 1) if "seed" in fields else 0
    try:
        chosen = load_agents(agents, players)
        for rules in rule_sets:
            deal(board, rules, chosen, order, seed)  # too many players: an error now
    except InputError as error:  # the command line's words, at the request's field
        where = "agents" if error.source == "--agents" else "players"
        raise fields.get(where, top).error(error.message) from None
    # a planning agent solves a search a decision: some twenty times a game's work
    planning = PLANNING_COST if any(agent.planner is not None for agent in chosen) else 1
    work = board_size(board).cost * games * len(rule_sets) * planning
    if work > MAX_WORK:
        raise TooLarge(
            SOURCE,
            f"too much work for this server: {games} games of {len(rule_sets)} rule sets "
            f"on a board of estimated ground size {board_size(board).cost:,}"
            + (f", planning agents {planning} times as costly," if planning > 1 else "")
            + f" is {work:,} (the limit is {MAX_WORK:,}; fewer games, or evlogic balance on "
            "the command line)",
        )
    setup = Setup(board, rule_sets, agents, players, order, games, seed)
    heading = BalanceHeading(
        board.name, players, tuple(agent.name for agent in chosen), order, games, seed
    )
    return Plan(setup, heading, tuple(rules.name for rules in rule_sets))


def play(catalog: Any, task: tuple[Setup, int, int, int]) -> list[dict[str, Any]]:
    """Games ``start`` to ``stop`` under rule set ``rules``: their records."""
    from evlogic.simulation.agents import load_agents
    from evlogic.simulation.balance import play_chunk

    setup, rules, start, stop = task
    return play_chunk(setup, load_agents(setup.agents, setup.players), rules, start, stop)


def result(catalog: Any, summed: tuple[Plan, list[dict[str, Any]]]) -> dict[str, Any]:
    """The report of a run's records, its charts and its page."""
    from evlogic.pages.balance import balance_charts, balance_page
    from evlogic.reports.balance import balance_report

    run, records = summed
    report = balance_report(run.heading, records).to_dict()
    charts = balance_charts(report, run.setup.board)
    return {
        "report": report,
        "charts": charts,
        "page": balance_page(report, run.setup.board, charts),
    }


# --- in the server -----------------------------------------------------------------


class Failed(Exception):
    """A run that stopped: its one-line message."""


@dataclass
class Run:
    """One balance run, as GET /api/balance/{id} describes it."""

    id: str
    client: str
    plan: Plan
    status: str = "queued"  # queued, running, done, failed, cancelled
    done: int = 0  # games played, all rule sets
    error: str | None = None
    result: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        return self.status in ("done", "failed", "cancelled")

    def document(self) -> dict[str, Any]:
        setup = self.plan.setup
        document: dict[str, Any] = {
            "id": self.id,
            "status": self.status,
            "done": self.done,
            "total": self.plan.total,
            "board": self.plan.heading.board,
            "rules": list(self.plan.rules),
            "games": setup.games,
        }
        if self.error is not None:
            document["error"] = self.error
        if self.result is not None:
            document["report"] = self.result["report"]
            document["charts"] = self.result["charts"]
            document["page"] = f"/api/balance/{self.id}/page"
        return document


class Runs:
    """The server's balance runs: started by POST, played batch by batch
    in ``pool``'s workers on ``admission``'s heavy turns, each batch within
    ``timeout`` seconds; ``failure`` words a worker's answer that is not a
    document as (status, message)."""

    def __init__(
        self,
        pool: Any,
        admission: Admission,
        timeout: float,
        failure: Callable[[Any], tuple[int, str] | None],
    ) -> None:
        self.pool = pool
        self.admission = admission
        self.timeout = timeout
        self.failure = failure
        self.runs: dict[str, Run] = {}

    def get(self, run_id: str) -> Run | None:
        return self.runs.get(run_id)

    def start(self, checked: Plan, client: str) -> Run:
        """A run of ``checked`` for ``client``, started now; Refused (429,
        503) past the bounds."""
        self.check(client)
        run = Run(secrets.token_hex(8), client, checked)
        self.runs[run.id] = run
        run.task = asyncio.get_running_loop().create_task(self._play(run))
        return run

    def check(self, client: str) -> None:
        """Refused (429, 503) when ``client`` may not start a run now."""
        going = [run for run in self.runs.values() if not run.finished]
        mine = [run for run in going if run.client == client]
        if len(mine) >= RUNS_PER_CLIENT:
            raise Refused(
                429,
                f"request: this client already has a balance run in progress ({mine[0].id}); "
                f"wait for it, or stop it with DELETE /api/balance/{mine[0].id}",
            )
        if len(going) >= MAX_RUNS:
            raise Refused(
                503,
                f"request: the server is busy with {len(going)} balance runs; try again later",
            )

    def cancel(self, run: Run) -> None:
        if not run.finished:
            run.status = "cancelled"
            if run.task is not None:
                run.task.cancel()
            self._forget()

    async def _play(self, run: Run) -> None:
        setup = run.plan.setup
        records: list[dict[str, Any]] = []
        try:
            for rules in range(len(setup.rule_sets)):
                start, size = 0, 1  # the first batch measures a game
                while start < setup.games:
                    stop = min(start + size, setup.games)
                    began = time.monotonic()
                    records += await self._solve(
                        run, "balance_games", (setup, rules, start, stop), f"{stop - start} games"
                    )
                    each = max(time.monotonic() - began, 1e-3) / (stop - start)
                    size = max(1, min(MAX_BATCH, int(BATCH_SECONDS / each)))
                    run.done += stop - start
                    start = stop
            run.result = await self._solve(
                run,
                "balance_result",
                (run.plan, records),
                "summing up the report",
                SUMMING_TIMEOUTS * self.timeout,
            )
            run.status = "done"
        except Failed as failed:
            run.status = "failed"
            run.error = str(failed)
        except asyncio.CancelledError:
            run.status = "cancelled"
            raise
        finally:
            self._forget()

    async def _solve(
        self, run: Run, name: str, task: object, what: str, timeout: float | None = None
    ) -> Any:
        """``service.<name>(catalog, task)`` in a worker, on a heavy turn,
        within ``timeout`` seconds (default: the request timeout)."""
        limit = self.timeout if timeout is None else timeout
        async with self.admission.turn():
            run.status = "running"
            try:
                with anyio.fail_after(limit):
                    answer = await self.pool.solve(name, task)
            except TimeoutError:
                times = "" if timeout is None else f"{SUMMING_TIMEOUTS} times "
                raise Failed(
                    f"request: {what} took longer than {limit:g} s "
                    f"({times}the server's --request-timeout)"
                ) from None
        refused = self.failure(answer)
        if refused is not None:
            raise Failed(refused[1])
        assert isinstance(answer, Solved)
        return answer.document

    def _forget(self) -> None:
        """Keep the :data:`KEPT` latest finished runs."""
        finished = [run_id for run_id, run in self.runs.items() if run.finished]
        for run_id in finished[: max(0, len(finished) - KEPT)]:
            del self.runs[run_id]
