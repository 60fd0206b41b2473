"""The shown atoms of a chunk's model (rules/batch/output.lp), read back as rows."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rows:
    """The shown atoms of a chunk's model (rules/batch/output.lp), keyed by
    their position and player as written (``"12,3"``: G,P) and their other
    numbers left as text: the report lines copy them as they are (parsing
    them costs more than the rest)."""

    won: dict[str, str]  # "G" -> "N,Final"
    figures: dict[str, str]  # "G,P" -> "Total,Face,Penalty,Bonus,Net,S012,S345,S6"
    winners: set[str]  # "G,P"
    cores: dict[str, str]  # "G,P" -> "A,B"
    joined: list[tuple[str, str, str]]  # ("G,P", S, Layer)
    sieges: list[tuple[str, str]]  # ("G,P", "K,S012,S345,S6"): blocks before the last


def read_rows(shown: str) -> Rows:
    """The rows of evlogic.asp.compiled.chunk.solve's text,
    ``(won(0,36,1),figures(0,0,...),...)`` (split in C, each atom looked at
    once: a regular expression a predicate scans the whole text each, three
    times as slow)."""
    rows = Rows({}, {}, set(), {}, [], [])
    inner = shown[1:-1].removesuffix(",")  # a tuple of one atom ends in ",)"
    if not inner:
        return rows
    won, figures, winners, cores = rows.won, rows.figures, rows.winners, rows.cores
    for atom in inner[:-1].split("),"):
        name, _, arguments = atom.partition("(")
        if name == "figures":  # the most frequent first: a row a player
            position, player, numbers = arguments.split(",", 2)
            figures[f"{position},{player}"] = numbers
        elif name == "winner":
            winners.add(arguments)
        elif name == "won":
            position, numbers = arguments.split(",", 1)
            won[position] = numbers
        elif name == "core":
            position, player, numbers = arguments.split(",", 2)
            cores[f"{position},{player}"] = numbers
        elif name == "joined":
            position, player, state, layer = arguments.split(",")
            rows.joined.append((f"{position},{player}", state, layer))
        elif name == "face_upto":  # a board of several blocks only
            position, player, numbers = arguments.split(",", 2)
            rows.sieges.append((f"{position},{player}", numbers))
    return rows
