"""evlogic ladder: the steps' figures are what the games say.

Every figure is recomputed here from the games `--games-out` wrote (the
rules' final totals, each seat's agent): the seatings (every deal in every
seating of the two agents), each step's win rate and Wilson interval,
significance, depth, and the Bradley-Terry ratings, which for a chain of
steps have a closed form (each step's log-odds), independent of the GLM
the command fits (each game one trial of the stronger's score).
"""

from __future__ import annotations

import itertools
import json
import math
from collections import defaultdict
from fractions import Fraction

import pytest
from statsmodels.stats.proportion import proportion_confint
from test_schemas import validator

from conftest import REPO

LAKELAND = REPO / "examples" / "lakeland" / "board.yaml"


def run_ladder(cli, tmp_path, *args):
    games = tmp_path / "games.jsonl"
    done = cli(
        "ladder",
        "--board",
        LAKELAND,
        "--seed",
        "5",
        "--format",
        "json",
        "--games-out",
        games,
        *args,
    )
    assert done.code == 0, done.err
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    return done.json(), lines


@pytest.mark.parametrize(
    ("players", "agents", "moves"),
    [(2, "random,face,greedy", "draft"), (3, "random,greedy,spoiler", "market")],
)
def test_every_figure_is_what_the_games_say(cli, tmp_path, players, agents, moves):
    deals = 5
    document, lines = run_ladder(
        cli,
        tmp_path,
        "--agents",
        agents,
        "--players",
        str(players),
        "--games",
        str(deals),
        "--moves",
        moves,
    )
    validator("ladder").validate(document)
    names = agents.split(",")
    assert document["agents"] == names and document["games"] == deals
    steps = list(itertools.pairwise(names))
    assert len(lines) == len(steps) * players * deals
    score = defaultdict(Fraction)
    seen = defaultdict(set)
    for line in lines:
        seat_agents = [player["agent"] for player in line["players"]]
        (weaker,) = set(seat_agents) - {max(set(seat_agents), key=names.index)}
        stronger = max(set(seat_agents), key=names.index)
        assert seat_agents.count(stronger) == 1  # one seat the stronger, the rest the weaker
        seat = seat_agents.index(stronger)
        # every deal in every seating, the homes the deal's
        seen[weaker, stronger].add((line["game"], seat, tuple(p["home"] for p in line["players"])))
        totals = [player["total"] for player in line["final"]["players"]]
        others = [t for i, t in enumerate(totals) if i != seat]
        score[weaker, stronger] += sum(
            Fraction(1) if totals[seat] > t else Fraction(1, 2) if totals[seat] == t else 0
            for t in others
        ) / len(others)
    depth, counting = 0, True
    for (weaker, stronger), step in zip(steps, document["steps"], strict=True):
        games = {(game, seat) for game, seat, _homes in seen[weaker, stronger]}
        assert games == {(g, s) for g in range(deals) for s in range(players)}
        homes = {(game, h) for game, _seat, h in seen[weaker, stronger]}
        assert len(homes) == deals  # the same homes in every seating of a deal
        assert (step["weaker"], step["stronger"], step["games"]) == (
            weaker,
            stronger,
            deals * players,
        )
        n = deals * players
        low, high = proportion_confint(float(score[weaker, stronger]), n, method="wilson")
        assert step["win_rate"] == pytest.approx(float(score[weaker, stronger]) / n, abs=1e-6)
        assert (step["low"], step["high"]) == (
            pytest.approx(low, abs=1e-6),
            pytest.approx(high, abs=1e-6),
        )
        assert step["significant"] == (step["low"] > 0.5)
        counting = counting and step["significant"]
        depth += counting
    assert document["depth"] == depth
    # Bradley-Terry on a chain: each step's log-odds (half a win and half a
    # loss added), summed from the first agent's 0, on the Elo scale
    rating = 0.0
    assert document["ratings"][0] == {"agent": names[0], "rating": 0.0, "low": 0.0, "high": 0.0}
    for (weaker, stronger), entry in zip(steps, document["ratings"][1:], strict=True):
        pairs = deals * players  # a game a trial
        wins = float(score[weaker, stronger]) + 0.5
        rating += math.log(wins / (pairs + 1 - wins)) * 400 / math.log(10)
        assert entry["agent"] == stronger
        assert entry["rating"] == pytest.approx(rating, abs=0.11)
        assert entry["low"] < entry["rating"] < entry["high"]


def test_jobs_give_the_same_bytes(cli, tmp_path):
    args = ("ladder", "--board", LAKELAND, "--games", "12", "--agents", "random,greedy")
    alone = cli(*args, "--games-out", tmp_path / "one.jsonl")
    workers = cli(*args, "--jobs", "2", "--games-out", tmp_path / "two.jsonl")
    assert alone.code == workers.code == 0, workers.err
    assert alone.out == workers.out
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_the_report_page_shows_every_step(cli, tmp_path):
    page = tmp_path / "ladder.html"
    done = cli("ladder", "--board", LAKELAND, "--games", "3", "--report", page)
    assert done.code == 0, done.err
    html = page.read_text()
    assert (
        html.startswith("<!doctype html>")
        and "<svg" in html
        and "http" not in html.split("<svg")[0]
    )
    for step in ("random", "face", "greedy"):
        assert f"<td>{step}</td>" in html


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "greedy"], "--agents: a ladder needs at least two agents"),
        (["--agents", "greedy,,face"], "--agents: an empty item"),
        (["--agents", "greedy,nobody"], "unknown agent 'nobody'"),
        (["--players", "1"], "--players: must be between 2"),
        (["--moves", "auction"], "unknown move model 'auction'"),
        (["--board", "nowhere.yaml"], "nowhere.yaml"),
    ],
)
def test_bad_input_is_one_line_and_status_2(cli, args, message):
    done = (
        cli("ladder", "--board", LAKELAND, "--games", "2", *args)
        if "--board" not in args
        else cli("ladder", "--games", "2", *args)
    )
    assert done.code == 2 and done.out == ""
    assert len(done.err.strip().splitlines()) == 1 and message in done.err, done.err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"games": 0}, "--games: must be between 1"),
        ({"games": 1.5}, "--games: must be a whole number"),
        ({"players": 1}, "--players: must be between 2"),
        ({"jobs": 0}, "--jobs: must be between 1"),
        ({"seed": None}, "--seed: must be a whole number"),
        ({"order": "x"}, "--order: must be snake or round-robin"),
        ({"players": 8}, "the game ends when 8 states are won: no move would be made"),
    ],
)
def test_the_library_call_raises_input_errors(arguments, message):
    import evlogic

    with pytest.raises(evlogic.InputError, match=message):
        evlogic.ladder(agents="random,greedy", board=LAKELAND, **arguments)
