"""Balance statistics over batch output: is some home state too strong?

Reads the reports ``evlogic batch`` wrote (error lines are counted and
skipped) and aggregates their figures; no scoring happens here.  Whether
the regional bonus decided a game is a rule question: rules/bonus_decided.lp
answers it, a chunk of games per grounding, from the reports' face EVs and
winners.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from evlogic.errors import InputError, quote
from evlogic.jsonlines import numbered, utf8_line
from evlogic.solver import rule_paths, solve
from evlogic.yamlfile import is_unicode

#: Games per grounding of rules/bonus_decided.lp (memory stays flat).
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
            report = json.loads(utf8_line(text, source, number))
            if "error" in report:
                errors += 1
                continue
            players, winners = report["players"], set(report["winners"])
            names = [player["name"] for player in players]
            if not winners <= set(names):
                raise ValueError(f"winners {sorted(winners - set(names))} are not players")
            for index, player in enumerate(players):
                home = player["home"]
                if not isinstance(home, str) or not is_unicode(home):
                    raise ValueError(f"home is not a state id: {quote(home)}")
                count[home] += 1
                if player["name"] in winners:
                    wins[home] += 1 / len(winners)
                    facts.append(f"winner({pending},{index}).")
                figures = sums[home]
                figures[0] += _figure(player, "total")
                figures[1] += _figure(player, "region_bonus")
                figures[2] += _figure(player, "net_bonus")
                facts.append(f"face_ev({pending},{index},{_figure(player, 'face_ev')}).")
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise InputError(source, f"not a batch report ({error})", line=number) from None
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


def _figure(player: dict, key: str) -> int:
    value = player[key]
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > _LIMIT:
        raise ValueError(f"{key} is not a whole number: {quote(value)}")
    return value


def _bonus_decided(facts: list[str]) -> int:
    """How many of these games the regional bonus decided (rules/bonus_decided.lp)."""
    if not facts:
        return 0
    return len(solve("\n".join(facts), rule_paths(("bonus_decided.lp",))))
