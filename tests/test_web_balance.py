"""`POST /api/balance` and the page's Balance panel: a balance run through
the server is the command line's report, its bad input is refused in one
line, its work is bounded (413, 429, 503), and in Chromium the panel runs a
small balance and shows its charts (a screenshot lands in
build/test-artifacts/)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from test_web_browser import server  # noqa: F401 (the fixture: evlogic serve, started once)

from conftest import JSON_BODY, LOCAL_URL, REPO, board_dict, run_subprocess
from evlogic.loading.boards import load_board
from evlogic.pages.balance import balance_page
from evlogic.resources import bundled_boards
from evlogic.web import balance
from evlogic.web.app import create_app
from evlogic.web.service import Catalog
from evlogic.web.workers import Workers

ARTIFACTS = REPO / "build" / "test-artifacts"

SMALL = {
    "board": "usa",
    "rules": ["standard", "gentle-siege"],
    "agents": "greedy,random",
    "players": 2,
    "order": "round-robin",
    "games": 3,
    "seed": 7,
}


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.build()


@pytest.fixture(scope="module")
def client(catalog: Catalog) -> Iterator[TestClient]:
    """One event loop for the module (runs go on between requests), two workers."""
    pool = Workers(catalog, size=2)
    with TestClient(create_app(catalog, workers=pool), base_url=LOCAL_URL) as test_client:
        yield test_client
    pool.close()


def one_line_error(response, status: int) -> str:
    assert response.status_code == status, response.text
    message = response.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


def finished(client: TestClient, run_id: str, seconds: float = 120.0) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        run = client.get(f"/api/balance/{run_id}").json()
        if run["status"] not in ("queued", "running"):
            return run
        assert time.monotonic() < deadline, run
        time.sleep(0.2)


@pytest.mark.exhaustive
def test_a_small_run_is_the_command_lines_report(client):
    started = client.post("/api/balance", json=SMALL)
    assert started.status_code == 202, started.text
    run = started.json()
    assert started.headers["location"] == f"/api/balance/{run['id']}"
    assert run["total"] == 6 and run["rules"] == SMALL["rules"] and run["games"] == 3
    done = finished(client, run["id"])
    assert done["status"] == "done", done
    assert done["done"] == done["total"] == 6
    cli = run_subprocess(
        "balance",
        "--rules",
        "standard",
        "--rules",
        "gentle-siege",
        "--agents",
        "greedy,random",
        "--players",
        "2",
        "--order",
        "round-robin",
        "--games",
        "3",
        "--seed",
        "7",
        "--format",
        "json",
    )
    assert cli.code == 0, cli.err
    assert done["report"] == json.loads(cli.out)
    charts = done["charts"]
    assert [entry["rules"] for entry in charts["rule_sets"]] == SMALL["rules"]
    for chart in (
        charts["seats"],
        charts["totals"],
        *(entry[kind] for entry in charts["rule_sets"] for kind in ("homes", "turns")),
    ):
        assert chart["svg"].startswith("<svg") and chart["title"] and chart["description"]
    page = client.get(done["page"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    usa = load_board(bundled_boards()["usa"], "usa")
    assert page.text == balance_page(done["report"], usa)  # the page --report writes


@pytest.mark.parametrize(
    ("body", "wording"),
    [
        ({"games": 3}, "request: missing key 'board'"),
        ({"board": "usa"}, "request: missing key 'games'"),
        ({**SMALL, "rounds": 2}, "request: unknown key 'rounds'"),
        ({**SMALL, "games": 0}, "request: games: must be a number of games between 1"),
        ({**SMALL, "games": "ten"}, "request: games: must be a number of games, not text"),
        ({**SMALL, "rules": []}, "request: rules: must name at least one rule set"),
        ({**SMALL, "rules": "standard"}, "request: rules: must be a list of rule sets"),
        ({**SMALL, "rules": ["standrd"]}, "request: rules[0]: no rule set 'standrd'"),
        (
            {**SMALL, "rules": ["standard", "standard"]},
            "request: rules[1]: two rule sets named 'standard'",
        ),
        ({**SMALL, "agents": "greedy,clever"}, "request: agents: unknown agent 'clever'"),
        ({**SMALL, "agents": "rules/agents/greedy.lp"}, "a request cannot name a file"),
        ({**SMALL, "agents": "lookahead:9"}, "agents: 'lookahead:9': lookahead's parameter"),
        ({**SMALL, "agents": "greedy,random,face"}, "request: agents: 3 agents for 2 players"),
        ({**SMALL, "players": 11}, "request: players: must be a whole number between 1 and 10"),
        ({**SMALL, "order": "spiral"}, "request: order: must be one of snake, round-robin"),
        ({**SMALL, "board": "maps/usa.yaml"}, "request: board: no board 'maps/usa.yaml'"),
        ({**SMALL, "seed": 1.5}, "request: seed: must be a whole number, not"),
        ({**SMALL, "moves": "markt"}, "request: moves: unknown move model 'markt' (did you mean"),
        ({**SMALL, "moves": "rules/moves/draft.lp"}, "a request cannot name a file"),
    ],
)
def test_bad_input_is_400_in_one_line(client, body, wording):
    assert wording in one_line_error(client.post("/api/balance", json=body), 400)


@pytest.mark.slow
def test_a_run_under_a_move_model_is_the_command_lines_report(client):
    body = {**SMALL, "rules": ["standard"], "games": 2, "moves": "campaign"}
    started = client.post("/api/balance", json=body)
    assert started.status_code == 202, started.text
    done = finished(client, started.json()["id"])
    assert done["status"] == "done", done
    assert done["report"]["moves_model"] == "campaign"
    cli = run_subprocess(
        "balance",
        "--moves",
        "campaign",
        "--agents",
        "greedy,random",
        "--players",
        "2",
        "--order",
        "round-robin",
        "--games",
        "2",
        "--seed",
        "7",
        "--format",
        "json",
    )
    assert cli.code == 0, cli.err
    assert done["report"] == json.loads(cli.out)


def test_a_body_not_sent_as_json_is_415(client):
    answer = client.post("/api/balance", content=json.dumps(SMALL), headers={})
    assert "the body must be JSON" in one_line_error(answer, 415)
    answer = client.post("/api/balance", content=b"{", headers=JSON_BODY)
    assert "invalid JSON" in one_line_error(answer, 400)


def test_more_games_than_the_server_plays_are_413(client):
    answer = client.post("/api/balance", json={**SMALL, "games": balance.MAX_GAMES + 1})
    assert "201 games a rule set: at most 200 through the server" in one_line_error(answer, 413)
    too_many = {**SMALL, "rules": [{"name": f"r{n}", "extends": "standard"} for n in range(7)]}
    assert "7 rule sets: at most 6" in one_line_error(
        client.post("/api/balance", json=too_many), 400
    )


def test_a_dense_board_bounds_the_games(client):
    """40 states all bordering each other: 30,000 a game; 400 games are too many."""
    names = [f"S{n}" for n in range(40)]
    dense = board_dict([(a, b) for i, a in enumerate(names) for b in names[i + 1 :]])
    answer = client.post("/api/balance", json={**SMALL, "board": dense, "games": 200})
    assert "too much work for this server" in one_line_error(answer, 413)


@pytest.mark.slow
def test_a_client_has_one_run_at_a_time_and_may_stop_it(client):
    first = client.post("/api/balance", json={**SMALL, "games": 200})
    assert first.status_code == 202, first.text
    run_id = first.json()["id"]
    second = client.post("/api/balance", json=SMALL)
    assert f"already has a balance run in progress ({run_id})" in one_line_error(second, 429)
    stopped = client.delete(f"/api/balance/{run_id}")
    assert stopped.status_code == 200 and stopped.json()["status"] == "cancelled"
    assert client.get(f"/api/balance/{run_id}").json()["status"] == "cancelled"
    assert "is cancelled: no page yet" in one_line_error(
        client.get(f"/api/balance/{run_id}/page"), 409
    )
    again = client.post("/api/balance", json=SMALL)  # stopped: the next is taken
    assert again.status_code == 202, again.text
    assert finished(client, again.json()["id"])["status"] == "done"


def test_past_the_servers_runs_it_is_503(client, monkeypatch):
    monkeypatch.setattr(balance, "RUNS_PER_CLIENT", 2)
    monkeypatch.setattr(balance, "MAX_RUNS", 1)
    first = client.post("/api/balance", json={**SMALL, "games": 200})
    assert first.status_code == 202, first.text
    try:
        answer = client.post("/api/balance", json=SMALL)
        assert "the server is busy with 1 balance runs" in one_line_error(answer, 503)
    finally:
        client.delete(f"/api/balance/{first.json()['id']}")


def test_an_unknown_run_is_404_and_a_wrong_method_405(client):
    for answer in (
        client.get("/api/balance/0123abcd"),
        client.delete("/api/balance/0123abcd"),
        client.get("/api/balance/0123abcd/page"),
    ):
        assert "no balance run '0123abcd'" in one_line_error(answer, 404)
    assert "method not allowed" in one_line_error(client.put("/api/balance/0123abcd"), 405)
    assert "method not allowed" in one_line_error(client.get("/api/balance"), 405)


# --- the panel, in a browser -------------------------------------------------------------


@pytest.mark.browser
def test_the_panel_runs_a_balance_and_shows_its_charts(server):  # noqa: F811 (the fixture)
    playwright = pytest.importorskip("playwright.sync_api")
    from test_web_browser import CHROMIUM_FLAGS, chromium_path, settle

    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            problems: list[str] = []
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.goto(server)
            settle(page)
            # the form keeps to the server's bounds (200 games): not sent
            page.fill("#balance-games", "500")
            page.click("#balance-run")
            assert page.evaluate("document.getElementById('balance-games').validity.valid") is False
            # a bad agent: the panel says so, in the server's words
            page.fill("#balance-games", "3")
            page.fill("#balance-agents", "greedy,clever")
            page.click("#balance-run")
            alert = page.locator("#balance-error")
            alert.wait_for(state="visible")
            assert "request: agents: unknown agent 'clever'" in (alert.text_content() or "")
            # a small run of two rule sets
            page.check('#balance-rules input[value="gentle-siege"]')
            page.fill("#balance-agents", "greedy,random")
            page.fill("#balance-players", "2")
            page.click("#balance-run")
            page.wait_for_selector(
                '#balance-results figure[data-chart="seats"] svg', timeout=90_000
            )
            assert page.locator("#balance-error").is_hidden()
            status = page.locator("#balance-status").text_content() or ""
            assert status.startswith("Done: 6 games")
            assert page.locator("#balance-results figure").count() == 2 + 2 * 2
            for kind in ("seats", "totals", "homes", "turns"):
                chart = page.locator(f'#balance-results figure[data-chart="{kind}"] svg').first
                chart.scroll_into_view_if_needed()
                box = chart.bounding_box()
                assert box is not None and box["width"] > 300 and box["height"] > 150, kind
            rows = page.locator("#balance-summary tbody tr")
            assert [rows.nth(i).locator("th").text_content() for i in range(2)] == [
                "standard",
                "gentle-siege",
            ]
            homes = page.locator('#balance-results figure[data-chart="homes"] svg').first
            title = homes.locator("title").first.text_content() or ""
            assert title.startswith("Win rate by home under standard")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.locator("#balance").screenshot(path=str(ARTIFACTS / "serve-balance.png"))
            link = page.locator("#balance-results a[download]")
            assert link.get_attribute("href", timeout=1000).startswith("/api/balance/")
            # Stop: a long run, stopped at once
            page.fill("#balance-games", "200")
            page.click("#balance-run")
            page.wait_for_selector("#balance-stop:enabled")
            page.click("#balance-stop")
            page.wait_for_selector("#balance-run:enabled")
            assert "Stopped after" in (page.locator("#balance-status").text_content() or "")
            assert problems == []
        finally:
            browser.close()
