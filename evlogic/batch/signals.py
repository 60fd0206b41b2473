"""Ending a batch on a signal: SIGTERM stops it as Ctrl-C does."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


class Terminated(BaseException):
    """SIGTERM arrived: the batch stops as it does on Ctrl-C (a BaseException,
    like KeyboardInterrupt, so that no ``except Exception`` swallows it)."""


@contextmanager
def terminate_raises() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` in the main thread,
    so that workers are ended and the output closed on whole lines."""

    def raise_terminated(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
