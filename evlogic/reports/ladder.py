"""What ``evlogic ladder`` reports: each step's win rate with its 95%
interval, the ladder's depth and a rating for each agent.

- A step's ``win_rate``: the stronger's mean score over the step's games
  (evlogic.simulation.ladder: the share of the weaker seats it beat, a tie
  a half), with a Wilson interval (statsmodels) over the games.  A score
  in [0, 1] of mean p varies at most as a win-or-lose game of rate p does,
  so with more than two players (fractional scores) the interval is
  conservative.  ``significant``: the interval lies above 1/2 (``low`` >
  0.5), chance for a score of this kind with any number of players.
- ``depth``: the significant steps in a row from the bottom (Lantz et al.,
  *Depth in Strategic Games*, 2017: a chain of players each reliably
  beating the last).
- ``ratings``: a Bradley-Terry model of the steps' results (each game one
  trial of the stronger's score: the seats of one game are not independent
  comparisons), fitted as a binomial GLM with a logit link by statsmodels,
  on the Elo scale (400 points: ten to one odds), the first agent fixed
  at 0, each with its 95% Wald interval.  Half a win and half a loss are
  added to every step (the Haldane-Anscombe correction), so that a step
  won every time has a finite rating.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from evlogic.reports.balance import LEVEL, proportion
from evlogic.reports.balance_figures import Json

#: Elo points per unit of log-odds: 400 points are odds of ten to one.
ELO = 400 / math.log(10)


@dataclass(frozen=True)
class Step:
    """A step of the ladder: the stronger's win rate against the weaker."""

    weaker: str
    stronger: str
    games: int
    win_rate: float
    low: float
    high: float
    significant: bool

    def to_dict(self) -> dict[str, Json]:
        return {
            "weaker": self.weaker,
            "stronger": self.stronger,
            "games": self.games,
            "win_rate": self.win_rate,
            "low": self.low,
            "high": self.high,
            "significant": self.significant,
        }


@dataclass(frozen=True)
class Rating:
    """An agent's Bradley-Terry rating (Elo scale) with its 95% interval."""

    agent: str
    rating: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Json]:
        return {"agent": self.agent, "rating": self.rating, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class LadderReport:
    """``evlogic ladder``'s report (its JSON keys, in order)."""

    board: str
    rules: str
    moves_model: str
    players: int
    order: str
    games: int
    seed: int
    agents: tuple[str, ...]
    steps: tuple[Step, ...]
    depth: int
    ratings: tuple[Rating, ...]

    def to_dict(self) -> dict[str, Json]:
        """The ``ladder --format json`` document as plain data."""
        return {
            "board": self.board,
            "rules": self.rules,
            "moves_model": self.moves_model,
            "players": self.players,
            "order": self.order,
            "games": self.games,
            "seed": self.seed,
            "agents": list(self.agents),
            "steps": [step.to_dict() for step in self.steps],
            "depth": self.depth,
            "ratings": [rating.to_dict() for rating in self.ratings],
        }

    def to_json(self) -> str:
        """Exactly ``evlogic ladder --format json``'s output, less the last newline."""
        from evlogic.reports.render import json_text

        return json_text(self.to_dict())

    def to_text(self) -> str:
        """Exactly ``evlogic ladder``'s text output."""
        return ladder_to_text(self)


@dataclass(frozen=True)
class Comparison:
    """A step's results, as the figures read them: the stronger's summed
    score over ``games`` games."""

    weaker: str
    stronger: str
    games: int
    score: float


def step_figures(comparison: Comparison) -> Step:
    """A step's win rate, Wilson interval and significance."""
    rate = proportion(comparison.score, comparison.games)
    return Step(
        comparison.weaker,
        comparison.stronger,
        comparison.games,
        rate.rate,
        rate.low,
        rate.high,
        rate.low > 0.5,
    )


def depth(steps: Sequence[Step]) -> int:
    """The significant steps in a row from the bottom."""
    found = 0
    for step in steps:
        if not step.significant:
            break
        found += 1
    return found


def ratings(agents: Sequence[str], comparisons: Sequence[Comparison]) -> tuple[Rating, ...]:
    """Bradley-Terry ratings of ``agents`` from the steps' results, a game
    a trial of the stronger's score."""
    import numpy as np
    import statsmodels.api as sm

    names = list(dict.fromkeys(agents))  # an agent named twice is one agent
    if len(names) == 1:
        return (Rating(names[0], 0.0, 0.0, 0.0),)
    column = {name: index - 1 for index, name in enumerate(names)}  # the first: no column
    design = np.zeros((len(comparisons), len(names) - 1))
    wins = np.zeros(len(comparisons))
    trials = np.zeros(len(comparisons))
    for row, comparison in enumerate(comparisons):
        if column[comparison.stronger] >= 0:
            design[row, column[comparison.stronger]] += 1.0
        if column[comparison.weaker] >= 0:
            design[row, column[comparison.weaker]] -= 1.0
        wins[row] = comparison.score + 0.5
        trials[row] = comparison.games + 1.0
    model = sm.GLM(wins / trials, design, family=sm.families.Binomial(), var_weights=trials)
    with warnings.catch_warnings():
        # a chain of steps is a saturated model: fitted exactly, no residual
        # degrees of freedom, which statsmodels warns of (the binomial's
        # scale is 1 whatever they are)
        warnings.simplefilter("ignore")
        fitted = model.fit()
    bounds = fitted.conf_int(alpha=1 - LEVEL)
    found = [Rating(names[0], 0.0, 0.0, 0.0)]
    for index, name in enumerate(names[1:]):
        found.append(
            Rating(
                name,
                _elo(fitted.params[index]),
                _elo(bounds[index][0]),
                _elo(bounds[index][1]),
            )
        )
    return tuple(found)


def _elo(log_odds: float) -> float:
    return round(float(log_odds) * ELO, 1)


def ladder_to_text(report: LadderReport) -> str:
    """``evlogic ladder``'s text output."""
    seatings = "both seatings" if report.players == 2 else f"{report.players} seatings"
    lines = [
        f"{report.board}: rules {report.rules}, moves {report.moves_model}, "
        f"{report.players} players, {report.order} order, seed {report.seed}",
        f"{report.games} deals a step, each in {seatings} of the two agents "
        "(95% intervals; significant: the interval above 50%)",
        "",
    ]
    labels = [f"{step.weaker} -> {step.stronger}" for step in report.steps]
    width = max([len("Step"), *map(len, labels)])
    lines.append(f"{'Step':{width}}  Games  Stronger's win rate    Significant")
    for label, step in zip(labels, report.steps, strict=True):
        interval = f"{100 * step.win_rate:5.1f}% [{100 * step.low:.1f}, {100 * step.high:.1f}]"
        significant = "yes" if step.significant else "no"
        lines.append(f"{label:{width}}  {step.games:5d}  {interval:21}  {significant}")
    lines += [
        "",
        f"Depth: {report.depth} (significant steps in a row from the bottom)",
        "",
        f"Ratings (Bradley-Terry, Elo scale, {report.ratings[0].agent} = 0, 95% intervals):",
    ]
    width = max(len(rating.agent) for rating in report.ratings)
    for index, rating in enumerate(report.ratings):
        shown = f"{rating.rating:+.0f}"
        if index:
            shown += f" [{rating.low:+.0f}, {rating.high:+.0f}]"
        lines.append(f"  {rating.agent:{width}}  {shown}")
    return "\n".join(lines) + "\n"
