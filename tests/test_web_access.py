"""`evlogic serve`'s page at every width, in Chromium: from 360 to 1920 px
nothing scrolls the page sideways.  Screenshots land in
build/test-artifacts/."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterator

import pytest
from test_web_browser import (
    ARTIFACTS,
    CHROMIUM_FLAGS,
    chromium_path,
    settle,
)
from test_web_browser import server as server  # the fixture, shared

playwright = pytest.importorskip("playwright.sync_api")

#: The rulebook example: You (home KY) holds IN, WV, TN; Rival (home OH) VA, MO.
RULEBOOK_PLAYERS = [
    {"name": "You", "home": "KY", "states": ["IN", "WV", "TN"]},
    {"name": "Rival", "home": "OH", "states": ["VA", "MO"]},
]

WIDTHS = (360, 768, 1280, 1920)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser):
    opened = browser.new_context(
        viewport={"width": 1400, "height": 1000}, permissions=["clipboard-read", "clipboard-write"]
    )
    problems: list[str] = []
    opened.on("weberror", lambda error: problems.append(str(error.error)))
    yield opened
    opened.close()
    assert problems == []  # no script error, ever


@pytest.fixture
def page(context, server):
    opened = context.new_page()
    opened.goto(server)
    settle(opened)
    return opened


def position(server: str, players: list[dict], focus: int | None = None, **more: str) -> str:
    """The page's URL for a position (as the page writes it into the fragment)."""
    params = {"board": "usa", "rules": "standard", **more, "players": json.dumps(players)}
    if focus is not None:
        params["focus"] = str(focus)
    return f"{server}#{urllib.parse.urlencode(params)}"


def open_at(page, url: str) -> None:
    page.goto("about:blank")  # (a fragment alone would not load the page again)
    page.goto(url)
    settle(page)


# --- every width ------------------------------------------------------------------------


def overflow(page) -> dict:
    """How far the document and each panel reach past the viewport (px)."""
    return page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          const past = {document: document.documentElement.scrollWidth - width};
          for (const id of ["map", "score", "players-panel", "explain", "next-panel",
                            "balance", "balance-results"]) {
            const element = document.getElementById(id);
            const scroller = element.closest(".table-scroll");
            const box = (scroller || element).getBoundingClientRect();
            past[id] = Math.round(box.right + window.scrollX - width);
          }
          return past;
        }"""
    )


def assert_fits(page, width: int, what: str) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(100)
    past = overflow(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= width, (what, width, past)
    assert all(value <= 0 for value in past.values()), (what, width, past)
    svg = page.locator("#map svg").bounding_box()
    assert svg is not None and svg["x"] >= 0 and svg["x"] + svg["width"] <= width, (what, width)


def test_no_width_scrolls_the_page_sideways(page, server):
    """At 360, 768, 1280 and 1920 px nothing is wider than the window: the
    fresh page, a position with two rule sets compared and You explained
    (the widest table), and the Balance panel with a run's results."""
    for width in WIDTHS:
        assert_fits(page, width, "fresh")
    open_at(page, position(server, RULEBOOK_PLAYERS, focus=0, compare="gentle-siege"))
    page.wait_for_selector("#explain li")
    for width in WIDTHS:
        assert_fits(page, width, "explained")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 400, "height": 900})
    page.screenshot(path=str(ARTIFACTS / "serve-400.png"), full_page=True)

    page.set_viewport_size({"width": 1280, "height": 900})
    page.fill("#balance-games", "2")
    page.fill("#balance-players", "2")
    page.click("#balance-run")
    page.wait_for_selector('#balance-results figure[data-chart="turns"] svg', timeout=90_000)
    for width in WIDTHS:
        assert_fits(page, width, "balance")
