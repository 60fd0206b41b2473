"""Two groundings of the region's joining order give the same answer:
rules/scoring/region_layers.lp (every layer in one call, for small regions) and
rules/scoring/region_order.lp (a layer a call), on random boards, positions and rule
sets (see strategies.py)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from test_differential import game_under, rule_variants

from conftest import RULEBOOK
from evlogic.asp.facts import Positions, board_program
from evlogic.asp.solver import (
    POSITION_INPUT,
    SCORING_RULES,
    SCORING_RULES_ONE_SHOT,
    rule_paths,
    solve,
)
from evlogic.loading.games import Game, Player, load_game
from evlogic.reports import score
from evlogic.reports.score import ONE_SHOT_STATES, score_game, scoring_rules
from strategies import as_game, big_positions, positions


def shown(game: Game, names: tuple[str, ...]) -> list[str]:
    """Every shown atom (scores, cores, the joining layers, sieges) of the
    position under the scoring program ``names``."""
    facts = game.rules.program() + board_program(game.board)
    paths = [*rule_paths(names), *rule_paths(POSITION_INPUT)]
    return sorted(str(atom) for atom in solve(facts, paths, Positions(game.board, [game])))


def assert_same_answer(game: Game) -> None:
    one_shot = shown(game, SCORING_RULES_ONE_SHOT)
    assert one_shot == shown(game, SCORING_RULES)
    assert any(atom.startswith("score(") for atom in one_shot)


@pytest.mark.exhaustive
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), rule_variants)
def test_one_shot_layers_are_the_layer_by_layer_ones(position, variant):
    assert_same_answer(game_under(*position, variant))


@pytest.mark.exhaustive
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_positions(), rule_variants)
def test_one_shot_layers_agree_on_dense_boards_and_lattices(position, variant):
    """Many cores, large regions, many layers (up to 24 states in one region)."""
    assert_same_answer(game_under(*position, variant))


def test_the_engine_grounds_small_regions_in_one_call_and_large_ones_by_layer():
    board = {
        "name": "line",
        "game_end": 30,
        "states": {
            f"S{i:02d}": {
                "ev": 1,
                "swing": False,
                "neighbors": [f"S{j:02d}" for j in (i - 2, i - 1, i + 1, i + 2) if 0 <= j < 30],
            }
            for i in range(30)
        },
    }
    ids = sorted(board["states"])
    small = as_game(board, [{"name": "A", "home": "S00", "states": ids[1:ONE_SHOT_STATES]}])
    large = as_game(board, [{"name": "A", "home": "S00", "states": ids[1 : ONE_SHOT_STATES + 1]}])
    assert scoring_rules(small) == SCORING_RULES_ONE_SHOT
    assert scoring_rules(large) == SCORING_RULES
    # (a home counted once, whether or not it is listed among the states)
    listed = Game(small.board, (Player("A", "S00", tuple(ids[:ONE_SHOT_STATES])),), "x")
    assert scoring_rules(listed) == SCORING_RULES_ONE_SHOT
    for game in (small, large):
        region = score_game(game).players[0].region
        # each state of this band touches the two before it: one joins a layer
        assert region == [game.players[0].home, *sorted(game.players[0].states)]


def test_a_board_reaches_clingo_as_trees_or_as_text_with_the_same_report(monkeypatch):
    """Boards up to CACHED_BOARD_STATES states are added as syntax trees
    parsed once (from a board's second position on, the first as text),
    larger ones as text: the same facts, the same report."""
    games = [load_game(path) for path in sorted(RULEBOOK.glob("*.yaml"))]
    as_trees = [score_game(game).to_dict() for game in games]
    monkeypatch.setattr(score, "CACHED_BOARD_STATES", 0)
    assert [score_game(game).to_dict() for game in games] == as_trees
    assert len({json.dumps(report) for report in as_trees}) == len(games) > 1
