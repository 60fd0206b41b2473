"""The engine against the plain Python scorer on random boards and positions
(see strategies.py for the boards and positions)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evlogic.asp.facts import board_program, game_program
from evlogic.asp.search import SEARCH_RULES
from evlogic.asp.solver import rule_paths, solve
from evlogic.loading.games import Game
from evlogic.loading.rulesets import rule_set_from_field
from evlogic.loading.yamlfile import yaml_document
from evlogic.reports.score import score_game
from plain_scorer import Rules, score_position
from strategies import as_game, big_positions, positions, within_game_end


def engine_report(board: dict, players: list[dict]) -> dict:
    return score_game(as_game(board, players)).to_dict()


def assert_valid_join_order(region: list[str], core: list[str], board: dict) -> None:
    assert region[:3] == core
    for index, state in enumerate(region[3:], start=3):
        earlier = set(region[:index])
        links = [n for n in board["states"][state]["neighbors"] if n in earlier]
        assert len(links) >= 2, f"{state} joined with links {links}"


FIGURES = (
    "name",
    "home",
    "states",
    "face_ev",
    "core",
    "region_bonus",
    "siege",
    "siege_penalty",
    "net_bonus",
    "total",
)


def assert_agree(engine: dict, plain: dict) -> None:
    """The engine's report and the plain scorer's figures are the same
    (regions as sets: each lists a valid order of its own)."""
    for key in ("final", "states_won", "winners"):
        assert engine[key] == plain[key], key
    for mine, theirs in zip(engine["players"], plain["players"], strict=True):
        for key in FIGURES:
            assert mine[key] == theirs[key], key
        assert sorted(mine["region"]) == sorted(theirs["region"])
        assert mine["region"][:3] == mine["core"]


@pytest.mark.exhaustive
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_engine_agrees_with_the_plain_scorer(position):
    board, players = position
    engine = engine_report(board, players)
    assert_agree(engine, score_position(board["states"], players, board["game_end"]))
    for mine in engine["players"]:
        if mine["core"]:
            assert_valid_join_order(mine["region"], mine["core"], board)
        else:
            assert mine["region"] == []


# --- rule variants: every parameter against the plain scorer ------------------

rule_variants = st.fixed_dictionaries(
    {
        "tiers": st.dictionaries(st.integers(1, 8), st.integers(0, 60), min_size=1, max_size=4),
        "siege_penalty": st.integers(0, 25),
        "links_needed": st.integers(1, 3),
        "swing_multiplier": st.integers(1, 4),
        "home_swing": st.booleans(),
        "region": st.sampled_from(["best-core", "union"]),
        "game_end": st.integers(1, 20),
    }
)


def fitted(variant: dict, board: dict) -> dict:
    """``variant`` with its game end within the board's states (a rule set's
    game end beyond them is refused, by files and the API alike)."""
    if "game_end" not in variant:
        return variant
    return {**variant, "game_end": min(variant["game_end"], len(board["states"]))}


def game_under(board: dict, players: list[dict], variant: dict) -> Game:
    """The position as a game scored by the rule set ``variant`` (named
    "random"), its game end fitted to the board."""
    variant = fitted(variant, board)
    document = yaml_document(yaml.safe_dump({"name": "random", **variant}), "rules.yaml")
    game = as_game(board, players)
    return Game(game.board, game.players, game.source, rule_set_from_field(document, Path(".")))


def engine_and_plain(board: dict, players: list[dict], variant: dict) -> tuple[dict, dict]:
    """The engine's report and the plain scorer's, for one position and a
    rule set (its game end within the board, raised to the states won when
    lower)."""
    variant = within_game_end(fitted(variant, board), players)
    engine = score_game(game_under(board, players, variant)).to_dict()
    plain = score_position(
        board["states"],
        players,
        board["game_end"],
        Rules(**{**variant, "tiers": dict(variant["tiers"])}),
    )
    return engine, plain


@pytest.mark.exhaustive
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), rule_variants)
def test_engine_agrees_with_the_plain_scorer_under_any_rule_set(position, variant):
    engine, plain = engine_and_plain(*position, variant)
    assert engine["rules"] == "random"
    assert_agree(engine, plain)


# --- the searches' encodings score like the scorer ----------------------------

SEARCH_SCORING = [name for name in SEARCH_RULES if name != "search/generate.lp"]


@pytest.mark.exhaustive
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), rule_variants)
def test_search_encodings_give_the_scorers_totals_and_winners(position, variant):
    """`check` and `diff` read rules/search/points.lp and winners_by_points.lp;
    scoring reads rules/scoring/totals.lp.  Both must tell the same story on
    every position."""
    board, players = position
    game = game_under(board, players, within_game_end(variant, players))
    report = score_game(game).to_dict()
    facts = game.rules.program() + board_program(game.board) + game_program(game)
    atoms = solve(facts, rule_paths(SEARCH_SCORING))
    totals = {p: 0 for p in range(len(players))}
    for atom in atoms:
        if atom.name == "points":
            totals[atom.arguments[1].number] += atom.arguments[2].number
    winners = sorted(a.arguments[1].number for a in atoms if a.name == "winner")
    assert [totals[p] for p in sorted(totals)] == [p["total"] for p in report["players"]]
    names = [p["name"] for p in report["players"]]
    assert [names[p] for p in winners] == report["winners"]


# --- larger, denser boards: many cores, most covered by an earlier one --------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(big_positions(), rule_variants)
def test_engine_agrees_with_the_plain_scorer_on_dense_boards_and_lattices(position, variant):
    """Only closures of cores no earlier core covers are grown
    (rules/scoring/cores.lp): every links_needed and region mode must still give the
    plain scorer's core, region and totals."""
    board, players = position
    engine, plain = engine_and_plain(board, players, variant)
    assert_agree(engine, plain)
    if variant["links_needed"] == 2 and variant["region"] == "best-core":
        for mine in engine["players"]:
            if mine["core"]:
                assert_valid_join_order(mine["region"], mine["core"], board)
