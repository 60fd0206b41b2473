"""Balance statistics over batch output: is some home state too strong?

Reads the reports ``evlogic batch`` wrote (error lines are counted and
skipped) and aggregates their figures; no scoring happens here.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from evlogic.errors import InputError


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
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            report = json.loads(text)
            if "error" in report:
                errors += 1
                continue
            players, winners = report["players"], set(report["winners"])
            best_face = max(player["face_ev"] for player in players)
            for player in players:
                home = player["home"]
                count[home] += 1
                if player["name"] in winners:
                    wins[home] += 1 / len(winners)
                figures = sums[home]
                figures[0] += player["total"]
                figures[1] += player["region_bonus"]
                figures[2] += player["net_bonus"]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise InputError(source, f"not a batch report ({error})", line=number) from None
        games += 1
        if {p["name"] for p in players if p["face_ev"] == best_face} != winners:
            decided += 1
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
