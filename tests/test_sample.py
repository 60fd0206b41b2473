"""`evlogic sample` writes files that `evlogic batch` reads where they are."""

from __future__ import annotations

import json
import shutil

from conftest import REPO


def test_a_board_path_is_written_relative_to_the_output(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub" / "boards").mkdir(parents=True)
    shutil.copy(REPO / "maps" / "usa.yaml", tmp_path / "sub" / "boards" / "mine.yaml")
    written = cli(
        "sample",
        "--board",
        "sub/boards/mine.yaml",
        "--players",
        "2",
        "--count",
        "3",
        "-o",
        "sub/x.jsonl",
    )
    assert written.code == 0, written.err
    lines = [json.loads(line) for line in (tmp_path / "sub" / "x.jsonl").read_text().splitlines()]
    assert {line["board"] for line in lines} == {"boards/mine.yaml"}
    scored = cli("batch", "sub/x.jsonl", "--jobs", "1")
    assert scored.code == 0, scored.out + scored.err
    assert [json.loads(line)["line"] for line in scored.out.splitlines()] == [1, 2, 3]


def test_a_board_outside_the_output_s_folder_is_left_to_batch_board(cli, tmp_path):
    """A batch line's board must stay in the input's folder, so
    for a board elsewhere the lines name none, a note says to give batch
    --board, and so the file works where it is."""
    (tmp_path / "boards").mkdir()
    (tmp_path / "sub").mkdir()
    shutil.copy(REPO / "maps" / "usa.yaml", tmp_path / "boards" / "mine.yaml")
    out = tmp_path / "sub" / "x.jsonl"
    board = tmp_path / "boards" / "mine.yaml"
    written = cli("sample", "--board", board, "--players", "2", "--count", "2", "-o", out)
    assert written.code == 0, written.err
    assert "batch --board" in written.err and len(written.err.splitlines()) == 1
    assert all("board" not in json.loads(line) for line in out.read_text().splitlines())
    scored = cli("batch", out, "--board", board, "--jobs", "1")
    assert scored.code == 0, scored.out
    assert [json.loads(line)["line"] for line in scored.out.splitlines()] == [1, 2]


def test_the_board_defaults_to_usa_and_a_name_stays_a_name(cli):
    written = cli("sample", "--players", "3", "--count", "2")
    assert written.code == 0, written.err
    assert {json.loads(line)["board"] for line in written.out.splitlines()} == {"usa"}
