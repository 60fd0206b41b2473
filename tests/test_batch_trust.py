"""`evlogic batch` under hostile input: nothing lost, always ends.

Every bad line of every kind becomes ``{"line": n, "error": ...}`` in its
place, every other line is scored and in order; the run ends whatever a
line or a worker does; signals end it cleanly.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import REPO, run_subprocess
from evlogic.batching.chunk import score_chunk
from evlogic.batching.reading import BatchOptions
from evlogic.batching.runner import _in_order, run_batch
from evlogic.batching.sample import sample_games
from evlogic.batching.workers import Lost, Workers, WorkersFailed
from evlogic.loading.boards import load_board
from evlogic.resources import bundled_boards

USA = REPO / "maps" / "usa.yaml"


def good_lines(count: int, seed: int = 11) -> list[str]:
    usa = load_board(bundled_boards()["usa"])
    return [json.dumps(game) for game in sample_games(usa, "usa", 2, count, seed)]


def one_player(board: str, **extra: object) -> str:
    return json.dumps({"board": board, "players": [{"name": "A", "home": "KY"}], **extra})


def check_in_place(text: str, bad: dict[int, str], total: int) -> list[dict]:
    """Every line once, in order; the bad ones errors containing their
    phrase (one line of text, no traceback), the rest scored."""
    reports = [json.loads(line) for line in text.splitlines()]
    assert [r["line"] for r in reports] == list(range(1, total + 1))
    for report in reports:
        if report["line"] in bad:
            assert bad[report["line"]] in report["error"], report
            assert "\n" not in report["error"] and "Traceback" not in report["error"]
        else:
            assert "error" not in report, report
            assert all("total" in player for player in report["players"])
    return reports


def with_bad(tmp_path: Path, bad: dict[int, str], total: int = 7) -> Path:
    """An input of ``total`` lines, good ones except ``bad`` (number: line)."""
    good = iter(good_lines(total))
    lines = [bad.get(number) or next(good) for number in range(1, total + 1)]
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(lines) + "\n")
    return games


# --- one bad line, of every kind, through the CLI ---------------------------


def yaml_kinds(tmp_path: Path) -> dict[str, str]:
    """Board and rule set files PyYAML cannot build a value of."""
    (tmp_path / "bad-date.yaml").write_text("states:\n  KY: {ev: 2001-02-30}\n")
    (tmp_path / "bad-int.yaml").write_text("states:\n  KY: {ev: !!int abc}\n")
    (tmp_path / "bad-time.yaml").write_text("name: x\nstates: !!timestamp x\n")
    (tmp_path / "date-rules.yaml").write_text("extends: standard\nsiege_penalty: 2001-02-30\n")
    return {
        "bad-date board": one_player("bad-date.yaml"),
        "!!int board": one_player("bad-int.yaml"),
        "!!timestamp board": one_player("bad-time.yaml"),
        "bad-date rules": one_player("usa", rules="date-rules.yaml"),
    }


@pytest.mark.parametrize(
    ("kind", "phrase"),
    [
        ("nested 100,000 deep", "invalid JSON: nested too deeply"),
        ("5,000-digit integer", "invalid JSON: a number with more than"),
        ("bad-date board", "bad-date.yaml"),
        ("!!int board", "bad-int.yaml"),
        ("!!timestamp board", "bad-time.yaml"),
        ("bad-date rules", "date-rules.yaml"),
    ],
)
def test_a_line_that_breaks_scoring_is_its_error_in_place(cli, tmp_path, kind, phrase):
    lines = {
        "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
        "5,000-digit integer": '{"board": "usa", "players": [' + "7" * 5000 + "]}",
        **yaml_kinds(tmp_path),
    }
    games = with_bad(tmp_path, {2: lines[kind], 5: lines[kind]})
    for jobs in ("1", "2"):
        result = cli("batch", games, "--jobs", jobs, "--chunk-size", "3")
        assert (result.code, result.err) == (1, "")
        check_in_place(result.out, {2: phrase, 5: phrase}, 7)
    # The in-process path (no workers) loses nothing either.
    out = io.StringIO()
    failed = run_batch(games.read_text().splitlines(), out, BatchOptions("g", None, str(tmp_path)))
    assert failed == 2
    check_in_place(out.getvalue(), {2: phrase, 5: phrase}, 7)


def test_a_board_file_that_fails_unforeseen_is_that_line_s_error(tmp_path, monkeypatch):
    """Whatever a reader did not foresee is the line's error, naming the file."""

    def broken(path, source=None):
        if Path(path).name == "b.yaml":
            raise ValueError("day is out of range for month")
        return load_board(path, source)

    monkeypatch.setattr("evlogic.batching.reading.load_board", broken)
    (tmp_path / "b.yaml").write_text("states: {}\n")
    out = io.StringIO()
    lines = [one_player("b.yaml"), good_lines(1)[0]]
    assert run_batch(lines, out, BatchOptions("g", None, str(tmp_path))) == 1
    reports = check_in_place(out.getvalue(), {1: "cannot read the board file 'b.yaml'"}, 2)
    expected = "g: line 1: board: cannot read the board file 'b.yaml' (ValueError)"
    assert reports[0]["error"] == expected


@pytest.mark.slow
def test_a_grounding_that_runs_out_of_memory_is_that_line_s_error(tmp_path):
    (tmp_path / "bomb.lp").write_text("bomb(X, f(X, X + 1, X + 2, X + 3)) :- X = 1..100000000.\n")
    (tmp_path / "bomb.yaml").write_text("name: bomb\nextends: standard\nprograms: [bomb.lp]\n")
    games = with_bad(tmp_path, {3: one_player("usa", rules="bomb.yaml")}, total=5)
    # A process of its own, as the command runs: a worker forked from this test
    # process would inherit its address space, grown by earlier tests (the
    # arenas of threads long gone), and could run out before it grounds.
    result = run_subprocess(
        "batch", games, "--jobs", "1", "--memory-limit", "300", "--timeout", "120"
    )
    assert (result.code, result.err) == (1, "")
    check_in_place(result.out, {3: "ran out of memory scoring this line (the limit is 300 MiB"}, 5)


@pytest.mark.slow
def test_a_line_past_the_time_limit_is_that_line_s_error(cli, tmp_path):
    # The closure of a chain of 3,000 links: grounding takes far longer than 2 s.
    (tmp_path / "slow.lp").write_text(
        "slow_link(G, X, X + 1) :- game(G), X = 1..3000.\n"
        "slow_path(G, X, Y) :- slow_link(G, X, Y).\n"
        "slow_path(G, X, Z) :- slow_path(G, X, Y), slow_link(G, Y, Z).\n"
    )
    (tmp_path / "slow.yaml").write_text("name: slow\nextends: standard\nprograms: [slow.lp]\n")
    games = with_bad(tmp_path, {2: one_player("usa", rules="slow.yaml")}, total=4)
    start = time.monotonic()
    result = cli("batch", games, "--jobs", "2", "--timeout", "2", "--chunk-size", "4")
    assert (result.code, result.err) == (1, "")
    check_in_place(result.out, {2: "scoring this line took longer than 2 s"}, 4)
    assert time.monotonic() - start < 60  # the chunk, then the line alone: twice 2 s


class FakeRunner:
    """Runs score_chunk in this process; a piece holding a "deadly" line
    comes back Lost, as when its worker is killed (or, with ``timed_out``,
    runs past the time limit)."""

    def __init__(self, deadly: set[int], timed_out: bool = False, newest_first=False) -> None:
        self.deadly, self.timed_out = deadly, timed_out
        self.newest_first = newest_first  # the last task submitted is done first
        self.queue: list = []
        self.sizes: list[int] = []

    def submit(self, key, function, *args, first):
        self.queue.insert(0, (key, args)) if first else self.queue.append((key, args))

    def next_result(self):
        key, (piece, options) = self.queue.pop(-1 if self.newest_first else 0)
        self.sizes.append(len(piece))
        if any(number in self.deadly for number, _ in piece):
            return key, Lost("ended its worker process (killed by SIGKILL)", self.timed_out)
        return key, score_chunk(piece, options)


@pytest.mark.slow
@pytest.mark.parametrize("timed_out", [False, True])
def test_a_lost_chunk_is_split_down_to_the_line_at_fault(tmp_path, timed_out):
    lines = list(enumerate(good_lines(250), start=1))
    pieces = [lines[start : start + 100] for start in range(0, 250, 100)]
    runner = FakeRunner({5, 137}, timed_out)
    options = BatchOptions("g", None, str(tmp_path))
    results = list(_in_order(runner, pieces, options, window=2))
    text = "".join(text for text, _, _ in results)
    bad = {n: f"line {n}: scoring this line ended its worker process" for n in (5, 137)}
    check_in_place(text, bad, 250)
    assert [failed for _, failed, _ in results] == [1, 1, 0]
    if timed_out:  # straight to single lines: the time limit is not paid again and again
        assert runner.sizes.count(1) == 200
    else:  # tenths, then single lines: far fewer groundings than line by line
        assert runner.sizes.count(1) == 20 and runner.sizes.count(10) == 20


def test_chunks_done_out_of_order_never_end_the_run_early(tmp_path):
    """Every chunk in flight done at once (the first one last) must not end
    the run after those chunks, with status 1 and no word."""
    lines = list(enumerate(good_lines(50), start=1))
    pieces = [lines[start : start + 5] for start in range(0, 50, 5)]
    runner = FakeRunner(set(), newest_first=True)
    results = list(_in_order(runner, pieces, BatchOptions("g", None, str(tmp_path)), window=2))
    check_in_place("".join(text for text, _, _ in results), {}, 50)


def children_of(pid: int) -> set[int]:
    """Live processes whose parent is ``pid`` (from /proc, no psutil)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(entry))
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running after a grace moment (the resource
    tracker leaves when its last pipe closes)."""
    deadline = time.monotonic() + 3
    while True:
        running = {pid for pid in pids if _state(pid) not in ("", "Z")}
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.1)


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat[stat.rindex(")") + 2]


def start_batch(tmp_path: Path, count: int, *extra: str) -> tuple[subprocess.Popen, Path]:
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(good_lines(count)) + "\n")
    out = tmp_path / "out.jsonl"
    command = [sys.executable, "-m", "evlogic", "batch", str(games), "-o", str(out), *extra]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60  # until lines reach the file that becomes out.jsonl
    while not any(part.stat().st_size for part in tmp_path.glob(".out.jsonl.*.tmp")):
        if time.monotonic() > deadline or process.poll() is not None:
            break
        time.sleep(0.05)
    return process, out


def whole_lines(out: Path) -> list[int]:
    text = out.read_text()
    assert text == "" or text.endswith("\n")
    numbers = [json.loads(line)["line"] for line in text.splitlines()]
    assert numbers == list(range(1, len(numbers) + 1))
    return numbers


@pytest.mark.slow
def test_a_killed_worker_is_replaced_and_nothing_is_lost(tmp_path):
    process, out = start_batch(tmp_path, 6000, "--jobs", "2", "--chunk-size", "200")
    workers = [pid for pid in children_of(process.pid) if b"resource_tracker" not in _cmdline(pid)]
    assert workers, "no worker process found"
    os.kill(workers[0], signal.SIGKILL)
    _, err = process.communicate(timeout=300)
    assert (process.returncode, err) == (0, "")
    assert whole_lines(out) == list(range(1, 6001))


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.mark.parametrize(
    ("signum", "status", "message"),
    [
        (signal.SIGTERM, 143, "evlogic: terminated\n"),
        (signal.SIGINT, 130, "evlogic: interrupted\n"),
    ],
)
def test_a_signal_ends_workers_and_keeps_whole_lines(tmp_path, signum, status, message):
    process, out = start_batch(tmp_path, 20000, "--jobs", "2", "--chunk-size", "200")
    children = children_of(process.pid)
    assert len(children) >= 2  # the workers (and the resource tracker)
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)  # the status says the signal ended it
    assert (process.returncode, err) == (status, message)
    assert alive(children) == set()
    assert 0 < len(whole_lines(out)) < 20000


def test_workers_whose_parent_is_killed_exit(tmp_path):
    """The CLI forks its workers: each lets go of the parent's ends of the
    pipes it inherited, so none is kept waiting when the parent is gone."""
    process, _ = start_batch(tmp_path, 20000, "--jobs", "2", "--chunk-size", "200")
    workers = children_of(process.pid)
    assert len(workers) >= 2
    assert not any(b"spawn_main" in _cmdline(pid) for pid in workers)  # forked
    process.kill()
    process.communicate(timeout=30)
    assert alive(workers) == set()


# --- the output must not be the input ---------------------------------------


@pytest.mark.parametrize("link", ["same", "symlink", "hardlink"])
def test_output_that_is_the_input_is_refused_before_anything_is_written(tmp_path, link):
    games = tmp_path / "games.jsonl"
    content = "\n".join(good_lines(3)) + "\n"
    games.write_text(content)
    out = tmp_path / "out.jsonl"
    if link == "same":
        out = games
    elif link == "symlink":
        out.symlink_to(games)
    else:
        os.link(games, out)
    result = run_subprocess("batch", games, "-o", out, "--jobs", "1")
    assert result.code == 2
    assert result.err == (
        f"evlogic: error: {out}: is the input file (or a link to it): "
        "batch would overwrite what it reads\n"
    )
    assert games.read_text() == content


def test_standard_output_appending_to_the_input_is_refused(tmp_path):
    games = tmp_path / "games.jsonl"
    content = "\n".join(good_lines(2)) + "\n"
    games.write_text(content)
    command = [sys.executable, "-m", "evlogic", "batch", str(games), "--jobs", "1"]
    with games.open("a") as append:
        done = subprocess.run(command, stdout=append, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "standard output: is the input file" in done.stderr
    assert games.read_text() == content


# --- paths in lines stay in the input's folder -----------------------------


def test_a_line_s_board_and_rules_stay_in_the_input_s_folder(cli, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    outside = tmp_path / "secret.yaml"
    outside.write_text("top secret first line: 1\n")
    (folder / "link.yaml").symlink_to(outside)
    (folder / "usa-copy.yaml").write_text(USA.read_text())
    (folder / "sub").mkdir()
    (folder / "sub" / "ok.yaml").write_text("name: ok\nextends: standard\n")
    bad = {
        1: one_player("/etc/passwd"),
        2: one_player("../secret.yaml"),
        3: one_player("link.yaml"),
        4: one_player("usa", rules=str(outside)),
        5: one_player("usa", rules={"extends": "../secret.yaml"}),
        6: one_player("usa", rules={"extends": "standard", "programs": ["/etc/passwd"]}),
        7: one_player("~/x.yaml"),
    }
    good = {
        8: one_player("usa-copy.yaml"),
        9: one_player("sub/../usa-copy.yaml", rules="sub/ok.yaml"),
        10: one_player(str(REPO / "maps" / "usa.yaml")),  # a bundled board, by path
    }
    games = folder / "games.jsonl"
    games.write_text("\n".join({**bad, **good}[n] for n in range(1, 11)) + "\n")
    result = cli("batch", games, "--jobs", "1")
    assert (result.code, result.err) == (1, "")
    phrase = "is outside the input's folder"
    reports = check_in_place(result.out, dict.fromkeys(bad, phrase), 10)
    fields = [r["error"].split(": ")[2] for r in reports[:7]]
    assert fields == ["board"] * 3 + ["rules", "rules.extends", "rules.programs[0]", "board"]
    assert not any("secret first line" in r.get("error", "") for r in reports)
    assert not any("root:" in r.get("error", "") for r in reports)


def test_the_user_s_own_board_option_may_be_anywhere(cli, tmp_path):
    (tmp_path / "elsewhere").mkdir()
    board = tmp_path / "elsewhere" / "board.yaml"
    board.write_text(USA.read_text())
    (tmp_path / "in").mkdir()
    games = tmp_path / "in" / "games.jsonl"
    games.write_text(json.dumps({"players": [{"name": "A", "home": "KY"}]}) + "\n")
    result = cli("batch", games, "--board", board, "--jobs", "1")
    assert result.code == 0, result.out
    assert json.loads(result.out)["players"][0]["home"] == "KY"


# --- bad options: one line, exit 2 -------------------------------------------


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--dask", "not a url"], "--dask: 'not a url' is not a scheduler address"),
        (["--memory-limit", "10"], "--memory-limit: must be between 256 and"),
        (["--timeout", "0"], "--timeout: must be a number of seconds above 0"),
        (["--timeout", "nan"], "--timeout: must be a number of seconds above 0"),
        (["--timeout", "1e17"], "--timeout: must be a number of seconds above 0"),
        (["--chunk-size", "0"], "--chunk-size: must be between 1 and"),
    ],
)
def test_bad_batch_options_are_one_line(tmp_path, option, message):
    if option[0] == "--dask":
        pytest.importorskip("distributed")
    games = tmp_path / "games.jsonl"
    games.write_text(good_lines(1)[0] + "\n")
    result = run_subprocess("batch", games, *option)
    assert result.code == 2 and result.out == ""
    assert result.err.startswith(f"evlogic: error: {message}")
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


# --- the worker pool itself ---------------------------------------------------


def task(kind: str) -> str:
    """Runs in a worker: "die" kills its own process, "sleep" overruns."""
    if kind == "die":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "sleep":
        time.sleep(60)
    return f"{kind} done in {os.getpid()}"


@pytest.mark.slow
def test_workers_know_which_task_a_dead_or_slow_worker_held():
    kinds = ["ok", "die", "ok", "sleep", "ok", "die", "ok", "ok"]
    with Workers(2, tasks_per_worker=2, timeout=3, death_note="; a note") as workers:
        for key, kind in enumerate(kinds):
            workers.submit(key, task, kind)
        results = dict(workers.next_result() for _ in kinds)
        with pytest.raises(LookupError):
            workers.next_result()  # nothing is left: never a wait without end
    assert results[1] == results[5] == Lost("ended its worker process (killed by SIGKILL; a note)")
    assert results[3] == Lost("took longer than 3 s", timed_out=True)
    done = [results[key] for key, kind in enumerate(kinds) if kind == "ok"]
    assert all(result.startswith("ok done in ") for result in done)
    assert len({result.split()[-1] for result in done}) >= 3  # workers were replaced


PARENT_STATE: list[str] = []


def parent_state() -> list[str]:
    """Runs in a worker: what it sees of the parent's module state (a forked
    worker inherits it, a spawned one imports this module anew)."""
    return list(PARENT_STATE)


def test_workers_fork_in_one_thread_and_spawn_beside_threads():
    PARENT_STATE.append("set in the parent")
    try:
        if threading.active_count() == 1:
            with Workers(1) as workers:
                workers.submit("forked", parent_state)
                assert workers.next_result() == ("forked", ["set in the parent"])
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait)
        thread.start()
        try:
            with Workers(1) as workers:
                workers.submit("spawned", parent_state)
                assert workers.next_result() == ("spawned", [])
        finally:
            stop.set()
            thread.join()
    finally:
        PARENT_STATE.clear()


def die_at_start() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_workers_that_cannot_start_end_the_run_instead_of_looping():
    with Workers(2, die_at_start) as workers:
        workers.submit(0, task, "ok")
        with pytest.raises(WorkersFailed, match="end as they start"):
            workers.next_result()


# --- a key given twice ----------------------------------------------------------


def readable_rules(folder: Path) -> str:
    """A rule set with a program of its own: batch scores it by the readable rules."""
    (folder / "none.lp").write_text("% nothing: the readable path\n")
    (folder / "readable.yaml").write_text(
        "name: readable\nextends: standard\nprograms: [none.lp]\n"
    )
    return str(folder / "readable.yaml")


@pytest.mark.slow
def test_a_key_given_twice_is_that_line_s_error_on_either_path(cli, tmp_path):
    """json keeps the last of two equal keys: a second "players" (or a
    player's second "home") would be scored silently, on the last one."""
    game = json.loads(good_lines(1)[0])
    first, second = game["players"]
    players = json.dumps(game["players"])
    twice = json.dumps({**game, "players": [second, first]})[:-1] + f', "players": {players}}}'
    home = json.dumps({**game, "players": [first, second]}).replace(
        '"home": ', '"home": "CA", "home": ', 1
    )
    colon = json.dumps({**game, "players": [{**first, "name": "a: b"}, second]})
    rules = json.dumps({**game, "rules": {"extends": "standard"}})
    rules = rules.replace('"extends"', '"tiers": {}, "tiers": {}, "extends"')
    bad = {
        2: "duplicate key 'players'",
        5: "players[0]: duplicate key 'home'",
        7: "rules: duplicate key 'tiers'",
    }
    games = with_bad(tmp_path, {2: twice, 5: home, 6: colon, 7: rules})

    def check(*options: str) -> None:
        result = cli("batch", games, "--chunk-size", "3", *options)
        assert (result.code, result.err) == (1, "")
        reports = check_in_place(result.out, bad, 7)
        assert reports[1]["error"] == (
            f"{games}: line 2: duplicate key 'players' (JSON would keep the last one)"
        )
        assert reports[5]["players"][0]["name"] == "a: b"  # a colon in a name is no key

    for rules in ([], ["--rules", readable_rules(tmp_path)]):
        for jobs in ("1", "2"):
            check("--jobs", jobs, *rules)
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        check("--dask", cluster.scheduler_address)


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("a\tb", "a control character (\\t)"),
        ("a\x00b", "a control character (\\x00)"),
        ("a\u2028b", "a line break (\\u2028)"),
        ("a\ufffeb", "a control character (\\ufffe)"),
    ],
)
def test_a_name_score_refuses_is_refused_by_the_compiled_path_too(cli, tmp_path, name, problem):
    """The compiled path's line reader let a name with a control character
    or a line break through (score, and batch's readable path, refuse it)."""
    game = json.loads(good_lines(1)[0])
    game["players"][1]["name"] = name
    games = with_bad(tmp_path, {2: json.dumps(game)}, total=3)
    outputs = []
    for rules in ([], ["--rules", readable_rules(tmp_path)]):
        result = cli("batch", games, "--jobs", "1", *rules)
        assert (result.code, result.err) == (1, "")
        reports = check_in_place(result.out, {2: "players[1].name: must be a player name"}, 3)
        assert f"not text with {problem}" in reports[1]["error"]
        outputs.append(reports[1])
    assert outputs[0] == outputs[1]


# --- lines as the user wrote them: no key read as another ---------------------


def test_a_lone_carriage_return_is_whitespace_not_the_end_of_a_line(tmp_path):
    """A line is ended by \\n only (JSON reads \\r as whitespace): a lone \\r
    inside a line, or \\r\\r\\n, never splits it or moves the next line's
    number, from a file or from standard input."""
    lines = [one_player("usa").replace('"players"', '\r"players"'), one_player("usa")]
    text = lines[0] + "\r\r\n" + lines[1] + "\r\n"
    games = tmp_path / "cr.jsonl"
    games.write_bytes(text.encode())
    for result in (
        run_subprocess("batch", games),
        run_subprocess("batch", "-", stdin=text),
    ):
        assert (result.code, result.err) == (0, "")
        check_in_place(result.out, {}, 2)


def test_a_board_or_rule_set_given_as_null_or_empty_is_an_error_as_score_says(cli, tmp_path):
    """A line that names no rule set scores by the standard rules, and one
    that gives no board takes --board; a null or empty one is that line's
    error, worded as `score` words it, whatever the lines before it."""
    bad = {
        2: '{"board": "usa", "rules": "", "players": [{"name": "A", "home": "KY"}]}',
        3: '{"board": "usa", "rules": null, "players": [{"name": "A", "home": "KY"}]}',
        5: '{"board": null, "players": [{"name": "A", "home": "KY"}]}',
        6: one_player("usa", rules={"extends": "standard", "game_end": 52}),
    }
    lines = [
        '{"board": "usa", "players": [{"name": "A", "home": "KY"}]}',
        bad[2],
        bad[3],
        '{"players": [{"name": "A", "home": "KY"}]}',  # no board: --board's
        bad[5],
        bad[6],
    ]
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(lines) + "\n")
    for jobs in ("1", "2"):
        result = cli("batch", games, "--board", "usa", "--jobs", jobs, "--chunk-size", "2")
        assert (result.code, result.err) == (1, "")
        phrases = {
            2: "line 2: rules: must be a rule set name or path, not empty",
            3: "line 3: rules: must be a rule set name or path, not nothing",
            5: "line 5: board: must be a board, not nothing",
            6: "line 6: rules.game_end: 52 is more than the 51 states",
        }
        check_in_place(result.out, phrases, 6)
    for number in (2, 3):  # as score says it
        game = tmp_path / f"game{number}.json"
        game.write_text(bad[number])
        score = cli("score", game)
        assert score.code == 2 and phrases[number].split(": ", 1)[1] in score.err


def test_a_wrong_value_in_a_line_is_quoted_as_json_spells_it(cli, tmp_path):
    """JSON keeps no text as written: a value is quoted as JSON (and YAML)
    spell it, `true` and `1.5`, the way `score` quotes a YAML file's."""
    wrong = {"siege_penalty": True, "tiers": {"3": 1.5}}
    games = tmp_path / "games.jsonl"
    games.write_text(
        "\n".join(
            one_player("usa", rules={"extends": "standard", key: value})
            for key, value in wrong.items()
        )
        + "\n"
    )
    result = cli("batch", games)
    errors = [json.loads(line)["error"] for line in result.out.splitlines()]
    assert errors[0].endswith(
        "siege_penalty: must be a whole number of EV, not true/false ('true')"
    )
    assert errors[1].endswith("not a number ('1.5')"), errors[1]
    game = tmp_path / "game.yaml"
    game.write_text(
        "board: usa\nrules: {extends: standard, siege_penalty: true}\n"
        "players: [{name: A, home: KY}]\n"
    )
    assert cli("score", game).err.endswith("not true/false ('true')\n")
