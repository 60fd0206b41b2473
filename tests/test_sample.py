"""`evlogic sample` writes files that `evlogic batch` reads where they are."""

from __future__ import annotations

import json
import shutil

from conftest import REPO


def test_a_board_path_is_written_relative_to_the_output(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "boards").mkdir()
    (tmp_path / "sub").mkdir()
    shutil.copy(REPO / "maps" / "usa.yaml", tmp_path / "boards" / "mine.yaml")
    written = cli(
        "sample",
        "--board",
        "boards/mine.yaml",
        "--players",
        "2",
        "--count",
        "3",
        "-o",
        "sub/x.jsonl",
    )
    assert written.code == 0, written.err
    lines = [json.loads(line) for line in (tmp_path / "sub" / "x.jsonl").read_text().splitlines()]
    assert {line["board"] for line in lines} == {"../boards/mine.yaml"}
    scored = cli("batch", "sub/x.jsonl", "--jobs", "1")
    assert scored.code == 0, scored.out + scored.err
    assert [json.loads(line)["line"] for line in scored.out.splitlines()] == [1, 2, 3]


def test_the_board_defaults_to_usa_and_a_name_stays_a_name(cli):
    written = cli("sample", "--players", "3", "--count", "2")
    assert written.code == 0, written.err
    assert {json.loads(line)["board"] for line in written.out.splitlines()} == {"usa"}
