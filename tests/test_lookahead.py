"""The lookahead agent (rules/planning/lookahead.lp, evlogic/simulation/
planning.py): its move is the first of the best plan of its next K moves,
rivals held fixed, as a brute force over every plan finds it with the
plain scorer (tests/plain_scorer.py); the decision is a function of the
position and the seed, whatever path the solver takes; it plays every
bundled model, the same game by either encoding of a decision."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evlogic
from conftest import REPO
from evlogic.asp.facts import state_ids
from evlogic.loading.rulesets import MOVE_MODELS, load_rule_set
from evlogic.simulation.agents import Planner, load_agents
from evlogic.simulation.engine import play
from evlogic.simulation.planning import PlanDecision, moves_left, plan_choice
from evlogic.simulation.table import deal
from plain_scorer import Rules, score_player
from strategies import as_game, boards

LAKELAND = REPO / "examples" / "lakeland" / "board.yaml"


def brute_force(board, homes, held, mover, legal, unclaimed, ranks, size):
    """The first move of the best plan: every plan tried, the mover's total
    by the plain scorer with the plan won, rivals held fixed; of equally
    good plans, the first move worth the most alone, then the lowest rank."""
    plain = {
        s: {"ev": v["ev"], "swing": v["swing"], "neighbors": v["neighbors"]}
        for s, v in board.items()
    }
    rivals = {s for seat, states in enumerate(held) if seat != mover for s in states}
    best: dict[str, int] = {}
    for first in legal:
        rest = [s for s in unclaimed if s != first]
        for others in itertools.combinations(rest, size - 1):
            owned = {*held[mover], first, *others}
            total = score_player(homes[mover], owned, rivals, plain, Rules())["total"]
            best[first] = max(best.get(first, total), total)
    top = max(best.values())
    starts = [s for s in best if best[s] == top]
    now = {
        s: score_player(homes[mover], {*held[mover], s}, rivals, plain, Rules())["total"]
        for s in starts
    }
    most = max(now.values())
    return min((s for s in starts if now[s] == most), key=ranks.__getitem__)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(sizes=st.integers(5, 9)),
    players=st.integers(2, 3),
    depth=st.integers(1, 3),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_the_move_starts_the_best_plan(board, players, depth, seed, data):
    board["game_end"] = len(board["states"])
    loaded = as_game(board, [{"name": "P0", "home": next(iter(board["states"])), "states": []}])
    table = deal(
        loaded.board, load_rule_set("standard"), load_agents("greedy", players), "snake", seed
    )
    ids = state_ids(table.board)
    rng = random.Random(seed)
    homes = [seat.home for seat in table.seats]
    free = [s for s in ids if s not in homes]
    held = [[home] for home in homes]
    for state in free:  # a random position: some states already won
        owner = rng.randrange(players + 2)
        if owner < players:
            held[owner].append(state)
    unclaimed = [s for s in ids if not any(s in states for states in held)]
    if not unclaimed:
        return
    mover = data.draw(st.integers(0, players - 1))
    legal = data.draw(st.lists(st.sampled_from(unclaimed), min_size=1, unique=True))
    ranks = list(range(1, len(ids) + 1))
    rng.shuffle(ranks)
    number = {s: x for x, s in enumerate(ids)}
    decision = PlanDecision(
        table,
        tuple(tuple(sorted(number[s] for s in states)) for states in held),
        mover,
        1,
        frozenset(number[s] for s in legal),
        frozenset(number[s] for s in unclaimed),
        tuple(ranks),
    )
    won = sum(len(states) for states in held)
    size = min(depth, len(unclaimed), max(1, moves_left(table, 1, mover, won)))
    chosen = plan_choice(Planner("lookahead", depth), decision)
    expected = brute_force(
        board["states"],
        homes,
        held,
        mover,
        legal,
        unclaimed,
        {s: ranks[number[s]] for s in ids},
        size,
    )
    assert ids[chosen] == expected


def test_the_decision_is_the_same_whatever_path_the_solver_takes():
    """The seed's rank of the first move is the objective's last level, and
    every rank is different: all optimal answer sets share their first
    move, so no solver configuration or random seed changes the choice."""
    table = deal(
        evlogic.load_board("usa"), load_rule_set("standard"), load_agents("greedy", 3), "snake", 4
    )
    ids = state_ids(table.board)
    number = {s: x for x, s in enumerate(ids)}
    homes = {number[seat.home] for seat in table.seats}
    free = frozenset(range(len(ids))) - homes
    ranks = list(range(1, len(ids) + 1))
    random.Random(4).shuffle(ranks)
    held = tuple((number[seat.home],) for seat in table.seats)
    decision = PlanDecision(table, held, 1, 2, free, free, tuple(ranks))
    choices = {
        plan_choice(Planner("lookahead", 2), decision, options)
        for options in (
            (),
            ("--configuration=frumpy",),
            ("--configuration=crafty", "--seed=7", "--rand-freq=0.3"),
            ("--seed=11", "--rand-freq=1.0"),
            ("--configuration=handy", "--opt-strategy=bb,dec"),
        )
    }
    assert len(choices) == 1


def test_moves_left_follow_the_turn_order():
    table = deal(
        evlogic.load_board(str(LAKELAND)),
        load_rule_set("standard"),
        load_agents("greedy", 2),
        "snake",
        1,
    )
    # 8 states to win, 2 homes won: 6 turns, snake 1 2 2 1 1 2
    assert [moves_left(table, 1, seat, 2) for seat in (0, 1)] == [3, 3]
    assert [moves_left(table, 2, seat, 3) for seat in (0, 1)] == [2, 3]
    assert [moves_left(table, 6, seat, 7) for seat in (0, 1)] == [0, 1]


@pytest.mark.parametrize("model", MOVE_MODELS)
def test_lookahead_plays_every_model_the_same_by_either_encoding(model):
    state = evlogic.game_state(
        board=str(LAKELAND), players=2, agents="lookahead:2,greedy", seed=3, moves=model
    )
    table = state._table  # the table play deals for these arguments
    fast = play(table)
    readable = play(table, readable=True)
    assert [(m.player, m.state) for m in fast.moves] == [
        (m.player, m.state) for m in readable.moves
    ]
    while not state.is_over():  # the game-state API: the same moves
        state.apply(state.choice())
    assert [(m.player, m.state) for m in state.moves()] == [(m.player, m.state) for m in fast.moves]
    assert fast.report.final


@pytest.mark.parametrize(
    ("agents", "message"),
    [
        ("lookahead:0", "between 1 and 5, not '0'"),
        ("lookahead:6", "between 1 and 5, not '6'"),
        ("lookahead:two", "not 'two'"),
        ("lookahed", "unknown agent 'lookahed'"),
    ],
)
def test_a_bad_parameter_is_one_line(cli, agents, message):
    done = cli("play", "--board", LAKELAND, "--agents", agents)
    assert done.code == 2 and message in done.err and len(done.err.strip().splitlines()) == 1


def test_of_equally_good_plans_the_seed_s_order_decides(tmp_path):
    """Six alike states with no borders: every plan is as good, so the move
    is the legal state first in the turn's random order."""
    board = tmp_path / "alike.yaml"
    states = "\n".join(f"  S{i}: {{ev: 5}}" for i in range(6))
    board.write_text(f"name: Alike\ngame_end: 6\nstates:\n{states}\n")
    table = deal(
        evlogic.load_board(str(board)),
        load_rule_set("standard"),
        load_agents("greedy", 2),
        "snake",
        0,
    )
    homes = {int(seat.home[1:]) for seat in table.seats}
    free = frozenset(range(6)) - homes
    for seed in range(8):
        ranks = list(range(1, 7))
        random.Random(seed).shuffle(ranks)
        held = tuple((int(seat.home[1:]),) for seat in table.seats)
        decision = PlanDecision(table, held, 0, 1, free, free, tuple(ranks))
        chosen = plan_choice(Planner("lookahead", 2), decision)
        assert chosen == min(free, key=lambda x: ranks[x])


@pytest.mark.parametrize("model", MOVE_MODELS)
def test_a_plan_of_one_move_is_greedy(model):
    """lookahead:1 maximises its total after the move, then (alike) the
    move's worth alone, then the seed's rank: greedy's choice, move for
    move."""
    played = [
        evlogic.play(board=str(LAKELAND), players=3, agents=agents, seed=9, moves=model)
        for agents in ("greedy", "lookahead:1")
    ]
    greedy, planned = ([(m.player, m.state) for m in game.moves] for game in played)
    assert planned == greedy


def test_a_rule_set_program_s_figures_count_in_the_plan(tmp_path):
    """A rule set's program reading the region (core/3) changes a plan's
    worth as it changes a score: lookahead:1 plays greedy's game under it."""
    (tmp_path / "corepen.lp").write_text("face_value(G, P, corepen, -100) :- core(G, P, C).\n")
    rules = tmp_path / "corepen.yaml"
    rules.write_text("name: corepen\nextends: standard\nprograms: [corepen.lp]\n")
    played = [
        evlogic.play(board=str(LAKELAND), players=2, agents=f"{a},random", rules=rules, seed=3)
        for a in ("greedy", "lookahead:1")
    ]
    greedy, planned = ([(m.player, m.state) for m in game.moves] for game in played)
    assert planned == greedy
