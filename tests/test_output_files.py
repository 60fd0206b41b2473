"""-o files are written whole or not at all (batch, sample, diagram).

A disk that fills up is played by a file size limit (RLIMIT_FSIZE): past
it a write fails as on a full disk ("File too large" instead of "No space
left on device"), which Python reports instead of dying of SIGXFSZ.
"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import RULEBOOK

FULL_EXAMPLE = RULEBOOK / "full-example.yaml"
OLD = "what was there before\n"


def evlogic(*args: object, cwd: Path, fsize: int | None = None) -> subprocess.CompletedProcess:
    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [sys.executable, "-m", "evlogic", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=limit,
        timeout=300,
    )


def sample_file(folder: Path, count: int) -> Path:
    path = folder / "games.jsonl"
    done = evlogic("sample", "--players", "4", "--count", count, "-o", path, cwd=folder)
    assert done.returncode == 0, done.stderr
    return path


COMMANDS = {
    "batch": lambda folder: ["batch", sample_file(folder, 400), "--jobs", "1", "-o", "out.jsonl"],
    "sample": lambda folder: ["sample", "--players", "4", "--count", "400", "-o", "out.jsonl"],
    "diagram": lambda folder: ["diagram", FULL_EXAMPLE, "--player", "You", "-o", "out.svg"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_full_disk_leaves_the_output_as_it_was(tmp_path, command):
    arguments = COMMANDS[command](tmp_path)
    target = tmp_path / arguments[-1]
    target.write_text(OLD)
    before = sorted(os.listdir(tmp_path))
    done = evlogic(*arguments, cwd=tmp_path, fsize=4096)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"evlogic: error: {target.name}: cannot write: File too large\n"
    assert target.read_text() == OLD
    assert sorted(os.listdir(tmp_path)) == before  # no temporary file left


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_full_disk_leaves_no_output_where_there_was_none(tmp_path, command):
    arguments = COMMANDS[command](tmp_path)
    before = sorted(os.listdir(tmp_path))
    done = evlogic(*arguments, cwd=tmp_path, fsize=4096)
    assert done.returncode == 2, done.stderr
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_written_output_replaces_the_file_keeping_its_mode_and_links(tmp_path, command):
    arguments = COMMANDS[command](tmp_path)
    real = tmp_path / "real" / arguments[-1]
    real.parent.mkdir()
    real.write_text(OLD)
    real.chmod(0o640)
    (tmp_path / arguments[-1]).symlink_to(real)
    done = evlogic(*arguments, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / arguments[-1]).is_symlink()
    written = real.read_text()
    assert written.endswith("</svg>\n" if command == "diagram" else "}\n"), written[-50:]
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(os.listdir(real.parent)) == [real.name]


def test_a_new_output_gets_the_mode_of_a_new_file(tmp_path):
    done = evlogic("sample", "--players", "2", "--count", "3", "-o", "new.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) == 0o666 & ~umask
    assert len((tmp_path / "new.jsonl").read_text().splitlines()) == 3


def test_an_output_in_a_folder_that_cannot_be_written_is_one_line(tmp_path):
    done = evlogic(
        "sample", "--players", "2", "--count", "3", "-o", "no/such/x.jsonl", cwd=tmp_path
    )
    assert done.returncode == 2
    assert done.stderr == (
        "evlogic: error: no/such/x.jsonl: cannot write: No such file or directory\n"
    )
