"""`evlogic serve`: server time of POST /api/score, a click to the updated
table in the browser, and many clients at once.

Targets (issue: the board in the browser), usa board, 4 players:
  POST /api/score median under 15 ms of server time
  a click to the updated table under 150 ms (Playwright, Debian's chromium)
  50 clients x 20 requests: throughput and p99 reported, none lost

Fairness (--fairness runs only this part): the round trip of a small
score while four heavy requests are in flight (the issue's four dense
185 KB boards, a complete graph of 160 states, and four within the
server's bound, a complete graph of 80, all owned), and of GET
/api/boards while a dense board given with --board is being laid out.
The server runs with --memory-limit 2048 (a code without its own worker
limit then caps each worker there).

Measured in the same run, as baselines: `score_game` in-process on the same
position; the scoring program with region_order.lp's layer-a-call grounding
(what every position used before rules/scoring/region_layers.lp); a Playwright click
on the page that asks the server nothing (what driving the browser costs).

Server time is the server's own `Server-Timing: app;dur=MS` header, over one
kept-alive connection to `evlogic serve`; the round trip is what the client
saw.  A click is timed in the page, from the click event's time stamp to the
first frame after the score table changed (the time Playwright takes to
deliver the click, and to notice the change, is not the page's); the
Playwright round trip (click, then the page's data-ready) is printed beside
it.  The machine's load average is printed before and after: on 2 shared
cores, wall times follow it.

    python bench/bench_serve.py [--runs 30] [--fairness]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from timing import median_seconds  # noqa: E402

from evlogic.asp.facts import Positions, board_program  # noqa: E402
from evlogic.asp.solver import (  # noqa: E402
    POSITION_INPUT,
    SCORING_RULES,
    SCORING_RULES_ONE_SHOT,
    parsed_facts,
    rule_paths,
    solve,
)
from evlogic.loading.games import load_game_text  # noqa: E402
from evlogic.reports.score import score_game, scoring_rules  # noqa: E402

FOUR = {
    "board": "usa",
    "players": [
        {"name": "You", "home": "KY", "states": ["IN", "WV", "TN", "OH", "PA"]},
        {"name": "Rival", "home": "VA", "states": ["MD", "NC", "DC", "DE"]},
        {"name": "West", "home": "CA", "states": ["OR", "NV", "AZ", "WA"]},
        {"name": "South", "home": "TX", "states": ["OK", "LA", "NM", "AR"]},
    ],
}

# In the page: a promise of the milliseconds from the next click event to the
# first frame after the score table's rows change.
NEXT_TABLE = """() => {
  window.evlogicBenchTable = new Promise((resolve) => {
    let clicked = null;
    document.addEventListener("click", (event) => { clicked = event.timeStamp; },
                              { capture: true, once: true });
    const rows = document.querySelector("#score tbody");
    const watch = new MutationObserver(() => {
      watch.disconnect();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - clicked)));
    });
    watch.observe(rows, { childList: true });
    setTimeout(() => resolve(NaN), 20000);  // (no change: no number)
  });
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(url: str, document: dict) -> dict:
    data = json.dumps(document).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def in_process_score(runs: int) -> tuple[float, dict]:
    game = load_game_text(json.dumps(FOUR), "bench", REPO)
    return median_seconds(lambda: score_game(game), runs), score_game(game).to_dict()


def layer_groundings(runs: int) -> tuple[float, float, bool]:
    """The scoring program the engine chooses for the position (its
    ``scoring_rules``), and the one with a layer a call; and whether the
    engine's choice is the one-call layers."""
    game = load_game_text(json.dumps(FOUR), "bench", REPO)
    board = parsed_facts(board_program(game.board))

    def scorer(names: tuple[str, ...]):
        paths = [*rule_paths(names), *rule_paths(POSITION_INPUT)]
        return lambda: solve(game.rules.program(), paths, Positions(game.board, [game]), board)

    chosen = scoring_rules(game)
    return (
        median_seconds(scorer(chosen), runs),
        median_seconds(scorer(SCORING_RULES), runs),
        chosen == SCORING_RULES_ONE_SHOT,
    )


def server_times(port: int, runs: int, expected: dict) -> tuple[float, float]:
    """(median server time, median round trip) of POST /api/score, one
    kept-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    body = json.dumps(FOUR).encode()
    served, trips = [], []
    for index in range(runs + 1):
        started = time.perf_counter()
        connection.request("POST", "/api/score", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = json.loads(response.read())
        trip = time.perf_counter() - started
        assert answer == expected, answer
        header = response.getheader("Server-Timing", "")
        if index:  # (the first warms the connection)
            served.append(float(header.split("dur=")[1]) / 1000)
            trips.append(trip)
    connection.close()
    return statistics.median(served), statistics.median(trips)


def client_time(runs: int) -> float:
    """POST /api/score through Starlette's test client (the measure of the
    first version of this benchmark: the test client adds its own time)."""
    from starlette.testclient import TestClient

    from evlogic.web.app import create_app
    from evlogic.web.service import Catalog

    with TestClient(create_app(Catalog.build()), base_url="http://127.0.0.1") as client:
        return median_seconds(lambda: client.post("/api/score", json=FOUR), runs)


def click_latency(base: str, runs: int) -> tuple[float, float, float] | None:
    """Medians (s) of: a click to the updated table, in the page; the same
    click's Playwright round trip (click, then data-ready); a Playwright
    click that asks the server nothing, with the same wait."""
    chromium = shutil.which("chromium")
    if chromium is None:
        return None
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page()
        fragment = "players=" + urllib.request.quote(json.dumps(FOUR["players"]))
        page.goto(f"{base}#board=usa&rules=standard&{fragment}")
        page.wait_for_selector("body[data-ready=true]")
        in_page, trips, idle = [], [], []
        for index in range(runs + 1):
            page.evaluate(NEXT_TABLE)
            state = ("MI", "MN")[index % 2]
            started = time.perf_counter()
            page.click(f'g.tile[data-state="{state}"]')
            table = page.evaluate("window.evlogicBenchTable")
            page.wait_for_selector("body[data-ready=true]")
            if index:
                trips.append(time.perf_counter() - started)
                in_page.append(table / 1000)
        for _ in range(runs):
            started = time.perf_counter()
            page.click("#status")
            page.wait_for_selector("body[data-ready=true]")
            idle.append(time.perf_counter() - started)
        browser.close()
    return statistics.median(in_page), statistics.median(trips), statistics.median(idle)


def many_clients(
    url: str, expected: dict, clients: int = 50, requests: int = 20
) -> tuple[float, float, int, int]:
    """(requests per second, p99 seconds, answers, right answers)."""
    latencies: list[float] = []
    right = [0]
    lock = threading.Lock()

    def client() -> None:
        for _ in range(requests):
            started = time.perf_counter()
            answer = post(url, FOUR)
            with lock:
                latencies.append(time.perf_counter() - started)
                right[0] += answer == expected

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    latencies.sort()
    p99 = latencies[int(0.99 * (len(latencies) - 1))]
    return len(latencies) / wall, p99, len(latencies), right[0]


def complete_game(size: int) -> dict:
    """A complete graph of ``size`` states, all owned by one player (the game
    ends when every state is won, so the position can happen)."""
    ids = [f"S{i}" for i in range(size)]
    states = {s: {"ev": 3, "neighbors": [t for t in ids if t != s]} for s in ids}
    players = [{"name": "A", "home": ids[0], "states": ids[2:]}, {"name": "B", "home": ids[1]}]
    board = {"name": f"complete {size}", "game_end": size, "states": states}
    return {"board": board, "players": players}


def status_of(url: str, document: dict | None = None) -> int:
    """The status of a GET (or, with a document, a POST) of ``url``."""
    data = None if document is None else json.dumps(document).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def while_in_flight(slow: list[tuple[str, dict | None]], quick: tuple[str, dict | None]):
    """(seconds and status of ``quick``'s request, sent 0.5 s after the
    ``slow`` ones, and the statuses of the slow ones)."""
    statuses: list[int] = []
    threads = [
        threading.Thread(target=lambda u=url, d=doc: statuses.append(status_of(u, d)))
        for url, doc in slow
    ]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    started = time.perf_counter()
    quick_status = status_of(*quick)
    took = time.perf_counter() - started
    for thread in threads:
        thread.join()
    return took, quick_status, sorted(statuses)


def start_server(*options: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "evlogic", "serve", "--port", str(port), *options],
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "api/boards", timeout=2).read()
            break
        except OSError:
            time.sleep(0.2)
    return process, base


def fairness() -> None:
    import tempfile

    import yaml

    small = (FOUR, "api/score")
    with tempfile.TemporaryDirectory() as folder:
        dense = Path(folder) / "dense.yaml"
        dense.write_text(yaml.safe_dump(complete_game(160)["board"]))
        process, base = start_server("--board", str(dense), "--memory-limit", "2048")
        try:
            print("fairness (load average " + load() + ")")
            for size, label in ((160, "four 185 KB boards"), (80, "four complete-80 boards")):
                heavy = [(base + "api/score", complete_game(size))] * 4
                took, status, statuses = while_in_flight(heavy, (base + small[1], small[0]))
                print(
                    f"  small score, {label:24} {took * 1000:8.0f} ms  "
                    f"(status {status}; heavy: {statuses})"
                )
            layout = [(base + "api/boards/dense", None)]
            took, status, statuses = while_in_flight(layout, (base + "api/boards", None))
            print(
                f"  GET /api/boards, dense layout running {took * 1000:6.0f} ms  "
                f"(status {status}; layout: {statuses})"
            )
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=30)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--fairness", action="store_true", help="only the fairness part")
    args = parser.parse_args()
    if args.fairness:
        fairness()
        return
    before = load()

    baseline, expected = in_process_score(args.runs)
    one_call, by_layer, layers_in_one_call = layer_groundings(args.runs)
    tested = client_time(args.runs)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "evlogic", "serve", "--port", str(port)],
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "api/boards", timeout=2).read()
            break
        except OSError:
            time.sleep(0.2)
    try:
        served, trip = server_times(port, args.runs, expected)
        click = click_latency(base, min(args.runs, 20))
        rate, p99, answered, right = many_clients(base + "api/score", expected)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)

    ms = 1000
    print(f"usa board, 4 players; medians; load average {before} (1, 5, 15 min) before")
    print(f"  score_game in-process                {baseline * ms:7.1f} ms  (baseline)")
    label = "layers in one call" if layers_in_one_call else "a layer a call"
    print(
        f"  scoring, {label:27} {one_call * ms:7.1f} ms  "
        f"({one_call / by_layer:.2f}x a layer a call: {by_layer * ms:.1f} ms)"
    )
    verdict = "ok" if served < 0.015 else "MISSED"
    print(
        f"  POST /api/score, server time         {served * ms:7.1f} ms  "
        f"({served / baseline:.2f}x baseline; target 15 ms: {verdict})"
    )
    print(f"  POST /api/score, round trip          {trip * ms:7.1f} ms")
    print(f"  POST /api/score, Starlette TestClient {tested * ms:6.1f} ms")
    if click is None:
        print("  click -> table                       (no chromium: apt-get install -y chromium)")
    else:
        table, round_trip, idle = click
        verdict = "ok" if table < 0.150 else "MISSED"
        label = "click -> table painted, in the page"
        print(f"  {label}  {table * ms:7.1f} ms  (target 150 ms: {verdict})")
        print(
            f"  click -> data-ready, Playwright      {round_trip * ms:7.1f} ms  "
            f"(a click asking nothing: {idle * ms:.1f} ms)"
        )
    print(
        f"  50 clients x 20 requests             {rate:7.1f} req/s, p99 {p99 * ms:.0f} ms, "
        f"{answered} of 1000 answered, {right} right"
    )
    fairness()
    print(f"load average {load()} after")


if __name__ == "__main__":
    main()
