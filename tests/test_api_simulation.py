"""evlogic.play, evlogic.balance and evlogic.tune: the library behind the
commands, each result's to_json() the command's --format json output."""

from __future__ import annotations

import dataclasses
import inspect
import pydoc

import pytest

import evlogic
from evlogic.reports.balance_figures import BalanceReport, RuleSetFigures
from evlogic.simulation.report import PlayReport
from evlogic.simulation.tune_report import TuneReport

SPACE = "examples/tune/lakeland-space.yaml"


def test_play_is_the_command(cli):
    report = evlogic.play(players=3, agents="greedy,random,spoiler", seed=3)
    assert isinstance(report, PlayReport)
    result = cli("play", "--players", "3", "--agents", "greedy,random,spoiler", "--seed", "3")
    assert result.code == 0
    assert report.to_text() == result.out
    json_result = cli(
        "play", "--players", "3", "--agents", "greedy,random,spoiler", "--seed", "3",
        "--format", "json",
    )  # fmt: skip
    assert report.to_json() + "\n" == json_result.out
    assert report.final.winners == report.game.report.winners
    assert len(report.moves) > 0


def test_play_on_from_a_game_file(cli):
    game = "examples/rulebook/full-example.yaml"
    result = cli("play", game, "--agents", "spoiler", "--format", "json")
    assert evlogic.play(game, agents="spoiler").to_json() + "\n" == result.out


@pytest.mark.slow
def test_balance_is_the_command(cli):
    report = evlogic.balance(games=20, seed=1, players=2, board="usa")
    assert isinstance(report, BalanceReport)
    assert dataclasses.is_dataclass(report)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.games = 3  # type: ignore[misc]
    args = ["balance", "--games", "20", "--seed", "1", "--players", "2", "--board", "usa"]
    assert report.to_json() + "\n" == cli(*args, "--format", "json").out
    assert report.to_text() == cli(*args).out
    (figures,) = report.rule_sets
    assert isinstance(figures, RuleSetFigures)
    assert [seat.seat for seat in figures.seat_win_rate] == [1, 2]
    assert sum(seat.rate for seat in figures.seat_win_rate) == pytest.approx(1.0, abs=1e-5)


def test_balance_compares_rule_sets_and_hands_on_each_game(cli):
    lines: list[str] = []
    report = evlogic.balance(
        rules=["standard", "gentle-siege"], games=10, players=3, on_game=lines.append
    )
    args = ["balance", "--rules", "standard", "--rules", "gentle-siege", "--games", "10"]
    assert report.to_json() + "\n" == cli(*args, "--players", "3", "--format", "json").out
    assert len(lines) == 20
    (difference,) = report.differences
    assert (difference.rules, difference.against, difference.games) == (
        "gentle-siege",
        "standard",
        10,
    )


def test_bad_input_raises_the_commands_message(cli):
    with pytest.raises(evlogic.InputError) as raised:
        evlogic.balance(games=2, rules=["standard", "standard"])
    result = cli("balance", "--games", "2", "--rules", "standard", "--rules", "standard")
    assert result.code == 2
    assert result.err == f"evlogic: error: {raised.value}\n"


@pytest.mark.slow
def test_tune_is_the_command(cli):
    report = evlogic.tune(SPACE, games=4, budget=8, players=2)
    assert isinstance(report, TuneReport)
    args = ["tune", SPACE, "--games", "4", "--budget", "8", "--players", "2"]
    assert report.to_json() + "\n" == cli(*args, "--format", "json").out
    assert report.to_text() == cli(*args).out


@pytest.mark.parametrize("name", ["play", "balance", "tune"])
def test_help_teaches_every_parameter(name):
    function = getattr(evlogic, name)
    text = pydoc.render_doc(function, renderer=pydoc.plaintext)
    for parameter in inspect.signature(function).parameters:
        assert f"``{parameter}``" in function.__doc__, parameter
        assert parameter in text
    assert f">>> report = evlogic.{name}(" in function.__doc__  # an example
    assert name in evlogic.__all__ and name in dir(evlogic)
