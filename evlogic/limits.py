"""Time and memory limits for every command that solves.

clingo grounds and solves in C++ with the GIL released, and its grounding
cannot be interrupted.  So a command runs in a worker thread while the main
thread waits in short steps: Ctrl-C is honoured within a fraction of a
second, and a deadline is honoured even while clingo is still grounding
(the command line then leaves without waiting for the thread, see
:func:`leave`).  Work that is given up on is told so: its solves are
interrupted (each control it made is :func:`watch`-ed) and it ends at its
next :func:`checkpoint` (evlogic.asp.solver.ground has one before and
after each grounding step), touching nothing shared on the way: the
grounding step under way is the one thing that runs on.  Memory is capped
with ``RLIMIT_AS``: past it, clingo and Python raise ``MemoryError``, which
the command line reports in one line.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import resource
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Protocol, TypeVar

from evlogic.errors import quote

#: Default memory limit of a command (address space, MiB): far above what any
#: bundled board needs, far below what brings a 24 GB machine to its knees.
DEFAULT_MEMORY_MB = 4096

#: Address space of each of evlogic serve's workers, MiB
#: (``--worker-memory-limit``): the densest board a request may send
#: (evlogic.web.admission.MAX_COST: a complete graph of 100 states, every
#: state owned) scores in about 500 MB.
DEFAULT_WORKER_MEMORY_MB = 1024

#: The largest time limit an option accepts (about eleven days).
MAX_SECONDS = 1e6

#: How often the waiting thread wakes up to look at Ctrl-C and the clock.
POLL = 0.05

T = TypeVar("T")


class OutOfTime(Exception):
    """The deadline passed before the work finished (it may still be running)."""


class Abandoned(BaseException):
    """Raised at a :func:`checkpoint` of work whose caller stopped waiting
    for it: the work ends there (a BaseException, so that no ``except
    Exception`` on the way turns it into an answer)."""


class Interruptible(Protocol):
    def interrupt(self) -> None: ...


class _Stop:
    """Whether the work of one :func:`call_before` was given up on, and the
    controls to interrupt when it is; work nested in it (a call_before
    inside the work) is given up on with it."""

    def __init__(self, parent: _Stop | None) -> None:
        self.event = threading.Event()
        self.parent = parent
        self.controls: weakref.WeakSet[Interruptible] = weakref.WeakSet()
        self.children: weakref.WeakSet[_Stop] = weakref.WeakSet()
        if parent is not None:
            parent.children.add(self)

    def stopped(self) -> bool:
        return self.event.is_set() or (self.parent is not None and self.parent.stopped())

    def stop(self) -> None:
        self.event.set()
        for control in list(self.controls):
            control.interrupt()  # thread-safe in clingo; the next solve too if none runs
        for child in list(self.children):
            child.stop()


_current = threading.local()  # .stop: the _Stop of the work this thread runs


def _stop_here() -> _Stop | None:
    return getattr(_current, "stop", None)


def watch(control: Interruptible) -> None:
    """Interrupt ``control``'s solving (running or next) when the work this
    thread runs for :func:`call_before` is given up on."""
    stop = _stop_here()
    if stop is not None:
        stop.controls.add(control)
        if stop.stopped():
            control.interrupt()


def checkpoint() -> None:
    """Abandoned, when the work this thread runs was given up on."""
    stop = _stop_here()
    if stop is not None and stop.stopped():
        raise Abandoned


def seconds(text: str) -> float:
    """An argparse type: a time limit, finite, above 0, at most MAX_SECONDS."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_SECONDS:  # (false for nan)
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds above 0 and at most {MAX_SECONDS:,.0f}, not {quote(text)}"
        )
    return value


def megabytes(text: str) -> int:
    """An argparse type: a memory limit in MiB, at least 256."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of MiB, not {quote(text)}"
        ) from None
    if not 256 <= value <= 1 << 30:
        raise argparse.ArgumentTypeError(
            f"must be between 256 and {1 << 30} MiB, not {quote(text)}"
        )
    return value


def add_memory_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--memory-limit",
        type=megabytes,
        default=DEFAULT_MEMORY_MB,
        metavar="MB",
        help=f"address space the command may use, in MiB (default {DEFAULT_MEMORY_MB}); "
        "past it the command stops with an error",
    )


def add_time_option(command: argparse.ArgumentParser, default: float) -> None:
    command.add_argument(
        "--timeout",
        type=seconds,
        default=default,
        metavar="S",
        help=f"seconds the command may take, grounding included (default {default:g}); "
        "past it the command stops with an error",
    )


def limit_memory(megabytes: int) -> None:
    """Cap this process's address space (children inherit the cap)."""
    cap = megabytes << 20
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def call_before(deadline: float, work: Callable[[], T]) -> T:
    """``work()`` in a worker thread, waited for until ``deadline``
    (time.monotonic()); its exception is raised here.  OutOfTime when the
    deadline passes first: the work is given up on (its solves interrupted,
    Abandoned at its next :func:`checkpoint`), and only a grounding step
    under way goes on, on the worker thread, which then ends; the command
    line leaves at once instead (:func:`leave`).  Ctrl-C in the waiting
    thread interrupts the wait, and gives the work up too."""
    box: dict[str, object] = {}
    stop = _Stop(_stop_here())

    def run() -> None:
        _current.stop = stop
        try:
            box["value"] = work()
        except Abandoned:  # no one waits for it
            pass
        except BaseException as error:  # handed to the waiting thread
            box["error"] = error

    worker = threading.Thread(target=run, name="evlogic-work", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            left = deadline - time.monotonic()
            if left <= 0:
                raise OutOfTime
            worker.join(min(POLL, left))
    except BaseException:  # out of time, or Ctrl-C
        stop.stop()
        raise
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]  # type: ignore[return-value]


def leave(status: int) -> None:
    """End the process now with ``status``: output flushed, no wait for
    worker threads still inside clingo (an unfinished grounding cannot be
    stopped, and interpreter shutdown would wait for it or crash under it)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)


def busy() -> bool:
    """Worker threads are still running (the process must :func:`leave`)."""
    return any(thread.name.startswith("evlogic-work") for thread in threading.enumerate())
