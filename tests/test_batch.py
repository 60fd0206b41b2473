"""`evlogic batch`, `sample` and `stats`."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO
from evlogic.batching.chunk import json_line
from evlogic.batching.reading import BatchOptions
from evlogic.batching.runner import Limits, run_batch
from evlogic.batching.sample import sample_games
from evlogic.loading.boards import load_board
from evlogic.loading.games import load_game
from evlogic.reports.score import score_game
from evlogic.resources import bundled_boards
from strategies import positions


def batch(
    lines: list[str], base: Path, board: str | None = None, **kwargs
) -> tuple[list[dict], int]:
    out = io.StringIO()
    failed = run_batch(lines, out, BatchOptions("in.jsonl", board, str(base)), **kwargs)
    text = out.getvalue()
    assert text == "" or text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()], failed


@pytest.mark.slow
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(positions(), min_size=1, max_size=4), st.integers(1, 3))
def test_batch_matches_score_per_position(tmp_path, several, chunk_size):
    lines = []
    for number, (board, players) in enumerate(several):
        (tmp_path / f"board{number}.yaml").write_text(yaml.safe_dump(board))
        game = {"board": f"board{number}.yaml", "players": players}
        (tmp_path / f"game{number}.yaml").write_text(yaml.safe_dump(game))
        lines.append(json.dumps(game))
    reports, failed = batch(lines, tmp_path, chunk_size=chunk_size)
    assert failed == 0
    assert [r.pop("line") for r in reports] == list(range(1, len(lines) + 1))
    for number, report in enumerate(reports):
        assert report == score_game(load_game(tmp_path / f"game{number}.yaml")).to_dict()


def sample_lines(count: int, seed: int = 7) -> list[str]:
    """Random final usa positions, 4 players, as `evlogic sample` writes them."""
    usa = load_board(bundled_boards()["usa"])
    return [json.dumps(game) for game in sample_games(usa, "usa", 4, count, seed)]


def test_bad_lines_are_reported_in_place_and_the_rest_scored(tmp_path):
    good = sample_lines(3)
    lines = [
        good[0],
        "{not json",
        json.dumps({"players": [{"name": "A", "home": "KY"}]}),  # no board, no --board
        json.dumps({"board": "usa", "players": [{"name": "A", "home": "KYY"}]}),
        "",
        good[1],
        json.dumps({"board": "nowhere", "players": [{"name": "A", "home": "KY"}]}),
        good[2],
    ]
    reports, failed = batch(lines, tmp_path, chunk_size=3)
    assert failed == 4
    assert [r["line"] for r in reports] == [1, 2, 3, 4, 6, 7, 8]  # blank line 5 skipped
    errors = {r["line"]: r["error"] for r in reports if "error" in r}
    assert set(errors) == {2, 3, 4, 7}
    assert errors[2].startswith("in.jsonl: line 2: invalid JSON")
    assert "missing key 'board'" in errors[3]
    assert "players[0].home: unknown state 'KYY' (did you mean 'KY'?)" in errors[4]
    assert "line 7: board: no bundled board 'nowhere'" in errors[7]
    assert all("total" in r["players"][0] for r in reports if "error" not in r)


def test_cli_scores_each_line_by_its_own_rules_as_score_does(cli, tmp_path, monkeypatch):
    """A line's rules: (a name, a file, an inline mapping, or none) picks its
    rule set exactly as in a game file; --rules overrides every line."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "harsh.yaml").write_text("name: harsh\nextends: standard\nsiege_penalty: 30\n")
    rules = [None, "gentle-siege", "harsh.yaml", {"extends": "standard", "links_needed": 1}]
    lines = []
    for number, (line, reference) in enumerate(zip(sample_lines(4), rules, strict=True)):
        game = json.loads(line)
        if reference is not None:
            game["rules"] = reference
        (tmp_path / f"game{number}.yaml").write_text(yaml.safe_dump(game))
        if number == 3:
            del game["board"]  # from --board, with inline rules
            game["expect"] = {"winners": []}  # a game file's key: accepted, not checked
        lines.append(json.dumps(game))
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + "\n")

    result = cli("batch", "games.jsonl", "--board", "usa", "--jobs", "1")
    assert result.code == 0, result.out
    reports = [json.loads(line) for line in result.out.splitlines()]
    assert [r["rules"] for r in reports] == ["standard", "gentle-siege", "harsh", "inline"]
    for number, report in enumerate(reports):
        del report["line"]
        assert report == cli("score", f"game{number}.yaml", "--format", "json").json()

    result = cli("batch", "games.jsonl", "--board", "usa", "--rules", "open-region", "--jobs", "1")
    reports = [json.loads(line) for line in result.out.splitlines()]
    for number, report in enumerate(reports):
        del report["line"]
        rescored = cli("score", f"game{number}.yaml", "--rules", "open-region", "--format", "json")
        assert report == rescored.json()


def test_a_bad_rule_set_on_a_line_is_that_line_s_error(tmp_path):
    good = json.loads(sample_lines(1)[0])
    lines = [
        json.dumps({**good, "rules": "nowhere"}),
        json.dumps({**good, "rules": {"extends": "standard", "siege_penalty": -5}}),
        json.dumps(good),
    ]
    reports, failed = batch(lines, tmp_path)
    assert failed == 2
    assert reports[0]["error"].startswith("in.jsonl: line 1: rules: no rule set 'nowhere'")
    assert reports[1]["error"].startswith("in.jsonl: line 2: rules.siege_penalty: must be")
    assert reports[2]["rules"] == "standard"


def test_cli_reads_any_bytes_line_by_line(cli, tmp_path):
    """A byte-order mark is dropped; a line that is not UTF-8 is that line's
    error, and the lines around it are scored."""
    good = sample_lines(2)
    games = tmp_path / "games.jsonl"
    bad = b'{"board": "usa", "players": [{"name": "\xff", "home": "KY"}]}'
    games.write_bytes(b"\xef\xbb\xbf" + good[0].encode() + b"\n" + bad + b"\n" + good[1].encode())
    result = cli("batch", games, "--jobs", "1")
    assert result.code == 1
    reports = [json.loads(line) for line in result.out.splitlines()]
    assert [r["line"] for r in reports] == [1, 2, 3]
    assert "error" not in reports[0] and "error" not in reports[2]
    assert reports[1]["error"] == f"{games}: line 2: not UTF-8 text (a bad byte at column 40)"

    out = tmp_path / "out.jsonl"
    out.write_bytes(b"\xef\xbb\xbf" + result.out.encode())
    stats = cli("stats", out, "--format", "json")
    assert stats.code == 0 and stats.json()["games"] == 2 and stats.json()["errors"] == 1
    out.write_bytes(b"\xff\n")
    stats = cli("stats", out)
    assert (stats.code, stats.err) == (
        2,
        f"evlogic: error: {out}: line 1: not UTF-8 text (a bad byte at column 1)\n",
    )


def test_lone_surrogates_from_json_escapes_never_reach_the_output(cli, tmp_path):
    """JSON may escape a lone surrogate, which UTF-8 cannot hold: as a name it
    is an error in place, quoted back it stays escaped; the output is UTF-8."""
    games = tmp_path / "games.jsonl"
    games.write_text(
        '{"board": "usa", "players": [{"name": "\\udcff", "home": "KY"}]}\n'
        '{"board": "usa", "players": [{"name": "A", "home": "\\udcff"}]}\n'
        + sample_lines(1)[0]
        + "\n"
    )
    out = tmp_path / "out.jsonl"
    result = cli("batch", games, "-o", out, "--jobs", "1")
    assert result.code == 1, result.err
    reports = [json.loads(line) for line in out.read_bytes().decode("utf-8").splitlines()]
    assert "players[0].name: must be a player name, not text with a lone" in reports[0]["error"]
    assert "players[0].home: must be a state id, not text with a lone" in reports[1]["error"]
    assert reports[2]["final"] is True


def test_an_output_line_escapes_what_utf8_cannot_hold():
    result = {"line": 1, "error": "x: unknown \udcff", "name": "Zoë"}
    line = json_line(result)
    assert line.endswith("\n") and json.loads(line.encode("utf-8")) == result
    assert "Zoë" in json_line({"name": "Zoë"})  # plain text stays as written


def test_board_option_fills_in_missing_boards(tmp_path):
    line = json.dumps({"players": [{"name": "A", "home": "KY", "states": ["IN", "WV"]}]})
    board = str(REPO / "maps" / "usa.yaml")
    reports, failed = batch([line], tmp_path, board=board)
    assert failed == 0 and reports[0]["players"][0]["region_bonus"] == 15


def test_jobs_keep_input_order(tmp_path):
    lines = sample_lines(250)
    one, _ = batch(lines, tmp_path, jobs=1, chunk_size=40)
    two, _ = batch(lines, tmp_path, jobs=2, chunk_size=40)
    assert one == two
    assert [r["line"] for r in two] == list(range(1, 251))


def lattice(width: int, height: int) -> dict:
    """A triangular lattice of width x height states: six neighbours inside."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    states = {}
    for x in range(width):
        for y in range(height):
            neighbors = [
                f"S{x + dx}.{y + dy}"
                for dx, dy in steps
                if 0 <= x + dx < width and 0 <= y + dy < height
            ]
            states[f"S{x}.{y}"] = {"ev": 1 + (x + y) % 7, "neighbors": neighbors}
    return {"name": "lattice", "states": states}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("owned", "bonus"), [(["S30.24", "S35.30"], 0), (["S30.24", "S31.24", "S29.25"], 25)]
)
def test_a_line_on_a_board_of_thousands_of_states_is_scored_as_score_does(tmp_path, owned, bonus):
    """3,000 states (54 blocks of 56): batch scores what score scores, within
    a worker's memory limit that score's own needs fit in; the compiled
    encoding's dense tables (states times blocks) would not fit."""
    (tmp_path / "big.yaml").write_text(yaml.safe_dump(lattice(60, 50)))
    game = {"board": "big.yaml", "players": [{"name": "A", "home": "S30.25", "states": owned}]}
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(game))
    out = io.StringIO()
    limits = Limits(memory_mb=1024, timeout=600)  # memory is the point; a loaded machine is slow
    options = BatchOptions("in.jsonl", None, str(tmp_path))
    failed = run_batch([json.dumps(game)] * 3, out, options, jobs=1, limits=limits)
    assert failed == 0
    expected = score_game(load_game(tmp_path / "game.yaml")).to_dict()
    reports = [json.loads(line) for line in out.getvalue().splitlines()]
    assert reports == [{"line": n, **expected} for n in (1, 2, 3)]
    assert expected["players"][0]["region_bonus"] == bonus


def test_cli_exit_status_and_files(tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(sample_lines(5)) + "\n")
    out = tmp_path / "out.jsonl"
    run = [sys.executable, "-m", "evlogic", "batch", str(games), "-o", str(out), "--jobs", "2"]
    assert subprocess.run(run, capture_output=True).returncode == 0
    assert len(out.read_text().splitlines()) == 5
    games.write_text(games.read_text() + "{}\n")
    done = subprocess.run(run, capture_output=True, text=True)
    assert done.returncode == 1
    assert "error" in out.read_text().splitlines()[-1]
    piped = subprocess.run(
        [sys.executable, "-m", "evlogic", "batch", "-"],
        input=sample_lines(2)[0] + "\n",
        capture_output=True,
        text=True,
    )
    assert piped.returncode == 0 and json.loads(piped.stdout)["line"] == 1
    missing = subprocess.run(
        [sys.executable, "-m", "evlogic", "batch", "nope.jsonl"], capture_output=True, text=True
    )
    assert missing.returncode == 2 and missing.stderr.startswith("evlogic: error: nope.jsonl")


@pytest.mark.slow
def test_interrupted_run_leaves_whole_lines(tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(sample_lines(30000)) + "\n")
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "evlogic", "batch", str(games), "-o", str(out), "--jobs", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60  # until lines reach the file that becomes out.jsonl
    while not any(part.stat().st_size for part in tmp_path.glob(".out.jsonl.*.tmp")):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    assert not out.exists()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    text = out.read_text()
    assert text.endswith("\n")
    numbers = [json.loads(line)["line"] for line in text.splitlines()]
    assert 0 < len(numbers) < 30000
    assert numbers == list(range(1, len(numbers) + 1))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games.jsonl", "out.jsonl"]


def test_dask_local_cluster_gives_the_same_output(tmp_path):
    distributed = pytest.importorskip("distributed")
    lines = sample_lines(120)
    expected, _ = batch(lines, tmp_path, chunk_size=25)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        got, failed = batch(lines, tmp_path, dask_address=cluster.scheduler_address, chunk_size=25)
    assert failed == 0
    assert got == expected


# --- sample ------------------------------------------------------------------


def test_sample_is_reproducible_and_final(cli, tmp_path):
    def sample(seed: int) -> list[str]:
        args = ("--board", "usa", "--players", "4", "--count", "50", "--seed", str(seed))
        result = cli("sample", *args)
        assert result.code == 0, result.err
        return result.out.splitlines()

    first, again, other = sample(3), sample(3), sample(4)
    assert first == again == sample_lines(50, seed=3)
    assert first != other
    reports, failed = batch(first, tmp_path)
    assert failed == 0
    assert all(r["final"] and r["states_won"] == 36 for r in reports)
    assert all(len(r["players"]) == 4 for r in reports)


# --- stats -------------------------------------------------------------------


def report(line: int, players: list[tuple[str, str, int, int, int]], winners: list[str]) -> str:
    """players: (name, home, face_ev, region_bonus, net_bonus)."""
    return json.dumps(
        {
            "line": line,
            "players": [
                {
                    "name": n,
                    "home": h,
                    "face_ev": f,
                    "region_bonus": b,
                    "net_bonus": nb,
                    "total": f + nb,
                }
                for n, h, f, b, nb in players
            ],
            "winners": winners,
        }
    )


@pytest.mark.parametrize("chunk_size", [1, 2, 10_000])
def test_stats_by_hand(cli, tmp_path, monkeypatch, chunk_size):
    monkeypatch.setattr("evlogic.reports.stats.CHUNK_SIZE", chunk_size)  # games per grounding
    reports = tmp_path / "out.jsonl"
    reports.write_text(
        "\n".join(
            [
                # A wins on face alone.
                report(1, [("A", "KY", 50, 0, 0), ("B", "OH", 40, 15, 5)], ["A"]),
                # B wins only thanks to the bonus (faces: A 50, B 45).
                report(2, [("A", "KY", 50, 0, 0), ("B", "OH", 45, 25, 25)], ["B"]),
                # A tie: each gets half a win.
                report(3, [("A", "OH", 30, 0, 0), ("B", "KY", 30, 0, 0)], ["A", "B"]),
                json.dumps({"line": 4, "error": "bad"}),
            ]
        )
        + "\n"
    )
    result = cli("stats", reports, "--format", "json")
    assert result.code == 0, result.err
    stats = result.json()
    assert stats["games"] == 3 and stats["errors"] == 1
    assert stats["bonus_decided"] == 1
    homes = {h["state"]: h for h in stats["homes"]}
    # KY: game 1 won, game 2 lost, game 3 half; OH: the mirror image.
    assert homes["KY"]["games"] == 3 and homes["KY"]["wins"] == 1.5
    assert homes["OH"]["wins"] == 1.5
    assert homes["KY"]["win_rate"] == pytest.approx(0.5, abs=1e-6)
    assert homes["OH"]["mean_total"] == pytest.approx((45 + 70 + 30) / 3, abs=1e-3)
    assert homes["OH"]["mean_region_bonus"] == pytest.approx(40 / 3, abs=1e-3)
    assert [h["state"] for h in stats["homes"]] == ["KY", "OH"]
    assert "decided by the regional bonus: 1" in cli("stats", reports).out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (report(1, [("A", "KY", 50, 0, 0)], ["B"]), "winners ['B'] are not players"),
        (report(1, [("A", "KY", 1.5, 0, 0)], ["A"]), "total is not a whole number: 1.5"),
        (report(1, [("A", "KY", 2**40, 0, 0)], ["A"]), "total is not a whole number: 109951162"),
        ('{"line": 1, "players": []}', "'winners'"),
        (  # json would keep the last "winners": B's win, silently
            report(1, [("A", "KY", 50, 0, 0), ("B", "OH", 40, 0, 0)], ["A"])[:-1]
            + ', "winners": ["B"]}',
            "duplicate key 'winners' (JSON would keep the last one)",
        ),
        (
            report(1, [("A", "KY", 50, 0, 0)], ["A"]).replace('"total"', '"total": 0, "total"'),
            "players[0]: duplicate key 'total'",
        ),
    ],
)
def test_stats_rejects_what_batch_never_writes(cli, tmp_path, line, message):
    reports = tmp_path / "out.jsonl"
    reports.write_text(line + "\n")
    result = cli("stats", reports)
    assert result.code == 2
    assert result.err.startswith(f"evlogic: error: {reports}: line 1: not a batch report (")
    assert message in result.err and result.err.count("\n") == 1
