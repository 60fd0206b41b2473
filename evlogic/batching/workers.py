"""Worker processes that never lose a task: one pipe per worker.

Batch needs three things of its workers that ``concurrent.futures`` cannot
give: to know which task a worker that died was running (so that only that
task is retried), to stop one task that runs too long, and never to hang.
In ``ProcessPoolExecutor`` a dead worker breaks the whole pool, and with
``max_tasks_per_child`` it deadlocks on Python 3.11 to 3.13: a worker that
retires is sometimes never replaced (CPython gh-115634), and after
``shutdown(wait=False)`` the interpreter hangs at exit (gh-119592).  That
was the hang batch showed in 2 of 5 runs.

On Linux, workers are forked while the parent runs a single thread (ready
in milliseconds, with the parent's modules imported); they are spawned
otherwise.

Here every worker has a pipe of its own and holds at most one task, so the
parent always knows who holds what.  A worker that dies, or runs past the
time limit (and is killed), is replaced, and its task comes back as
:class:`Lost`.  No lock is shared between processes, so a worker killed at
any moment cannot block the others; a worker whose parent is gone reads
end-of-file and exits, and on Linux is killed with it (PR_SET_PDEATHSIG:
it does not finish the task it holds first).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

#: Workers that die before they are ready, in a row, before the pool gives
#: up (a worker killed from outside as it starts is retried).
START_FAILURES = 5

#: The longest single wait (select's timeout must fit a C int of milliseconds).
MAX_WAIT = 3600.0


@dataclass(frozen=True)
class Lost:
    """A task whose worker died or ran out of time, and why (a phrase:
    "took longer than 60 s", "ended its worker process (killed by SIGKILL)")."""

    reason: str
    timed_out: bool = False


class WorkersFailed(RuntimeError):
    """Worker processes die as they start: nothing can be run."""


@dataclass
class _Task:
    key: Hashable
    function: Callable[..., Any]
    args: tuple[Any, ...]


@dataclass
class _Worker:
    process: Any  # multiprocessing.Process (fork or spawn context)
    conn: Connection
    ready: bool = False
    task: _Task | None = None
    deadline: float = float("inf")
    done: int = 0


class _Ready:
    """Sent once by a worker when its initializer has run."""


class _Raised:
    """Sent instead of a result when the task raised (tasks should not)."""

    def __init__(self, description: str) -> None:
        self.description = description


def _serve(
    conn: Connection,
    initializer: Callable[..., None] | None,
    initargs: tuple[Any, ...],
    tasks: int,
    inherited: tuple[Connection, ...] = (),
    parent: int | None = None,
) -> None:
    """A worker's life: initialise, then run up to ``tasks`` tasks.

    A forked worker first lets go of what it inherited from the parent: the
    parent's ends of the pipes, its own and the other workers' (``inherited``;
    held here, they would keep a worker whose parent is gone from reading
    end-of-file), the parent's signal handlers, and its standard streams (a
    worker never writes to them, and must never flush a line the parent has
    buffered).  It dies with the parent (``parent``, its process id).
    """
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for other in inherited:
        other.close()
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the worker's life)
    if initializer is not None:
        initializer(*initargs)
    conn.send(_Ready())
    for _ in range(tasks):
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        function, args = message
        try:
            result = function(*args)
        except BaseException as error:
            result = _Raised(type(error).__name__)
        try:
            conn.send(result)
        except (EOFError, OSError):
            return


#: prctl's option: the signal a process gets when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _die_with(parent: int | None) -> None:
    """On Linux, SIGKILL this process when the thread that started it ends
    (the parent killed, or leaving without waiting for its workers); if
    the parent is already gone, end now."""
    if parent is None or not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: end-of-file on the pipe still ends it
        return
    if os.getppid() != parent:  # it died before the call above
        os._exit(1)


class Workers:
    """Up to ``jobs`` worker processes; each runs ``tasks_per_worker`` tasks
    and is replaced (a fresh process gives back all its memory).

    :meth:`submit` queues a task under a key; :meth:`next_result` waits for
    any task to finish and returns ``(key, result)``, the result a
    :class:`Lost` when the worker died or the task took longer than
    ``timeout`` seconds (``death_note`` is added to the reason a worker
    died: what the caller knows of why it may have).  Use as a context
    manager: leaving it kills every worker, whatever is running.
    """

    def __init__(
        self,
        jobs: int,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        tasks_per_worker: int = 8,
        timeout: float | None = None,
        death_note: str = "",
    ) -> None:
        self._jobs = jobs
        self._death_note = death_note
        self._initializer = initializer
        self._initargs = initargs
        self._tasks_per_worker = tasks_per_worker
        self._timeout = timeout
        import multiprocessing  # here: `evlogic score` need not import it

        self._multiprocessing = multiprocessing
        self._queue: deque[_Task] = deque()
        self._workers: list[_Worker] = []
        self._retiring: list[Any] = []  # processes that ran their tasks and are exiting
        self._results: deque[tuple[Hashable, Any]] = deque()
        self._start_failures = 0

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def submit(
        self, key: Hashable, function: Callable[..., Any], *args: Any, first: bool = False
    ) -> None:
        """Queue a task; ``first`` puts it before every task queued so far."""
        task = _Task(key, function, args)
        if first:
            self._queue.appendleft(task)
        else:
            self._queue.append(task)

    def next_result(self) -> tuple[Hashable, Any]:
        """The next task to finish, as ``(key, result or Lost)``; blocks."""
        while not self._results:
            if not self._queue and not any(w.task for w in self._workers):
                raise LookupError("no task is queued or running")
            self._start_and_dispatch()
            self._wait()
        return self._results.popleft()

    def close(self) -> None:
        """Kill every worker (running or not) and wait for them to go; a
        second Ctrl-C or SIGTERM meanwhile waits until they are gone."""
        held = {signal.SIGINT, signal.SIGTERM}
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            processes = [w.process for w in self._workers] + self._retiring
            for process in processes:
                if process.exitcode is None:
                    process.kill()
            for process in processes:
                process.join(5)
            for worker in self._workers:
                worker.conn.close()
            self._workers, self._retiring = [], []
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    # --- the parent's side ---------------------------------------------

    def _start_and_dispatch(self) -> None:
        waiting = len(self._queue) - sum(w.ready and w.task is None for w in self._workers)
        while waiting > 0 and len(self._workers) < self._jobs:
            self._start()
            waiting -= 1
        self._dispatch()

    def _dispatch(self) -> None:
        """Queued tasks to idle workers (also as soon as a result comes in,
        so a worker does not wait while the parent writes)."""
        for worker in list(self._workers):
            if worker.ready and worker.task is None and self._queue:
                task = self._queue.popleft()
                try:
                    worker.conn.send((task.function, task.args))
                except (OSError, ValueError):  # it died: the task was never run
                    self._queue.appendleft(task)
                    self._drop(worker)
                    continue
                worker.task = task
                if self._timeout is not None:
                    worker.deadline = time.monotonic() + self._timeout

    def _start(self) -> None:
        # Forked, a worker starts in milliseconds with the parent's modules
        # imported (spawned, it imports them again: ~0.2 s of CPU a worker).
        # Forking is safe only while this process runs a single thread; a
        # process with threads (a test runner, a server) spawns, and so does
        # every process off Linux (macOS's system libraries are not
        # fork-safe, which is why CPython spawns there by default).
        forking = sys.platform.startswith("linux") and threading.active_count() == 1
        get_context = self._multiprocessing.get_context
        context = get_context("fork") if forking else get_context("spawn")
        parent, child = context.Pipe()
        inherited = (parent, *(w.conn for w in self._workers)) if forking else ()
        process = context.Process(
            target=_serve,
            args=(
                child,
                self._initializer,
                self._initargs,
                self._tasks_per_worker,
                inherited,
                os.getpid(),
            ),
            daemon=True,
        )
        try:
            process.start()
        except OSError:  # it died before it had its instructions (killed, say)
            parent.close()
            child.close()
            self._start_failed("it died as it started")
            return
        child.close()
        self._workers.append(_Worker(process, parent))

    def _start_failed(self, how: str) -> None:
        self._start_failures += 1
        if self._start_failures >= START_FAILURES:
            self.close()
            raise WorkersFailed(f"worker processes end as they start ({how})")

    def _wait(self) -> None:
        import multiprocessing.connection

        self._reap_retired()
        now = time.monotonic()
        deadline = min((w.deadline for w in self._workers if w.task), default=float("inf"))
        timeout = min(max(0.0, deadline - now), MAX_WAIT)
        handles: list[Any] = [w.conn for w in self._workers]
        handles += [w.process.sentinel for w in self._workers]
        handles += [process.sentinel for process in self._retiring]
        ready = set(multiprocessing.connection.wait(handles, timeout))
        for worker in list(self._workers):
            if worker.conn in ready:
                self._receive(worker)
            elif worker.process.sentinel in ready:
                self._died(worker)
        self._dispatch()
        now = time.monotonic()
        for worker in list(self._workers):
            if worker.task is not None and worker.deadline <= now:
                worker.process.kill()
                worker.process.join(5)
                self._lose(worker, f"took longer than {self._timeout:g} s", timed_out=True)

    def _receive(self, worker: _Worker) -> None:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            self._died(worker)
            return
        if isinstance(message, _Ready):
            worker.ready = True
            self._start_failures = 0
            return
        task, worker.task, worker.deadline = worker.task, None, float("inf")
        if task is None:  # a worker speaks only when spoken to
            return
        if isinstance(message, _Raised):
            message = Lost(f"failed in its worker process ({message.description})")
        self._results.append((task.key, message))
        worker.done += 1
        if worker.done >= self._tasks_per_worker:  # it exits by itself
            self._workers.remove(worker)
            worker.conn.close()
            self._retiring.append(worker.process)

    def _died(self, worker: _Worker) -> None:
        worker.process.join(5)
        code = worker.process.exitcode
        if code is not None and code < 0:
            try:
                how = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"killed by signal {-code}"
        else:
            how = f"exit status {code}"
        if not worker.ready:
            self._start_failed(how)
        self._lose(worker, f"ended its worker process ({how}{self._death_note})")

    def _lose(self, worker: _Worker, reason: str, timed_out: bool = False) -> None:
        if worker.task is not None:
            self._results.append((worker.task.key, Lost(reason, timed_out)))
        self._drop(worker)

    def _drop(self, worker: _Worker) -> None:
        if worker.process.exitcode is None:
            worker.process.kill()
            worker.process.join(5)
        worker.conn.close()
        self._workers.remove(worker)

    def _reap_retired(self) -> None:
        for process in list(self._retiring):
            if process.exitcode is not None:
                process.join()
                self._retiring.remove(process)
