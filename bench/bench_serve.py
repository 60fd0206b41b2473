"""`evlogic serve`: server time of POST /api/score, a click to the updated
table in the browser, and many clients at once.

Targets (issue: the board in the browser), usa board, 4 players:
  POST /api/score median under 15 ms of server time
  a click to the updated table under 150 ms (Playwright, Debian's chromium)
  50 clients x 20 requests: throughput and p99 reported, none lost

Baseline in the same run: `score_game` in-process on the same position, so
the ratio shows what the HTTP layer adds on this (shared, noisy) machine.

    python bench/bench_serve.py [--runs 30]
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from timing import median_seconds  # noqa: E402

from evlogic.engine import score_game  # noqa: E402
from evlogic.games import load_game_text  # noqa: E402

FOUR = {
    "board": "usa",
    "players": [
        {"name": "You", "home": "KY", "states": ["IN", "WV", "TN", "OH", "PA"]},
        {"name": "Rival", "home": "VA", "states": ["MD", "NC", "DC", "DE"]},
        {"name": "West", "home": "CA", "states": ["OR", "NV", "AZ", "WA"]},
        {"name": "South", "home": "TX", "states": ["OK", "LA", "NM", "AR"]},
    ],
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(url: str, document: dict) -> dict:
    data = json.dumps(document).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def in_process_score(runs: int) -> float:
    game = load_game_text(json.dumps(FOUR), "bench", REPO)
    return median_seconds(lambda: score_game(game), runs)


def server_time(runs: int) -> float:
    """Median time of POST /api/score through the ASGI app (no socket)."""
    from starlette.testclient import TestClient

    from evlogic.web.app import create_app
    from evlogic.web.service import Catalog

    client = TestClient(create_app(Catalog.build()))
    return median_seconds(lambda: client.post("/api/score", json=FOUR), runs)


def click_latency(base: str, runs: int) -> float | None:
    """Median time from a click on a tile to the updated table (ms)."""
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
        times = []
        for index in range(runs + 1):
            state = ("MI", "MN")[index % 2]
            started = time.perf_counter()
            page.click(f'g.tile[data-state="{state}"]')
            page.wait_for_selector("body[data-ready=true]")
            times.append(time.perf_counter() - started)
        browser.close()
    return statistics.median(times[1:])


def many_clients(url: str, clients: int = 50, requests: int = 20) -> tuple[float, float, int]:
    """(requests per second, p99 seconds, answers) for clients x requests."""
    latencies: list[float] = []
    lock = threading.Lock()

    def client() -> None:
        for _ in range(requests):
            started = time.perf_counter()
            post(url, FOUR)
            with lock:
                latencies.append(time.perf_counter() - started)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    latencies.sort()
    return len(latencies) / wall, latencies[int(0.99 * (len(latencies) - 1))], len(latencies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()

    baseline = in_process_score(args.runs)
    served = server_time(args.runs)
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
        click = click_latency(base, min(args.runs, 20))
        rate, p99, answered = many_clients(base + "api/score")
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)

    print("usa board, 4 players; medians; baseline: score_game in-process, same run")
    print(f"  score_game in-process       {baseline * 1000:7.1f} ms")
    verdict = "ok" if served < 0.015 else "MISSED"
    print(
        f"  POST /api/score (server)    {served * 1000:7.1f} ms  "
        f"({served / baseline:.2f}x baseline; target 15 ms: {verdict})"
    )
    if click is None:
        print("  click -> table              (no chromium: apt-get install -y chromium)")
    else:
        verdict = "ok" if click < 0.150 else "MISSED"
        print(f"  click -> table (browser)    {click * 1000:7.1f} ms  (target 150 ms: {verdict})")
    print(
        f"  50 clients x 20 requests    {rate:7.1f} req/s, p99 {p99 * 1000:.0f} ms, "
        f"{answered} of 1000 answered"
    )


if __name__ == "__main__":
    main()
