"""Perfect play (evlogic/simulation/perfect.py, rules/solve/transitions.lp)
against a plain brute-force minimax (tests/plain_perfect.py: the plain
scorer and the models' rules as docs/play.md states them) on random
boards of 4 to 8 states, 2 and 3 players, every bundled move model."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plain_perfect import PlainGame, perfect
from test_schemas import validator

import evlogic
from conftest import REPO
from evlogic.loading.rulesets import MOVE_MODELS, load_rule_set, with_moves
from evlogic.simulation.agents import load_agents
from evlogic.simulation.perfect import PASS, PerfectPlay
from evlogic.simulation.table import deal
from plain_play import agent_value
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


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(sizes=st.integers(4, 7)),
    players=st.integers(2, 3),
    agent=st.sampled_from(["greedy", "face", "spoiler", "random"]),
    order=st.sampled_from(["snake", "round-robin"]),
    seed=st.integers(0, 10**6),
)
def test_an_agent_against_perfect_play_is_the_plain_replay(board, players, agent, order, seed):
    """solve --agents, draft: the agent's moves (plain: tests/plain_play.py's
    agents, ties by the seed's ranks) judged against the plain minimax's
    perfect moves where perfect play goes, and played in each seat against
    perfect play."""
    board["game_end"] = len(board["states"])
    loaded = as_game(board, [{"name": "P0", "home": next(iter(board["states"])), "states": []}])
    report = evlogic.solve(loaded.board, players=players, agents=agent, order=order, seed=seed)
    game = PlainGame(
        plain_board(board),
        [(f"P{seat + 1}", home) for seat, home in enumerate(report.homes)],
        order,
        seed,
        "draft",
        {},
        loaded.board.game_end,
    )
    shuffles = []  # the seed's ranks, a shuffle a turn
    rng = random.Random(seed)
    for _turn in range(len(game.ids) + 2):
        ranks = list(range(1, len(game.ids) + 1))
        rng.shuffle(ranks)
        shuffles.append(dict(zip(game.ids, ranks, strict=True)))

    def choice(node):
        owners, _extra, turn = node
        mover = game.movers[turn - 1]
        seats = [
            {
                "name": name,
                "home": home,
                "states": [
                    game.ids[x] for x, p in enumerate(owners) if p == i and game.ids[x] != home
                ],
            }
            for i, (name, home) in enumerate(game.seats)
        ]
        free = [game.ids[x] for x, p in enumerate(owners) if p < 0]
        value = {s: agent_value(game.board, seats, mover, game.rules, agent, s) for s in free}
        best = max(value.values())
        return min((s for s in free if value[s] == best), key=shuffles[turn - 1].__getitem__)

    seen, waiting, judged, perfect_count = {game.start}, [game.start], 0, 0
    while waiting:
        node = waiting.pop(0)
        if game.over(node):
            continue
        moves = game.perfect_moves(node)
        if len(game.children(node)) > 1:  # a forced move is no choice
            judged += 1
            perfect_count += choice(node) in [move for move, _child in moves]
        for _move, child in moves:
            if child not in seen:
                seen.add(child)
                waiting.append(child)
    margins = []
    for seat in range(players):
        node = game.start
        while not game.over(node):
            mine = game.movers[node[2] - 1] == seat
            move = choice(node) if mine else game.value(node)[1]
            node = dict(game.children(node))[move]
        totals = game.totals(node[0])
        margins.append((totals[seat], game.margin(totals, seat)))
    (figures,) = report.agents
    assert figures.judged == judged
    assert figures.optimal_move_rate == (round(perfect_count / judged, 4) if judged else None)
    assert [(seat.total, seat.margin) for seat in figures.seats] == margins
    assert figures.margin_against_perfect == round(sum(m for _t, m in margins) / players, 2)


LAKELAND = REPO / "examples" / "lakeland" / "board.yaml"


@pytest.mark.parametrize("model", MOVE_MODELS)
def test_solve_prints_the_plain_minimax_s_figures(cli, model):
    """evlogic solve --format json on lakeland, 3 players: the contract's
    keys, seats from 1 in turn order, the plain minimax's totals, margins,
    first move and positions."""
    solved = cli(
        "solve", LAKELAND, "--players", "3", "--moves", model, "--seed", "4", "--format", "json"
    )
    assert solved.code == 0, solved.err
    document = solved.json()
    validator("solve").validate(document)
    board = yaml.safe_load(LAKELAND.read_text())
    states = {
        state: {
            "ev": spec["ev"],
            "swing": spec.get("swing", False),
            "neighbors": spec.get("neighbors", []),
        }
        for state, spec in board["states"].items()
    }
    seats = [(f"P{seat + 1}", home) for seat, home in enumerate(document["homes"])]
    totals, first, positions = perfect(states, seats, "snake", 4, model, {}, board["game_end"])
    assert [seat["seat"] for seat in document["value"]] == [1, 2, 3]
    assert [seat["total"] for seat in document["value"]] == list(totals)
    assert [seat["margin"] for seat in document["value"]] == [
        PlainGame.margin(totals, seat) for seat in range(3)
    ]
    assert (document["first_move"], document["positions"]) == (first, positions)
    assert document["first_move"] == document["first_moves"][0]
    assert document["moves_model"] == model and document["players"] == 3


def test_homes_are_given_in_seat_order(cli):
    solved = cli("solve", LAKELAND, "--homes", "E,W", "--format", "json")
    assert solved.code == 0, solved.err
    document = solved.json()
    assert document["homes"] == ["E", "W"] and document["players"] == 2
    assert [(s["seat"], s["home"]) for s in document["value"]] == [(1, "E"), (2, "W")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["usa"], "usa: states: 49 states nobody holds at the start"),
        ([LAKELAND, "--homes", "W,Nowhere"], "--homes: no state 'Nowhere'"),
        ([LAKELAND, "--homes", "W,W"], "--homes: 'W' is two seats' home"),
        ([LAKELAND, "--homes", "W,E", "--players", "3"], "--homes: 2 homes for 3 players"),
        ([LAKELAND, "--players", "9"], "--players: 9 players need 9 homes"),
        ([LAKELAND, "--agents", "greedy,,face"], "--agents: an empty item"),
        ([LAKELAND, "--agents", "nobody"], "nobody"),
        ([LAKELAND, "--moves", "auction"], "unknown move model 'auction'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(cli, args, message):
    solved = cli("solve", *args)
    assert solved.code == 2 and solved.out == ""
    assert len(solved.err.strip().splitlines()) == 1 and message in solved.err, solved.err


def test_out_of_time_is_status_3_and_nothing_printed(cli):
    solved = cli("solve", LAKELAND, "--players", "3", "--moves", "campaign", "--timeout", "0.05")
    assert solved.code == 3 and solved.out == ""
    assert "Traceback" not in solved.err and len(solved.err.strip().splitlines()) == 1


def test_a_game_over_at_the_start_has_no_first_move(cli, tmp_path):
    board = yaml.safe_load(LAKELAND.read_text())
    board["game_end"] = 2
    path = tmp_path / "short.yaml"
    path.write_text(yaml.safe_dump(board))
    solved = cli("solve", path, "--format", "json", "--agents", "greedy")
    assert solved.code == 0, solved.err
    document = solved.json()
    assert (document["first_move"], document["first_moves"], document["positions"]) == (None, [], 1)
    assert (document["agents"][0]["judged"], document["agents"][0]["optimal_move_rate"]) == (
        0,
        None,
    )


def test_a_move_program_making_a_stray_term_legal_is_one_line(cli, tmp_path):
    program = tmp_path / "stray.lp"
    program.write_text("legal(foo) :- turn(T).\nlegal(X) :- unclaimed(X).\n")
    solved = cli("solve", LAKELAND, "--homes", "W,E", "--moves", program)
    assert solved.code == 2 and "makes 'foo' legal at turn 1" in solved.err
    assert len(solved.err.strip().splitlines()) == 1


def test_the_positions_searched_do_not_depend_on_the_agents_measured(cli, tmp_path):
    """An agent that passes at will leaves the search: the positions it
    reaches are searched then, and not counted as perfect play's."""
    passer = tmp_path / "passer.lp"
    passer.write_text("choose(pass) :- turn(T).\n")
    args = ("solve", LAKELAND, "--homes", "W,E", "--moves", "campaign", "--format", "json")
    alone = cli(*args).json()
    measured = cli(*args, "--agents", passer).json()
    assert measured["positions"] == alone["positions"]
    assert measured["value"] == alone["value"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"homes": 3}, "--homes: must be comma-separated text or a list of text"),
        ({"players": "2"}, "--players: must be a whole number"),
        ({"order": "spiral"}, "--order: must be snake or round-robin"),
        ({"seed": 1.5}, "--seed: must be a whole number"),
        ({"rules": 5}, "--rules: must be a rule set name, a path or a RuleSet"),
    ],
)
def test_the_library_call_raises_input_errors(arguments, message):
    with pytest.raises(evlogic.InputError, match=message):
        evlogic.solve(LAKELAND, **arguments)
