"""The README's Python API example runs, and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

import evlogic
from conftest import REPO


def readme_example() -> str:
    text = (REPO / "README.md").read_text()
    return re.search(r"## Python API.*?```python\n(.*?)```", text, re.S).group(1)


def test_the_readme_example_prints_what_it_says(monkeypatch):
    monkeypatch.chdir(REPO)
    code = readme_example()
    expected = [
        line.split("# ", 1)[1].split(": ", 1)[0].strip()
        for line in code.splitlines()
        if line.startswith("print(")
    ]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {})
    assert printed.getvalue().splitlines() == expected


def test_paths_may_be_text_or_path_like(tmp_path):
    game = REPO / "examples" / "rulebook" / "full-example.yaml"
    for path in (str(game), game, Path(str(game))):
        assert evlogic.score_file(path).players[0].total == 39
        assert evlogic.load_game(path).players[0].name == "You"
    assert len(evlogic.load_board(str(REPO / "maps" / "usa.yaml")).states) == 51


def test_a_rule_set_may_be_a_name_a_file_or_a_rule_set(tmp_path):
    game = REPO / "examples" / "rulebook" / "full-example.yaml"
    (tmp_path / "soft.yaml").write_text("name: soft\nextends: standard\nsiege_penalty: 0\n")
    assert evlogic.score_file(game, rules="gentle-siege").players[0].total == 49
    assert evlogic.score_file(game, rules=str(tmp_path / "soft.yaml")).players[0].total == 59
    rules = evlogic.load_rule_set("gentle-siege")
    assert evlogic.score_file(game, rules=rules).players[0].total == 49


def test_bad_input_raises_input_error_with_the_cli_wording(tmp_path):
    with pytest.raises(evlogic.InputError) as raised:
        evlogic.score_file(tmp_path / "nowhere.yaml")
    assert str(raised.value).endswith("nowhere.yaml: no such file")
