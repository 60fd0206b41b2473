"""Only positions that can happen: "the game ends immediately when the 36th
state is won", so no position has more states won (homes included) than its
game end.  score, explain, diagram, batch (both encodings) and the Python
and web APIs refuse a position past it in one line naming where the game
end was set."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import yaml
from starlette.testclient import TestClient

import evlogic.asp.compiled
from evlogic.asp.engine import score_game
from evlogic.batch.runner import BatchOptions, run_batch
from evlogic.errors import InputError
from evlogic.loading.boards import load_board
from evlogic.loading.games import load_game
from evlogic.reports.explain import explain_game
from evlogic.resources import bundled_boards
from evlogic.web.app import create_app
from evlogic.web.service import Catalog

#: An 8-state board whose game ends at 6.
EIGHT = {
    "name": "eight",
    "game_end": 6,
    "states": {
        "A": {"ev": 3, "neighbors": ["B", "C"]},
        "B": {"ev": 4, "neighbors": ["A", "C", "D"]},
        "C": {"ev": 5, "neighbors": ["A", "B", "D", "E"]},
        "D": {"ev": 2, "neighbors": ["B", "C", "F"]},
        "E": {"ev": 6, "neighbors": ["C", "F", "G"]},
        "F": {"ev": 1, "neighbors": ["D", "E", "H"]},
        "G": {"ev": 7, "neighbors": ["E", "H"]},
        "H": {"ev": 8, "neighbors": ["F", "G"]},
    },
}


# --- every entry point refuses a position past the game end ---------------------

#: Player P1 holds 6 states besides its home, P2 its home: 8 of 6 won.
PAST = [
    {"name": "P1", "home": "A", "states": ["C", "D", "E", "F", "G", "H"]},
    {"name": "P2", "home": "B", "states": []},
]
REFUSAL = "8 states won (homes included), but the game ends when state 6 is won"


def one_line(result) -> str:
    assert result.code == 2, result.out + result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err
    return lines[0]


@pytest.fixture
def past_game(tmp_path: Path) -> Path:
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(EIGHT, sort_keys=False))
    path = tmp_path / "game.yaml"
    path.write_text(yaml.safe_dump({"board": "board.yaml", "players": PAST}, sort_keys=False))
    return path


def test_score_explain_and_diagram_refuse_naming_the_boards_game_end(cli, past_game):
    board_line = (past_game.parent / "board.yaml").read_text().splitlines().index("game_end: 6")
    board_file = past_game.parent / "board.yaml"
    where = f"set by game_end of board 'eight' ({board_file}, line {board_line + 1})"
    for args in (
        ("score", str(past_game)),
        ("explain", str(past_game), "--player", "P1"),
        ("diagram", str(past_game), "--player", "P1", "-o", str(past_game.parent / "d.svg")),
    ):
        message = one_line(cli(*args))
        assert f"{past_game}: players: {REFUSAL}" in message, message
        assert where in message, message
    assert not (past_game.parent / "d.svg").exists()


def test_score_names_the_rule_sets_game_end_inline_and_in_a_file(cli, tmp_path):
    board = {**EIGHT, "game_end": 8}
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board, sort_keys=False))
    inline = tmp_path / "inline.yaml"
    inline.write_text(
        "board: board.yaml\nrules:\n  extends: standard\n  game_end: 6\n"
        + yaml.safe_dump({"players": PAST}, sort_keys=False)
    )
    message = one_line(cli("score", str(inline)))
    assert REFUSAL in message and f"set by rules.game_end of {inline}, line 4" in message
    (tmp_path / "six.yaml").write_text("name: six\nextends: standard\ngame_end: 6\n")
    (tmp_path / "child.yaml").write_text("name: child\nextends: six.yaml\nsiege_penalty: 5\n")
    game = tmp_path / "game.yaml"
    game.write_text(yaml.safe_dump({"board": "board.yaml", "players": PAST}, sort_keys=False))
    message = one_line(cli("score", str(game), "--rules", str(tmp_path / "child.yaml")))
    assert REFUSAL in message and f"game_end of {tmp_path / 'six.yaml'}, line 3" in message


def test_score_names_the_default_game_end_of_a_board_without_one(cli, tmp_path):
    board = {key: value for key, value in EIGHT.items() if key != "game_end"}
    board["states"] = {f"S{i}": {"ev": 1} for i in range(40)}
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(board))
    players = [{"name": "P1", "home": "S0", "states": [f"S{i}" for i in range(1, 37)]}]
    game = tmp_path / "game.yaml"
    game.write_text(yaml.safe_dump({"board": "board.yaml", "players": players}))
    message = one_line(cli("score", str(game)))
    assert "37 states won (homes included), but the game ends when state 36 is won" in message
    assert (
        f"(set by the default of board 'eight' ({tmp_path / 'board.yaml'} sets no game_end: "
        "36 states, or all of them when fewer)): no position has more"
    ) in message
    players[0]["states"].pop()  # 36 states won: the final position
    game.write_text(yaml.safe_dump({"board": "board.yaml", "players": players}))
    assert cli("score", str(game), "--format", "json").json()["final"] is True


def test_the_python_api_refuses_it(past_game):
    game = load_game(past_game)
    with pytest.raises(InputError, match=re.escape(REFUSAL)):
        score_game(game)
    with pytest.raises(InputError, match=re.escape(REFUSAL)):
        explain_game(game, "P1")


def test_the_web_api_refuses_it_with_the_same_line():
    catalog = Catalog.build()
    client = TestClient(create_app(catalog))
    usa = load_board(bundled_boards()["usa"])
    ids = sorted(usa.states)
    players = [{"name": "P1", "home": ids[0], "states": ids[1:37]}]  # 37 of 36
    for path, body in (
        ("/api/score", {"board": "usa", "players": players}),
        ("/api/explain", {"board": "usa", "players": players, "player": "P1"}),
    ):
        answer = client.post(path, json=body)
        assert answer.status_code == 400, answer.text
        message = answer.json()["error"]
        assert "37 states won (homes included), but the game ends when state 36 is won" in message
        # the server names bundled boards by name, never by path
        assert "(set by game_end of board 'United States (2024 electors)' (usa, line " in message


def batch_output(lines: list[str], base: Path) -> list[dict]:
    out = io.StringIO()
    run_batch(lines, out, BatchOptions("in.jsonl", None, str(base)), chunk_size=3)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_batch_refuses_the_same_lines_in_both_encodings_as_score(tmp_path, monkeypatch):
    (tmp_path / "board.yaml").write_text(yaml.safe_dump(EIGHT, sort_keys=False))
    six = [{"name": "P1", "home": "A", "states": ["C", "D", "E", "F"]}, {"name": "P2", "home": "B"}]
    lines = [
        json.dumps({"board": "board.yaml", "players": six}),
        json.dumps({"board": "board.yaml", "players": PAST}),
        json.dumps(
            {"board": "board.yaml", "rules": {"extends": "standard", "game_end": 5}, "players": six}
        ),
        json.dumps({"board": "board.yaml", "players": six}),
    ]
    compiled = batch_output(lines, tmp_path)
    monkeypatch.setattr(evlogic.asp.compiled, "applies", lambda _board, _rules: False)
    readable = batch_output(lines, tmp_path)
    assert compiled == readable
    assert [("error" in line) for line in compiled] == [False, True, True, False]
    board_path = tmp_path / "board.yaml"
    assert compiled[1]["error"] == (
        f"in.jsonl: line 2: players: {REFUSAL} (set by game_end of board 'eight' "
        f"({board_path}, line 2)): no position has more states won than that"
    )
    assert compiled[2]["error"].startswith(
        "in.jsonl: line 3: players: 6 states won (homes included), but the game ends when "
        "state 5 is won (set by rules.game_end of in.jsonl, line 3)"
    )
    assert compiled[0]["final"] is True and compiled[0]["states_won"] == 6
    # score says the same of each line, in its own words for its file
    for number, line in enumerate(lines, start=1):
        game_file = tmp_path / f"line{number}.yaml"
        game_file.write_text(yaml.safe_dump(json.loads(line)))
        game = load_game(game_file)
        if "error" in compiled[number - 1]:
            with pytest.raises(InputError, match="but the game ends when state"):
                score_game(game)
        else:
            assert {"line": number, **score_game(game).to_dict()} == compiled[number - 1]
