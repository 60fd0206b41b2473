"""A plain (non-editable) install into a fresh venv works from any directory:
the rules, boards and examples ship inside the wheel."""

from __future__ import annotations

import json
import subprocess
import tomllib
import venv
from pathlib import Path

import pytest

from conftest import REPO


def rule_files(root: Path) -> set[str]:
    """The rule files and rule sets under ``root``, as paths relative to it."""
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and path.suffix in {".lp", ".yaml"}
    }


def test_the_package_data_holds_every_rule_file():
    """Every file of rules/, in any folder, is package data of a package the
    wheel builds (what the slow test below sees installed)."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    rules = REPO / "rules"
    shipped = {
        path.relative_to(rules).as_posix()
        for package, folder in setuptools["package-dir"].items()
        if package in setuptools["packages"]
        for pattern in setuptools["package-data"].get(package, [])
        for path in (REPO / folder).glob(pattern)
        if path.is_relative_to(rules)
    }
    assert rule_files(rules) - shipped == set()


@pytest.mark.slow
def test_wheel_install_scores_from_another_directory(tmp_path: Path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(REPO)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [python, "-c", "import evlogic; print(evlogic.__file__)"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        check=True,
    )
    assert str(env_dir) in where.stdout  # the installed copy, not this checkout
    installed = Path(where.stdout.strip()).parent / "rules"
    assert rule_files(installed) == rule_files(REPO / "rules")  # every folder ships
    done = subprocess.run(
        [env_dir / "bin" / "evlogic", "score", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["players"][0]["total"] == 39
    game = elsewhere / "game.yaml"
    game.write_text("board: usa\nplayers: [{name: A, home: KY, states: [IN, WV]}]\n")
    module = subprocess.run(
        [python, "-m", "evlogic", "score", "game.yaml", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
    )
    assert module.returncode == 0, module.stderr
    assert json.loads(module.stdout)["players"][0]["region_bonus"] == 15
    # The searches' rule files ship too (generate, compare, canonical, ...).
    (elsewhere / "always.lp").write_text("violation.\n")
    searched = subprocess.run(
        [python, "-m", "evlogic", "check", "always.lp", "--players", "1", "--format", "json"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
    )
    assert searched.returncode == 1, searched.stderr  # 1: a counterexample
    found = json.loads(searched.stdout)
    assert found["smallest"] and found["counterexample"]["players"][0]["home"] == "AK"
    # Plain clingo scores the facts with the installed rules/score.lp, whose
    # #includes resolve beside it.
    facts = subprocess.run(
        [env_dir / "bin" / "evlogic", "facts", "game.yaml"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
    )
    assert facts.returncode == 0, facts.stderr
    score_lp = Path(where.stdout.strip()).parent / "rules" / "score.lp"
    assert f"| python -m clingo {score_lp} -\n" in facts.stdout
    plain = subprocess.run(
        [python, "-m", "clingo", score_lp, "-", "--outf=2"],
        input=facts.stdout,
        capture_output=True,
        text=True,
        cwd=elsewhere,
    )
    answer = json.loads(plain.stdout)["Call"][0]["Witnesses"][0]["Value"]
    assert "score(0,0,23,15,0,15,38)" in answer  # KY IN WV: 8 + 11 + 4, and a core
