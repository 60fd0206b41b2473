"""The balance report as typed values: what ``evlogic.balance`` returns.

Frozen dataclasses, one per kind of row of the ``balance --format json``
document (docs/formats.md); ``to_dict()`` gives that document's plain data,
key for key in its order, and :meth:`BalanceReport.to_json` its text.
Nothing is computed here: evlogic.reports.balance fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A JSON value as plain data (what ``to_dict`` builds).
Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson interval."""

    rate: float
    low: float
    high: float

    def interval(self) -> tuple[float, float, float]:
        return self.rate, self.low, self.high

    def to_dict(self) -> dict[str, Json]:
        return {"rate": self.rate, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class Estimate:
    """A mean (or a difference of rates) with its 95% interval."""

    value: float
    low: float
    high: float

    def interval(self) -> tuple[float, float, float]:
        return self.value, self.low, self.high

    def to_dict(self) -> dict[str, Json]:
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class SeatRate:
    """How often seat ``seat`` (from 1) won."""

    seat: int
    rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Json]:
        return {"seat": self.seat, "rate": self.rate, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class HomeRate:
    """How often a player with this home won; ``verdict`` "strong", "weak"
    or None (no significant difference from a fair share)."""

    home: str
    games: int
    rate: float
    low: float
    high: float
    verdict: str | None

    def to_dict(self) -> dict[str, Json]:
        return {
            "home": self.home,
            "games": self.games,
            "rate": self.rate,
            "low": self.low,
            "high": self.high,
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class AgentRate:
    """How often a seat this agent played won."""

    agent: str
    rate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Json]:
        return {"agent": self.agent, "rate": self.rate, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class StateDesirability:
    """The mean turn a state was won on, over the ``games`` it was won in."""

    state: str
    games: int
    mean_turn: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Json]:
        return {
            "state": self.state,
            "games": self.games,
            "mean_turn": self.mean_turn,
            "low": self.low,
            "high": self.high,
        }


@dataclass(frozen=True)
class TotalCount:
    """How many players ended a game with this total, and how many of them won."""

    total: int
    players: int
    winners: int

    def to_dict(self) -> dict[str, Json]:
        return {"total": self.total, "players": self.players, "winners": self.winners}


@dataclass(frozen=True)
class RuleSetFigures:
    """One rule set's figures over its games."""

    rules: str
    moves_model: str  # how states were won: draft, market, campaign or a program's file
    games: int
    seat_win_rate: tuple[SeatRate, ...]
    first_seat_advantage: Estimate
    home_win_rate: tuple[HomeRate, ...]
    agent_win_rate: tuple[AgentRate, ...]
    bonus_decides: Rate
    siege_decides: Rate
    mean: dict[str, Estimate]  # by name: face_ev, region_size, region_bonus, ...
    state_desirability: tuple[StateDesirability, ...]
    total_counts: tuple[TotalCount, ...]

    def rate(self, figure: str) -> Rate:
        """``bonus_decides`` or ``siege_decides`` by name (tune's requirements)."""
        if figure == "bonus_decides":
            return self.bonus_decides
        if figure == "siege_decides":
            return self.siege_decides
        raise KeyError(figure)

    def to_dict(self) -> dict[str, Json]:
        return {
            "rules": self.rules,
            "moves_model": self.moves_model,
            "games": self.games,
            "seat_win_rate": [seat.to_dict() for seat in self.seat_win_rate],
            "first_seat_advantage": self.first_seat_advantage.to_dict(),
            "home_win_rate": [home.to_dict() for home in self.home_win_rate],
            "agent_win_rate": [agent.to_dict() for agent in self.agent_win_rate],
            "bonus_decides": self.bonus_decides.to_dict(),
            "siege_decides": self.siege_decides.to_dict(),
            "mean": {name: value.to_dict() for name, value in self.mean.items()},
            "state_desirability": [state.to_dict() for state in self.state_desirability],
            "total_counts": [count.to_dict() for count in self.total_counts],
        }


@dataclass(frozen=True)
class DifferenceFigure:
    """One per-game figure of a rule set less the first's, paired by game:
    ``figure`` names it, with ``seat``, ``agent`` or ``of`` (a mean's name)
    where the figure has one."""

    figure: str
    difference: float
    low: float
    high: float
    significant: bool
    seat: int | None = None
    agent: str | None = None
    of: str | None = None

    def to_dict(self) -> dict[str, Json]:
        document: dict[str, Json] = {"figure": self.figure}
        if self.seat is not None:
            document["seat"] = self.seat
        if self.agent is not None:
            document["agent"] = self.agent
        if self.of is not None:
            document["of"] = self.of
        document.update(
            difference=self.difference,
            low=self.low,
            high=self.high,
            significant=self.significant,
        )
        return document


@dataclass(frozen=True)
class Difference:
    """Rule set ``rules`` against the first, ``against``, over ``games`` pairs."""

    rules: str
    against: str
    games: int
    figures: tuple[DifferenceFigure, ...]

    def to_dict(self) -> dict[str, Json]:
        return {
            "rules": self.rules,
            "against": self.against,
            "games": self.games,
            "figures": [figure.to_dict() for figure in self.figures],
        }


@dataclass(frozen=True)
class BalanceReport:
    """What ``evlogic balance`` reports: the run, then each rule set's
    figures, then each later rule set against the first."""

    board: str
    moves_model: str  # the rule sets' move models (one, or several comma-separated)
    players: int
    agents: tuple[str, ...]
    order: str
    games: int
    seed: int
    level: float
    rule_sets: tuple[RuleSetFigures, ...]
    differences: tuple[Difference, ...]

    def to_dict(self) -> dict[str, Json]:
        """The ``balance --format json`` document as plain data."""
        return {
            "board": self.board,
            "moves_model": self.moves_model,
            "players": self.players,
            "agents": list(self.agents),
            "order": self.order,
            "games": self.games,
            "seed": self.seed,
            "level": self.level,
            "rule_sets": [figures.to_dict() for figures in self.rule_sets],
            "differences": [difference.to_dict() for difference in self.differences],
        }

    def to_json(self) -> str:
        """Exactly ``evlogic balance --format json``'s output, less the last newline."""
        from evlogic.reports.render import json_text

        return json_text(self.to_dict())

    def to_text(self) -> str:
        """Exactly ``evlogic balance``'s text output."""
        from evlogic.reports.balance_text import balance_to_text

        return balance_to_text(self)
