"""The tune report as typed values: what ``evlogic.tune`` returns, and
its text (``evlogic tune``'s output).  Nothing is computed here: the
search (evlogic.simulation.tune) found the front, evlogic.reports.tune
the objectives and distances."""

from __future__ import annotations

from dataclasses import dataclass, field

from evlogic.loading.space import Space
from evlogic.reports.balance_figures import Estimate, Json
from evlogic.reports.tune import distance, rule_set_mapping
from evlogic.simulation.tune import TuneOptions, TuneResult


@dataclass(frozen=True)
class FrontCandidate:
    """A candidate on the Pareto front: its rule set (as a rule set file
    writes it), games played, each objective with its interval, each play
    requirement's answer ("met", "not met") or property's ("proved", ...),
    the numbers it changes from the base and how far it moves them."""

    rule_set: dict[str, Json]
    games: int
    objectives: dict[str, Estimate]
    requirements: dict[str, str]
    changed: tuple[str, ...]
    distance: int

    def to_dict(self) -> dict[str, Json]:
        return {
            "rule_set": self.rule_set,
            "games": self.games,
            "objectives": {name: value.to_dict() for name, value in self.objectives.items()},
            "requirements": dict(self.requirements),
            "changed": list(self.changed),
            "distance": self.distance,
        }


@dataclass(frozen=True)
class Round:
    """A round of successive halving: candidates playing, games each has played by then."""

    candidates: int
    games: int

    def to_dict(self) -> dict[str, Json]:
        return {"candidates": self.candidates, "games": self.games}


@dataclass(frozen=True)
class TuneReport:
    """What ``evlogic tune`` reports: the run, then the Pareto front, best
    at index ``best`` (None: no candidate met every requirement)."""

    space: str
    board: str
    moves_model: str  # how the candidates' states are won
    players: int
    agents: str
    order: str
    seed: int
    games: int
    budget: int
    objectives: tuple[str, ...]
    candidates_tried: int
    games_played: int
    rounds: tuple[Round, ...]
    front: tuple[FrontCandidate, ...]
    best: int | None
    #: The search's own result (each front member's tally): the page's charts.
    result: TuneResult | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Json]:
        """The ``tune --format json`` document as plain data."""
        return {
            "space": self.space,
            "board": self.board,
            "moves_model": self.moves_model,
            "players": self.players,
            "agents": self.agents,
            "order": self.order,
            "seed": self.seed,
            "games": self.games,
            "budget": self.budget,
            "objectives": list(self.objectives),
            "candidates_tried": self.candidates_tried,
            "games_played": self.games_played,
            "rounds": [r.to_dict() for r in self.rounds],
            "front": [entry.to_dict() for entry in self.front],
            "best": self.best,
        }

    def to_json(self) -> str:
        """Exactly ``evlogic tune --format json``'s output, less the last newline."""
        from evlogic.reports.render import json_text

        return json_text(self.to_dict())

    def to_text(self) -> str:
        """Exactly ``evlogic tune``'s text output."""
        return tune_to_text(self)


def tune_document(space: Space, options: TuneOptions, result: TuneResult) -> TuneReport:
    """The ``tune --format json`` document (docs/tune.md), typed."""
    front = []
    for contender in result.front:
        changed, moved = distance(contender.candidate, space.base)
        front.append(
            FrontCandidate(
                rule_set=rule_set_mapping(contender.candidate, space.base_reference),
                games=contender.tally.games,
                objectives=dict(contender.scores),
                requirements=dict(contender.requirements),
                changed=tuple(changed),
                distance=moved,
            )
        )
    return TuneReport(
        space=space.source,
        board=options.board.name,
        moves_model=space.base.moves_model,
        players=options.players,
        agents=options.agents,
        order=options.order,
        seed=options.seed,
        games=options.games,
        budget=options.budget,
        objectives=tuple(space.objectives),
        candidates_tried=result.tried,
        games_played=result.games_played,
        rounds=tuple(Round(r["candidates"], r["games"]) for r in result.rounds),
        front=tuple(front),
        best=result.best,
        result=result,
    )


def tune_to_text(report: TuneReport) -> str:
    """``evlogic tune``'s text output."""
    lines = [
        f"{report.board}: moves {report.moves_model}, {report.players} players, "
        f"agents {report.agents}, "
        f"{report.order} order, seed {report.seed}",
        f"{report.candidates_tried} candidates, {report.games_played} games "
        f"(budget {report.budget}; rounds: "
        + ", ".join(f"{r.candidates} x {r.games}" for r in report.rounds)
        + ")",
        "",
    ]
    if not report.front:
        lines.append("No candidate meets every requirement.")
        return "\n".join(lines) + "\n"
    lines.append(f"Pareto front ({len(report.front)}), best first marked *:")
    for index, entry in enumerate(report.front):
        numbers = {k: v for k, v in entry.rule_set.items() if k not in ("name", "extends")}
        mark = "*" if index == report.best else " "
        lines.append("")
        lines.append(f"{mark} {entry.rule_set['name']}: " + _numbers(numbers))
        for name, interval in entry.objectives.items():
            label = name.replace("_", " ")
            if name == "first_seat_advantage":
                label = f"first mover's advantage under {report.moves_model}"
            lines.append(
                f"    {label}: {100 * interval.value:.1f} points "
                f"[{100 * interval.low:.1f}, {100 * interval.high:.1f}]"
            )
        if entry.requirements:
            lines.append(
                "    requirements: "
                + ", ".join(f"{name} {answer}" for name, answer in entry.requirements.items())
            )
        changed = ", ".join(entry.changed) or "nothing"
        lines.append(f"    changes from the base: {changed} (distance {entry.distance})")
    return "\n".join(lines) + "\n"


def _numbers(numbers: dict[str, Json]) -> str:
    parts = []
    for name, value in numbers.items():
        if name == "tiers" and isinstance(value, dict):
            parts.append("tiers " + " ".join(f"{s}:{b}" for s, b in value.items()))
        else:
            parts.append(f"{name} {value}")
    return ", ".join(parts)
