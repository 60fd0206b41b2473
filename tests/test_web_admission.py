"""Which requests `evlogic serve` takes on, and when (evlogic.web.admission):
the size estimate of a board, and the turns of heavy requests."""

from __future__ import annotations

import anyio
import pytest

from evlogic.web.admission import (
    HEAVY_PER_CLIENT,
    HEAVY_WAITING,
    LIGHT_COST,
    MAX_COST,
    Admission,
    Refused,
    Size,
    board_size,
    sent_size,
    text_cost,
)
from evlogic.web.service import Catalog

HEAVY = LIGHT_COST + 1


def test_the_size_of_a_board_as_sent_is_the_size_of_the_board():
    catalog = Catalog.build()
    usa = catalog.boards["usa"]
    sent = {
        "name": usa.name,
        "states": {s.id: {"ev": s.ev, "neighbors": list(s.neighbors)} for s in usa.states.values()},
    }
    assert sent_size(sent) == board_size(usa) == Size(51, 108, 439)
    assert board_size(usa).cost <= LIGHT_COST


@pytest.mark.parametrize(
    "value",
    [None, "usa", [], {"states": []}, {"states": {"A": 3}}, {"states": {"A": {"neighbors": 5}}}],
)
def test_a_board_not_yet_validated_is_measured_by_what_it_lists(value):
    """(validation, in a worker, refuses it with the file's words)"""
    assert sent_size(value).pairs == 0


def test_a_complete_graph_of_160_states_is_over_the_bound():
    ids = [f"S{i}" for i in range(160)]
    board = {"states": {s: {"neighbors": [t for t in ids if t != s]} for s in ids}}
    size = sent_size(board)
    assert size == Size(160, 12_720, 160 * 159 * 158 // 2)
    assert size.cost > MAX_COST
    assert size.too_large() == (
        "too large for this server: 160 states, 12,720 borders and 2,009,760 pairs of "
        "borders meeting at a state, an estimated ground size of 2,022,640 (the limit is "
        "500,000; evlogic score on the command line has none)"
    )
    assert Size(100, 4_950, 100 * 99 * 98 // 2).too_large() is None


@pytest.mark.parametrize(
    ("text", "heavy"),
    [
        ("name: b\nstates: {A: {ev: 3}}\n", False),
        ("x" * 20_000, True),
        ("all: &all [A, B]\nstates: {A: {neighbors: *all}}\n", True),
        (5, False),  # (refused in the worker: not the file's text)
    ],
)
def test_an_upload_is_heavy_when_long_or_with_aliases(text, heavy):
    assert (text_cost(text) > LIGHT_COST) is heavy


def run_admissions(
    workers: int, requests: list[tuple[int, str]], words: dict[int, str] | None = None
) -> list[int | None]:
    """Each (cost, client) admitted at once and held until all have been
    asked: None for those taken on (solving or waiting), the status of
    those refused (and its message in ``words``)."""
    admission = Admission(workers)
    outcomes: list[int | None] = [None] * len(requests)
    words = {} if words is None else words
    release = anyio.Event()

    async def one(index: int, cost: int, client: str) -> None:
        try:
            async with admission.admit(cost, client):
                await release.wait()
        except Refused as refused:
            outcomes[index] = refused.status
            words[refused.status] = refused.message

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for index, (cost, client) in enumerate(requests):
                group.start_soon(one, index, cost, client)
                await anyio.sleep(0)
            await anyio.sleep(0.01)
            release.set()

    anyio.run(main)
    return outcomes


def test_light_requests_are_never_held_by_heavy_ones():
    """Four workers: heavy requests take three; light ones pass at once."""
    admission = Admission(4)
    light_passed: list[int] = []

    async def main() -> None:
        release = anyio.Event()

        async def heavy(client: str) -> None:
            async with admission.admit(HEAVY, client):
                await release.wait()

        async with anyio.create_task_group() as group:
            for number in range(4):
                group.start_soon(heavy, f"client {number}")
            await anyio.sleep(0.01)
            for number in range(3):
                async with admission.admit(LIGHT_COST, "any"):
                    light_passed.append(number)
            release.set()

    anyio.run(main)
    assert admission.heavy_slots == 3
    assert light_passed == [0, 1, 2]


def test_a_client_has_a_few_heavy_requests_in_progress_at_most():
    requests = [(HEAVY, "greedy")] * (HEAVY_PER_CLIENT + 2) + [(HEAVY, "other"), (1, "greedy")]
    words: dict[int, str] = {}
    outcomes = run_admissions(4, requests, words)
    assert outcomes == [None] * HEAVY_PER_CLIENT + [429, 429, None, None]
    assert words[429] == (
        f"request: this client already has {HEAVY_PER_CLIENT} large requests in progress; "
        "send the next when one is answered"
    )


def test_past_the_waiting_heavy_requests_the_next_is_503():
    clients = [(HEAVY, f"client {n}") for n in range(3 + HEAVY_WAITING + 1)]
    words: dict[int, str] = {}
    outcomes = run_admissions(4, [*clients, (1, "late")], words)
    assert outcomes == [None] * (3 + HEAVY_WAITING) + [503, None]
    assert words[503] == (
        f"request: the server is busy with large requests (3 solving, {HEAVY_WAITING} "
        "waiting); try again later"
    )
