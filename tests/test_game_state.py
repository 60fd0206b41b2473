"""The game-state API (evlogic/simulation/state.py) against the engine's
played games and the plain scorer of tests/: the same legal sets, the same
totals after every legal move, the same market and points, move by move;
clones of their own; illegal moves refused in one line."""

from __future__ import annotations

import random
from functools import cache

import pytest

import evlogic
from conftest import REPO
from evlogic.errors import InputError
from evlogic.loading.boards import Board, load_board
from evlogic.loading.rulesets import MOVE_MODELS, load_rule_set, with_moves
from evlogic.resources import bundled_boards
from evlogic.simulation.agents import BUNDLED, load_agents
from evlogic.simulation.engine import play
from evlogic.simulation.state import GameState
from evlogic.simulation.table import Table, deal
from plain_scorer import score_position

LAKELAND = "examples/lakeland/board.yaml"


@cache
def board(name: str) -> Board:
    return load_board(bundled_boards()["usa"] if name == "usa" else name)


def table(name: str, model: str, agents: str, seed: int, players: int = 3) -> Table:
    rules = with_moves(load_rule_set("standard"), model)
    return deal(board(name), rules, load_agents(agents, players), "snake", seed)


def plain_totals(state: GameState, tab: Table, move: str | None) -> dict[str, int]:
    """Every player's total if the mover made ``move``, by the plain scorer."""
    plain = {
        s.id: {"ev": s.ev, "swing": s.swing, "neighbors": list(s.neighbors)}
        for s in tab.board.states.values()
    }
    won = {seat.name: list(seat.states) for seat in tab.seats}
    for made in state.moves():
        if made.state is not None:
            won[made.player].append(made.state)
    if move is not None:
        won[state.mover()].append(move)
    players = [
        {"name": seat.name, "home": seat.home, "states": won[seat.name]} for seat in tab.seats
    ]
    report = score_position(plain, players, tab.board.game_end)
    return {player["name"]: player["total"] for player in report["players"]}


@pytest.mark.parametrize("model", MOVE_MODELS)
@pytest.mark.parametrize("agent", BUNDLED)
def test_the_state_moves_as_the_engine_plays(model: str, agent: str):
    tab = table(LAKELAND, model, agent, seed=7)
    game = play(tab)
    state = GameState(tab)
    for move in game.moves:
        assert state.turn() == move.turn
        assert state.mover() == move.player
        assert state.legal() == move.legal
        assert state.market() == move.market
        assert state.points() == move.points
        assert state.after(move.state) == move.totals
        state.apply(move.state)
    assert state.is_over() and state.legal() == ()
    assert state.moves() == game.moves
    assert state.report() == game.report


@pytest.mark.parametrize("model", MOVE_MODELS)
def test_every_legal_move_s_totals_are_the_plain_scorer_s(model: str):
    tab = table("usa", model, "greedy", seed=11, players=4)
    state = GameState(tab)
    pick = random.Random(5)
    while not state.is_over():
        legal = state.legal()
        for move in legal:
            assert state.after(move) == plain_totals(state, tab, move), (state.turn(), move)
        state.apply(pick.choice(legal))
        if state.turn() > 12:  # a dozen turns of every legal move is enough
            break


def test_a_clone_is_a_state_of_its_own():
    state = GameState(table(LAKELAND, "market", "greedy", seed=3))
    first = state.legal()[0]
    state.apply(first)
    copy = state.clone()
    assert copy.moves() == state.moves() and copy.legal() == state.legal()
    other = copy.legal()[-1]
    copy.apply(other)
    assert len(state.moves()) == 1 and state.legal() != copy.legal()
    state.apply(other)
    assert state.moves() == copy.moves()


def test_an_illegal_move_is_one_line_naming_the_model_and_the_legal_moves():
    state = GameState(table("usa", "market", "greedy", seed=1))
    legal = state.legal()
    outside = next(s for s in sorted(board("usa").states) if s not in legal)
    with pytest.raises(InputError) as raised:
        state.apply(outside)
    message = str(raised.value)
    assert "\n" not in message
    assert f"'{outside}' is not legal" in message and "market" in message
    assert all(move in message for move in legal)
    with pytest.raises(InputError, match="pass is not legal"):
        state.apply(None)
    with pytest.raises(InputError):
        state.after("XX")


def test_passing_is_a_move_under_the_campaign():
    state = GameState(table("usa", "campaign", "greedy", seed=2, players=2))
    assert state.legal()[-1] is None
    mover = state.mover()
    assert state.after(None) == state.totals()
    state.apply(None)
    assert state.moves()[0].state is None and state.moves()[0].gain == 0
    assert state.mover() != mover and state.turn() == 2
    # the mover's unspent income carried over: twice the income at its next turn
    while state.mover() != mover:
        state.apply(None)
    points = state.points()
    assert points is not None and points[mover] == 20


def test_the_library_deals_the_state_play_would_deal():
    state = evlogic.game_state(players=2, seed=4, moves="market")
    report = evlogic.play(players=2, seed=4, moves="market")
    first = report.moves[0]
    assert (state.mover(), state.legal()) == (first.player, first.legal)
    assert state.after(first.state) == first.totals


@pytest.mark.slow
@pytest.mark.parametrize("model", MOVE_MODELS)
def test_the_bundled_models_pass_the_checks_a_designer_s_program_gets(model, monkeypatch):
    """The engine grounds rules/play/model.lp's checks part only for a
    designer's program; the bundled models, checked too, are never refused."""
    from evlogic.simulation import engine

    tables = [
        table(name, model, "random", seed + k, players=2 + k)
        for name, seed in (("usa", 1), (LAKELAND, 2))
        for k in range(3)
    ]
    unchecked = engine.play_games(tables, record=True)
    monkeypatch.setattr(engine, "MOVE_MODELS", ())
    checked = engine.play_games(tables, record=True)
    assert checked == unchecked and all(game.report.final for game in checked)


@pytest.mark.parametrize("model", MOVE_MODELS)
@pytest.mark.parametrize("agent", BUNDLED)
def test_an_agent_at_any_position_chooses_what_it_plays(model: str, agent: str):
    """choice() at each turn is the move the engine's game made there."""
    tab = table(LAKELAND, model, f"{agent},greedy,random", seed=5)
    game = play(tab)
    state = GameState(tab)
    for move in game.moves:
        assert state.choice() == move.state, (move.turn, move.player)
        state.apply(move.state)
    with pytest.raises(InputError, match="game is over"):
        state.choice()


def test_an_agent_at_a_game_file_s_position(tmp_path):
    game = tmp_path / "mid.yaml"
    board = (REPO / LAKELAND).as_posix()
    game.write_text(
        f"board: {board}\nplayers:\n  - {{name: Ada, home: W, states: [NW]}}\n"
        "  - {name: Bo, home: S, states: [E]}\n",
        encoding="utf-8",
    )
    state = evlogic.game_state(game, agents="spoiler")
    assert not state.is_over() and state.mover() == "Ada"
    choice = state.choice()
    assert choice in state.legal()
    rival = max(
        (name for name in state.totals() if name != state.mover()),
        key=lambda name: state.totals()[name],
    )
    lead = {
        move: state.after(move)[state.mover()]
        - max(total for name, total in state.after(move).items() if name != state.mover())
        for move in state.legal()
    }
    assert lead[choice] == max(lead.values()), (rival, lead)
