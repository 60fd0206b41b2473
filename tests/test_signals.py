"""SIGTERM stops every command that writes files as Ctrl-C does: exit 143,
"evlogic: terminated", no output and no temporary file left, and no worker
process alive a second after its parent ends (evlogic.signals).

Each command is stopped mid-run: once it writes (its temporary file beside
the target has appeared), once its worker processes run, or once the
command runs in its worker thread (a second thread in /proc: imports and
argument parsing are over)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO

LAKELAND = str(REPO / "examples" / "lakeland" / "board.yaml")
USA = str(REPO / "maps" / "usa.yaml")
SPACE = str(REPO / "examples" / "tune" / "lakeland-space.yaml")


def children_of(pid: int) -> set[int]:
    """Live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat and int(stat[1]) == pid and stat[0] != "Z":
                found.add(int(entry))
    return found


def _stat(pid: int) -> list[str]:
    """/proc/PID/stat's fields from the state on ([] when it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return []
    return text[text.rindex(")") + 2 :].split()


def running(pids: set[int]) -> set[int]:
    return {pid for pid in pids if _stat(pid) and _stat(pid)[0] != "Z"}


def threads(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    return int(next(line.split()[1] for line in status.splitlines() if line[:8] == "Threads:"))


def writing(folder: Path) -> Callable[[int], bool]:
    """Begun: a temporary file is being written in ``folder``."""
    return lambda pid: any(p.name.endswith(".tmp") for p in folder.iterdir())


def working(pid: int) -> bool:
    """Begun: worker processes run."""
    return len(children_of(pid)) >= 2


def in_its_thread(pid: int) -> bool:
    """Begun: the command runs in its worker thread (evlogic.limits.call_before)."""
    return threads(pid) >= 2


def start(folder: Path, args: list[str], begun: Callable[[int], bool]) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "evlogic", *args],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not begun(process.pid):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the command never began"
        time.sleep(0.02)
    return process


def terminate(process: subprocess.Popen) -> tuple[str, str]:
    """SIGTERM, then: its exit status is 143 and no child outlives it by a second."""
    children = children_of(process.pid)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    time.sleep(1)
    assert running(children) == set()
    assert (process.returncode, err) == (143, "evlogic: terminated\n")
    return out, err


#: Commands that write as they go: stopped once their temporary file is there.
WRITING = {
    "balance": ["balance", "--games", "100000", "--games-out", "games.jsonl"],
    "balance --jobs 2": [
        "balance",
        "--board",
        LAKELAND,
        "--games",
        "100000",
        "--jobs",
        "2",
        "--games-out",
        "games.jsonl",
        "--report",
        "report.html",
    ],
    "sample": ["sample", "--players", "4", "--count", "10000000", "-o", "games.jsonl"],
}


@pytest.mark.parametrize("command", sorted(WRITING))
def test_sigterm_while_writing_leaves_nothing(tmp_path, command):
    process = start(tmp_path, WRITING[command], writing(tmp_path))
    out, _ = terminate(process)
    assert out == ""
    assert list(tmp_path.iterdir()) == []


#: Commands that write at the end: stopped while they work.
WORKING = {
    "layout -o": (["layout", USA, "-o", "board.yaml"], in_its_thread),
    "rulebook -o": (["rulebook", "-o", "rulebook.html"], in_its_thread),
    "play -o": (["play", "--players", "4", "-o", "game.yaml"], in_its_thread),
    "tune --jobs 2": (
        [
            "tune",
            SPACE,
            "--board",
            LAKELAND,
            "--players",
            "2",
            "--games",
            "100000",
            "--jobs",
            "2",
            "-o",
            "best.yaml",
            "--report",
            "tune.html",
        ],
        working,
    ),
}


@pytest.mark.parametrize("command", sorted(WORKING))
def test_sigterm_while_working_leaves_nothing(tmp_path, command):
    args, begun = WORKING[command]
    process = start(tmp_path, args, begun)
    terminate(process)
    assert list(tmp_path.iterdir()) == []


def test_workers_die_with_a_parent_killed_outright(tmp_path):
    """SIGKILL leaves no handler to end the workers: each dies with its parent."""
    process = start(tmp_path, WRITING["balance --jobs 2"], working)
    children = children_of(process.pid)
    process.kill()
    process.communicate(timeout=60)
    time.sleep(1)
    assert running(children) == set()


def test_an_output_still_being_written_is_removed_when_the_process_must_leave(tmp_path):
    """A signal while a command's worker thread writes: the command line
    leaves at once (evlogic.limits.leave), after removing what it wrote."""
    from evlogic.commands.output_file import open_output, remove_unfinished

    target = tmp_path / "out.txt"
    with pytest.raises(FileNotFoundError), open_output(str(target)) as out:
        out.write("half")
        out.flush()
        assert [p.suffix for p in tmp_path.iterdir()] == [".tmp"]
        remove_unfinished()
        assert list(tmp_path.iterdir()) == []
        out.write(" and the rest")  # the thread finishes: nothing is there to rename
    assert list(tmp_path.iterdir()) == []


def test_a_terminated_swallowed_by_a_finaliser_comes_again():
    """A Terminated raised where it is swallowed (a clingo Control's
    ``__del__``, a callback of clingo's) is raised again within a second,
    and not while the command is stopping on one."""
    from evlogic.signals import Terminated, terminate_raises

    started = time.monotonic()
    with pytest.raises(Terminated), terminate_raises():
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)
        except Terminated:
            pass  # swallowed, as a finaliser swallows it
        while time.monotonic() - started < 10:
            time.sleep(0.01)
    assert time.monotonic() - started < 3
