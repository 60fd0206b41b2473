"""The command line loads only the command it runs, and says the same as
the parser of every command: the top-level help, each command's help and
the usage errors do not depend on which command modules were imported."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

import pytest

from conftest import REPO
from evlogic.cli import build_parser, named_command
from evlogic.commands import COMMANDS


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(
        action.choices
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
    )


@pytest.fixture(autouse=True)
def columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")


def test_the_top_level_help_lists_every_command_whichever_is_loaded():
    full = build_parser().format_help()
    for only in ("", *(command.name for command in COMMANDS)):
        assert build_parser(only).format_help() == full
    assert all(f"    {command.name}" in full for command in COMMANDS)


@pytest.mark.parametrize("command", [command.name for command in COMMANDS])
def test_a_command_s_help_is_its_full_parser_s(command):
    alone = subparsers(build_parser(command))[command]
    assert alone.format_help() == subparsers(build_parser())[command].format_help()


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["score"], "score"),
        (["score", "--format", "json", "game.yaml"], "score"),
        (["--version"], ""),
        (["-h", "board-report"], "board-report"),
        (["board-report", "usa"], "board-report"),
        (["scor"], ""),
        (["-", "score"], ""),
        ([], ""),
    ],
)
def test_the_command_is_the_first_argument_that_is_not_an_option(argv, command):
    assert named_command(argv) == command


def test_score_imports_neither_the_batch_runner_nor_the_searches():
    program = (
        "import json, sys\n"
        "from evlogic.cli import main\n"
        "main(['score', '--format', 'json'])\n"
        "print(json.dumps([name for name in sys.modules if name.startswith('evlogic')]),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["total"] == 39
    loaded = set(json.loads(done.stderr.splitlines()[-1]))
    assert "evlogic.commands.score" in loaded
    unwanted = {
        "evlogic.batching.runner",
        "evlogic.batching.chunk",
        "evlogic.batching.reading",
        "evlogic.asp.compiled",
        "evlogic.asp.search",
        "evlogic.commands.batch",
        "evlogic.commands.check",
        "evlogic.commands.serve",
    }
    assert not loaded & unwanted


def test_a_solver_error_is_an_internal_error_with_status_70(cli, monkeypatch):
    """SolverError is a RuntimeError: it must be caught before the clause
    for clingo's bad_alloc, which re-raises every other RuntimeError."""
    from evlogic.asp.solver import SolverError

    def broken(_game):
        raise SolverError("the scoring rules have no answer set for this input")

    monkeypatch.setattr("evlogic.api.scoring.score_game", broken)
    result = cli("score")
    assert result.code == 70
    assert result.err == (
        "evlogic: internal error: the scoring rules have no answer set for this input\n"
    )


@pytest.mark.parametrize(
    ("args", "suggested"),
    [
        (["scroe"], "score"),
        (["explian"], "explain"),
        (["board-reprot"], "board-report"),
        (["score", "--format", "jsn"], "json"),
        (["play", "--order", "snak"], "snake"),
    ],
)
def test_a_misspelt_command_or_choice_names_the_nearest(cli, args, suggested):
    result = cli(*args)
    assert result.code == 2 and result.out == ""
    (line,) = result.err.splitlines()
    assert f"(did you mean '{suggested}'?)" in line


def test_nothing_near_is_no_suggestion(cli):
    result = cli("xyzzy")
    assert result.code == 2 and "did you mean" not in result.err
