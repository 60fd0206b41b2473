"""A user's program is read once (evlogic/asp/program.py): one check parses
its property and its rule set's programs once each, and programs read
apart join as clingo reads them together."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import clingo.ast
import pytest

from evlogic.asp.program import read_program
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.check import check
from evlogic.resources import bundled_properties


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Counter[Path]:
    """Every file clingo parses from now on (a parse_files call each), by
    resolved path, on any thread."""
    counted: Counter[Path] = Counter()
    parse_files = clingo.ast.parse_files

    def counting(files, *args, **kwargs):
        counted.update(Path(name).resolve() for name in files)
        return parse_files(files, *args, **kwargs)

    monkeypatch.setattr(clingo.ast, "parse_files", counting)
    return counted


def test_one_check_parses_its_property_and_rule_programs_once(tmp_path, search_board, parses):
    (tmp_path / "big-region.lp").write_text("violation :- region_size(0, 0, N), N >= 4.\n")
    (tmp_path / "bonus.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    (tmp_path / "bonus.yaml").write_text("name: bonus\nextends: standard\nprograms: [bonus.lp]\n")
    rules = load_rule_set(tmp_path / "bonus.yaml")  # (loading reads it once, for score)
    board = load_board(search_board)
    parses.clear()
    result = check("big-region.lp", board, "board.yaml", rules, "bonus.yaml")
    assert result.result == "counterexample"
    assert parses[(tmp_path / "big-region.lp").resolve()] == 1
    assert parses[(tmp_path / "bonus.lp").resolve()] == 1
    assert max(parses.values()) == 1  # evlogic's own rule files too, once a search's thread


def test_a_bundled_property_is_parsed_once_too(search_board, parses):
    result = check(
        "own-monotone", load_board(search_board), "board.yaml", load_rule_set(), "standard"
    )
    assert result.result == "holds"
    assert parses[bundled_properties()["own-monotone"].resolve()] == 1
    assert max(parses.values()) == 1


def listed(statements) -> list[str]:
    return [f"{node.location.begin.filename}: {node}" for node in statements]


def test_programs_read_apart_join_as_read_together(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.lp").write_text('a(1).\n#include "e.lp".\na(2).\n')
    Path("e.lp").write_text("e(1).\n")
    Path("b.lp").write_text('b(1).\n#include "f.lp".\n')
    Path("f.lp").write_text("f(1).\n")
    joined = read_program([Path("a.lp")]).joined(read_program([Path("b.lp")]))
    together = read_program([Path("a.lp"), Path("b.lp")])
    assert listed(joined.written) == listed(together.written)  # clingo reads b.lp first
    assert joined.files == together.files and joined.mentions == together.mentions
    assert joined.paths == together.paths


def test_programs_that_share_a_file_are_read_together(tmp_path, monkeypatch):
    """clingo reads a file that two programs include once, with a warning
    (an error of check's): joining them reads them again, together."""
    monkeypatch.chdir(tmp_path)
    Path("a.lp").write_text('#include "h.lp".\na(1).\n')
    Path("b.lp").write_text('#include "h.lp".\nb(1).\n')
    Path("h.lp").write_text("h(1).\n")
    joined = read_program([Path("a.lp")]).joined(read_program([Path("b.lp")]))
    together = read_program([Path("a.lp"), Path("b.lp")])
    assert listed(joined.written) == listed(together.written)
    assert [message for _code, message in joined.messages] == [
        message for _code, message in together.messages
    ]
    assert any("already included" in message for _code, message in joined.messages)
