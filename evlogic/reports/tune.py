"""What tune minimises, read off a candidate's balance figures, each with a
95% interval (docs/tune.md).

Every objective is a figure of evlogic.reports.balance (seat and home win
rates with Wilson intervals) turned into a distance from a fair game:
nothing here scores a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evlogic.reports.balance_figures import Estimate, HomeRate, Json, RuleSetFigures, SeatRate

if TYPE_CHECKING:
    from evlogic.loading.rulesets import RuleSet
    from evlogic.loading.space import Candidate

#: Homes dealt fewer times than this are left out of the home spread
#: (their rates say little).
MIN_HOME_GAMES = 10

Interval = Estimate


def _round(value: float) -> float:
    return round(float(value), 6)


def first_seat_advantage(figures: RuleSetFigures) -> Interval:
    """How far seat 1's win rate is from a fair share, either way."""
    value, low, high = figures.first_seat_advantage.interval()
    nearest = 0.0 if low <= 0 <= high else min(abs(low), abs(high))
    return Estimate(_round(abs(value)), _round(nearest), _round(max(abs(low), abs(high))))


def _spread(rates: list[HomeRate] | list[SeatRate]) -> Interval:
    """The largest rate less the smallest, with bounds from their intervals
    (conservative: the spread of the intervals' ends)."""
    if len(rates) < 2:
        return Estimate(0.0, 0.0, 1.0)
    value = max(r.rate for r in rates) - min(r.rate for r in rates)
    low = max(0.0, max(r.low for r in rates) - min(r.high for r in rates))
    high = min(1.0, max(r.high for r in rates) - min(r.low for r in rates))
    return Estimate(_round(value), _round(low), _round(high))


def home_spread(figures: RuleSetFigures) -> Interval:
    """The best home's win rate less the worst's, over homes dealt at least
    MIN_HOME_GAMES times."""
    return _spread([h for h in figures.home_win_rate if h.games >= MIN_HOME_GAMES])


def seat_spread(figures: RuleSetFigures) -> Interval:
    """The best seat's win rate less the worst's."""
    return _spread(list(figures.seat_win_rate))


OBJECTIVES = {
    "first_seat_advantage": first_seat_advantage,
    "home_spread": home_spread,
    "seat_spread": seat_spread,
}


def objectives(names: tuple[str, ...], figures: RuleSetFigures) -> dict[str, Interval]:
    return {name: OBJECTIVES[name](figures) for name in names}


def rule_set_mapping(candidate: Candidate, base_reference: str) -> dict[str, Json]:
    """A candidate as a rule set file writes it: its name, what it extends,
    the numbers it sets."""
    mapping: dict[str, Json] = {"name": candidate.rules.name, "extends": base_reference}
    if candidate.rules.moves != "draft":  # (as played: --moves may have set it)
        mapping["moves"] = candidate.rules.moves
    return {**mapping, **candidate.numbers}


def distance(candidate: Candidate, base: RuleSet) -> tuple[list[str], int]:
    """Which of the base's numbers a candidate changes, and by how much in
    all (the sum of the absolute changes; a changed word counts 1)."""
    changed: list[str] = []
    total = 0
    for name, value in candidate.numbers.items():
        if name == "tiers":
            theirs = dict(base.tiers)
            for size, bonus in value.items():
                if theirs.get(size) != bonus:
                    changed.append(f"tiers.{size}")
                    total += abs(bonus - theirs.get(size, 0))
            continue
        before = getattr(base, name)
        if before != value:
            changed.append(name)
            both_numbers = isinstance(value, int) and isinstance(before, int)
            total += abs(value - before) if both_numbers and not isinstance(value, bool) else 1
    return changed, total
