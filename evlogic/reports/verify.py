"""Scenarios: game files that carry the figures they must score.

A game file may hold ``expect:`` with any subset of a player's figures and
the winners; ``evlogic verify`` scores each file and lists what differs.
The comparison is plain equality on what the rules derived.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from evlogic.errors import InputError
from evlogic.loading.expect import LIST_FIELDS, Expected
from evlogic.loading.games import GAME_KEYS, game_from_document
from evlogic.loading.rulesets import RuleSet
from evlogic.loading.yamlfile import Field, read_yaml
from evlogic.reports.report import PlayerScore, ScoreReport
from evlogic.reports.score import score_game
from evlogic.resources import examples_dir


@dataclass(frozen=True)
class Failure:
    player: str | None  # None for the winners
    field: str
    expected: object
    actual: object


@dataclass(frozen=True)
class ScenarioResult:
    file: str
    passed: bool
    failures: list[Failure] = field(default_factory=list)
    error: str | None = None  # the scenario could not be read or scored

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "passed": self.passed,
            "failures": [asdict(f) for f in self.failures],
            "error": self.error,
        }


def verify_paths(paths: Iterable[str], rules: RuleSet | None = None) -> list[ScenarioResult]:
    """Verify the files named and the scenarios in the directories named.

    A scenario that cannot be read or scored fails, with its error; so does
    a YAML file in a directory that cannot be read at all (it may have been
    a scenario).  A path that does not exist, or a directory with no
    scenario in it, is an InputError: there would be nothing to verify."""
    results: list[ScenarioResult] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = [
                result
                for file in sorted(path.rglob("*.yaml"))
                if file.is_file()  # not a pipe, a socket or a device: they could block
                and (result := _verify(str(file), file, rules, named=False)) is not None
            ]
            if not found:
                raise InputError(name, "no scenarios here (game files with expect:)")
            results.extend(found)
        elif path.exists():
            result = _verify(name, path, rules, named=True)
            if result is not None:  # (always, for a file named)
                results.append(result)
        else:
            raise InputError(name, "no such file or directory")
    return results


def default_paths() -> list[str]:
    return [str(examples_dir() / "rulebook")]


def _verify(name: str, path: Path, rules: RuleSet | None, named: bool) -> ScenarioResult | None:
    """The file's result; None for a file found in a directory that is no
    scenario (a board, a rule set, a game without expect:)."""
    try:
        top = read_yaml(path, name)
    except InputError as error:
        return ScenarioResult(name, False, error=str(error))
    if not named and not (isinstance(top.value, dict) and "expect" in top.value):
        return None
    try:
        return verify_file(name, path, rules, top)
    except InputError as error:
        return ScenarioResult(name, False, error=str(error))


def verify_file(
    name: str, path: Path, rules: RuleSet | None = None, top: Field | None = None
) -> ScenarioResult:
    """Score one scenario and compare; bad input is an InputError."""
    top = top or read_yaml(path, name)
    fields = top.fields(*GAME_KEYS, what="a game mapping")
    if "expect" not in fields:
        raise top.error("no expect: key: nothing to verify")
    game = game_from_document(top, path.parent, rules)  # expect: checked as input
    assert game.expect is not None
    report = score_game(game)
    failures = list(_compare(game.expect, report))
    return ScenarioResult(name, not failures, failures)


def _compare(expected: Expected, report: ScoreReport) -> Iterator[Failure]:
    by_name = {player.name: player for player in report.players}
    for name, figures in expected.players:
        for figure, value in figures:
            actual = _actual(figure, by_name[name])
            if value != actual:
                yield Failure(name, figure, _plain(value), _plain(actual))
    if expected.winners is not None and list(expected.winners) != sorted(report.winners):
        yield Failure(None, "winners", list(expected.winners), sorted(report.winners))


def _plain(value: object) -> object:
    """A list for a tuple of ids (JSON and the text report print lists)."""
    return list(value) if isinstance(value, tuple) else value


def _actual(figure: str, player: PlayerScore) -> object:
    if figure == "region_size":
        return len(player.region)
    if figure in LIST_FIELDS:
        return tuple(sorted(getattr(player, figure)))
    return getattr(player, figure)
