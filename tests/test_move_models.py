"""Move models (rules/moves/, rules/play/model.lp) against a plain Python
replay (tests/plain_moves.py): on random small boards and the bundled
ones, under every bundled agent, both encodings of a decision, and from
the command line's JSON alone; a designer's move programs, good and
hostile."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plain_moves import replay

from conftest import REPO, run_subprocess
from evlogic.errors import InputError
from evlogic.loading.boards import Board, load_board
from evlogic.loading.rulesets import MOVE_MODELS, load_rule_set, with_moves
from evlogic.resources import bundled_boards
from evlogic.simulation.agents import BUNDLED, load_agents
from evlogic.simulation.engine import PlayedGame, play
from evlogic.simulation.moves import load_move_model
from evlogic.simulation.table import Table, deal
from strategies import as_game, boards

LAKELAND = REPO / "examples" / "lakeland" / "board.yaml"


def replayed(game: PlayedGame) -> None:
    """The plain replay of a played game (its record as the JSON gives it)."""
    table = game.table
    rules = table.rules
    replay(
        {state.id: state.ev for state in table.board.states.values()},
        [(seat.name, seat.home, seat.states) for seat in table.seats],
        table.order,
        table.seed,
        rules.moves_model,
        {"market_size": rules.market_size, "campaign_income": rules.campaign_income},
        table.board.game_end if rules.game_end is None else rules.game_end,
        [
            {
                "turn": m.turn,
                "player": m.player,
                "state": m.state,
                "legal": list(m.legal or ()),
                "market": list(m.market) if m.market is not None else [],
                "points": m.points,
            }
            for m in game.moves
        ],
    )


def table_on(board: Board, model: str, agents: str, seed: int, **numbers: int) -> Table:
    rules = replace(with_moves(load_rule_set("standard"), model), **numbers)
    count = len(agents.split(","))
    return deal(board, rules, load_agents(agents, count), "snake", seed)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=boards(sizes=st.integers(3, 10)),
    model=st.sampled_from(MOVE_MODELS),
    agent=st.sampled_from(BUNDLED),
    players=st.integers(1, 3),
    size=st.integers(1, 12),
    income=st.sampled_from([1, 3, 10, 60]),
    order=st.sampled_from(["snake", "round-robin"]),
    seed=st.integers(0, 10**6),
)
def test_random_boards_play_by_the_models_rules(
    board, model, agent, players, size, income, order, seed
):
    loaded = as_game(board, [{"name": "P0", "home": next(iter(board["states"])), "states": []}])
    if players > loaded.board.game_end:
        players = 1
    rules = replace(
        with_moves(load_rule_set("standard"), model), market_size=size, campaign_income=income
    )
    table = deal(loaded.board, rules, load_agents(agent, players), order, seed)
    fast, readable = play(table), play(table, readable=True)
    assert fast.moves == readable.moves  # both encodings play the same game
    replayed(fast)


@pytest.mark.parametrize("model", MOVE_MODELS)
@pytest.mark.parametrize("agent", BUNDLED)
def test_every_agent_plays_every_model_on_the_bundled_boards(model, agent):
    lakeland = {"market_size": 3, "campaign_income": 3}
    for board, seed, numbers in (
        (load_board(LAKELAND), 4, lakeland),
        (load_board(bundled_boards()["usa"]), 9, {}),
    ):
        table = table_on(board, model, f"{agent},greedy,random", seed, **numbers)
        game = play(table)
        assert game.report.final
        replayed(game)
        if board.game_end < 20:  # the readable encoding on the small board only: time
            assert play(table, readable=True).moves == game.moves


@pytest.mark.slow
@pytest.mark.parametrize("model", MOVE_MODELS)
@pytest.mark.parametrize("agent", BUNDLED)
def test_both_encodings_play_the_same_game_on_usa(model, agent):
    table = table_on(load_board(bundled_boards()["usa"]), model, f"{agent},spoiler,random", 9)
    game = play(table)
    replayed(game)
    assert play(table, readable=True).moves == game.moves


def test_the_replay_finds_a_pass_after_the_end_and_a_wrong_legal_set():
    game = play(table_on(load_board(LAKELAND), "campaign", "greedy,greedy", 1))
    replayed(game)
    last = game.moves[-1]
    late = replace(last, turn=last.turn + 1, player=game.moves[-2].player, state=None)
    with pytest.raises(AssertionError, match="after the game's end"):
        replayed(replace(game, moves=(*game.moves, late)))
    first = replace(game.moves[0], legal=game.moves[0].legal[1:])
    with pytest.raises(AssertionError, match="legal"):
        replayed(replace(game, moves=(first, *game.moves[1:])))


@pytest.mark.parametrize("numbers", [{"market_size": 1}, {"market_size": 60}])
def test_a_market_of_one_and_one_larger_than_the_board(numbers):
    game = play(table_on(load_board(LAKELAND), "market", "greedy,greedy", 2, **numbers))
    replayed(game)
    assert all(len(m.market or ()) <= numbers["market_size"] for m in game.moves)


@pytest.mark.parametrize("income", [1, 60])
def test_a_poor_campaign_passes_and_the_turn_order_counts_the_passes(income):
    table = table_on(load_board(LAKELAND), "campaign", "greedy,greedy", 1, campaign_income=income)
    game = play(table)
    replayed(game)
    assert any(m.state is None for m in game.moves) == (income == 1)


@pytest.mark.parametrize("model", MOVE_MODELS)
def test_the_command_line_s_json_is_replayed_alone(model):
    done = run_subprocess(
        "play", "--moves", model, "--players", "3", "--seed", "5", "--format", "json"
    )
    assert done.code == 0, done.err
    document = json.loads(done.out)
    assert document["moves_model"] == model
    board = load_board(bundled_boards()["usa"])
    numbers = {key: document[key] for key in ("market_size", "campaign_income") if key in document}
    assert set(numbers) == set(load_move_model(model).settings)
    replay(
        {state.id: state.ev for state in board.states.values()},
        [(p["name"], p["home"], ()) for p in document["players"]],
        document["order"],
        document["seed"],
        model,
        numbers,
        board.game_end,
        [{**m, "market": m.get("market", [])} for m in document["moves"]],
    )


# --- a designer's move programs -----------------------------------------------------

NEAR = """\
% Win a state touching one you hold; any when none does.
mine(S) :- mover(P), home(P, S).
mine(S) :- mover(P), owned(P, S).
near(X) :- unclaimed(X), mine(S), adjacent(S, X).
some_near :- near(_).
legal(X) :- near(X).
legal(X) :- unclaimed(X), not some_near.
"""

COUNTER = """\
% Every third turn of the game is a forced pass; a count kept as the model's state.
count(N) :- holds(count(N)).
counted :- holds(count(_)).
count(0) :- not counted.
legal(X) :- unclaimed(X), count(N), N \\ 3 != 2.
legal(pass) :- count(N), N \\ 3 = 2.
next(count(N + 1)) :- count(N), does(_).
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "text"), [("near.lp", NEAR), ("counter.lp", COUNTER)])
def test_a_designer_s_move_program_plays_to_the_end_both_ways(tmp_path, name, text):
    program = write(tmp_path, name, text)
    board = load_board(LAKELAND)
    rules = with_moves(load_rule_set("standard"), str(program))
    table = deal(board, rules, load_agents("greedy,random", 2), "round-robin", 3)
    fast, readable = play(table), play(table, readable=True)
    assert fast.moves == readable.moves and fast.report.final
    if name == "counter.lp":
        assert [m.state is None for m in fast.moves][2::3] == [True] * len(fast.moves[2::3])
    done = run_subprocess(
        "play", "--board", str(LAKELAND), "--moves", str(program), "--format", "json"
    )
    assert done.code == 0, done.err
    assert json.loads(done.out)["moves_model"] == name


HOSTILE = [
    ("owned.lp", "legal(X) :- state(X).\n", "makes"),
    ("stuck.lp", "legal(X) :- unclaimed(X), turn(T), T < 3.\n", "no legal move at turn 3"),
    ("stray.lp", "legal(nowhere).\nlegal(X) :- unclaimed(X).\n", "neither a state nor pass"),
    ("choice.lp", "{ legal(X) } :- unclaimed(X).\n", "a choice"),
    ("constraint.lp", "legal(X) :- unclaimed(X).\n:- turn(9).\n", "an integrity constraint"),
    ("total.lp", "legal(X) :- unclaimed(X), total(0, T), T > 0.\n", "reading total/2"),
    ("gain.lp", "legal(X) :- unclaimed(X), gain(X, G).\n", "reading gain/2"),
    ("does.lp", "legal(X) :- unclaimed(X), not does(X).\n", "legal/1 depends on does/1"),
    ("loop.lp", "a :- not b.\nb :- not a.\nlegal(X) :- unclaimed(X), a.\n", "stratified"),
    ("script.lp", '#script (python)\nprint("hi")\n#end.\nlegal(X) :- unclaimed(X).\n', "#script"),
    ("call.lp", "legal(X) :- unclaimed(X), X = @pick().\n", "@"),
    ("reserved.lp", "evlogic_x.\nlegal(X) :- unclaimed(X).\n", "evlogic_"),
    ("input.lp", "unclaimed(1).\nlegal(X) :- unclaimed(X).\n", "gives the move model"),
    ("forever.lp", "legal(pass).\n", "never lets the game end"),
]


@pytest.mark.parametrize(("name", "text", "wording"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_move_program_is_one_line_naming_it_exit_2(tmp_path, name, text, wording):
    program = write(tmp_path, name, text)
    done = run_subprocess(
        "play", "--board", str(LAKELAND), "--moves", str(program), "--players", "1"
    )
    assert done.code == 2, (done.out, done.err)
    lines = done.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.err, done.err
    assert name in lines[0] and wording in lines[0], lines[0]


def test_an_agent_choosing_outside_the_market_names_the_agent_turn_and_model(tmp_path):
    agent = write(
        tmp_path,
        "anything.lp",
        "free(X) :- state(X), not owned(_, X), not home(_, X).\n"
        "first(R) :- R = #max{ Q : free(X), tie_break(X, Q) }, R != #inf.\n"
        "choose(X) :- free(X), tie_break(X, R), first(R).\n",
    )
    done = run_subprocess(
        "play", "--moves", "market", "--players", "2", "--agents", f"{agent},greedy"
    )
    assert done.code == 2, done.out
    line = done.err.strip()
    assert "\n" not in line and "anything.lp" in line
    assert "at turn 1" in line and "market" in line, line


def test_a_rule_set_names_its_model_and_numbers(tmp_path):
    rules = write(tmp_path, "r.yaml", "extends: standard\nmoves: campaign\ncampaign_income: 7\n")
    done = run_subprocess("play", "--rules", str(rules), "--players", "2", "--format", "json")
    assert done.code == 0, done.err
    document = json.loads(done.out)
    assert document["moves_model"] == "campaign" and document["campaign_income"] == 7
    assert "market_size" not in document
    overridden = run_subprocess(
        "play", "--rules", str(rules), "--moves", "draft", "--players", "2", "--format", "json"
    )
    assert json.loads(overridden.out)["moves_model"] == "draft"


@pytest.mark.parametrize(
    ("text", "wording"),
    [
        ("moves: markt\n", "unknown move model 'markt' (did you mean 'market'?)"),
        ("moves: nowhere.lp\n", "move program 'nowhere.lp' not found"),
        ("market_size: 0\n", "market_size: must be a number of face-up states between 1"),
        ("campaign_income: -3\n", "campaign_income: must be"),
    ],
)
def test_a_bad_model_in_a_rule_set_is_one_line_naming_the_field(tmp_path, text, wording):
    rules = write(tmp_path, "r.yaml", "extends: standard\n" + text)
    with pytest.raises(InputError) as raised:
        load_rule_set(str(rules))
    message = str(raised.value)
    assert "r.yaml" in message and "line 2" in message and wording in message, message


# More move programs the engine refuses in one line naming the file (an
# unsafe variable at load; what the log shows, at play).  States are numbers
# in a program, as in every fact of evlogic's: legal(1) names the state
# numbered 1 (Lakeland's E, by the rank of its id).
ENGINE_GAPS = [
    pytest.param(
        "unsafe.lp", "legal(X) :- not unclaimed(X).\n", "'X' is unsafe", id="unsafe-variable"
    ),
    pytest.param(
        "points.lp",
        "points(P, x) :- player(P).\nlegal(X) :- unclaimed(X).\n",
        "shows points(0,x) at turn 1",
        id="points-not-a-number",
    ),
    pytest.param(
        "market.lp",
        "market(nowhere).\nlegal(X) :- unclaimed(X).\n",
        "shows market(nowhere) at turn 1",
        id="market-not-a-state",
    ),
    pytest.param(
        "far.lp",
        "market(99).\nlegal(X) :- unclaimed(X).\n",
        "shows market(99)",
        id="market-number-of-no-state",
    ),
    pytest.param("number.lp", "legal(1).\n", "makes E legal", id="a-number-is-a-state"),
]


@pytest.mark.parametrize(("name", "text", "wording"), ENGINE_GAPS)
def test_more_hostile_move_programs(cli, tmp_path, name, text, wording):
    program = write(tmp_path, name, text)
    try:
        done = cli("play", "--board", str(LAKELAND), "--moves", str(program), "--players", "2")
    except Exception as error:  # a traceback on the command line
        pytest.fail(f"{type(error).__name__}: {error}")
    assert done.code == 2, (done.out, done.err)
    lines = done.err.strip().splitlines()
    assert len(lines) == 1, done.err
    assert name in lines[0] and wording in lines[0], lines[0]


def test_a_file_included_from_outside_the_program_s_folder_is_refused(cli, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    outside = write(tmp_path / "b", "rules.lp", "legal(X) :- unclaimed(X).\n")
    program = write(tmp_path / "a", "main.lp", f'#include "{outside}".\n')
    done = cli("play", "--board", str(LAKELAND), "--moves", str(program), "--players", "2")
    assert done.code == 2, done.out
    line = done.err.strip()
    assert "\n" not in line and "rules.lp: line 1" in line and "outside" in line, line
