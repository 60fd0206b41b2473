"""Balance statistics over batch output: is some home state too strong?

Reads the reports ``evlogic batch`` wrote (error lines are counted and
skipped), or the games ``evlogic balance --games-out`` wrote (each line's
final report), and aggregates their figures; no scoring happens here.  Whether
the regional bonus decided a game is a rule question: rules/stats/bonus_decided.lp
answers it, a chunk of games per grounding, from the reports' face EVs and
winners.  The counting is balance's: each line's final report goes into
evlogic.reports.balance.Tally, the one tally of win shares, home sums and
bonus-decided games; this module only reads and checks the lines.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from evlogic.errors import InputError, quote
from evlogic.loading.jsonkeys import DuplicateKey, loads
from evlogic.loading.jsonlines import numbered, utf8_line
from evlogic.loading.yamlfile import text_problem
from evlogic.reports.balance import Final, FinalPlayer, Tally

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
    """The statistics of a batch output or a balance ``--games-out`` file:
    balance's tally (evlogic.reports.balance.Tally) over the lines' final
    reports, error lines counted and skipped."""
    tally = Tally("", means_wanted=False, chunk=CHUNK_SIZE)
    errors = 0
    for number, text in numbered(lines):
        try:
            final = _report(loads(utf8_line(text, source, number)))
        except DuplicateKey as duplicate:
            what = f"duplicate key {quote(duplicate.key)} (JSON would keep the last one)"
            field = f"{duplicate.field}: " if duplicate.field else ""
            raise InputError(source, f"not a batch report ({field}{what})", line=number) from None
        except (json.JSONDecodeError, ValueError, RecursionError) as error:
            what = "nests too deeply" if isinstance(error, RecursionError) else str(error)
            raise InputError(source, f"not a batch report ({what})", line=number) from None
        if final is None:
            errors += 1
            continue
        tally.add_final(final)
    tally.ask()
    games, decided = tally.games, tally.bonus_decided
    homes = [
        HomeStats(
            state=home,
            games=sums.games,
            wins=round(float(sums.wins), 6),
            win_rate=round(float(sums.wins / sums.games), 6),
            mean_total=round(sums.total / sums.games, 3),
            mean_region_bonus=round(sums.region_bonus / sums.games, 3),
            mean_net_bonus=round(sums.net_bonus / sums.games, 3),
        )
        for home, sums in tally.homes.items()
    ]
    homes.sort(key=lambda h: (-h.win_rate, h.state))
    return BatchStats(games, errors, decided, round(decided / games, 6) if games else 0.0, homes)


def _report(value: object) -> Final | None:
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
    read: list[FinalPlayer] = []
    for player in players:
        if not isinstance(player, dict):
            raise ValueError("a player is not a JSON object")
        name, home = player.get("name"), player.get("home")
        if not isinstance(name, str):
            raise ValueError(f"a player's name is not text: {quote(name)}")
        if not isinstance(home, str) or not home or text_problem(home) is not None:
            raise ValueError(f"home is not a state id: {quote(home)}")
        total, region_bonus, net_bonus, face_ev = (_figure(player, key) for key in FIGURES)
        read.append(FinalPlayer(name, home, total, face_ev, region_bonus, net_bonus))
    names = {player.name for player in read}
    if not set(winners) <= names:
        strangers = ", ".join(quote(w, 20) for w in sorted(set(winners) - names))
        raise ValueError(f"winners [{strangers}] are not players")
    return Final(tuple(read), frozenset(winners))


FIGURES = ("total", "region_bonus", "net_bonus", "face_ev")


def _figure(player: dict[str, Any], key: str) -> int:
    if key not in player:
        raise ValueError(f"a player has no {quote(key)}")
    value = player[key]
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > _LIMIT:
        raise ValueError(f"{key} is not a whole number: {quote(value)}")
    return value
