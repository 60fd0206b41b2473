"""Balance statistics over batch output: is some home state too strong?

Reads the reports ``evlogic batch`` wrote (error lines are counted and
skipped), or the games ``evlogic balance --games-out`` wrote (each line's
final report), and aggregates their figures; no scoring happens here.  Whether
the regional bonus decided a game is a rule question: rules/stats/bonus_decided.lp
answers it, a chunk of games per grounding, from the reports' face EVs and
winners.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from evlogic.asp.solver import rule_paths, solve
from evlogic.errors import InputError, quote
from evlogic.loading.jsonkeys import DuplicateKey, loads
from evlogic.loading.jsonlines import numbered, utf8_line
from evlogic.loading.yamlfile import text_problem

#: Games per grounding of rules/stats/bonus_decided.lp (memory stays flat).
CHUNK_SIZE = 10_000

#: A figure must fit clingo's 32-bit integers.
_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class HomeStats:
    state: str
    games: int
    wins: float  # a k-way tie gives each winner 1/k
    win_rate: float
    mean_total: float
    mean_region_bonus: float
    mean_net_bonus: float


@dataclass(frozen=True)
class BatchStats:
    games: int
    errors: int
    bonus_decided: int  # games whose winners would differ with every bonus removed
    bonus_decided_share: float
    homes: list[HomeStats]  # by win rate, best first

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def batch_stats(lines: Iterable[str], source: str) -> BatchStats:
    games = errors = decided = 0
    count: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    facts: list[str] = []  # face_ev/3 and winner/2 of the games not yet asked about
    pending = 0
    for number, text in numbered(lines):
        try:
            report = _report(loads(utf8_line(text, source, number)))
        except DuplicateKey as duplicate:
            what = f"duplicate key {quote(duplicate.key)} (JSON would keep the last one)"
            field = f"{duplicate.field}: " if duplicate.field else ""
            raise InputError(source, f"not a batch report ({field}{what})", line=number) from None
        except (json.JSONDecodeError, ValueError, RecursionError) as error:
            what = "nests too deeply" if isinstance(error, RecursionError) else str(error)
            raise InputError(source, f"not a batch report ({what})", line=number) from None
        if report is None:
            errors += 1
            continue
        players, winners = report
        for index, (name, home, total, region_bonus, net_bonus, face_ev) in enumerate(players):
            count[home] += 1
            if name in winners:
                wins[home] += 1 / len(winners)
                facts.append(f"winner({pending},{index}).")
            figures = sums[home]
            figures[0] += total
            figures[1] += region_bonus
            figures[2] += net_bonus
            facts.append(f"face_ev({pending},{index},{face_ev}).")
        games += 1
        pending += 1
        if pending == CHUNK_SIZE:
            decided += _bonus_decided(facts)
            facts, pending = [], 0
    decided += _bonus_decided(facts)
    homes = [
        HomeStats(
            state=home,
            games=count[home],
            wins=round(wins[home], 6),
            win_rate=round(wins[home] / count[home], 6),
            mean_total=round(sums[home][0] / count[home], 3),
            mean_region_bonus=round(sums[home][1] / count[home], 3),
            mean_net_bonus=round(sums[home][2] / count[home], 3),
        )
        for home in count
    ]
    homes.sort(key=lambda h: (-h.win_rate, h.state))
    return BatchStats(games, errors, decided, round(decided / games, 6) if games else 0.0, homes)


#: What stats reads of a player's report: name, home, total, region bonus,
#: net bonus, face EV.
PlayerFigures = tuple[str, str, int, int, int, int]


def _report(value: object) -> tuple[list[PlayerFigures], set[str]] | None:
    """A batch report's players and winners; None for an error line
    (``{"line": n, "error": "..."}``); anything else batch never writes is
    a ValueError saying what is wrong."""
    if not isinstance(value, dict):
        raise ValueError(f"a JSON object, not {type(value).__name__}")
    final = value.get("final")
    if isinstance(final, dict) and "moves" in value:
        return _report(final)  # a game evlogic balance played (--games-out)
    if "error" in value:
        if not isinstance(value["error"], str):
            raise ValueError("error is not text")
        return None
    for key in ("players", "winners"):
        if key not in value:
            raise ValueError(f"no {quote(key)}")
    players, winners = value["players"], value["winners"]
    if not isinstance(players, list) or not players:
        raise ValueError("players is not a list of players")
    if not isinstance(winners, list) or not all(isinstance(w, str) for w in winners):
        raise ValueError("winners is not a list of names")
    read: list[PlayerFigures] = []
    for player in players:
        if not isinstance(player, dict):
            raise ValueError("a player is not a JSON object")
        name, home = player.get("name"), player.get("home")
        if not isinstance(name, str):
            raise ValueError(f"a player's name is not text: {quote(name)}")
        if not isinstance(home, str) or not home or text_problem(home) is not None:
            raise ValueError(f"home is not a state id: {quote(home)}")
        total, region_bonus, net_bonus, face_ev = (_figure(player, key) for key in FIGURES)
        read.append((name, home, total, region_bonus, net_bonus, face_ev))
    names = {player[0] for player in read}
    if not set(winners) <= names:
        strangers = ", ".join(quote(w, 20) for w in sorted(set(winners) - names))
        raise ValueError(f"winners [{strangers}] are not players")
    return read, set(winners)


FIGURES = ("total", "region_bonus", "net_bonus", "face_ev")


def _figure(player: dict[str, Any], key: str) -> int:
    if key not in player:
        raise ValueError(f"a player has no {quote(key)}")
    value = player[key]
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > _LIMIT:
        raise ValueError(f"{key} is not a whole number: {quote(value)}")
    return value


def _bonus_decided(facts: list[str]) -> int:
    """How many of these games the regional bonus decided (rules/stats/bonus_decided.lp)."""
    if not facts:
        return 0
    shown = solve("\n".join(facts), rule_paths(("stats/bonus_decided.lp",)))
    return sum(1 for symbol in shown if symbol.name == "bonus_decided")
