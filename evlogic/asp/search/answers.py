"""The words of a search: its answer, and how each of its solves ended.

Both are ``StrEnum``: a member is its word, so JSON and text show the
word as before, and a member compares equal to it.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum


class Answer(StrEnum):
    """A search's answer, as check words it (diff says "differs" and
    "equivalent" for the first two, evlogic.reports.diff.Difference).  A
    ``StrEnum``: its value is the word, in JSON and in text."""

    HOLDS = "holds"
    COUNTEREXAMPLE = "counterexample"
    UNKNOWN = "unknown"


class Ended(StrEnum):
    """How one solve ended (:meth:`RunningSearch.each_model`, the one loop
    every solve of a search runs): its visitor took a model (FOUND), the
    solver went through every model there is (NONE: none at all, none
    better, every part visited), the including search proved there is
    none first (WITHIN), the caller's ``stop()`` said so (STOPPED), or the
    deadline or the request's stop came first (UNKNOWN)."""

    FOUND = "found"
    NONE = "none"
    WITHIN = "within"
    STOPPED = "stopped"
    UNKNOWN = "unknown"


def halting(stop: Callable[[], bool]) -> Callable[[], Ended | None]:
    """A halt() for RunningSearch.each_model: STOPPED once ``stop()`` says so."""
    return lambda: Ended.STOPPED if stop() else None
