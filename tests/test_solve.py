"""Perfect play (evlogic/simulation/perfect.py, rules/solve/transitions.lp)
against a plain brute-force minimax (tests/plain_perfect.py: the plain
scorer and the models' rules as docs/play.md states them) on random
boards of 4 to 8 states, 2 and 3 players, every bundled move model."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plain_perfect import perfect

from evlogic.loading.rulesets import MOVE_MODELS, load_rule_set, with_moves
from evlogic.simulation.agents import load_agents
from evlogic.simulation.perfect import PASS, PerfectPlay
from evlogic.simulation.table import deal
from strategies import as_game, boards


def plain_board(board: dict) -> dict[str, dict]:
    return {
        state: {"ev": spec["ev"], "swing": spec["swing"], "neighbors": spec["neighbors"]}
        for state, spec in board["states"].items()
    }


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(sizes=st.integers(4, 8)),
    model=st.sampled_from(MOVE_MODELS),
    players=st.integers(2, 3),
    size=st.integers(1, 6),
    income=st.sampled_from([1, 7, 20, 60]),
    order=st.sampled_from(["snake", "round-robin"]),
    seed=st.integers(0, 10**6),
    short=st.integers(0, 2),
)
def test_perfect_play_is_the_brute_force_minimax(
    board, model, players, size, income, order, seed, short
):
    # games long enough to plan in: the game ends with 0 to 2 states unclaimed
    board["game_end"] = max(len(board["states"]) - short, players + 1)
    loaded = as_game(board, [{"name": "P0", "home": next(iter(board["states"])), "states": []}])
    rules = replace(
        with_moves(load_rule_set("standard"), model), market_size=size, campaign_income=income
    )
    table = deal(loaded.board, rules, load_agents("greedy", players), order, seed)
    search = PerfectPlay(table)
    totals = search.totals(search.start)
    first = search.best(search.start)
    expected, expected_first, positions = perfect(
        plain_board(board),
        [(seat.name, seat.home) for seat in table.seats],
        order,
        seed,
        model,
        {"market_size": size, "campaign_income": income},
        loaded.board.game_end,
    )
    assert totals == expected
    assert (None if first in (None, PASS) else search.ids[first]) == expected_first
    assert search.positions == positions
