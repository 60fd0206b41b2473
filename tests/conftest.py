"""Shared helpers: tiny boards as YAML files, and running the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from evlogic.cli import main

REPO = Path(__file__).resolve().parent.parent
RULEBOOK = REPO / "examples" / "rulebook"

#: A test client's address: the server answers only the names it listens on.
LOCAL_URL = "http://127.0.0.1"

#: The header of a JSON body (the only kind the server takes).
JSON_BODY = {"Content-Type": "application/json"}


@dataclass
class CliResult:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run ``evlogic ARGS`` in-process; returns exit code and output."""

    def run(*args: str) -> CliResult:
        try:
            code = main([str(arg) for arg in args])
        except SystemExit as exit_:  # argparse errors and --help
            code = int(exit_.code or 0)
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run


def run_subprocess(*args: str, cwd: Path | None = None, stdin: str | None = None) -> CliResult:
    """Run ``python -m evlogic ARGS`` as a separate process."""
    done = subprocess.run(
        [sys.executable, "-m", "evlogic", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=stdin,
        timeout=120,
    )
    return CliResult(done.returncode, done.stdout, done.stderr)


def board_dict(
    edges: list[tuple[str, str]],
    ev: dict[str, int] | None = None,
    swing: set[str] = frozenset(),
    states: list[str] | None = None,
    game_end: int | None = None,
) -> dict:
    """A board mapping from an edge list (plus lone states)."""
    names = sorted({*(states or []), *(s for edge in edges for s in edge)})
    neighbors: dict[str, list[str]] = {name: [] for name in names}
    for a, b in edges:
        neighbors[a].append(b)
        neighbors[b].append(a)
    board: dict = {"name": "test board", "states": {}}
    if game_end is not None:
        board["game_end"] = game_end
    for name in names:
        entry: dict = {"ev": (ev or {}).get(name, 1), "neighbors": sorted(neighbors[name])}
        if name in swing:
            entry["swing"] = True
        board["states"][name] = entry
    return board


@pytest.fixture
def write_game(tmp_path: Path) -> Callable[..., Path]:
    """Write a board and a game into tmp_path; returns the game file."""

    def write(board: dict, players: list[dict], name: str = "game.yaml") -> Path:
        (tmp_path / "board.yaml").write_text(yaml.safe_dump(board, sort_keys=False))
        game = {"board": "board.yaml", "players": players}
        path = tmp_path / name
        path.write_text(yaml.safe_dump(game, sort_keys=False, allow_unicode=True))
        return path

    return write


# Two triangles around H and a tail beyond A-B: small enough for the searches
# of check and diff to prove things in a blink.
SEARCH_EDGES = [
    ("H", "A"),
    ("H", "B"),
    ("A", "B"),
    ("B", "C"),
    ("A", "C"),
    ("H", "D"),
    ("D", "E"),
    ("H", "E"),
]


@pytest.fixture
def search_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """board.yaml (SEARCH_EDGES, C worth 5) in tmp_path, the working directory."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(board_dict(SEARCH_EDGES, ev={"C": 5})))
    return path
