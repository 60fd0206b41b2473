"""`evlogic layout`: the optimisation of rules/layout/layout.lp against brute
force on tiny boards, the board file it writes, and its errors."""

from __future__ import annotations

import itertools

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, board_dict
from evlogic.drawing.layout import distance
from evlogic.drawing.relayout import Grid, board_text_with_cells, grid_around, lay_out
from evlogic.loading.boards import Board, load_board

#: Three rows of three cells, a rectangle as drawn:
#:   (0,0)  (1,0)  (2,0)
#:      (0,1)  (1,1)  (2,1)
#:  (-1,2)  (0,2)  (1,2)
SMALL = Grid((0, 2), (0, 5))


def exceptions(board: Board, cells: dict) -> int:
    """Bridges + walls of a layout, counted here from scratch (not by the ASP)."""
    count = 0
    for a, b in itertools.combinations(sorted(cells), 2):
        border = b in board.states[a].neighbors
        touching = distance(cells[a], cells[b]) == 1
        count += border != touching
    return count


def brute_force(board: Board, grid: Grid) -> int:
    states = sorted(board.states)
    return min(
        exceptions(board, dict(zip(states, placement, strict=True)))
        for placement in itertools.permutations(grid.cells(), len(states))
    )


def board_of(tmp_path, edges, states=()) -> Board:
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(board_dict(edges, states=list(states))))
    return load_board(path)


def test_the_small_grid_is_a_rectangle_of_nine_cells():
    assert sorted(SMALL.cells()) == sorted(
        [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (-1, 2), (0, 2), (1, 2)]
    )
    assert grid_around([(0, 0), (1, 1)]) == Grid((-1, 2), (-2, 5))


TINY = {
    "four-clique": [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D")],
    "five-cycle": [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E"), ("A", "E")],
    "star": [("H", "A"), ("H", "B"), ("H", "C"), ("H", "D")],
    "bowtie": [("H", "A"), ("H", "B"), ("A", "B"), ("H", "C"), ("H", "D"), ("C", "D")],
    "five-clique": [(a, b) for a, b in itertools.combinations("ABCDE", 2)],
    "path": [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E")],
}


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_optimum_is_the_brute_force_minimum(tmp_path, name):
    board = board_of(tmp_path, TINY[name])
    found = lay_out(board, timeout=20, grid=SMALL)
    assert found.optimal
    assert found.after.total == brute_force(board, SMALL)
    assert found.after.total == exceptions(board, found.cells)  # the count is the layout's
    assert set(found.cells) == set(board.states)
    assert len(set(found.cells.values())) == len(found.cells)
    assert set(found.cells.values()) <= set(SMALL.cells())


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.sampled_from(list(itertools.combinations("ABCDE", 2))), min_size=1))
def test_random_tiny_boards_against_brute_force(tmp_path_factory, edges):
    names = {s for edge in edges for s in edge}
    board = board_of(
        tmp_path_factory.mktemp("b"), sorted(edges), states=sorted(set("ABCD") - names)
    )
    found = lay_out(board, timeout=20, grid=SMALL)
    assert found.optimal
    assert found.after.total == brute_force(board, SMALL) == exceptions(board, found.cells)


def test_kept_states_stay_and_the_start_is_counted(tmp_path):
    board = board_of(tmp_path, TINY["four-clique"])
    start = {"A": (0, 0), "B": (2, 0), "C": (0, 2), "D": (1, 1)}
    found = lay_out(board, timeout=20, grid=SMALL, start=start, keep=["A", "B"])
    assert (found.cells["A"], found.cells["B"]) == ((0, 0), (2, 0))
    assert found.before is not None
    assert found.before.total == exceptions(board, start)
    assert found.after.total == exceptions(board, found.cells) <= found.before.total


def test_reach_bounds_how_far_a_tile_moves(tmp_path):
    board = board_of(tmp_path, TINY["five-cycle"])
    start = {"A": (0, 0), "B": (2, 0), "C": (-1, 2), "D": (2, 1), "E": (1, 2)}
    found = lay_out(board, timeout=20, grid=SMALL, start=start, reach=1)
    assert found.optimal
    assert all(distance(found.cells[s], start[s]) <= 1 for s in start)
    assert found.after.total == exceptions(board, found.cells)
    anywhere = lay_out(board, timeout=20, grid=SMALL, start=start)
    assert anywhere.after.total <= found.after.total


@pytest.mark.slow
def test_usa_gets_fewer_exceptions_in_a_few_seconds():
    board = load_board(REPO / "maps" / "usa.yaml")
    found = lay_out(board, timeout=8, reach=2)
    assert found.before is not None
    assert found.after.total == exceptions(board, found.cells) <= found.before.total
    assert found.before.total == exceptions(board, found.start)
    assert all(distance(found.cells[s], found.start[s]) <= 2 for s in board.states)


FLOW_BOARD = """\
# A comment that stays.
name: Flow
states:
  A: {name: Alpha, ev: 3, neighbors: [B, C], hex: [0, 0]}   # A's comment
  B: {ev: 4, swing: true, neighbors: [A, C, D]}
  C: {name: Gamma, ev: 5, hex: [5, 5], neighbors: [A, B, D]}
  D: {ev: 1, neighbors: [B, C], name: Delta}
game_end: 3
"""


def test_the_written_board_keeps_everything_but_the_cells(cli, tmp_path):
    source = tmp_path / "flow.yaml"
    source.write_text(FLOW_BOARD)
    out = tmp_path / "out.yaml"
    result = cli("layout", source, "-o", out, "--timeout", "10")
    assert result.code == 0, result.err
    assert result.err == f"evlogic: wrote {out}\n"
    assert "after:  0 (0 bridges, 0 walls): optimal, proved in" in result.out
    text = out.read_text()
    assert text.startswith("# A comment that stays.\n") and "# A's comment" in text
    before, after = yaml.safe_load(FLOW_BOARD), yaml.safe_load(text)
    assert list(after) == list(before)  # fields in their order
    for state, fields in before["states"].items():
        written = after["states"][state]
        assert [k for k in written if k != "hex"] == [k for k in fields if k != "hex"]
        assert {k: v for k, v in written.items() if k != "hex"} == {
            k: v for k, v in fields.items() if k != "hex"
        }
    board = load_board(out)
    assert all(state.hex is not None for state in board.states.values())
    assert exceptions(board, {s: board.states[s].hex for s in board.states}) == 0


def test_a_block_style_board_is_written_anew_and_loads(cli, tmp_path):
    source = tmp_path / "block.yaml"
    source.write_text(yaml.safe_dump(board_dict(TINY["bowtie"], swing={"H"})))
    out = tmp_path / "out.yaml"
    assert cli("layout", source, "-o", out, "--timeout", "10").code == 0
    board, old = load_board(out), load_board(source)
    assert [(s.id, s.name, s.ev, s.swing, s.neighbors) for s in board.states.values()] == [
        (s.id, s.name, s.ev, s.swing, s.neighbors) for s in old.states.values()
    ]
    assert all(state.hex is not None for state in board.states.values())


def test_cells_replace_and_append_in_place():
    text = "states:\n  A: {ev: 1, hex: [9, 9]}\n  B: {ev: 2 }\n"
    assert board_text_with_cells(text, {"A": (0, 0), "B": (1, -1)}) == (
        "states:\n  A: {ev: 1, hex: [0, 0]}\n  B: {ev: 2 , hex: [1, -1]}\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nowhere"], "no bundled board 'nowhere'"),
        (["usa", "--keep", "KY,Kentuky"], "--keep: unknown state 'Kentuky'"),
        (["usa", "--timeout", "-1"], "--timeout"),
        (["missing.yaml"], "missing.yaml"),
    ],
)
def test_bad_input_is_one_line_and_status_2(cli, args, message):
    result = cli("layout", *args)
    assert result.code == 2
    assert len(result.err.splitlines()) == 1 and message in result.err
    assert result.out == ""


def test_a_broken_board_file_is_one_line(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("states:\n  A: {ev: 1, neighbors: [B]}\n")
    result = cli("layout", bad)
    assert result.code == 2 and len(result.err.splitlines()) == 1 and "'B'" in result.err


@pytest.mark.parametrize("board", ["usa", "examples/lakeland/board.yaml"])
def test_no_layout_by_the_time_limit_is_one_line_and_status_3(cli, monkeypatch, board):
    """Every solve ends without a layout (as one cut short does) and the
    deadline has passed: a time limit, exit 3, never bad input."""
    from evlogic.drawing import relayout

    monkeypatch.chdir(REPO)
    monkeypatch.setattr(relayout._Solver, "solve", lambda self, until, assumed: None)
    result = cli("layout", board, "--timeout", "0.001")
    assert result.code == 3 and result.out == ""
    assert result.err == (
        "evlogic: error: layout: no answer within 0.001 s (raise --timeout to give it longer)\n"
    )


def _without_cells(document: dict) -> dict:
    states = document["states"].items()
    return {
        **document,
        "states": {s: {k: v for k, v in f.items() if k != "hex"} for s, f in states},
    }


@pytest.mark.parametrize(
    ("dump", "cells_before"),
    [
        ({}, True),  # yaml.safe_dump's default: block mappings, block lists ("- 1")
        ({}, False),  # block mappings without hex: the cell is added
        ({"default_flow_style": None}, True),  # lists in flow, mappings in block
        ({"default_flow_style": None}, False),
        ({"default_flow_style": True}, True),
        ({"indent": 4}, True),
        ({"indent": 4, "sort_keys": False}, False),
        ({"line_break": "\r\n"}, True),
        ({"line_break": "\r\n"}, False),
    ],
    ids=[
        "block",
        "block-new",
        "mixed",
        "mixed-new",
        "flow",
        "indent-4",
        "indent-4-new",
        "crlf",
        "crlf-new",
    ],
)
def test_any_yaml_form_of_the_cells_is_rewritten_in_place(dump, cells_before, tmp_path):
    """``hex:`` as YAML writes it in any style, or none: the cells are the
    new ones, everything else as it was (comments too), and the file loads
    as a board."""
    lakeland = REPO / "examples" / "lakeland" / "board.yaml"
    document = yaml.safe_load(lakeland.read_text())
    document = document if cells_before else _without_cells(document)
    text = "# a comment\n" + yaml.safe_dump(document, **dump)
    if cells_before and "hex:\n" in text.replace("\r", ""):  # a comment inside a block list
        text = text.replace("hex:", "hex: # its cell", 1)
    cells = {state: (index, -index) for index, state in enumerate(sorted(document["states"]))}
    rewritten = board_text_with_cells(text, cells)
    written = yaml.safe_load(rewritten)
    for state, fields in document["states"].items():
        assert written["states"][state] == {**fields, "hex": list(cells[state])}
        order = list(yaml.safe_load(text)["states"][state])  # added last, if new
        assert list(written["states"][state]) == order + ([] if cells_before else ["hex"])
    assert {key: value for key, value in written.items() if key != "states"} == {
        key: value for key, value in document.items() if key != "states"
    }
    comments = [line.split("#")[1] for line in text.splitlines() if "#" in line]
    assert [line.split("#")[1] for line in rewritten.splitlines() if "#" in line] == comments
    source = tmp_path / "board.yaml"
    source.write_text(rewritten)
    assert load_board(source).states.keys() == document["states"].keys()


def test_layout_writes_a_board_yaml_dumped(cli, tmp_path):
    lakeland = REPO / "examples" / "lakeland" / "board.yaml"
    source, out = tmp_path / "dumped.yaml", tmp_path / "out.yaml"
    source.write_text(yaml.safe_dump(yaml.safe_load(lakeland.read_text())))
    result = cli("layout", source, "-o", out, "--timeout", "10")
    assert result.code == 0, result.err
    assert load_board(out).states.keys() == load_board(source).states.keys()


def test_a_cell_written_as_an_alias_is_written_anew(tmp_path):
    """An edit in place would change the anchor's cell too: the board is
    written anew, every state with its own cell."""
    text = (
        "# shared cells\nname: T\nstates:\n"
        "  A: {ev: 1, hex: &cell [0, 0], neighbors: [B]}\n"
        "  B: {ev: 2, hex: *cell, neighbors: [A]}\n"
    )
    written = yaml.safe_load(board_text_with_cells(text, {"A": (0, 0), "B": (1, 0)}))
    assert written["states"]["A"]["hex"] == [0, 0] and written["states"]["B"]["hex"] == [1, 0]
    assert written["states"]["B"] == {"ev": 2, "hex": [1, 0], "neighbors": ["A"]}
