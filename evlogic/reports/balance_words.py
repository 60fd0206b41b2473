"""The balance report's figures in words, for the text report
(evlogic.reports.balance_text) and the page (evlogic.pages.balance) alike:
the rows' names (one naming, two lengths), rates and differences."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The means' names on the page (and its table's columns), by report key.
MEAN_NAMES = {
    "face_ev": "Face EV",
    "region_size": "Region size (states)",
    "region_bonus": "Regional bonus",
    "siege_penalty": "Siege penalty",
    "total": "Total",
}


def figure_name(figure: Mapping[str, object], *, long: bool = False) -> str:
    """A figure of a balance difference (``{"figure": "seat_win_rate",
    "seat": 1}``, ``{"figure": "mean", "of": "face_ev"}``, ...) in words:
    short and lower case for the text report ("seat 1 win rate", "mean face
    ev"), or ``long`` for the page, capitalised and with the means' page
    names ("Seat 1 win rate", "Mean face EV").  An agent's name is kept as
    it is either way ("greedy win rate")."""
    kind = str(figure["figure"])
    if kind == "agent_win_rate":
        return f"{figure['agent']} win rate"
    if kind == "seat_win_rate":
        words = f"seat {figure['seat']} win rate"
    elif kind == "mean":
        of = str(figure["of"])
        if long:
            words = f"mean {MEAN_NAMES[of][0].lower()}{MEAN_NAMES[of][1:]}"
        else:
            words = f"mean {of.replace('_', ' ')}"
    else:
        words = kind.replace("_", " ")
    return words[0].upper() + words[1:] if long else words


def percent(value: float) -> str:
    """A proportion as a percentage, one decimal ("41.7%")."""
    return f"{100 * value:.1f}%"


def rate(entry: Mapping[str, Any]) -> str:
    """A rate with its interval: "41.7% [30.1%, 54.2%]"."""
    return f"{percent(entry['rate'])} [{percent(entry['low'])}, {percent(entry['high'])}]"


def difference_text(figure: Mapping[str, Any]) -> str:
    """A difference row's value with its interval: a mean's in its own
    units ("+0.25 [-1.10, +1.60]"), a rate's in percentage points
    ("+4.2 points [-1.0, +9.4]")."""
    if figure["figure"] == "mean":
        return f"{figure['difference']:+.2f} [{figure['low']:+.2f}, {figure['high']:+.2f}]"
    return (
        f"{100 * figure['difference']:+.1f} points "
        f"[{100 * figure['low']:+.1f}, {100 * figure['high']:+.1f}]"
    )
