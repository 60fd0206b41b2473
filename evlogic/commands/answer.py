"""The one answer a command prints: the one it finished, or the one so far.

A command whose ``--timeout`` bounds a search (check, diff) owns its
deadline: its searches stop themselves there, interrupting clingo, and hand
back what they found.  The command line's watchdog (evlogic.cli) waits a
little longer, for work that cannot look at the clock (a grounding, which
clingo cannot interrupt); when it fires, it asks the command's
:class:`Answer` for the answer so far, and prints that, in the command's
own report format, instead of a bare error line.  Either the command's
answer or the watchdog's is printed, whole, never both.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

#: Seconds the watchdog waits for a command that is writing its answer
#: already (a reader that does not read keeps it waiting; then one line).
WRITING = 1.0


class Answer:
    """What a command prints, once.  ``so_far`` (set by the command as soon
    as it runs) prints the answer so far and returns its exit status."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._status: int | None = None
        self.so_far: Callable[[], int] | None = None

    def give(self, write: Callable[[], int]) -> int:
        """``write()`` the answer and return its exit status, unless an
        answer so far was printed first: then that one's status."""
        with self._lock:
            if self._status is None:
                self._status = write()
            return self._status

    def give_so_far(self) -> int | None:
        """The answer so far printed (its exit status, or the status of the
        answer printed already); None when the command has none to give."""
        if self.so_far is None or not self._lock.acquire(timeout=WRITING):
            return None
        try:
            if self._status is None:
                self._status = self.so_far()
            return self._status
        finally:
            self._lock.release()
