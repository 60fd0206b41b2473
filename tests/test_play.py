"""`evlogic play` against plain Python: every decision's figures, every
agent's move, whole games, the command line and its refusals.

rules/play/moves.lp is a second encoding of the scoring rules, for one
decision; here it is held to the plain scorer (tests/plain_scorer.py) and
to score's readable rules (rules/*.lp) on random positions and rule sets,
and whole games to a plain playout (tests/plain_play.py).
"""

from __future__ import annotations

import json
from functools import cache

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_subprocess
from evlogic.asp.facts import Positions, board_program, state_ids, state_numbers
from evlogic.asp.solver import POSITION_INPUT, SCORING_RULES, parsed_facts, rule_paths, solve
from evlogic.loading.boards import Board, load_board
from evlogic.loading.games import Game, Player
from evlogic.loading.rulesets import RuleSet, load_rule_set
from evlogic.reports.report import atoms_by_position, decode
from evlogic.resources import bundled_boards
from evlogic.simulation.agents import BUNDLED, load_agent
from evlogic.simulation.engine import PlayedGame, figures, play, play_games
from evlogic.simulation.table import Seat, Table, deal
from plain_play import agent_value, face_worth, playout, totals
from plain_scorer import Rules
from strategies import as_game, positions


def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def usa() -> Board:
    return load_board(bundled_boards()["usa"])


def plain_board(board: Board) -> dict[str, dict]:
    return {
        s.id: {"ev": s.ev, "swing": s.swing, "neighbors": list(s.neighbors)}
        for s in board.states.values()
    }


# --- random rule sets, as RuleSets and as the plain scorer's Rules ------------

rule_sets = st.builds(
    lambda tiers, siege, links, multiplier, home_swing, region: RuleSet(
        name="random",
        tiers=tuple(sorted(tiers.items())),
        siege_penalty=siege,
        links_needed=links,
        swing_multiplier=multiplier,
        home_swing=home_swing,
        region=region,
        game_end=None,
        programs=(),
        source="<test>",
    ),
    # any tiers: bonuses need not grow with the size
    st.dictionaries(st.integers(1, 8), st.integers(0, 60), min_size=1, max_size=4),
    st.integers(0, 25),
    st.integers(1, 4),
    st.integers(1, 4),
    st.booleans(),
    st.sampled_from(["best-core", "union"]),
)


def plain_rules(rules: RuleSet) -> Rules:
    return Rules(
        swing_multiplier=rules.swing_multiplier,
        home_swing=rules.home_swing,
        links_needed=rules.links_needed,
        siege_penalty=rules.siege_penalty,
        tiers=dict(rules.tiers),
        region=rules.region,
        game_end=rules.game_end,
    )


def with_game_end(rules: RuleSet, game_end: int | None) -> RuleSet:
    return RuleSet(**{**rules.__dict__, "game_end": game_end})


# --- positions: small random boards (strategies.py) and usa -------------------


@st.composite
def usa_positions(draw) -> tuple[dict, list[dict]]:
    """1-6 players on usa, up to 35 states won, the first player's often
    around their home (regions, sieges and ties between cores)."""
    board = plain_board(usa())
    ids = sorted(board)
    count = draw(st.integers(1, 6))
    order = draw(st.permutations(ids))
    homes, rest = order[:count], order[count:]
    players = [{"name": f"P{i + 1}", "home": homes[i], "states": []} for i in range(count)]
    near = [s for s in board[homes[0]]["neighbors"] if s not in homes]
    near += [n for s in near for n in board[s]["neighbors"] if n not in homes and n not in near]
    taken = set()
    for state in draw(st.lists(st.sampled_from(near), max_size=8, unique=True)) if near else []:
        players[0]["states"].append(state)
        taken.add(state)
    budget = 35 - count - len(taken)
    for state in rest[: draw(st.integers(0, max(0, budget)))]:
        if state not in taken:
            players[draw(st.integers(0, count - 1))]["states"].append(state)
    for player in players:
        player["states"] = draw(st.permutations(player["states"]))
    return {"name": "usa", "game_end": 36, "states": board}, players


def table_of(board: Board, players: list[dict], rules: RuleSet, agent: str = "greedy") -> Table:
    seats = tuple(
        Seat(p["name"], p["home"], tuple(p["states"]), load_agent(agent)) for p in players
    )
    return Table(board, rules, seats, "snake", 0)


def loaded(position: tuple[dict, list[dict]]) -> tuple[Board, list[dict]]:
    board, players = position
    if board["name"] == "usa":
        return usa(), players
    return as_game(board, players).board, players


def readable_totals(board: Board, rules: RuleSet, games: list[list[dict]]) -> list[list[int]]:
    """Every player's total in each of ``games`` by score's readable rules,
    all of them in one grounding."""
    built = [
        Game(board, tuple(Player(p["name"], p["home"], tuple(p["states"])) for p in g), "t", rules)
        for g in games
    ]
    paths = [*rule_paths(SCORING_RULES), *rule_paths(POSITION_INPUT)]
    symbols = solve(
        rules.program(), paths, Positions(board, built), parsed_facts(board_program(board))
    )
    atoms = atoms_by_position(symbols)
    return [
        [player.total for player in decode(atoms[index], game).players]
        for index, game in enumerate(built)
    ]


def check_decision(position: tuple[dict, list[dict]], rules: RuleSet, mover: int, readable: bool):
    board, players = loaded(position)
    mover %= len(players)
    plain = plain_board(board)
    table = table_of(board, players, rules)
    seen = figures(table, mover)
    number = state_numbers(board)
    ids = state_ids(board)
    taken = {s for p in players for s in (p["home"], *p["states"])}
    scorer = plain_rules(rules)
    end = rules.game_end or board.game_end
    now = totals(plain, players, scorer)
    assert seen.total == dict(enumerate(now))
    if len(taken) >= end:
        assert seen.over and not seen.candidates and not seen.after
        return
    assert not seen.over
    free = sorted(s for s in board.states if s not in taken)
    assert sorted(ids[x] for x in seen.candidates) == free
    afters = []
    for state in free:
        after = [dict(p) for p in players]
        after[mover]["states"] = [*after[mover]["states"], state]  # won last
        afters.append(after)
        expected = totals(plain, after, scorer)
        x = number[state]
        assert [seen.after[x, p] for p in range(len(players))] == expected, state
        assert seen.gain[x] == expected[mover] - now[mover]
        assert seen.face_gain[x] == face_worth(plain, players[mover]["home"], state, scorer)
    assert len(seen.after) == len(free) * len(players)
    if readable:
        expected_all = readable_totals(board, rules, afters)
        for state, expected in zip(free, expected_all, strict=True):
            assert [seen.after[number[state], p] for p in range(len(players))] == expected


# --- 1. every candidate of a decision, as the scorers score it ---------------


@pytest.mark.exhaustive
@examples(150)
@given(positions(), rule_sets, st.integers(0, 5), st.integers(0, 3))
def test_every_move_of_a_random_position_is_scored_as_the_scorers_score_it(
    position, rules, mover, readable
):
    check_decision(position, rules, mover, readable == 0)


@pytest.mark.exhaustive
@examples(40)
@given(usa_positions(), rule_sets, st.integers(0, 5), st.integers(0, 3))
def test_every_move_of_a_usa_position_is_scored_as_the_scorers_score_it(
    position, rules, mover, readable
):
    check_decision(position, rules, mover, readable == 0)


@examples(30)
@given(positions(), rule_sets, st.integers(0, 5), st.integers(0, 3))
def test_a_rule_set_game_end_ends_the_game(position, rules, mover, extra):
    """The rule set's game end, not the board's: at it no state is a candidate."""
    board, players = position
    won = sum(len({p["home"], *p["states"]}) for p in players)
    end = min(won + extra, len(board["states"]))
    check_decision(position, with_game_end(rules, end), mover, readable=False)


# --- 2. the agents choose what their headers say ------------------------------


def plain_values(table: Table, seats: list[dict], mover: int, agent: str) -> dict[str, int]:
    """How much the agent likes each free state, by the plain scorer."""
    plain = plain_board(table.board)
    taken = {s for seat in seats for s in (seat["home"], *seat["states"])}
    rules = plain_rules(table.rules)
    return {
        state: agent_value(plain, seats, mover, rules, agent, state)
        for state in plain
        if state not in taken
    }


def seats_of(table: Table) -> list[dict]:
    return [{"name": s.name, "home": s.home, "states": list(s.states)} for s in table.seats]


agent_lists = st.lists(st.sampled_from(BUNDLED), min_size=1, max_size=6)


@st.composite
def dealt_tables(draw, boards=None) -> Table:
    """Homes dealt by a seed, on usa or a random board, random rules and agents."""
    if boards is None and draw(st.booleans()):
        board = usa()
    else:
        board_dict, _ = draw(positions())
        board = as_game(board_dict, [{"name": "x", "home": sorted(board_dict["states"])[0]}]).board
    names = draw(agent_lists)
    players = min(len(names), board.game_end, len(board.states))
    rules = draw(rule_sets)
    agents = tuple(load_agent(name) for name in names[:players])
    order = draw(st.sampled_from(["snake", "round-robin"]))
    return deal(board, rules, agents, order, draw(st.integers(-(2**63), 2**63 - 1)))


def replay_checks(game: PlayedGame) -> None:
    """Each move's agent chose a free state of the largest value (its header's
    measure, by the plain scorer), the first in the turn's random order."""
    table = game.table
    seats = seats_of(table)
    index = {seat.name: i for i, seat in enumerate(table.seats)}
    for move in game.moves:
        mover = index[move.player]
        agent = table.seats[mover].agent.name
        values = plain_values(table, seats, mover, agent)
        assert move.state in values, f"turn {move.turn}: {move.state} is not free"
        assert values[move.state] == max(values.values()), f"turn {move.turn}, {agent}"
        seats[mover]["states"].append(move.state)
        assert move.totals == dict(
            zip(
                index,
                totals(plain_board(table.board), seats, plain_rules(table.rules)),
                strict=True,
            )
        )


@pytest.mark.exhaustive
@examples(25)
@given(dealt_tables())
def test_every_agent_move_is_one_of_the_best_by_its_header(table):
    game = play(table)
    replay_checks(game)
    if game.moves:  # the move log's last totals are score's final figures
        assert game.moves[-1].totals == {p.name: p.total for p in game.report.players}


# --- 3. whole games: the same as the plain playout ----------------------------


def plain_game(table: Table) -> list[tuple]:
    moves = playout(
        plain_board(table.board),
        seats_of(table),
        [seat.agent.name for seat in table.seats],
        plain_rules(table.rules),
        table.board.game_end,
        table.order,
        table.seed,
    )
    return [(m.turn, m.player, m.state, m.gain, m.totals) for m in moves]


def engine_game(table: Table) -> list[tuple]:
    return [(m.turn, m.player, m.state, m.gain, m.totals) for m in play(table).moves]


@pytest.mark.exhaustive
@examples(25)
@given(dealt_tables())
def test_a_dealt_game_is_the_plain_playouts_game(table):
    assert engine_game(table) == plain_game(table)


@pytest.mark.slow
@examples(25)
@given(st.one_of(positions(), usa_positions()), rule_sets, agent_lists, st.integers(0, 2**32))
def test_a_game_from_a_position_is_the_plain_playouts_game(position, rules, names, seed):
    """A game file's states already won: the game goes on from there."""
    board, players = loaded(position)
    agents = [names[i % len(names)] for i in range(len(players))]
    seats = tuple(
        Seat(p["name"], p["home"], tuple(p["states"]), load_agent(a))
        for p, a in zip(players, agents, strict=True)
    )
    order = "snake" if seed % 2 else "round-robin"
    table = Table(board, rules, seats, order, seed)
    played = play(table)
    assert [(m.turn, m.player, m.state, m.gain, m.totals) for m in played.moves] == plain_game(
        table
    )
    won = sum(len({p["home"], *p["states"]}) for p in players)
    assert len(played.moves) == max(0, min(board.game_end, len(board.states)) - won)
    for seat, final in zip(seats, played.final.players, strict=True):
        mine = [m.state for m in played.moves if m.player == seat.name]
        assert final.states == (*seat.states, *mine)


@pytest.mark.exhaustive
@examples(10)
@given(
    st.one_of(positions(), usa_positions()),
    rule_sets,
    agent_lists,
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 2**32)), min_size=2, max_size=4),
)
def test_games_side_by_side_are_the_games_one_by_one(position, rules, names, games):
    """play_games plays games of one board, rule set and seats in one
    control; from positions with different states won, they end at
    different turns, and each is the game play() plays."""
    board, players = loaded(position)
    agents = [load_agent(names[i % len(names)]) for i in range(len(players))]
    tables = []
    for drop, seed in games:  # each game from the position less some states
        seats = tuple(
            Seat(p["name"], p["home"], tuple(p["states"][: max(0, len(p["states"]) - drop)]), a)
            for p, a in zip(players, agents, strict=True)
        )
        tables.append(Table(board, rules, seats, "snake", seed))
    together = play_games(tables)
    for table, game in zip(tables, together, strict=True):
        alone = play(table, record=False)  # (play_games records no legal sets by default)
        assert game.moves == alone.moves
        assert game.report.to_dict() == alone.report.to_dict()


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_usa_greedy_games_are_the_plain_playouts(seed):
    agents = tuple(load_agent(name) for name in ("greedy", "spoiler", "face", "random"))
    table = deal(usa(), load_rule_set("standard"), agents, "snake", seed)
    assert engine_game(table) == plain_game(table)


# --- 4. turn order, the seed, the final position ------------------------------


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ("snake", ["P1", "P2", "P3", "P3", "P2", "P1", "P1", "P2", "P3", "P3"]),
        ("round-robin", ["P1", "P2", "P3", "P1", "P2", "P3", "P1", "P2", "P3", "P1"]),
    ],
)
def test_turn_orders(order, expected):
    agents = (load_agent("random"),) * 3
    table = deal(usa(), load_rule_set("standard"), agents, order, 5)
    game = play(table)
    assert [m.player for m in game.moves][: len(expected)] == expected
    assert [m.turn for m in game.moves] == list(range(1, 34))  # 36 states, 3 homes


def test_a_seed_plays_the_same_game_byte_for_byte(cli):
    args = ["play", "--seed", "7", "--agents", "greedy,spoiler,face,random", "--format", "json"]
    first, second = cli(*args), cli(*args)
    assert first.code == second.code == 0
    assert first.out == second.out
    other = cli(*args[:2], "8", *args[3:])
    assert other.out != first.out


def test_the_final_position_written_scores_as_reported(tmp_path):
    """-o writes the final position; `evlogic score` on it, in a process of
    its own, gives the play report's final figures."""
    final = tmp_path / "final.yaml"
    played = run_subprocess(
        "play", "--seed", "4", "--players", "3", "--agents", "spoiler,greedy,face",
        "--order", "round-robin",
        "--rules", "union-cores", "-o", final, "--format", "json",
    )  # fmt: skip
    assert played.code == 0, played.err
    scored = run_subprocess("score", final, "--format", "json")
    assert scored.code == 0, scored.err
    report = played.json()
    assert scored.json() == report["final"]
    assert report["moves"][-1]["totals"] == {
        p["name"]: p["total"] for p in scored.json()["players"]
    }
    # states in the order won
    written = yaml.safe_load(final.read_text())
    for player in written["players"]:
        assert player["states"] == [
            m["state"] for m in report["moves"] if m["player"] == player["name"]
        ]


def test_a_game_file_continues_from_its_states(cli, tmp_path, write_game):
    board = {
        "name": "ring",
        "game_end": 7,
        "states": {
            name: {"ev": ev, "neighbors": neighbors}
            for name, ev, neighbors in [
                ("A", 3, ["B", "C", "H"]),
                ("B", 5, ["A", "C", "H"]),
                ("C", 2, ["A", "B", "D"]),
                ("D", 4, ["C", "E"]),
                ("E", 1, ["D", "H", "K"]),
                ("H", 6, ["A", "B", "E"]),
                ("K", 7, ["E"]),
                ("L", 1, []),
            ]
        },
    }
    path = write_game(
        board, [{"name": "Ann", "home": "H", "states": ["A"]}, {"name": "Bo", "home": "K"}]
    )
    final = tmp_path / "final.yaml"
    result = cli("play", path, "--seed", "1", "--format", "json", "-o", final)
    assert result.code == 0, result.err
    moves = result.json()["moves"]
    assert [m["player"] for m in moves] == ["Ann", "Bo", "Bo", "Ann"]  # 7 - 3 states
    assert "A" not in {m["state"] for m in moves}
    written = yaml.safe_load(final.read_text())
    assert written["players"][0]["states"][0] == "A"
    assert cli("score", final, "--format", "json").json() == result.json()["final"]


# --- 5. bad input: one line, exit 2, naming the field or the file ------------


def one_line_refusal(result, *names: str) -> None:
    assert result.code == 2, (result.out, result.err)
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("evlogic: error: ")
    assert "Traceback" not in result.err
    for name in names:
        assert name in lines[0], (name, lines[0])


GREEDY = """\
best(Most) :- Most = #max{ G : candidate(X), gain(X, G) }, Most != #inf.
top(X) :- candidate(X), gain(X, G), best(G).
first(Rank) :- Rank = #min{ R : top(X), tie_break(X, R) }, Rank != #sup.
choose(X) :- top(X), tie_break(X, R), first(R).
"""


@pytest.mark.parametrize(
    ("program", "says"),
    [
        ("choose(X) :- candidate(X).", "chose"),
        ("choose(X) :- candidate(X), X < 0.", "chose 0 states"),
        ("choose(X) :- home(0, X).", "not a candidate"),  # a taken state
        ("choose(99).", "not a candidate"),  # no state
        ("choose(foo).", "'foo'"),
        ("choose(X) :- candidate(X), X < 2. choose(foo).", "chose 3 states"),
        ("{ choose(X) : candidate(X) } = 1.", "a choice"),
        ("choose(X) :- candidate(X). :- candidate(X), not choose(X).", "integrity constraint"),
        ("#external foo. choose(X) :- candidate(X), foo.", "#external"),
        ("gain(X, 1) :- candidate(X).\n" + GREEDY, "gain/2"),
    ],
)
def test_a_bad_agent_is_refused_in_one_line(cli, tmp_path, program, says):
    path = tmp_path / "agent.lp"
    path.write_text(program)
    one_line_refusal(cli("play", "--agents", path, "--players", "2"), "agent.lp", says)


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--agents", "nope"], ["--agents", "nope"]),
        (["--agents", "missing.lp"], ["--agents", "missing.lp"]),
        (["--agents", "greedy,greedy", "--players", "3"], ["--agents"]),
        (["--agents", "greedy,,greedy"], ["--agents"]),
        (["--players", "40"], ["--players", "36"]),
        (["--players", "0"], ["--players"]),
        (["--players", "x"], ["--players"]),
        (["--seed", "1.5"], ["--seed"]),
        (["--order", "spiral"], ["--order"]),
        (["--board", "nowhere"], ["nowhere"]),
    ],
)
def test_bad_options_are_refused_in_one_line(cli, args, names):
    one_line_refusal(cli("play", *args), *names)


def test_a_game_file_and_board_are_not_both_given(cli, write_game):
    path = write_game(
        {"name": "b", "states": {"A": {"ev": 1, "neighbors": []}}}, [{"name": "X", "home": "A"}]
    )
    one_line_refusal(cli("play", path, "--board", "usa"), "--board")
    one_line_refusal(cli("play", path, "--players", "3"), "--players")


def test_an_agent_reading_past_its_inputs_cannot_change_the_scores(cli, tmp_path):
    """An agent's own predicates are its own: one named like a helper of
    rules/play/moves.lp does not change what a move gives."""
    path = tmp_path / "sneaky.lp"
    path.write_text("in(X, P, S) :- candidate(X), player(P), state(S).\n" + GREEDY)
    sneaky = cli("play", "--agents", path, "--seed", "3", "--format", "json")
    plain = cli("play", "--agents", "greedy", "--seed", "3", "--format", "json")
    assert sneaky.code == plain.code == 0, sneaky.err
    assert sneaky.json()["moves"] == plain.json()["moves"]


EVERY_INPUT = """\
ok :- turn(T), T >= 1, mover(P), player(P), home(P, _), won(N), N >= 0.
won(N) :- mover(P), N = #count{ S : owned(P, S) }.
worth(X, A - N) :- candidate(X), mover(P), after(X, P, A), total(P, N), face_gain(X, _).
best(Most) :- ok, Most = #max{ G : worth(X, G) }, Most != #inf.
top(X) :- worth(X, G), best(G), not over.
first(Rank) :- Rank = #min{ R : top(X), tie_break(X, R) }, Rank != #sup.
choose(X) :- top(X), tie_break(X, R), first(R).
"""


def test_an_agent_reading_every_input_plays_as_greedy(cli, tmp_path):
    """after/3, total/2, face_gain/2, owned/2, mover/1, turn/1, player/1,
    home/2, over/0: each reaches an agent that reads it."""
    path = tmp_path / "every.lp"
    path.write_text(EVERY_INPUT)
    every = cli("play", "--agents", path, "--seed", "5", "--format", "json")
    greedy = cli("play", "--agents", "greedy", "--seed", "5", "--format", "json")
    assert every.code == greedy.code == 0, every.err
    assert every.json()["moves"] == greedy.json()["moves"]


def test_a_rule_set_game_end_beyond_the_board_is_refused(cli, tmp_path):
    rules = tmp_path / "long.yaml"
    rules.write_text("extends: standard\ngame_end: 60\n")
    one_line_refusal(cli("play", "--rules", rules, "--players", "2"), "long.yaml", "game_end")


def test_a_rule_set_with_programs_of_its_own_is_played_by_score_s_rules(cli, tmp_path):
    """Its programs change what states are worth, which moves.lp does not
    read: every move is scored by the readable rules, programs included,
    so the log's last totals are the final report's."""
    (tmp_path / "extra.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    rules = tmp_path / "own.yaml"
    rules.write_text("extends: standard\nprograms: [extra.lp]\n")
    result = cli("play", "--rules", rules, "--players", "2", "--format", "json")
    assert result.code == 0, result.err
    document = result.json()
    last = document["moves"][-1]["totals"]
    assert last == {p["name"]: p["total"] for p in document["final"]["players"]}


def test_json_of_a_game_that_has_already_ended(cli, write_game):
    path = write_game(
        {
            "name": "b",
            "game_end": 2,
            "states": {
                "A": {"ev": 1, "neighbors": []},
                "B": {"ev": 2, "neighbors": []},
                "C": {"ev": 3, "neighbors": []},
            },
        },
        [{"name": "X", "home": "A", "states": ["B"]}],
    )
    result = cli("play", path, "--format", "json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["moves"] == []
