"""Which requests the server takes on, and when: heavy work never starves light.

A request's cost is estimated from its board before it is queued, as the
size of what the rules ground: the states, the borders, and the pairs of
borders meeting at a state (the candidate cores around a home, of which a
dense board has thousands; the cores, their coverage and their closures
grow with them).  An explanation or a diagram scores a what-if position
for every state it could win, so it counts :data:`WHAT_IF_WEIGHT` times.

* A board sent with a request whose estimate is over :data:`MAX_COST` is
  refused (413) before it is queued; the boards the server was started
  with are the operator's choice and never are.
* A request over :data:`LIGHT_COST` is heavy: at most all workers but one
  solve heavy requests at a time, so a small request always finds a
  worker soon; heavy requests beyond wait, within their time limit, and
  past :data:`HEAVY_WAITING` waiting the next is refused (503).
* A client (an address) has at most :data:`HEAVY_PER_CLIENT` heavy requests
  running or waiting; the next is refused (429).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass

import anyio

from evlogic.loading.boards import Board

#: Cost up to which a request is light (the usa board: 598; a 20 x 20
#: hex lattice: 6,800; a complete graph of 25 states: 7,200).
LIGHT_COST = 10_000

#: The largest estimate of a board sent with a request (a complete graph of
#: 100 states: 490,000; of 160, 185 KB as JSON: 2,000,000).
MAX_COST = 500_000

#: How many times a board's cost an explanation or a diagram counts.
WHAT_IF_WEIGHT = 4

#: Heavy requests one client may have running or waiting at once (the page
#: sends up to four at a click: a score, a compared score, an explanation
#: and a diagram).
HEAVY_PER_CLIENT = 4

#: Heavy requests that may wait for a worker at once.
HEAVY_WAITING = 8

#: Uploads (YAML text) are measured only once read; one longer than this,
#: or with anchors (an alias repeats a list without its text), is heavy.
LIGHT_TEXT = 16_384


@dataclass(frozen=True)
class Size:
    """What a board brings to the grounding."""

    states: int
    borders: int
    pairs: int  # pairs of borders meeting at a state

    @classmethod
    def of_degrees(cls, degrees: Iterable[int]) -> Size:
        listed = list(degrees)
        return cls(len(listed), sum(listed) // 2, sum(d * (d - 1) // 2 for d in listed))

    @property
    def cost(self) -> int:
        return self.states + self.borders + self.pairs

    def too_large(self) -> str | None:
        """The refusal's words when the size is over :data:`MAX_COST`."""
        if self.cost <= MAX_COST:
            return None
        return (
            f"too large for this server: {self.states:,} states, {self.borders:,} borders "
            f"and {self.pairs:,} pairs of borders meeting at a state, an estimated ground "
            f"size of {self.cost:,} (the limit is {MAX_COST:,}; evlogic score on the command "
            "line has none)"
        )


def board_size(board: Board) -> Size:
    return Size.of_degrees(len(state.neighbors) for state in board.states.values())


def sent_size(value: object) -> Size:
    """The size of an inline board as sent, before it is validated: what it
    lists (a board that validates has at most these borders)."""
    states = value.get("states") if isinstance(value, dict) else None
    if not isinstance(states, dict):
        return Size(0, 0, 0)
    return Size.of_degrees(_listed(state) for state in states.values())


def _listed(state: object) -> int:
    neighbors = state.get("neighbors") if isinstance(state, dict) else None
    return len(neighbors) if isinstance(neighbors, list) else 0


def text_cost(text: object) -> int:
    """An upload's cost before it is read: light, or just heavy."""
    light = isinstance(text, str) and len(text) <= LIGHT_TEXT and not {"&", "*"} & set(text)
    return 0 if light or not isinstance(text, str) else LIGHT_COST + 1


class Refused(Exception):
    """A request the server will not take on now (``status``, ``message``)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Admission:
    """Heavy requests' turns for a pool of ``workers`` workers."""

    def __init__(self, workers: int) -> None:
        self.heavy_slots = max(1, workers - 1)
        self._heavy = anyio.Semaphore(self.heavy_slots)
        self._clients: Counter[str] = Counter()
        self._waiting = 0

    @asynccontextmanager
    async def admit(self, cost: int, client: str) -> AsyncIterator[None]:
        """Held while a request of ``cost`` from ``client`` is solved;
        :class:`Refused` when it is not taken on."""
        if cost <= LIGHT_COST:
            yield
            return
        if self._clients[client] >= HEAVY_PER_CLIENT:
            raise Refused(
                429,
                f"request: this client already has {HEAVY_PER_CLIENT} large requests "
                "in progress; send the next when one is answered",
            )
        if self._waiting >= HEAVY_WAITING:
            raise Refused(
                503,
                f"request: the server is busy with large requests ({self.heavy_slots} "
                f"solving, {self._waiting} waiting); try again later",
            )
        self._clients[client] += 1
        try:
            async with self._turn():
                yield
        finally:
            self._clients[client] -= 1
            if not self._clients[client]:
                del self._clients[client]

    def turn(self) -> AbstractAsyncContextManager[None]:
        """Held while one batch of an admitted long job (a balance run)
        solves: a heavy request's turn, waited for without a time limit
        (and counted among the waiting); its client and its cost were
        weighed when the job was started (evlogic.web.balance)."""
        return self._turn()

    @asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        self._waiting += 1
        try:
            await self._heavy.acquire()
        finally:
            self._waiting -= 1
        try:
            yield
        finally:
            self._heavy.release()
