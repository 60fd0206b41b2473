"""The two encodings of a decision play the same games: rules/play/moves.lp
(fast, the mover's region grown once a candidate) against score's own rules
on every position a move could make (rules/play/readable.lp), on random
boards, rule sets, tables and agents (the bundled ones and the examples';
hostile ones: tests/test_agents_hostile.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_differential import fitted, rule_variants

from evlogic.loading.rulesets import load_rule_set, rule_set_from_field
from evlogic.loading.yamlfile import yaml_document
from evlogic.reports.score import score_game
from evlogic.simulation.agents import BUNDLED, load_agent
from evlogic.simulation.engine import play
from evlogic.simulation.table import ORDERS, Seat, Table
from strategies import as_game, boards

#: The bundled agents and the example agents (examples/agents/), which both
#: encodings read and ground one way (evlogic/simulation/agents.py).
EXAMPLE_AGENTS = sorted((Path(__file__).parents[1] / "examples").rglob("agents/*.lp"))
AGENTS = {
    **{name: load_agent(name) for name in BUNDLED},
    **{path.name: load_agent(str(path)) for path in EXAMPLE_AGENTS},
}


@st.composite
def tables(draw) -> Table:
    board = draw(boards(sizes=st.integers(3, 12)))
    ids = sorted(board["states"])
    players = draw(st.integers(1, min(4, len(ids))))
    homes = draw(st.permutations(ids))[:players]
    board["game_end"] = draw(st.integers(players, len(ids)))
    variant = {k: v for k, v in draw(rule_variants).items() if k != "game_end"}
    document = yaml_document(yaml.safe_dump({"name": "random", **fitted(variant, board)}), "r.yaml")
    rules = rule_set_from_field(document, Path("."))
    game = as_game(board, [{"name": f"P{i}", "home": h, "states": []} for i, h in enumerate(homes)])
    seats = tuple(
        Seat(f"P{i}", home, (), AGENTS[draw(st.sampled_from(sorted(AGENTS)))])
        for i, home in enumerate(homes)
    )
    return Table(game.board, rules, seats, draw(st.sampled_from(ORDERS)), draw(st.integers(0, 99)))


@pytest.mark.exhaustive
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_both_encodings_play_the_same_game(table):
    fast, readable = play(table), play(table, readable=True)
    assert fast.moves == readable.moves
    assert fast.report == readable.report
    assert fast.report == score_game(fast.final)


@pytest.mark.exhaustive
def test_both_encodings_play_the_same_usa_games_under_every_bundled_variant():
    from evlogic.loading.boards import load_board
    from evlogic.simulation.table import deal

    board = load_board("usa")
    agents = tuple(AGENTS[name] for name in ("greedy", "spoiler", "face", "random"))
    for name in ("standard", "union-cores", "open-region", "gentle-siege", "flat-tiers"):
        table = deal(board, load_rule_set(name), agents, "snake", 17)
        assert play(table).moves == play(table, readable=True).moves, name


def test_a_rule_set_with_a_program_of_its_own_is_played_by_the_readable_rules(tmp_path):
    from evlogic.loading.boards import load_board
    from evlogic.simulation.table import deal

    (tmp_path / "home_bonus.lp").write_text(
        "face_value(G, P, home_bonus, 7) :- home(G, P, _), rules_of(G, _).\n"
    )
    (tmp_path / "rules.yaml").write_text(
        "name: home-bonus\nextends: standard\nprograms: [home_bonus.lp]\n"
    )
    rules = load_rule_set(tmp_path / "rules.yaml")
    table = deal(
        load_board("examples/lakeland/board.yaml"), rules, (AGENTS["greedy"],) * 2, "snake", 1
    )
    played = play(table)
    assert played.report == score_game(played.final)
    for move in played.moves:
        assert all(total >= 7 for total in move.totals.values())
