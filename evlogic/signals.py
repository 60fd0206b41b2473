"""Ending a command on a signal or at its deadline: the one place.

The command line (evlogic.cli) runs every command inside
:func:`terminate_raises`: SIGTERM then raises :class:`Terminated` in the
main thread, as Ctrl-C raises KeyboardInterrupt, so every command stops
the same way on either: its ``-o`` files are written whole or not at all
(evlogic.commands.output_file removes their temporary files), its worker
processes are ended (evlogic.batching.workers), and it exits with 143 (130 on
Ctrl-C).  Commands that play for long (balance, tune) run under
:func:`deadline`, which raises :class:`TimeUp` the same way when their
--timeout passes.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class Terminated(BaseException):
    """SIGTERM arrived: the command stops as it does on Ctrl-C (a
    BaseException, like KeyboardInterrupt, so that no ``except Exception``
    swallows it)."""


class TimeUp(BaseException):
    """The deadline of :func:`deadline` passed: the command stops as it
    does on Ctrl-C, and says what it finished."""


def _in_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def terminate_raises() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` in the main thread
    (outside the main thread, where no handler can be set: nothing)."""
    if not _in_main_thread():
        yield
        return

    again = _Again()

    def raise_terminated(signum: int, frame: object) -> None:
        if again.closed or isinstance(sys.exc_info()[1], Terminated):
            return  # stopping already: its clean-up runs on undisturbed
        again.start()
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        again.close()
        signal.signal(signal.SIGTERM, previous)


class _Again:
    """SIGTERM sent again every half second once one has arrived, until the
    command has stopped: a Terminated raised inside a finaliser (a clingo
    Control's ``__del__``) or a callback of clingo's is swallowed there, and
    the command would run on (as :func:`deadline` repeats its alarm).  The
    handler raises nothing while a Terminated is being handled (the
    command's clean-up, as it stops), nor once closed; sending holds the
    lock that :meth:`close` takes, so no signal is sent once the previous
    handler is back."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.closed = False
        self._started = False

    def start(self) -> None:
        if not self._started:
            self._started = True
            threading.Thread(target=self._send, name="sigterm-again", daemon=True).start()

    def _send(self) -> None:
        while True:
            time.sleep(0.5)
            with self._lock:
                if self.closed:
                    return
                os.kill(os.getpid(), signal.SIGTERM)

    def close(self) -> None:
        self.closed = True  # first: a signal handled while waiting raises nothing
        with self._lock:
            pass


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """While inside, :class:`TimeUp` is raised in the main thread once
    ``seconds`` have passed (a real-time timer, SIGALRM: it also ends a
    wait for worker processes).  None, or outside the main thread: no
    limit."""
    if seconds is None or not _in_main_thread():
        yield
        return

    def raise_time_up(signum: int, frame: object) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, raise_time_up)
    # Every half second once past it: a TimeUp raised inside a callback of
    # clingo's (a grounder's @-function) can be lost there, never this run.
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
