"""evlogic balance: its figures against a recount from --games-out, its
intervals' coverage, the same output however the games run, bad input."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

from conftest import REPO
from evlogic.reports.balance import mean, proportion

LAKELAND = str(REPO / "examples" / "lakeland" / "board.yaml")


def _balance(cli, tmp_path: Path, *extra: str) -> tuple[dict, list[dict]]:
    games = tmp_path / "games.jsonl"
    result = cli(
        "balance",
        "--board",
        LAKELAND,
        "--players",
        "3",
        "--format",
        "json",
        "--games-out",
        games,
        *extra,
    )
    assert result.code == 0, result.err
    return result.json(), [json.loads(line) for line in games.read_text().splitlines()]


def test_the_figures_are_a_recount_of_the_games_written(cli, tmp_path):
    report, lines = _balance(
        cli,
        tmp_path,
        "--games",
        "40",
        "--agents",
        "greedy,random,face",
        "--rules",
        "standard",
        "--rules",
        "gentle-siege",
        "--seed",
        "5",
    )
    assert [r["rules"] for r in report["rule_sets"]] == ["standard", "gentle-siege"]
    for summary in report["rule_sets"]:
        games = [line for line in lines if line["rules"] == summary["rules"]]
        assert [g["game"] for g in games] == list(range(40))
        seat = [0.0, 0.0, 0.0]
        home_games: dict[str, int] = defaultdict(int)
        home_wins: dict[str, float] = defaultdict(float)
        agent_wins: dict[str, float] = defaultdict(float)
        agent_games: dict[str, int] = defaultdict(int)
        turns: dict[str, list[int]] = defaultdict(list)
        totals, bonus_decided, siege_decided = [], 0, 0
        for game in games:
            final = game["final"]
            winners = final["winners"]
            for index, (player, seated) in enumerate(
                zip(final["players"], game["players"], strict=True)
            ):
                share = 1 / len(winners) if player["name"] in winners else 0.0
                seat[index] += share
                home_games[player["home"]] += 1
                home_wins[player["home"]] += share
                agent_games[seated["agent"]] += 1
                agent_wins[seated["agent"]] += share
            totals.append(sum(p["total"] for p in final["players"]) / 3)
            best_face = max(p["face_ev"] for p in final["players"])
            by_face = {p["name"] for p in final["players"] if p["face_ev"] == best_face}
            bonus_decided += by_face != set(winners)
            unsieged = {p["name"]: p["face_ev"] + p["region_bonus"] for p in final["players"]}
            best = max(unsieged.values())
            siege_decided += {n for n, t in unsieged.items() if t == best} != set(winners)
            for move in game["moves"]:
                turns[move["state"]].append(move["turn"])
        assert [s["rate"] for s in summary["seat_win_rate"]] == [
            pytest.approx(s / 40, abs=1e-6) for s in seat
        ]
        for home in summary["home_win_rate"]:
            assert home["games"] == home_games[home["home"]]
            assert home["rate"] == pytest.approx(home_wins[home["home"]] / home["games"], abs=1e-6)
        assert {h["home"] for h in summary["home_win_rate"]} == set(home_games)
        for agent in summary["agent_win_rate"]:
            expected = agent_wins[agent["agent"]] / agent_games[agent["agent"]]
            assert agent["rate"] == pytest.approx(expected, abs=1e-6)
        assert summary["bonus_decides"]["rate"] == pytest.approx(bonus_decided / 40, abs=1e-6)
        assert summary["siege_decides"]["rate"] == pytest.approx(siege_decided / 40, abs=1e-6)
        assert summary["mean"]["total"]["value"] == pytest.approx(sum(totals) / 40, abs=1e-6)
        for entry in summary["state_desirability"]:
            won = turns[entry["state"]]
            assert entry["games"] == len(won)
            assert entry["mean_turn"] == pytest.approx(sum(won) / len(won), abs=1e-6)
        means = [entry["mean_turn"] for entry in summary["state_desirability"]]
        assert means == sorted(means)
        for figure in [*summary["seat_win_rate"], summary["bonus_decides"]]:
            assert 0 <= figure["low"] <= figure["rate"] <= figure["high"] <= 1


def test_every_rule_set_plays_the_same_deals(cli, tmp_path):
    _, lines = _balance(
        cli, tmp_path, "--games", "6", "--rules", "standard", "--rules", "flat-tiers"
    )
    by_rules: dict[str, list] = defaultdict(list)
    for line in lines:
        by_rules[line["rules"]].append((line["game"], line["seed"], line["players"]))
    assert by_rules["standard"] == by_rules["flat-tiers"]
    assert len({seed for _, seed, _ in by_rules["standard"]}) == 6


def test_the_stats_command_reads_the_games_written(cli, tmp_path):
    _, lines = _balance(cli, tmp_path, "--games", "5")
    result = cli("stats", tmp_path / "games.jsonl", "--format", "json")
    assert result.code == 0, result.err
    assert result.json()["games"] == len(lines) == 5


def test_differences_are_paired_by_game(cli, tmp_path):
    report, lines = _balance(
        cli, tmp_path, "--games", "12", "--rules", "standard", "--rules", "gentle-siege"
    )
    (difference,) = report["differences"]
    assert (difference["rules"], difference["against"]) == ("gentle-siege", "standard")
    penalty = next(
        f for f in difference["figures"] if f["figure"] == "mean" and f["of"] == "siege_penalty"
    )
    per_game: dict[int, list[float]] = defaultdict(list)
    for line in lines:
        mean_penalty = sum(p["siege_penalty"] for p in line["final"]["players"]) / 3
        per_game[line["game"]].append(mean_penalty)
    paired = [b - a for a, b in per_game.values()]
    assert penalty["difference"] == pytest.approx(sum(paired) / len(paired), abs=1e-6)
    assert penalty["low"] <= penalty["difference"] <= penalty["high"]


def test_the_same_seed_gives_the_same_report_and_another_seed_another(cli, tmp_path):
    args = ("balance", "--board", LAKELAND, "--players", "3", "--games", "8", "--format", "json")
    first = cli(*args, "--seed", "3")
    assert first.code == 0, first.err
    assert cli(*args, "--seed", "3").out == first.out
    assert cli(*args, "--seed", "4").out != first.out


def test_worker_processes_give_the_same_output(cli, tmp_path):
    args = ("--games", "25", "--agents", "greedy,random,spoiler", "--seed", "2")
    one, one_lines = _balance(cli, tmp_path, *args)
    (tmp_path / "two").mkdir()
    two, two_lines = _balance(cli, tmp_path / "two", *args, "--jobs", "2")
    assert two == one
    assert two_lines == one_lines


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_output(cli, tmp_path):
    distributed = pytest.importorskip("distributed")
    args = ("--games", "12", "--seed", "9")
    one, _ = _balance(cli, tmp_path, *args)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        (tmp_path / "dask").mkdir()
        on_dask, _ = _balance(cli, tmp_path / "dask", *args, "--dask", cluster.scheduler_address)
    assert on_dask == one


# --- the intervals ----------------------------------------------------------------------


def test_the_rate_intervals_cover_a_known_rate_about_95_percent_of_the_time():
    rng = random.Random(11)
    rate, trials, runs = 0.3, 80, 600
    covered = 0
    for _ in range(runs):
        successes = sum(rng.random() < rate for _ in range(trials))
        interval = proportion(successes, trials)
        covered += interval.low <= rate <= interval.high
    assert 0.92 <= covered / runs <= 0.98


def test_the_mean_intervals_cover_a_known_mean_about_95_percent_of_the_time():
    rng = random.Random(12)
    runs, covered = 600, 0
    for _ in range(runs):
        values = [rng.gauss(10, 3) for _ in range(30)]
        interval = mean(values)
        covered += interval.low <= 10 <= interval.high
    assert 0.92 <= covered / runs <= 0.98


def test_a_constant_mean_has_no_width_and_a_rate_of_none_is_bounded():
    assert mean([4, 4, 4]).interval() == (4.0, 4.0, 4.0)
    interval = proportion(0, 20)
    assert interval.rate == 0 and interval.low == 0 and 0 < interval.high < 0.2


# --- bad input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["--games", "0"], "--games"),
        (["--players", "40"], "--players"),
        (["--agents", "clever"], "clever"),
        (["--agents", "greedy,random"], "--agents"),
        (["--rules", "standard", "--rules", "standard"], "--rules"),
        (["--rules", "no-such-rules"], "no-such-rules"),
        (["--order", "zigzag"], "--order"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, names):
    result = cli("balance", "--games", "2", *args)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert names in result.err
    assert "Traceback" not in result.err


def test_ctrl_c_stops_with_130_and_writes_nothing_half(tmp_path):
    games = tmp_path / "games.jsonl"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "evlogic",
            "balance",
            "--games",
            "100000",
            "--games-out",
            str(games),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Interrupted once it is playing: its games-out file is being written
    # (a temporary file beside the target), not while Python starts.
    deadline = time.monotonic() + 60
    while not list(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert list(tmp_path.iterdir()), "balance never began writing"
    time.sleep(1)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert out == ""
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


# --- the time limit ---------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_past_its_timeout_balance_stops_with_3_and_writes_nothing(cli, tmp_path, jobs):
    started = time.monotonic()
    result = cli(
        "balance",
        "--board",
        LAKELAND,
        "--games",
        "1000000",
        "--jobs",
        jobs,
        "--timeout",
        "1.5",
        "--games-out",
        tmp_path / "games.jsonl",
        "--report",
        tmp_path / "report.html",
    )
    # A million games take hours: the bound tells a stop from a finish at any load.
    assert time.monotonic() - started < 120
    assert result.code == 3, result.err
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1, result.err
    assert "within 1.5 s" in result.err and "of 1,000,000 games played" in result.err
    assert "Traceback" not in result.err
    assert list(tmp_path.iterdir()) == []


def test_the_report_is_the_same_whatever_order_the_games_come_in(cli, tmp_path):
    """Games are summed as they come, and paired by game number: played
    ten of each rule set in turn, rule set by rule set, or shuffled."""
    from evlogic.reports.balance import BalanceHeading, balance_report

    report, lines = _balance(
        cli, tmp_path, "--games", "25", "--rules", "standard", "--rules", "gentle-siege"
    )
    heading = BalanceHeading(
        report["board"], 3, tuple(report["agents"]), report["order"], 25, report["seed"]
    )
    names = [r["rules"] for r in report["rule_sets"]]
    by_rule_set = sorted(lines, key=lambda line: (names.index(line["rules"]), line["game"]))
    shuffled = lines[:1] + random.Random(3).sample(lines[1:], len(lines) - 1)
    assert [line["rules"] for line in lines[:20]] == ["standard"] * 10 + ["gentle-siege"] * 10
    for order in (lines, by_rule_set, shuffled):
        assert balance_report(heading, order).to_dict() == report
