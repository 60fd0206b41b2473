"""One ordered parallel map: tasks in, results out in input order.

:func:`ordered_map` runs ``function(item, *args)`` for every item, in this
process (``pool`` None), on worker processes (evlogic.batching.workers.Workers)
or on a Dask cluster (:class:`DaskPool`), with at most ``window`` items in
flight, so memory stays flat however many items there are.  Results come
back in input order whatever order they finished in; ``progress`` hears of
each after the caller has taken it; closing the iterator (a ``break``,
Ctrl-C, SIGTERM: evlogic.signals) or ``cancelled()`` turning true ends the
run, and the caller's ``with`` on the pool kills whatever is still running.

A task whose worker died, ran past its time or raised comes back as a
:class:`~evlogic.batching.workers.Lost`; ``recover`` decides what becomes of
it: a result in its place, a :class:`Split` (smaller items run ahead of the
waiting ones, their results joined by ``join`` in order), or an exception
that ends the run.  batch, balance and tune fan out here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from evlogic.batching.workers import Lost
from evlogic.errors import InputError

T = TypeVar("T")
R = TypeVar("R")


#: A progress callback: told how much was done (tqdm's update, say).
Progress = Callable[[int], object]


class Pool(Protocol):
    """Where tasks run: evlogic.batching.workers.Workers, :class:`DaskPool`."""

    def submit(
        self, key: Hashable, function: Callable[..., Any], *args: Any, first: bool = False
    ) -> None:
        """Queue a task; ``first`` runs it before the others."""

    def next_result(self) -> tuple[Hashable, Any]:
        """The next task done: its key, its result or a Lost."""


class Cancelled(Exception):
    """The run was cancelled (``cancelled()`` turned true) before it ended."""


@dataclass(frozen=True)
class Split(Generic[T]):
    """``recover``'s answer: run these smaller items in the lost one's place."""

    parts: Sequence[T]


@dataclass
class _Slot(Generic[R]):
    """One input item in flight: the results of its pieces by their path
    (``()`` until it is split; a split piece ``p``'s parts are ``p + (i,)``,
    which sort in input order), and how many pieces are still out."""

    out: int = 1
    parts: dict[tuple[int, ...], R] = field(default_factory=dict)


def ordered_map(  # noqa: PLR0913 (keyword-only options of one map, each defaulted)
    function: Callable[..., R],
    items: Iterable[T],
    args: tuple[Any, ...] = (),
    *,
    pool: Pool | None = None,
    window: int = 1,
    recover: Callable[[T, Lost], R | Split[T]] | None = None,
    join: Callable[[list[R]], R] | None = None,
    progress: Progress | None = None,
    size: Callable[[R], int] = lambda result: 1,
    cancelled: Callable[[], bool] | None = None,
) -> Iterator[R]:
    """``function(item, *args)`` of every item, in input order.

    ``pool`` None runs in this process, one item at a time.  Otherwise at
    most ``window`` items are in flight.  A Lost task goes to ``recover``
    (without one, it ends the run as an InputError); ``progress(size(r))``
    is called for each result ``r`` once the caller has taken it.
    """
    if pool is None:
        results: Iterator[R] = (function(item, *args) for item in items)
    else:
        results = _in_order(function, items, args, pool, max(1, window), recover, join)
    for result in results:
        if cancelled is not None and cancelled():
            raise Cancelled
        yield result
        if progress is not None:
            progress(size(result))


def _in_order(
    function: Callable[..., R],
    items: Iterable[T],
    args: tuple[Any, ...],
    pool: Pool,
    window: int,
    recover: Callable[[T, Lost], R | Split[T]] | None,
    join: Callable[[list[R]], R] | None,
) -> Iterator[R]:
    numbered = enumerate(items)
    flight: dict[int, _Slot[R]] = {}
    items_of: dict[tuple[int, tuple[int, ...]], T] = {}

    def submit(index: int, path: tuple[int, ...], item: T, first: bool) -> None:
        items_of[index, path] = item
        pool.submit((index, path), function, item, *args, first=first)

    next_out = 0
    more = True
    while True:
        while more and len(flight) < window:
            taken = next(numbered, None)
            if taken is None:
                more = False
                break
            index, item = taken
            flight[index] = _Slot()
            submit(index, (), item, first=False)
        while next_out in flight and flight[next_out].out == 0:
            yield _joined(flight.pop(next_out), join)
            next_out += 1
        if not flight:
            if more:  # every item in flight was done: take in more
                continue
            return
        key, result = pool.next_result()
        assert isinstance(key, tuple)  # the (index, path) submit gave
        index, path = key
        item = items_of.pop(key)
        slot = flight[index]
        if isinstance(result, Lost):
            if recover is None:
                raise InputError("--jobs", f"a worker process failed: {result.reason}")
            result = recover(item, result)
            if isinstance(result, Split):
                slot.out += len(result.parts) - 1
                for number in reversed(range(len(result.parts))):
                    submit(index, (*path, number), result.parts[number], first=True)
                continue
        slot.parts[path] = result
        slot.out -= 1


def _joined(slot: _Slot[R], join: Callable[[list[R]], R] | None) -> R:
    if len(slot.parts) == 1 and () in slot.parts:
        return slot.parts[()]
    assert join is not None, "a Split needs a join"
    return join([slot.parts[path] for path in sorted(slot.parts)])


# --- a Dask cluster --------------------------------------------------------------------


class _Future(Protocol):
    def result(self) -> Any: ...


class _Client(Protocol):
    def submit(self, function: Callable[..., Any], /, *args: Any, **options: Any) -> _Future: ...

    def scheduler_info(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


class DaskPool:
    """The :class:`Pool` interface on a Dask cluster: a task whose worker
    died (Dask gives up after its retries) or that raised comes back Lost."""

    def __init__(self, client: _Client) -> None:
        from distributed import as_completed

        self.client = client
        done = as_completed()  # type: ignore[no-untyped-call]
        self._done: Iterator[_Future] = done
        self._add: Callable[[_Future], None] = done.add
        self._keys: dict[_Future, Hashable] = {}

    def workers(self) -> int:
        """Workers the scheduler knows of (at least 1)."""
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def submit(
        self, key: Hashable, function: Callable[..., Any], *args: Any, first: bool = False
    ) -> None:
        future = self.client.submit(function, *args, pure=False, priority=1 if first else 0)
        self._keys[future] = key
        self._add(future)

    def next_result(self) -> tuple[Hashable, Any]:
        future = next(self._done)
        key = self._keys.pop(future)
        try:
            return key, future.result()
        except Exception as error:
            return key, Lost(f"failed on the Dask cluster ({type(error).__name__})")


@contextmanager
def dask_pool(address: str) -> Iterator[DaskPool]:
    """A :class:`DaskPool` on the scheduler at ``address`` (``--dask``),
    closed on the way out; an address that is no scheduler is an InputError."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--dask", "needs the dask extra: pip install 'evlogic[dask]'") from None
    try:
        client: _Client = Client(address, timeout="10s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as error:
        raise InputError(
            "--dask", f"cannot reach the scheduler at {address!r}: {_one_line(error)}"
        ) from None
    except Exception as error:  # distributed says "not a URL" in its own ways
        raise InputError(
            "--dask",
            f"{address!r} is not a scheduler address like tcp://HOST:8786 ({_one_line(error)})",
        ) from None
    try:
        yield DaskPool(client)
    finally:
        client.close()


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__
