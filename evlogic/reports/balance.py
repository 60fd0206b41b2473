"""The balance report: what many played games say about a rule set, each
figure with a 95% confidence interval.

Summed up from the games' records (evlogic.simulation.balance; the lines
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
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from evlogic.asp.solver import rule_paths, solve
from evlogic.reports.balance_figures import (
    AgentRate,
    BalanceReport,
    Difference,
    DifferenceFigure,
    Estimate,
    HomeRate,
    Rate,
    RuleSetFigures,
    SeatRate,
    StateDesirability,
    TotalCount,
)

#: The confidence level of every interval.
LEVEL = 0.95

#: Games a grounding of rules/stats/bonus_decided.lp asks about.
DECIDED_CHUNK = 2_000

#: The means the report gives, each from the final report's players.
MEANS = ("face_ev", "region_size", "region_bonus", "siege_penalty", "total")

Record = dict[str, Any]

#: A per-game figure a difference pairs: ("seat", index), ("agent", name),
#: ("bonus_decides",), ("siege_decides",) or ("mean", name).
Key = tuple[Any, ...]

ZERO = Fraction(0)


class Moments:
    """What a mean and its t interval need of many values: how many, their
    sum and the sum of their squares, exact (fractions: a tie gives each
    winner 1/k), so the order values come in never changes a figure."""

    __slots__ = ("count", "squares", "total")

    def __init__(self) -> None:
        self.count = 0
        self.total: Fraction | int = 0
        self.squares: Fraction | int = 0

    def add(self, value: Fraction | int) -> None:
        self.count += 1
        self.total += value
        self.squares += value * value


@dataclass(frozen=True)
class FinalPlayer:
    """What a tally reads of a player's final score report (``region_size``
    and ``siege_penalty`` None where a report read by stats lacks them)."""

    name: str
    home: str
    total: int
    face_ev: int
    region_bonus: int
    net_bonus: int
    region_size: int | None = None
    siege_penalty: int | None = None

    def figure(self, name: str) -> int:
        """One of MEANS by name."""
        value = {
            "face_ev": self.face_ev,
            "region_size": self.region_size,
            "region_bonus": self.region_bonus,
            "siege_penalty": self.siege_penalty,
            "total": self.total,
        }[name]
        if value is None:
            raise ValueError(f"a player has no {name}")
        return value


@dataclass(frozen=True)
class Final:
    """A game's final score report, as a tally reads it: players and winners."""

    players: tuple[FinalPlayer, ...]
    winners: frozenset[str]

    @classmethod
    def of(cls, report: dict[str, Any]) -> Final:
        """From a final report's JSON document (a played game's record)."""
        return cls(
            tuple(
                FinalPlayer(
                    name=str(player["name"]),
                    home=str(player["home"]),
                    total=int(player["total"]),
                    face_ev=int(player["face_ev"]),
                    region_bonus=int(player["region_bonus"]),
                    net_bonus=int(player["net_bonus"]),
                    region_size=len(player["region"]),
                    siege_penalty=int(player["siege_penalty"]),
                )
                for player in report["players"]
            ),
            frozenset(str(winner) for winner in report["winners"]),
        )


@dataclass
class HomeSums:
    """A home's games, wins (a k-way tie gives each winner 1/k) and the sums
    of its players' totals, region bonuses and net bonuses."""

    games: int = 0
    wins: Fraction = ZERO
    total: int = 0
    region_bonus: int = 0
    net_bonus: int = 0


@dataclass
class Tally:
    """One rule set's games, summed as they come: counts, sums and sums of
    squares, never a list of games, so memory does not grow with them.
    With ``paired``, each game's figures are also handed on
    (:attr:`ready`, once its bonus and siege questions are answered) for
    the differences between rule sets (:class:`Paired`).  evlogic stats
    tallies bare final reports (:meth:`add_final`, ``means`` False)."""

    rules: str
    paired: bool = False
    means_wanted: bool = True
    moves_model: str = "draft"  # how the games' states were won
    games: int = 0
    seats: int = 0
    seat_wins: list[Fraction] = field(default_factory=list)  # seat -> wins (ties: 1/k)
    agent_wins: dict[str, Fraction] = field(default_factory=dict)  # agent -> sum of game shares
    agent_seats: dict[str, int] = field(default_factory=dict)  # seats each agent plays
    means: list[Moments] = field(default_factory=lambda: [Moments() for _ in MEANS])
    bonus_decided: int = 0
    siege_decided: int = 0
    homes: dict[str, HomeSums] = field(default_factory=dict)
    turns: dict[str, Moments] = field(default_factory=dict)  # state -> the turns it was won
    #: (final total, won) -> players who ended a game so: the distribution of totals.
    totals: Counter[tuple[int, bool]] = field(default_factory=Counter)
    finals: list[Final] = field(default_factory=list)  # not yet asked about
    pending: list[tuple[int, dict[Key, Fraction]]] = field(default_factory=list)
    #: (game, its figures) answered and not yet taken (``paired`` only).
    ready: list[tuple[int, dict[Key, Fraction]]] = field(default_factory=list)
    #: Games a grounding of rules/stats/bonus_decided.lp asks about.
    chunk: int = DECIDED_CHUNK

    def add(self, record: Record) -> None:
        """A played game's record (balance's games)."""
        final = Final.of(record["final"])
        figures = self._final(final, [str(seated["agent"]) for seated in record["players"]])
        self.moves_model = str(record.get("moves_model", "draft"))
        for move in record["moves"]:
            if move["state"] is None:  # a pass
                continue
            turns = self.turns.get(move["state"])
            if turns is None:
                turns = self.turns[move["state"]] = Moments()
            turns.add(int(move["turn"]))
        if self.paired:
            self.pending.append((int(record["game"]), figures))
        if len(self.finals) == self.chunk:
            self.ask()

    def add_final(self, final: Final) -> None:
        """A bare final report (evlogic stats: no seats, agents or moves)."""
        self._final(final, None)
        if len(self.finals) == self.chunk:
            self.ask()

    def _final(self, final: Final, agents: list[str] | None) -> dict[Key, Fraction]:
        players, winners = final.players, final.winners
        share = Fraction(1, len(winners)) if winners else ZERO
        if agents is not None and not self.seat_wins:
            self.seats = len(players)
            self.seat_wins = [ZERO] * len(players)
        figures: dict[Key, Fraction] = {}
        by_agent: dict[str, list[Fraction]] = defaultdict(list)
        for seat, player in enumerate(players):
            won = share if player.name in winners else ZERO
            if agents is not None:
                self.seat_wins[seat] += won
                figures["seat", seat] = won
                by_agent[agents[seat]].append(won)
            home = self.homes.get(player.home)
            if home is None:
                home = self.homes[player.home] = HomeSums()
            home.games += 1
            home.wins += won
            home.total += player.total
            home.region_bonus += player.region_bonus
            home.net_bonus += player.net_bonus
            self.totals[player.total, player.name in winners] += 1
        for agent, shares in by_agent.items():
            mine = sum(shares, ZERO) / len(shares)
            self.agent_wins[agent] = self.agent_wins.get(agent, ZERO) + mine
            self.agent_seats[agent] = len(shares)
            figures["agent", agent] = mine
        if self.means_wanted:
            for moments, name in zip(self.means, MEANS, strict=True):
                value = Fraction(sum(player.figure(name) for player in players), len(players))
                moments.add(value)
                figures["mean", name] = value
        self.games += 1
        self.finals.append(final)
        return figures

    def ask(self) -> None:
        """Whether the bonus and the siege decided the games not yet asked about."""
        if not self.finals:
            return
        bonus, siege = decided(self.finals)
        self.bonus_decided += sum(bonus)
        self.siege_decided += sum(siege)
        for (game, figures), by_bonus, by_siege in zip(self.pending, bonus, siege, strict=False):
            # (strict=False: not paired, nothing is pending)
            figures["bonus_decides",] = Fraction(int(by_bonus))
            figures["siege_decides",] = Fraction(int(by_siege))
            self.ready.append((game, figures))
        self.finals = []
        self.pending = []


class Paired:
    """The per-game differences of one rule set's figures less the first's,
    game ``i`` against game ``i`` (the same deal and seed), summed as the
    two games come in; a game waits here only until its pair arrives
    (balance plays a few games of each rule set in turn, so few wait)."""

    def __init__(self) -> None:
        self.games = 0
        self.moments: dict[Key, Moments] = defaultdict(Moments)
        self._mine: dict[int, dict[Key, Fraction]] = {}
        self._theirs: dict[int, dict[Key, Fraction]] = {}

    def add(self, game: int, figures: dict[Key, Fraction], base: bool) -> None:
        waiting, keep = (self._theirs, self._mine) if base else (self._mine, self._theirs)
        other = waiting.pop(game, None)
        if other is None:
            keep[game] = figures
            return
        mine, theirs = (figures, other) if base else (other, figures)
        self.games += 1
        for key, value in mine.items():
            if key in theirs:
                self.moments[key].add(theirs[key] - value)


def decided(finals: Sequence[Final]) -> tuple[list[bool], list[bool]]:
    """For each final report: did the bonus decide it, did the siege?"""
    facts = []
    for game, final in enumerate(finals):
        for index, player in enumerate(final.players):
            facts.append(f"face_ev({game},{index},{player.face_ev}).")
            facts.append(f"region_bonus({game},{index},{player.region_bonus}).")
            if player.name in final.winners:
                facts.append(f"winner({game},{index}).")
    shown = solve("\n".join(facts), rule_paths(("stats/bonus_decided.lp",)))
    bonus = {s.arguments[0].number for s in shown if s.name == "bonus_decided"}
    siege = {s.arguments[0].number for s in shown if s.name == "siege_decided"}
    return [g in bonus for g in range(len(finals))], [g in siege for g in range(len(finals))]


# --- intervals -------------------------------------------------------------------------


def _round(value: float) -> float:
    return round(float(value), 6)


def proportion(successes: float, trials: int) -> Rate:
    """A rate with its Wilson interval (``successes`` may be fractional:
    a k-way tie gives each winner 1/k)."""
    from statsmodels.stats.proportion import proportion_confint

    if trials == 0:
        return Rate(0.0, 0.0, 1.0)
    low, high = proportion_confint(successes, trials, alpha=1 - LEVEL, method="wilson")
    return Rate(_round(successes / trials), _round(low), _round(high))


def mean(values: Iterable[float | Fraction]) -> Estimate:
    """A mean with its Student's t interval (a single value, or values all
    alike: the interval is the value)."""
    moments = Moments()
    for value in values:
        moments.add(Fraction(value))
    return mean_of(moments)


def mean_of(moments: Moments) -> Estimate:
    """:func:`mean` from the values' count, sum and sum of squares."""
    from scipy import stats

    n = moments.count
    centre = float(Fraction(moments.total) / n) if n else 0.0
    point = Estimate(_round(centre), _round(centre), _round(centre))
    if n < 2:
        return point
    variance = (moments.squares - Fraction(moments.total) ** 2 / n) / (n - 1)
    if variance <= 0:
        return point
    error = math.sqrt(float(variance / n))
    low, high = stats.t.interval(LEVEL, n - 1, loc=centre, scale=error)
    return Estimate(_round(centre), _round(low), _round(high))


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


def balance_report(heading: BalanceHeading, records: Iterable[Record]) -> BalanceReport:
    """The ``balance --format json`` document (docs/formats.md) from the
    games' records, rule set by rule set in the order first seen.  Games
    are summed as they come: memory holds no list of games."""
    tallies: dict[str, Tally] = {}
    pairs: dict[str, Paired] = {}

    def hand_on(tally: Tally) -> None:
        base = tally is next(iter(tallies.values()))
        for game, figures in tally.ready:
            if base:
                for pair in pairs.values():
                    pair.add(game, figures, base=True)
            else:
                pairs[tally.rules].add(game, figures, base=False)
        tally.ready = []

    for record in records:
        name = record["rules"]
        tally = tallies.get(name)
        if tally is None:
            tally = tallies[name] = Tally(name, paired=True)
            if len(tallies) > 1:
                pairs[name] = Paired()
        tally.add(record)
        if tally.ready:
            hand_on(tally)
    for tally in tallies.values():
        tally.ask()
        hand_on(tally)
    sets = tuple(rule_set_figures(tally, heading.players) for tally in tallies.values())
    ordered = list(tallies.values())
    models = dict.fromkeys(tally.moves_model for tally in tallies.values())
    return BalanceReport(
        board=heading.board,
        moves_model=", ".join(models) or "draft",
        players=heading.players,
        agents=heading.agents,
        order=heading.order,
        games=heading.games,
        seed=heading.seed,
        level=LEVEL,
        rule_sets=sets,
        differences=tuple(
            _difference(ordered[0], other, pairs[other.rules]) for other in ordered[1:]
        ),
    )


def rule_set_figures(tally: Tally, players: int) -> RuleSetFigures:
    games = tally.games
    fair = 1 / players
    seats = tuple(
        SeatRate(seat + 1, *proportion(float(tally.seat_wins[seat]), games).interval())
        for seat in range(players)
    )
    first = seats[0]
    homes = []
    for home in sorted(tally.homes):
        sums = tally.homes[home]
        rate = proportion(float(sums.wins), sums.games)
        verdict = _verdict(float(sums.wins), sums.games, fair, len(tally.homes))
        homes.append(HomeRate(home, sums.games, *rate.interval(), verdict))
    agent_rates = []
    for agent in sorted(tally.agent_seats):
        seat_count = tally.agent_seats[agent]
        trials = games * seat_count
        wins = float(tally.agent_wins[agent] * seat_count)
        agent_rates.append(AgentRate(agent, *proportion(wins, trials).interval()))
    desirability = tuple(
        StateDesirability(state, turns.count, *mean_of(turns).interval())
        for state, turns in sorted(tally.turns.items(), key=_by_mean_turn)
    )
    return RuleSetFigures(
        rules=tally.rules,
        moves_model=tally.moves_model,
        games=games,
        seat_win_rate=seats,
        first_seat_advantage=Estimate(
            _round(first.rate - fair), _round(first.low - fair), _round(first.high - fair)
        ),
        home_win_rate=tuple(homes),
        agent_win_rate=tuple(agent_rates),
        bonus_decides=proportion(tally.bonus_decided, games),
        siege_decides=proportion(tally.siege_decided, games),
        mean={name: mean_of(tally.means[i]) for i, name in enumerate(MEANS)},
        state_desirability=desirability,
        total_counts=total_counts(tally.totals),
    )


def _verdict(wins: float, games: int, fair: float, homes: int) -> str | None:
    """ "strong" or "weak" when the home's rate differs from a fair share
    with every home's question asked at once: the Wilson interval at level
    1 - 0.05 / homes (Bonferroni), so that over all homes of a run a verdict
    is wrong with chance at most 5%, not 5% a home."""
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(wins, games, alpha=(1 - LEVEL) / homes, method="wilson")
    return "strong" if low > fair else "weak" if high < fair else None


def _by_mean_turn(item: tuple[str, Moments]) -> tuple[Fraction, str]:
    """States taken early first (the most wanted), then by id."""
    state, turns = item
    return (Fraction(turns.total, turns.count), state)


def _difference(base: Tally, other: Tally, pair: Paired) -> Difference:
    """Each per-game figure of ``other`` less ``base``'s, paired by game,
    with its t interval; ``significant`` where the interval leaves out 0."""
    keys: list[tuple[dict[str, str | int], Key]] = [
        ({"figure": "seat_win_rate", "seat": seat + 1}, ("seat", seat))
        for seat in range(base.seats)
    ]
    keys += [
        ({"figure": "agent_win_rate", "agent": agent}, ("agent", agent))
        for agent in sorted(base.agent_seats)
    ]
    keys += [({"figure": name}, (name,)) for name in ("bonus_decides", "siege_decides")]
    keys += [({"figure": "mean", "of": name}, ("mean", name)) for name in MEANS]
    figures = []
    for what, key in keys:
        interval = mean_of(pair.moments.get(key) or Moments())
        seat, agent, of = what.get("seat"), what.get("agent"), what.get("of")
        figures.append(
            DifferenceFigure(
                figure=str(what["figure"]),
                difference=interval.value,
                low=interval.low,
                high=interval.high,
                significant=interval.low > 0 or interval.high < 0,
                seat=seat if isinstance(seat, int) else None,
                agent=agent if isinstance(agent, str) else None,
                of=of if isinstance(of, str) else None,
            )
        )
    return Difference(other.rules, base.rules, pair.games, tuple(figures))


# --- the distribution of totals (balance --report's chart) -----------------------------


def total_counts(counts: Counter[tuple[int, bool]]) -> tuple[TotalCount, ...]:
    """A rule set's ``total_counts`` (docs/formats.md): for each final total
    some player ended a game with, lowest first, how many players did
    (over all games) and how many of them won (each winner of a tie)."""
    return tuple(
        TotalCount(total, counts[total, False] + counts[total, True], counts[total, True])
        for total in sorted({total for total, _ in counts})
    )
