"""The JSON API of `evlogic serve`, through Starlette's test client: the same
figures as the command line, and every class of bad request refused in the
command line's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from starlette.testclient import TestClient

from conftest import JSON_BODY, LOCAL_URL, RULEBOOK, run_subprocess
from evlogic.drawing.diagram import render_svg
from evlogic.loading.games import load_game
from evlogic.loading.rulesets import load_rule_set
from evlogic.reports.explain import explain_game
from evlogic.reports.score import score_game
from evlogic.web.app import MAX_BODY, create_app
from evlogic.web.service import Catalog

FULL = RULEBOOK / "full-example.yaml"


def rulebook_game() -> dict:
    document = yaml.safe_load(FULL.read_text())
    return {"board": "usa", "players": document["players"]}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.build()


@pytest.fixture(scope="module")
def client(catalog: Catalog) -> TestClient:
    return TestClient(create_app(catalog), base_url=LOCAL_URL)


def one_line_error(response, status: int) -> str:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


# --- the figures are the command line's ----------------------------------------


def test_score_is_the_score_report(client):
    answer = client.post("/api/score", json=rulebook_game())
    assert answer.status_code == 200
    assert answer.json() == score_game(load_game(FULL)).to_dict()
    cli = run_subprocess("score", str(FULL), "--format", "json")
    assert answer.json() == json.loads(cli.out)


@pytest.mark.parametrize(
    ("listed", "core"),
    [(["IN", "WV", "TN"], ["KY", "IN", "WV"]), (["TN", "IN", "WV"], ["KY", "IN", "TN"])],
)
def test_the_request_lists_states_in_the_order_they_were_won(client, listed, core):
    """A tie between cores goes to the one won first: the request's order."""
    game = rulebook_game()
    game["players"][0]["states"] = listed
    for path in ("/api/score", "/api/explain"):
        body = {**game, "player": "You"} if path == "/api/explain" else game
        answer = client.post(path, json=body).json()
        you = answer["players"][0] if path == "/api/score" else answer
        assert you["core"] == core and you["total"] == 39


@pytest.mark.parametrize("rules", ["gentle-siege", "union-cores", "flat-tiers"])
def test_score_under_a_named_rule_set(client, rules):
    answer = client.post("/api/score", json={**rulebook_game(), "rules": rules})
    expected = score_game(load_game(FULL, rules=load_rule_set(rules))).to_dict()
    assert answer.json() == expected


def test_score_under_inline_parameters(client):
    rules = {"name": "steep", "extends": "standard", "siege_penalty": 3, "swing_multiplier": 3}
    answer = client.post("/api/score", json={**rulebook_game(), "rules": rules})
    assert answer.status_code == 200, answer.text
    you = answer.json()["players"][0]
    assert answer.json()["rules"] == "steep"
    assert you["siege_penalty"] == 6 and you["net_bonus"] == 19


def test_score_on_an_inline_board(client):
    board = {
        "name": "triangle",
        "states": {
            "A": {"ev": 3, "neighbors": ["B", "C"]},
            "B": {"ev": 4, "neighbors": ["A", "C"]},
            "C": {"ev": 5, "neighbors": ["A", "B"]},
        },
    }
    game = {"board": board, "players": [{"name": "Solo", "home": "A", "states": ["B", "C"]}]}
    answer = client.post("/api/score", json=game)
    assert answer.status_code == 200, answer.text
    solo = answer.json()["players"][0]
    assert solo["region"] == ["A", "B", "C"] and solo["total"] == 3 + 4 + 5 + 15


def test_explain_is_the_explanation(client):
    answer = client.post("/api/explain", json={**rulebook_game(), "player": "You"})
    assert answer.status_code == 200
    assert answer.json() == explain_game(load_game(FULL), "You").to_dict()
    gains = {entry["state"]: entry["gain"] for entry in answer.json()["what_if"]}
    assert gains["VA"] == 33


def test_diagram_is_the_diagram(client):
    answer = client.post("/api/diagram", json={**rulebook_game(), "player": "You"})
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    game = load_game(FULL)
    assert answer.text == render_svg(explain_game(game, "You"), game.board)


def test_boards_and_rules_are_listed(client):
    boards = client.get("/api/boards").json()
    assert {
        "name": "usa",
        "title": "United States (2024 electors)",
        "states": 51,
        "game_end": 36,
    } in boards
    usa = client.get("/api/boards/usa").json()
    assert usa["states"]["NC"] == {
        "name": usa["states"]["NC"]["name"],
        "ev": 16,
        "swing": True,
        "neighbors": ["GA", "SC", "TN", "VA"],
        "hex": usa["states"]["NC"]["hex"],
    }
    assert all(len(state["hex"]) == 2 for state in usa["states"].values())
    rules = {entry["name"]: entry for entry in client.get("/api/rules").json()}
    assert rules["standard"]["tiers"] == {"3": 15, "4": 25, "5": 35, "6": 45}
    assert rules["gentle-siege"]["siege_penalty"] == 5
    assert client.get("/api/boards/nowhere").status_code == 404


def test_a_game_file_round_trips_through_the_api(client, tmp_path):
    """Download: a game file that `evlogic score` accepts unchanged, with the
    same figures; parse: the same game back."""
    text = client.post("/api/games/yaml", json={"game": rulebook_game()}).text
    (tmp_path / "game.yaml").write_text(text)
    cli = run_subprocess("score", "game.yaml", "--format", "json", cwd=tmp_path)
    assert cli.code == 0, cli.err
    assert json.loads(cli.out) == client.post("/api/score", json=rulebook_game()).json()
    parsed = client.post("/api/games/parse", json={"yaml": text, "filename": "game.yaml"}).json()
    assert parsed["players"] == [
        {"name": p["name"], "home": p["home"], "states": p["states"]}
        for p in rulebook_game()["players"]
    ]


@pytest.mark.parametrize("board_file", ["usa", "europe", "board.txt", "b.yaml", "maps/b.yml"])
def test_a_downloaded_game_refers_to_its_uploaded_board_file(client, tmp_path, board_file):
    """Was silently wrong: board_file "usa" was written as `board: usa`, which
    score reads as the bundled board, not the uploaded one (here Kentucky
    is worth 80); "europe" or "board.txt" as a bundled board that is not
    there.  The download must score as the API scored."""
    upload = (Path(__file__).resolve().parents[1] / "maps" / "usa.yaml").read_text()
    assert "name: Kentucky, ev: 8," in upload
    upload = upload.replace("name: Kentucky, ev: 8,", "name: Kentucky, ev: 80,")
    board = client.post("/api/boards/parse", json={"yaml": upload, "filename": board_file}).json()
    game = {"board": board["inline"], "players": [{"name": "A", "home": "KY"}]}
    expected = client.post("/api/score", json=game).json()
    text = client.post("/api/games/yaml", json={"game": game, "board_file": board_file}).text
    (tmp_path / "game.yaml").write_text(text)
    (tmp_path / board_file).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / board_file).write_text(upload)
    cli = run_subprocess("score", "game.yaml", "--format", "json", cwd=tmp_path)
    assert cli.code == 0, cli.err
    assert json.loads(cli.out)["players"] == expected["players"]


# --- bad requests ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("board_file", "wording"),
    [
        (5, "must be a file name, not a number"),
        (["b.yaml"], "must be a file name, not a list"),
        ({"name": "b.yaml"}, "must be a file name, not a mapping"),
        (None, "must be a file name, not nothing"),
        ("", "must be a file name, not empty"),
    ],
)
def test_a_board_file_that_is_not_text_is_refused_whatever_the_board(client, board_file, wording):
    """board_file is checked beside a named board as beside an inline one: a
    number (or a list, or null) is refused, not silently dropped."""
    inline = client.get("/api/boards/usa").json()["inline"]
    for board in ("usa", inline):
        body = {"game": {**rulebook_game(), "board": board}, "board_file": board_file}
        message = one_line_error(client.post("/api/games/yaml", json=body), 400)
        assert message == f"request: board_file: {wording}"
    body = {"game": {**rulebook_game(), "board": inline}, "board_file": "b.yaml"}
    assert yaml.safe_load(client.post("/api/games/yaml", json=body).text)["board"] == "b.yaml"


@pytest.mark.parametrize(
    ("body", "wording"),
    [
        (b"{not json", "request: invalid JSON: Expecting property name"),
        (b"[1, 2]", "request: must be a game mapping, not a list"),
        (b"\xff\xfe", "request: not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "request: invalid JSON: nests too deeply"),
        (b'{"board": "usa", "players": 1' + b"0" * 5000 + b"}", "request: invalid JSON:"),
        (  # json keeps the last: a second "players" would replace the first, silently
            b'{"board": "usa", "players": [{"name": "a", "home": "KY"}],'
            b' "players": [{"name": "b", "home": "CA"}]}',
            "request: duplicate key 'players'",
        ),
        (
            b'{"board": "usa", "players": [{"name": "a", "home": "KY", "home": "CA"}]}',
            "request: players[0]: duplicate key 'home'",
        ),
    ],
    ids=["syntax", "not-a-mapping", "not-utf8", "deep", "huge-integer", "dup-key", "dup-nested"],
)
def test_bad_json_is_400_in_one_line(client, body, wording):
    answer = client.post("/api/score", content=body, headers=JSON_BODY)
    assert one_line_error(answer, 400).startswith(wording)


def test_an_unknown_state_is_worded_as_on_the_command_line(client, tmp_path):
    game = rulebook_game()
    game["players"][0]["states"] = ["IN", "WVV"]
    message = one_line_error(client.post("/api/score", json=game), 400)
    assert message.startswith("request: players[0].states[1]: unknown state 'WVV'")
    assert "did you mean 'WV'?" in message
    game["players"][0]["states"] = ["IN", "KT"]
    message = one_line_error(client.post("/api/score", json=game), 400)
    assert "unknown state 'KT' (did you mean 'KY' Kentucky, 'KS' Kansas or" in message


@pytest.mark.parametrize(
    "board", ["maps/usa.yaml", "/etc/passwd", "../maps/usa.yaml", str(RULEBOOK.parent.parent)]
)
def test_a_path_as_board_is_refused(client, board):
    message = one_line_error(
        client.post("/api/score", json={**rulebook_game(), "board": board}), 400
    )
    assert message.startswith("request: board: no board")
    assert "cannot name a file" in message


@pytest.mark.parametrize(
    "rules",
    [
        "rules/standard.yaml",
        "/etc/passwd",
        {"extends": "standard", "programs": ["evil.lp"]},
        {"extends": "rules/standard.yaml"},
    ],
    ids=["path", "absolute-path", "programs", "extends-path"],
)
def test_a_rule_set_that_reaches_a_file_is_refused(client, rules):
    message = one_line_error(
        client.post("/api/score", json={**rulebook_game(), "rules": rules}), 400
    )
    assert message.startswith("request: rules")


def test_an_oversized_body_is_413(client):
    padding = "x" * (MAX_BODY + 1)
    answer = client.post("/api/score", json={**rulebook_game(), "pad": padding})
    assert one_line_error(answer, 413) == f"request: body over {MAX_BODY} bytes"


def test_a_missing_or_unknown_player_to_explain(client):
    missing = one_line_error(client.post("/api/explain", json=rulebook_game()), 400)
    assert missing == "request: missing key 'player' (whose position to explain)"
    undrawn = one_line_error(client.post("/api/diagram", json=rulebook_game()), 400)
    assert undrawn == "request: missing key 'player' (whose region to draw)"
    unknown = client.post("/api/explain", json={**rulebook_game(), "player": "Yuo"})
    assert "did you mean 'You'?" in one_line_error(unknown, 400)


def test_a_request_past_the_time_limit_is_503_and_the_server_goes_on(catalog):
    slow = TestClient(create_app(catalog, request_timeout=0.001), base_url=LOCAL_URL)
    answer = slow.post("/api/explain", json={**rulebook_game(), "player": "You"})
    assert one_line_error(answer, 503).startswith("request: no answer within 0.001 s")
    patient = TestClient(create_app(catalog, request_timeout=30), base_url=LOCAL_URL)
    assert patient.post("/api/score", json=rulebook_game()).status_code == 200


def test_every_answer_says_the_servers_time(client):
    """Server-Timing: app;dur=MS, what bench/bench_serve.py reports."""
    for answer in (
        client.post("/api/score", json=rulebook_game()),
        client.get("/api/boards"),
        client.post("/api/score", content=b"{", headers=JSON_BODY),
        client.get("/api/nothing"),
    ):
        name, _, duration = answer.headers["server-timing"].partition(";dur=")
        assert name == "app" and float(duration) >= 0
    scored = client.post("/api/score", json=rulebook_game()).headers["server-timing"]
    listed = client.get("/api/boards").headers["server-timing"]
    # (scoring goes to a worker and runs clingo: never as quick as a listing)
    assert float(scored.partition("=")[2]) > float(listed.partition("=")[2])


def test_a_broken_board_upload_is_worded_like_a_file(client):
    text = "name: broken\nstates:\n  A: {ev: 3, neighbors: [B]}\n"
    answer = client.post("/api/boards/parse", json={"yaml": text, "filename": "broken.yaml"})
    message = one_line_error(answer, 400)
    assert message.startswith("broken.yaml: line 3: states.A.neighbors[0]:")


def test_the_server_refuses_a_bad_start_up_in_one_line(tmp_path: Path):
    result = run_subprocess("serve", "--board", "nowhere.yaml", cwd=tmp_path)
    assert result.code == 2
    [line] = result.err.splitlines()
    assert line.startswith("evlogic: error: --board: board file 'nowhere.yaml' not found")


def test_a_host_beyond_this_machine_is_warned_about(tmp_path):
    """Any host but loopback prints one warning line before serving."""
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "evlogic", "serve", "--host", "0.0.0.0", "--port", str(port)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stderr.readline()
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert first == (
        "evlogic: warning: serving on 0.0.0.0: anyone on that network can use this server\n"
    )
