"""The compiled batch encoding (rules/batch/) against the readable rules.

`evlogic batch` scores rule sets of parameters only with rules/batch/; every
line must be exactly the `score --format json` report the readable rules
give, on any board (60+ states: several blocks of 56), any rule set, 1-6
players, unclaimed states.
"""

from __future__ import annotations

import functools
import io
import json
import os
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import game_under

from evlogic.asp.compiled import private, tables
from evlogic.asp.compiled.positions import position_of, read_position
from evlogic.asp.compiled.rows import read_rows
from evlogic.batching.chunk import json_line
from evlogic.batching.lines import Packed
from evlogic.batching.reading import BatchOptions
from evlogic.batching.runner import run_batch
from evlogic.errors import InputError
from evlogic.loading.boards import load_board
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.score import score_game
from evlogic.resources import bundled_boards
from strategies import boards, positions

#: Boards of one to 70 states: several blocks of 56 past 56.
big_boards = boards(sizes=st.sampled_from([1, 2, 5, 9, 16, 30, 55, 56, 57, 61, 70]))


rule_sets = st.fixed_dictionaries(
    {
        "tiers": st.dictionaries(st.integers(1, 12), st.integers(0, 60), min_size=1, max_size=5),
        "siege_penalty": st.integers(0, 25),
        "links_needed": st.integers(1, 4),
        "swing_multiplier": st.integers(1, 4),
        "home_swing": st.booleans(),
        "region": st.sampled_from(["best-core", "union"]),
    },
    optional={"game_end": st.integers(1, 20)},
)


def batch_lines(lines: list[str], base: Path) -> list[dict]:
    out = io.StringIO()
    run_batch(lines, out, BatchOptions("in.jsonl", None, str(base)), chunk_size=4)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.exhaustive
@settings(
    max_examples=int(os.environ.get("EVLOGIC_DIFFERENTIAL_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(positions(big_boards, min_players=1), min_size=1, max_size=3), rule_sets)
def test_batch_lines_equal_the_readable_reports(several, rules):
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        lines, expected = [], []
        for number, (board, players) in enumerate(several):
            variant = dict(rules)
            if "game_end" in rules:  # a rule set may not end the game past the board
                variant["game_end"] = min(rules["game_end"], len(board["states"]))
            (base / f"rules{number}.yaml").write_text(yaml.safe_dump({"name": "random", **variant}))
            (base / f"board{number}.yaml").write_text(yaml.safe_dump(board))
            game = {"board": f"board{number}.yaml", "rules": f"rules{number}.yaml"}
            lines.append(json.dumps({**game, "players": players}))
            scored = game_under(board, players, variant)
            assert tables.applies(scored.board, scored.rules)  # the compiled path is tested
            try:
                expected.append({"line": number + 1, **score_game(scored).to_dict()})
            except InputError as error:  # past the game end: refused alike
                expected.append({"line": number + 1, "error": error.message})
        for line, report in zip(batch_lines(lines, base), expected, strict=True):
            if "error" in report:
                prefix = f"in.jsonl: line {report['line']}: players: "
                assert line["error"].startswith(prefix), line
                # the same words; where the game end was set names each one's file
                said = line["error"].removeprefix(prefix)
                assert said.split(" (set by ")[0] == report["error"].split(" (set by ")[0]
                assert "but the game ends when state" in said
                continue
            assert line.keys() == report.keys()
            for key in report:
                if key != "players":
                    assert line[key] == report[key], key
            for mine, theirs in zip(line["players"], report["players"], strict=True):
                for key in theirs:
                    assert mine[key] == theirs[key], (theirs["name"], key)
            assert json_line(line) == json_line(report)  # byte for byte


@pytest.mark.exhaustive
def test_every_bundled_rule_set_on_the_usa_board_agrees():
    usa_path = bundled_boards()["usa"]
    usa = load_board(usa_path)
    from evlogic.batching.sample import sample_games

    for name in ["standard", "flat-tiers", "gentle-siege", "open-region", "union-cores"]:
        rules = load_rule_set(name)
        lines = [
            json.dumps({**game, "rules": name}) for game in sample_games(usa, "usa", 4, 60, seed=3)
        ]
        with tempfile.TemporaryDirectory() as folder:
            reports = batch_lines(lines, Path(folder))
        for line, report in zip(lines, reports, strict=True):
            game = load_game_from_line(line, usa, rules)
            assert report == {"line": report["line"], **score_game(game).to_dict()}


def load_game_from_line(line: str, board, rules):
    from evlogic.loading.games import quick_game

    game = quick_game(json.loads(line), board, "in.jsonl", rules)
    assert game is not None
    return game


def test_a_rule_set_whose_figures_could_pass_32_bits_is_scored_by_the_readable_rules():
    usa = load_board(bundled_boards()["usa"])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "huge.yaml"
        path.write_text("extends: standard\nsiege_penalty: 1000000\ntiers: {3: 1000000}\n")
        huge = load_rule_set(str(path))
        path.write_text("extends: standard\nswing_multiplier: 100\n")
        large = load_rule_set(str(path))
    assert tables.applies(usa, huge)
    assert tables.applies(usa, large)
    assert tables.applies(usa, load_rule_set("standard"))


# --- the input path: lines read straight into masks ---------------------------

_ids = st.sampled_from(["AL", "GA", "FL", "TN", "ZZ", "", 3, None, ["AL"], 2.5])
_players = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from(["A", "B", " ", "é", 7]), "home": _ids},
        optional={"states": st.one_of(st.lists(_ids, max_size=5), st.just("AL")), "x": st.just(1)},
    ),
    max_size=3,
)


@functools.cache
def _usa_standard():
    return load_board(bundled_boards()["usa"]), load_rule_set("standard")


def test_core_joiners_are_the_states_with_enough_links_into_each_core(tmp_path):
    """compile.lp's core_joiner/12 (step 1 of the closures) against the
    board's borders counted here: for each core, the states outside it with
    links_needed links into it, each with its one-hot masks."""
    usa = load_board(bundled_boards()["usa"])
    number = {state: n for n, state in enumerate(sorted(usa.states))}
    for links in (1, 2, 3):
        path = tmp_path / f"links{links}.yaml"
        path.write_text(f"extends: standard\nlinks_needed: {links}\n")
        table = tables.compiled(usa, load_rule_set(str(path)))
        rows = {
            tuple(row.arguments[i].number for i in range(4)) for row in table.tables["core_joiner"]
        }
        expected = set()
        for home, state in usa.states.items():
            for a in state.neighbors:
                for b in state.neighbors:
                    if number[a] < number[b] and b in usa.states[a].neighbors:
                        core = {home, a, b}
                        for other in usa.states:
                            touching = len(core & set(usa.states[other].neighbors))
                            if other not in core and touching >= links:
                                expected.add((number[home], number[a], number[b], number[other]))
        assert rows == expected
        assert expected  # every links_needed of this board has joiners to check
        one_hot = {row.arguments[0].number: row.arguments[1:] for row in table.tables["one_hot"]}
        for row in table.tables["core_joiner"]:
            assert row.arguments[4:] == one_hot[row.arguments[3].number]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.fixed_dictionaries({"players": _players}), _players, st.none()))
def test_read_position_accepts_exactly_what_quick_game_accepts(value):
    from evlogic.loading.games import quick_game

    usa, standard = _usa_standard()
    board = tables.compiled(usa, standard)
    position = read_position(value, board)
    game = quick_game(value, usa, "in.jsonl", standard)
    assert (position is None) == (game is None)
    if game is not None:
        assert position == position_of(game, board)


def test_input_atoms_are_the_symbols_function_gives():
    from clingo import Function, Number

    for values in (
        [0, 1, 5000, 3, 0, 255, 17, 0, 0, 0, 0, 1],
        [70000, 2],
        [0] * 20,
        [-3, 4],
        [2**31 - 1, 0],
    ):
        atom = [Function("owns", [Number(value) for value in values])]
        assert private.atoms("owns")(values, len(values)) == atom
        assert private.atoms("owns")(values * 3, len(values)) == atom * 3
        assert private.atoms("taken")(values, len(values))[0].name == "taken"
    assert private.atoms("owns")([], 11) == []


# --- the output path: shown atoms read as text, lines written from fragments ---


def test_shown_atoms_are_read_as_rows_keyed_by_position_and_player():
    empty = read_rows("()")
    assert (empty.won, empty.figures, empty.winners, empty.cores) == ({}, {}, set(), {})
    assert read_rows("(won(0,36,1),)").won == {"0": "36,1"}
    rows = read_rows(
        "(winner(3,1),figures(3,1,-5,7,0,0,0,12,0,65536),won(3,9,0),core(3,1,4,17),"
        "joined(3,1,22,2),joined(3,1,4,0),face_upto(3,1,0,1,2,3),figures(3,0,1,1,0,0,0,0,0,0))"
    )
    assert rows.won == {"3": "9,0"}
    assert rows.figures == {"3,1": "-5,7,0,0,0,12,0,65536", "3,0": "1,1,0,0,0,0,0,0"}
    assert rows.winners == {"3,1"}
    assert rows.cores == {"3,1": "4,17"}
    assert rows.joined == [("3,1", "22", "2"), ("3,1", "4", "0")]
    assert rows.sieges == [("3,1", "0,1,2,3")]


def test_names_beyond_ascii_are_written_as_the_readable_path_writes_them():
    usa, standard = _usa_standard()
    players = [
        {"name": 'B\u00e9 "\u2603" \\ x', "home": "KY", "states": ["IN", "WV", "TN"]},
        {"name": "\U0001f600", "home": "OH", "states": ["PA"]},
    ]
    line = json.dumps({"board": "usa", "players": players})
    out = io.StringIO()
    with tempfile.TemporaryDirectory() as folder:
        run_batch([line], out, BatchOptions("in.jsonl", None, folder), chunk_size=4)
    game = load_game_from_line(line, usa, standard)
    assert out.getvalue() == json_line({"line": 1, **score_game(game).to_dict()})


def test_packed_siege_masks_read_as_the_rules_pack_them_and_are_forgotten_past_a_bound(
    monkeypatch,
):
    groups = tuple(  # group -> mask -> its states' text (mask 0: none)
        tuple(f"g{group}:{mask}" if mask else "" for mask in range(256)) for group in range(3)
    )
    packed = Packed(groups)
    # S0 + 256 * S1 + 65536 * S2, as rules/batch/totals.lp writes it
    assert packed[str(5 + 256 * 0 + 65536 * 3)] == "g0:5, g2:3"
    assert packed["0"] == ""
    monkeypatch.setattr(Packed, "REMEMBERED", 3)
    for s1 in range(1, 10):
        assert packed[str(256 * s1)] == f"g1:{s1}"
        assert len(packed) <= 3


def test_more_players_than_64_are_written_as_the_readable_path_writes_them(tmp_path):
    """Players are keyed by their number in the rows the rules show: any
    number of them, not only those a table of keys was made for."""
    states = {f"S{n:02d}": {"ev": 1 + n % 3, "neighbors": []} for n in range(70)}
    # (68 states won: the game ends at the 70th, not the default 36th)
    board = {"name": "b70", "game_end": 70, "states": states}
    (tmp_path / "b70.yaml").write_text(yaml.safe_dump(board))
    board = load_board(tmp_path / "b70.yaml")
    players = [{"name": f"P{n}", "home": f"S{n:02d}"} for n in range(66)]
    players[65]["states"] = ["S66", "S67"]
    line = json.dumps({"board": "b70.yaml", "players": players})
    out = io.StringIO()
    assert run_batch([line], out, BatchOptions("in.jsonl", None, str(tmp_path))) == 0
    game = load_game_from_line(line, board, load_rule_set("standard"))
    assert tables.applies(board, game.rules)  # the compiled path is tested
    assert out.getvalue() == json_line({"line": 1, **score_game(game).to_dict()})


# --- clingo's private interface: the public fallback gives the same output ---


@pytest.fixture
def public_clingo_only(monkeypatch):
    """evlogic.asp.compiled.private with clingo._internal out of reach, as
    on a clingo that does not expose it: every atom made by ``Function``,
    every model's text printed from ``Model.symbols``.  The caches made by
    the private path (atom makers, compiled boards) are emptied before and
    after."""
    monkeypatch.setattr(private, "interface", lambda: None)
    private.atoms.cache_clear()
    tables._compiled.cache_clear()
    yield
    monkeypatch.undo()
    private.atoms.cache_clear()
    tables._compiled.cache_clear()


def _several_lines(tmp_path: Path) -> list[str]:
    """usa under two rule sets (the union's steps included) and a board of
    two blocks (its siege masks a block at a time)."""
    from evlogic.batching.sample import sample_games

    usa = load_board(bundled_boards()["usa"])
    lines = [
        json.dumps({**game, "rules": name})
        for name in ("standard", "union-cores")
        for game in sample_games(usa, "usa", 3, 12, seed=5)
    ]
    states = {f"S{n:02d}": {"ev": 1 + n % 5, "neighbors": []} for n in range(61)}
    for n in range(60):
        states[f"S{n:02d}"]["neighbors"].append(f"S{n + 1:02d}")
        states[f"S{n + 1:02d}"]["neighbors"].append(f"S{n:02d}")
    (tmp_path / "b61.yaml").write_text(yaml.safe_dump({"name": "b61", "states": states}))
    for seed, home in enumerate(("S00", "S30", "S59")):
        others = [f"S{n:02d}" for n in range(60) if n % 3 == seed and f"S{n:02d}" != home]
        players = [
            {"name": "A", "home": home, "states": others[:20]},
            {"name": "B", "home": "S60", "states": others[20:30]},
        ]
        lines.append(json.dumps({"board": "b61.yaml", "players": players}))
    return lines


def _batch_text(lines: list[str], base: Path) -> str:
    out = io.StringIO()
    run_batch(lines, out, BatchOptions("in.jsonl", None, str(base)), chunk_size=7)
    return out.getvalue()


def test_the_public_fallback_of_the_private_interface_writes_the_same_lines(tmp_path, request):
    lines = _several_lines(tmp_path)
    through_private = _batch_text(lines, tmp_path)
    assert '"error"' not in through_private
    request.getfixturevalue("public_clingo_only")
    assert isinstance(private.atoms("owns"), functools.partial)  # Function, an atom at a time
    assert _batch_text(lines, tmp_path) == through_private


def test_the_public_fallback_makes_the_same_atoms_and_model_text(request):
    import clingo

    assert private.interface() is not None  # this clingo has it: both paths are compared
    rows = [[0, 1, 5000, 3, 0, 255, 17, 0, 0, 0, 0, 1], [70000, 2] * 6, [2**31 - 1] * 12]
    flat = [value for row in rows for value in row]
    control = clingo.Control(["--models=1"])
    control.add("base", [], "a(1..3). b(x, -2, (1, 2)). c. #show a/1. #show b/3. #show c/0.")
    control.ground([("base", [])])

    def made() -> tuple[list[clingo.Symbol], list[clingo.Symbol], list[str]]:
        texts: list[str] = []
        control.solve(on_model=lambda model: texts.append(private.shown_text(model)))
        return private.atoms("owns")(flat, 12), private.atoms("")(flat, 12), texts

    through_private = made()
    request.getfixturevalue("public_clingo_only")
    assert made() == through_private
    assert through_private[2] == ["(a(1),a(2),a(3),c,b(x,-2,(1,2)))"]
