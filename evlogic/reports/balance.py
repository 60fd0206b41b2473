"""The balance report: what many played games say about a rule set, each
figure with a 95% confidence interval.

Summed up from the games' records (evlogic.play.balance; the lines
``--games-out`` writes), so the report recomputed from that file is the
report.  No game is scored here: winners and figures are the final score
reports'; whether the bonus or the siege decided a game is
rules/stats/bonus_decided.lp's answer.  Intervals: Wilson for proportions
(statsmodels), Student's t for means (scipy), over games, which are
independent (the players of one game are not, so a mean over players is
first taken within each game).  Differences between rule sets are paired
by game: game ``i`` has the same deal and seed under every rule set.
"""

from __future__ import annotations

import math
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evlogic.asp.solver import rule_paths, solve

#: The confidence level of every interval.
LEVEL = 0.95

#: Games a grounding of rules/stats/bonus_decided.lp asks about.
DECIDED_CHUNK = 2_000

#: The means the report gives, each from the final report's players.
MEANS = ("face_ev", "region_size", "region_bonus", "siege_penalty", "total")

Record = dict[str, Any]


@dataclass
class Tally:
    """One rule set's games, as the figures need them (per game where an
    interval or a paired difference needs it)."""

    rules: str
    games: int = 0
    seats: int = 0
    #: Per game, in columns of numbers (memory: 8 bytes a figure a game).
    seat_shares: list[array[float]] = field(default_factory=list)  # seat -> game -> share
    agent_shares: dict[str, array[float]] = field(default_factory=dict)  # agent -> game -> share
    means: list[array[float]] = field(default_factory=lambda: [array("d") for _ in MEANS])
    bonus_decided: array[int] = field(default_factory=lambda: array("b"))
    siege_decided: array[int] = field(default_factory=lambda: array("b"))
    #: Over all games.
    homes: dict[str, list[float]] = field(default_factory=lambda: defaultdict(lambda: [0, 0.0]))
    turns: dict[str, array[int]] = field(default_factory=lambda: defaultdict(lambda: array("i")))
    agent_seats: dict[str, int] = field(default_factory=dict)  # seats each agent plays
    #: (final total, won) -> players who ended a game so: the distribution of totals.
    totals: Counter[tuple[int, bool]] = field(default_factory=Counter)
    finals: list[dict[str, Any]] = field(default_factory=list)  # not yet asked about

    def add(self, record: Record) -> None:
        final = record["final"]
        players = final["players"]
        winners = set(final["winners"])
        share = 1 / len(winners)
        if not self.seat_shares:
            self.seats = len(players)
            self.seat_shares = [array("d") for _ in players]
        by_agent: dict[str, list[float]] = defaultdict(list)
        for seat, (player, seated) in enumerate(zip(players, record["players"], strict=True)):
            won = share if player["name"] in winners else 0.0
            self.seat_shares[seat].append(won)
            by_agent[seated["agent"]].append(won)
            home = self.homes[player["home"]]
            home[0] += 1
            home[1] += won
            self.totals[int(player["total"]), player["name"] in winners] += 1
        for agent, shares in by_agent.items():
            self.agent_shares.setdefault(agent, array("d")).append(math.fsum(shares) / len(shares))
            self.agent_seats[agent] = len(shares)
        for column, name in zip(self.means, MEANS, strict=True):
            column.append(sum(_figure(player, name) for player in players) / len(players))
        for move in record["moves"]:
            self.turns[move["state"]].append(move["turn"])
        self.games += 1
        self.finals.append(final)
        if len(self.finals) == DECIDED_CHUNK:
            self.ask()

    def ask(self) -> None:
        """Whether the bonus and the siege decided the games not yet asked about."""
        if not self.finals:
            return
        bonus, siege = decided(self.finals)
        self.bonus_decided.extend(bonus)
        self.siege_decided.extend(siege)
        self.finals = []


def _figure(player: dict[str, Any], name: str) -> int:
    return len(player["region"]) if name == "region_size" else int(player[name])


def decided(finals: Sequence[dict[str, Any]]) -> tuple[list[bool], list[bool]]:
    """For each final report: did the bonus decide it, did the siege?"""
    facts = []
    for game, final in enumerate(finals):
        winners = set(final["winners"])
        for index, player in enumerate(final["players"]):
            facts.append(f"face_ev({game},{index},{int(player['face_ev'])}).")
            facts.append(f"region_bonus({game},{index},{int(player['region_bonus'])}).")
            if player["name"] in winners:
                facts.append(f"winner({game},{index}).")
    shown = solve("\n".join(facts), rule_paths(("stats/bonus_decided.lp",)))
    bonus = {s.arguments[0].number for s in shown if s.name == "bonus_decided"}
    siege = {s.arguments[0].number for s in shown if s.name == "siege_decided"}
    return [g in bonus for g in range(len(finals))], [g in siege for g in range(len(finals))]


# --- intervals -------------------------------------------------------------------------


def _round(value: float) -> float:
    return round(float(value), 6)


def proportion(successes: float, trials: int) -> dict[str, float]:
    """A rate with its Wilson interval (``successes`` may be fractional:
    a k-way tie gives each winner 1/k)."""
    from statsmodels.stats.proportion import proportion_confint

    if trials == 0:
        return {"rate": 0.0, "low": 0.0, "high": 1.0}
    low, high = proportion_confint(successes, trials, alpha=1 - LEVEL, method="wilson")
    return {"rate": _round(successes / trials), "low": _round(low), "high": _round(high)}


def mean(values: Sequence[float]) -> dict[str, float]:
    """A mean with its Student's t interval (a single value, or values all
    alike: the interval is the value)."""
    import numpy
    from scipy import stats

    n = len(values)
    centre = math.fsum(values) / n if n else 0.0
    if n < 2:
        return {"value": _round(centre), "low": _round(centre), "high": _round(centre)}
    error = float(stats.sem(numpy.asarray(values, dtype=float)))
    if error == 0 or math.isnan(error):
        return {"value": _round(centre), "low": _round(centre), "high": _round(centre)}
    low, high = stats.t.interval(LEVEL, n - 1, loc=centre, scale=error)
    return {"value": _round(centre), "low": _round(low), "high": _round(high)}


# --- the report ------------------------------------------------------------------------


@dataclass(frozen=True)
class BalanceHeading:
    """What the run was: the top of the report."""

    board: str
    players: int
    agents: tuple[str, ...]
    order: str
    games: int
    seed: int


def balance_report(heading: BalanceHeading, records: Iterable[Record]) -> dict[str, Any]:
    """The ``balance --format json`` document (docs/formats.md) from the
    games' records, rule set by rule set in the order first seen."""
    tallies: dict[str, Tally] = {}
    for record in records:
        name = record["rules"]
        if name not in tallies:
            tallies[name] = Tally(name)
        tallies[name].add(record)
    for tally in tallies.values():
        tally.ask()
    sets = [rule_set_figures(tally, heading.players) for tally in tallies.values()]
    ordered = list(tallies.values())
    return {
        "board": heading.board,
        "players": heading.players,
        "agents": list(heading.agents),
        "order": heading.order,
        "games": heading.games,
        "seed": heading.seed,
        "level": LEVEL,
        "rule_sets": sets,
        "differences": [_difference(ordered[0], other) for other in ordered[1:]],
    }


def rule_set_figures(tally: Tally, players: int) -> dict[str, Any]:
    games = tally.games
    fair = 1 / players
    seats = [
        {"seat": seat + 1, **proportion(math.fsum(tally.seat_shares[seat]), games)}
        for seat in range(players)
    ]
    first = seats[0]
    homes = []
    for home in sorted(tally.homes):
        count, wins = tally.homes[home]
        rate = proportion(wins, int(count))
        verdict = _verdict(wins, int(count), fair, len(tally.homes))
        homes.append({"home": home, "games": int(count), **rate, "verdict": verdict})
    agents = sorted(tally.agent_seats)
    agent_rates = []
    for agent in agents:
        shares = tally.agent_shares[agent]
        seat_count = tally.agent_seats[agent]
        trials = games * seat_count
        agent_rates.append({"agent": agent, **proportion(math.fsum(shares) * seat_count, trials)})
    desirability = [
        {"state": state, "games": len(turns), **_mean_turn(turns)}
        for state, turns in sorted(tally.turns.items(), key=_by_mean_turn)
    ]
    return {
        "rules": tally.rules,
        "games": games,
        "seat_win_rate": seats,
        "first_seat_advantage": {
            "value": _round(first["rate"] - fair),
            "low": _round(first["low"] - fair),
            "high": _round(first["high"] - fair),
        },
        "home_win_rate": homes,
        "agent_win_rate": agent_rates,
        "bonus_decides": proportion(sum(tally.bonus_decided), games),
        "siege_decides": proportion(sum(tally.siege_decided), games),
        "mean": {name: mean(tally.means[i]) for i, name in enumerate(MEANS)},
        "state_desirability": desirability,
        "total_counts": total_counts(tally.totals),
    }


def _verdict(wins: float, games: int, fair: float, homes: int) -> str | None:
    """ "strong" or "weak" when the home's rate differs from a fair share
    with every home's question asked at once: the Wilson interval at level
    1 - 0.05 / homes (Bonferroni), so that over all homes of a run a verdict
    is wrong with chance at most 5%, not 5% a home."""
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(wins, games, alpha=(1 - LEVEL) / homes, method="wilson")
    return "strong" if low > fair else "weak" if high < fair else None


def _by_mean_turn(item: tuple[str, Sequence[int]]) -> tuple[float, str]:
    """States taken early first (the most wanted), then by id."""
    state, turns = item
    return (math.fsum(turns) / len(turns), state)


def _mean_turn(turns: Sequence[int]) -> dict[str, float]:
    interval = mean(turns)
    return {"mean_turn": interval["value"], "low": interval["low"], "high": interval["high"]}


def _difference(base: Tally, other: Tally) -> dict[str, Any]:
    """Each per-game figure of ``other`` less ``base``'s, paired by game,
    with its t interval; ``significant`` where the interval leaves out 0."""
    games = min(base.games, other.games)
    figures: list[dict[str, Any]] = []

    def paired(what: dict[str, Any], mine: Sequence[float], theirs: Sequence[float]) -> None:
        interval = mean([theirs[g] - mine[g] for g in range(games)])
        significant = interval["low"] > 0 or interval["high"] < 0
        figures.append(
            {
                **what,
                "difference": interval["value"],
                "low": interval["low"],
                "high": interval["high"],
                "significant": significant,
            }
        )

    for seat in range(base.seats):
        paired(
            {"figure": "seat_win_rate", "seat": seat + 1},
            base.seat_shares[seat],
            other.seat_shares[seat],
        )
    for agent in sorted(base.agent_seats):
        paired(
            {"figure": "agent_win_rate", "agent": agent},
            base.agent_shares[agent],
            other.agent_shares[agent],
        )
    for name, flags in (("bonus_decides", "bonus_decided"), ("siege_decides", "siege_decided")):
        paired(
            {"figure": name},
            getattr(base, flags),
            getattr(other, flags),
        )
    for index, name in enumerate(MEANS):
        paired(
            {"figure": "mean", "of": name},
            base.means[index],
            other.means[index],
        )
    return {"rules": other.rules, "against": base.rules, "games": games, "figures": figures}


# --- the distribution of totals (balance --report's chart) -----------------------------


def total_counts(counts: Counter[tuple[int, bool]]) -> list[dict[str, int]]:
    """A rule set's ``total_counts`` (docs/formats.md): for each final total
    some player ended a game with, lowest first, how many players did
    (over all games) and how many of them won (each winner of a tie)."""
    return [
        {
            "total": total,
            "players": counts[total, False] + counts[total, True],
            "winners": counts[total, True],
        }
        for total in sorted({total for total, _ in counts})
    ]
