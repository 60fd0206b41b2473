"""Regenerate the screenshots of pages in docs/ from the pages as evlogic
makes them now.

Each screenshot has, beside it, the SHA-256 of what it shows
(``NAME.png.sha256``): the rulebook page's HTML; for the serve page its
static files and the diagram and explanation it shows.  tests/test_docs.py
makes them again and fails when a hash differs, so a screenshot never shows
a page that has changed since.  Run after changing a page, a template or
the drawing:

    python docs/generate_screenshots.py           # rewrite the stale ones
    python docs/generate_screenshots.py --check   # exit 1 if one is stale

Screenshots are taken by Debian's chromium through Playwright (the test
extra): the rulebook page 900 CSS pixels wide, whole; evlogic serve on the
rulebook's full example, You focused, its first 1400 x 1180.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

DOCS = Path(__file__).resolve().parent
WIDTH = 900


def rulebook_standard() -> str:
    """``evlogic rulebook``: the standard rules' page."""
    from evlogic.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["rulebook"])
    if code != 0:
        raise SystemExit(f"evlogic rulebook failed ({code})")
    return out.getvalue()


def serve_example() -> str:
    """``evlogic serve`` on the rulebook's full example, You focused: what
    the page is made of (its static files) and what it shows (You's diagram
    and explanation, as the API serves them)."""
    from evlogic.drawing.diagram import draw_diagram
    from evlogic.loading.games import load_game
    from evlogic.reports.explain import explain_game

    static = Path(__file__).resolve().parent.parent / "evlogic" / "web" / "static"
    parts = [static.joinpath(name).read_text(encoding="utf-8") for name in sorted(SERVE_FILES)]
    game = load_game(DOCS.parent / "examples" / "rulebook" / "full-example.yaml")
    parts.append(draw_diagram(game, "You"))
    parts.append(json.dumps(explain_game(game, "You").to_dict(), sort_keys=True))
    return "\0".join(parts)


SERVE_FILES = ("app.js", "index.html", "style.css")

#: Each screenshot in docs/ and the page it shows.
SCREENSHOTS: dict[str, Callable[[], str]] = {
    "rulebook-standard.png": rulebook_standard,
    "serve.png": serve_example,
}


def page_hash(html: str) -> str:
    return hashlib.sha256(html.encode("utf-8")).hexdigest()


def stored_hash(name: str) -> str | None:
    path = DOCS / f"{name}.sha256"
    return path.read_text(encoding="utf-8").strip() if path.is_file() else None


def browser_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise SystemExit("needs Debian's chromium: apt-get install -y chromium")
    return found


def shoot(name: str, html: str, png: Path) -> None:
    if name == "serve.png":
        shoot_serve(png)
        return
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="evlogic-shot-") as folder:
        page_file = Path(folder) / "page.html"
        page_file.write_text(html, encoding="utf-8")
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=browser_path(), args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": WIDTH, "height": 1200})
            page.goto(page_file.as_uri())
            page.screenshot(path=str(png), full_page=True)
            browser.close()


def shoot_serve(png: Path) -> None:
    """``evlogic serve`` on a free port; the rulebook's full example built
    by clicks (You: KY, then IN, WV, TN; Rival: OH, then VA, MO), You
    focused; the first 1400 x 1180 of the page."""
    from playwright.sync_api import sync_playwright

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "evlogic", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "api/boards", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("evlogic serve did not start") from None
                time.sleep(0.2)
        with sync_playwright() as driver:
            browser = driver.chromium.launch(
                executable_path=browser_path(), args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": 1400, "height": 1180})

            def settle() -> None:
                page.wait_for_timeout(50)
                page.wait_for_selector("body[data-ready=true]")

            def click(state: str, shift: bool = False) -> None:
                page.click(f'g.tile[data-state="{state}"]', modifiers=["Shift"] if shift else [])
                settle()

            page.goto(url)
            settle()
            for index, name in enumerate(("You", "Rival")):
                field = page.locator("#players li input[type=text]").nth(index)
                field.fill(name)
                field.press("Enter")
                settle()
            click("KY", shift=True)
            for state in ("IN", "WV", "TN"):
                click(state)
            page.keyboard.press("2")
            click("OH", shift=True)
            for state in ("VA", "MO"):
                click(state)
            page.click('#score tbody tr[data-player="You"]')
            settle()
            page.mouse.move(0, 0)  # no hover on a tile
            page.screenshot(path=str(png))  # the first screen: map, table, explanation
            browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a screenshot is stale")
    args = parser.parse_args(argv)
    stale = []
    for name, make in SCREENSHOTS.items():
        html = make()
        digest = page_hash(html)
        if stored_hash(name) == digest and (DOCS / name).is_file():
            continue
        stale.append(name)
        if not args.check:
            shoot(name, html, DOCS / name)
            (DOCS / f"{name}.sha256").write_text(digest + "\n", encoding="utf-8")
            print(f"docs/{name}: regenerated")
    if args.check and stale:
        print(f"stale: {', '.join(stale)} (python docs/generate_screenshots.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
