"""The balance report: what many played games say about a rule set, each
figure with a 95% confidence interval.

Summed up from the games' records (evlogic.play.balance; the lines
``--games-out`` writes), so the report recomputed from that file is the
report.  No game is scored here: winners and figures are the final score
reports'; whether the bonus or the siege decided a game is
rules/bonus_decided.lp's answer.  Intervals: Wilson for proportions
(statsmodels), Student's t for means (scipy), over games, which are
independent (the players of one game are not, so a mean over players is
first taken within each game).  Differences between rule sets are paired
by game: game ``i`` has the same deal and seed under every rule set.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from evlogic.asp.solver import rule_paths, solve

#: The confidence level of every interval.
LEVEL = 0.95

#: Games a grounding of rules/bonus_decided.lp asks about.
DECIDED_CHUNK = 2_000

#: The means the report gives, each from the final report's players.
MEANS = ("face_ev", "region_size", "region_bonus", "siege_penalty", "total")

Record = dict[str, Any]


@dataclass
class _Tally:
    """One rule set's games, as the figures need them (per game where an
    interval or a paired difference needs it)."""

    rules: str
    seats: int = 0
    seat_shares: list[list[float]] = field(default_factory=list)  # game -> seat -> share
    homes: dict[str, list[float]] = field(default_factory=lambda: defaultdict(lambda: [0, 0.0]))
    agent_shares: list[dict[str, float]] = field(default_factory=list)  # game -> agent -> share
    means: list[list[float]] = field(default_factory=list)  # game -> figure -> mean over players
    turns: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    bonus_decided: list[bool] = field(default_factory=list)
    siege_decided: list[bool] = field(default_factory=list)
    finals: list[dict[str, Any]] = field(default_factory=list)  # not yet asked about
    agent_seats: dict[str, int] = field(default_factory=dict)  # seats each agent plays

    def add(self, record: Record) -> None:
        final = record["final"]
        players = final["players"]
        winners = set(final["winners"])
        share = 1 / len(winners)
        self.seats = len(players)
        self.seat_shares.append([share if p["name"] in winners else 0.0 for p in players])
        agents = [p["agent"] for p in record["players"]]
        by_agent: dict[str, list[float]] = defaultdict(list)
        for player, agent in zip(players, agents, strict=True):
            won = share if player["name"] in winners else 0.0
            by_agent[agent].append(won)
            home = self.homes[player["home"]]
            home[0] += 1
            home[1] += won
        self.agent_shares.append({a: math.fsum(v) / len(v) for a, v in by_agent.items()})
        self.agent_seats = {a: len(v) for a, v in by_agent.items()}
        self.means.append(
            [sum(_figure(player, name) for player in players) / len(players) for name in MEANS]
        )
        for move in record["moves"]:
            self.turns[move["state"]].append(move["turn"])
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
    shown = solve("\n".join(facts), rule_paths(("bonus_decided.lp",)))
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
    tallies: dict[str, _Tally] = {}
    totals: dict[str, Counter[tuple[int, bool]]] = defaultdict(Counter)
    for record in _counting_totals(records, totals):
        name = record["rules"]
        if name not in tallies:
            tallies[name] = _Tally(name)
        tallies[name].add(record)
    for tally in tallies.values():
        tally.ask()
    sets = [_rule_set(tally, heading.players) for tally in tallies.values()]
    for rule_set in sets:
        rule_set["total_counts"] = total_counts(totals[rule_set["rules"]])
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


def _rule_set(tally: _Tally, players: int) -> dict[str, Any]:
    games = len(tally.seat_shares)
    fair = 1 / players
    seats = [
        {"seat": seat + 1, **proportion(sum(g[seat] for g in tally.seat_shares), games)}
        for seat in range(players)
    ]
    first = seats[0]
    homes = []
    for home in sorted(tally.homes):
        count, wins = tally.homes[home]
        rate = proportion(wins, int(count))
        verdict = "strong" if rate["low"] > fair else "weak" if rate["high"] < fair else None
        homes.append({"home": home, "games": int(count), **rate, "verdict": verdict})
    agents = sorted(tally.agent_seats)
    agent_rates = []
    for agent in agents:
        shares = [game[agent] for game in tally.agent_shares]
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
        "mean": {name: mean([g[i] for g in tally.means]) for i, name in enumerate(MEANS)},
        "state_desirability": desirability,
    }


def _by_mean_turn(item: tuple[str, list[int]]) -> tuple[float, str]:
    """States taken early first (the most wanted), then by id."""
    state, turns = item
    return (math.fsum(turns) / len(turns), state)


def _mean_turn(turns: Sequence[int]) -> dict[str, float]:
    interval = mean(turns)
    return {"mean_turn": interval["value"], "low": interval["low"], "high": interval["high"]}


def _difference(base: _Tally, other: _Tally) -> dict[str, Any]:
    """Each per-game figure of ``other`` less ``base``'s, paired by game,
    with its t interval; ``significant`` where the interval leaves out 0."""
    games = min(len(base.seat_shares), len(other.seat_shares))
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
            [g[seat] for g in base.seat_shares],
            [g[seat] for g in other.seat_shares],
        )
    for agent in sorted(base.agent_seats):
        paired(
            {"figure": "agent_win_rate", "agent": agent},
            [g[agent] for g in base.agent_shares],
            [g[agent] for g in other.agent_shares],
        )
    for name, flags in (("bonus_decides", "bonus_decided"), ("siege_decides", "siege_decided")):
        paired(
            {"figure": name},
            [float(x) for x in getattr(base, flags)],
            [float(x) for x in getattr(other, flags)],
        )
    for index, name in enumerate(MEANS):
        paired(
            {"figure": "mean", "of": name},
            [g[index] for g in base.means],
            [g[index] for g in other.means],
        )
    return {"rules": other.rules, "against": base.rules, "games": games, "figures": figures}


# --- the distribution of totals (balance --report's chart) -----------------------------


def _counting_totals(
    records: Iterable[Record], totals: dict[str, Counter[tuple[int, bool]]]
) -> Iterator[Record]:
    """``records``, passed on unchanged, each final total counted on the way
    in ``totals``: rule set -> (total, won) -> players."""
    for record in records:
        final = record["final"]
        winners = set(final["winners"])
        counts = totals[record["rules"]]
        for player in final["players"]:
            counts[int(player["total"]), player["name"] in winners] += 1
        yield record


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
