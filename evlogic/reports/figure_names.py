"""The balance report's figures named in words, for the text report and the
page alike: one naming, two lengths."""

from __future__ import annotations

from collections.abc import Mapping

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
