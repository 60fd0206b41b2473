"""The one ordered parallel map (evlogic.batching.fanout): input order, lost
tasks recovered or split, progress after each result, cancellation."""

from __future__ import annotations

import pytest

from evlogic.batching.fanout import Cancelled, Split, ordered_map
from evlogic.batching.workers import Lost, Workers
from evlogic.errors import InputError


def square(item: int, plus: int = 0) -> int:
    return item * item + plus


class BackwardsPool:
    """Runs the newest task first (every result out of order); ``deadly``
    items come back Lost."""

    def __init__(self, deadly: frozenset[int] = frozenset()) -> None:
        self.queue: list[tuple[object, tuple]] = []
        self.deadly = deadly
        self.most = 0

    def submit(self, key, function, *args, first=False):
        self.queue.append((key, (function, args)))
        self.most = max(self.most, len(self.queue))

    def next_result(self):
        key, (function, args) = self.queue.pop()
        if args[0] in self.deadly:
            return key, Lost("ended its worker process (killed by SIGKILL)")
        return key, function(*args)


def test_results_come_in_input_order_within_the_window():
    pool = BackwardsPool()
    got = list(ordered_map(square, range(20), (1,), pool=pool, window=3))
    assert got == [n * n + 1 for n in range(20)]
    assert pool.most <= 3


def test_in_this_process_without_a_pool():
    assert list(ordered_map(square, range(5))) == [0, 1, 4, 9, 16]


def test_a_lost_item_is_split_and_joined_in_order():
    pool = BackwardsPool(deadly=frozenset({7}))

    def recover(item: int, lost: Lost) -> int | Split[int]:
        return Split([100 + item, 200 + item])

    joined = list(ordered_map(square, [6, 7, 8], pool=pool, window=2, recover=recover, join=sum))
    assert joined == [36, 107 * 107 + 207 * 207, 64]


def test_a_lost_item_without_recover_ends_the_run():
    pool = BackwardsPool(deadly=frozenset({2}))
    with pytest.raises(InputError, match="a worker process failed: ended its worker"):
        list(ordered_map(square, range(5), pool=pool, window=2))


def test_progress_hears_of_each_result_after_it_is_taken():
    heard: list[int] = []
    results = ordered_map(square, [1, 2, 3], progress=heard.append, size=lambda r: r)
    assert next(results) == 1 and heard == []
    assert next(results) == 4 and heard == [1]
    assert list(results) == [9] and heard == [1, 4, 9]


def test_cancelled_ends_the_run_between_results():
    taken: list[int] = []
    with pytest.raises(Cancelled):
        for result in ordered_map(square, range(10), cancelled=lambda: len(taken) >= 2):
            taken.append(result)
    assert taken == [0, 1]


def test_on_worker_processes_in_order():
    with Workers(2, tasks_per_worker=3) as workers:
        got = list(ordered_map(square, range(12), (2,), pool=workers, window=4))
    assert got == [n * n + 2 for n in range(12)]
