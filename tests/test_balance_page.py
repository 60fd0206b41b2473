"""`evlogic balance --report`: one self-contained page, the same bytes for
the same report, with every rule set's charts and tables; opened in
Chromium it loads nothing and shows the seat chart and the hex maps (a
screenshot lands in build/test-artifacts/)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import matplotlib
import pytest

from conftest import REPO, run_subprocess
from evlogic.loading.boards import load_board
from evlogic.pages.balance import (
    HOME_SCALE,
    TURN_SCALE,
    _ink,
    balance_charts,
    balance_page,
)
from evlogic.resources import bundled_boards

ARTIFACTS = REPO / "build" / "test-artifacts"
RULES = ("standard", "gentle-siege")
AGENTS = "greedy,random,face"
GAMES = 4


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[dict, Path]:
    """The report and the page of a small run, as the command line writes them."""
    where = tmp_path_factory.mktemp("balance")
    page = where / "balance.html"
    args = ["balance", "--games", str(GAMES), "--players", "3", "--agents", AGENTS]
    args += ["--format", "json"]
    for rules in RULES:
        args += ["--rules", rules]
    done = run_subprocess(*args, "--report", str(page))
    assert done.code == 0, done.err
    return json.loads(done.out), page


@pytest.fixture(scope="module")
def board():
    return load_board(bundled_boards()["usa"], "usa")


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parsed(text: str) -> Elements:
    elements = Elements()
    elements.feed(text)
    return elements


def test_the_report_counts_every_players_total(run):
    report, _ = run
    for rule_set in report["rule_sets"]:
        counts = rule_set["total_counts"]
        assert [row["total"] for row in counts] == sorted({row["total"] for row in counts})
        assert sum(row["players"] for row in counts) == GAMES * report["players"]
        assert GAMES <= sum(row["winners"] for row in counts) <= GAMES * report["players"]
        assert all(0 <= row["winners"] <= row["players"] for row in counts)


def test_the_page_loads_nothing(run):
    _, page = run
    text = page.read_text("utf-8")
    elements = parsed(text)
    tags = {tag for tag, _ in elements.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "base"}
    for tag, attributes in elements.tags:
        for name, value in attributes.items():
            if name in ("src", "href", "xlink:href", "action", "srcset", "poster", "data"):
                assert value is not None and not re.match(r"\s*(https?:)?//", value), (tag, name)
                # a link within the page, or an image inline (the colour bars)
                assert value.startswith(("#", "data:image/png;base64,")), (tag, name, value)
    assert "@import" not in text and not re.search(r"url\(\s*['\"]?(https?:)?//", text)
    assert "<?xml" not in text and "<!DOCTYPE svg" not in text and "<metadata" not in text


def test_the_page_has_every_rule_sets_charts_and_tables(run, board):
    report, page = run
    text = page.read_text("utf-8")
    elements = parsed(text)
    svgs = [attributes for tag, attributes in elements.tags if tag == "svg"]
    labelled = {attributes["aria-labelledby"] for attributes in svgs}
    expected = {"seats-title", "totals-title"}
    for index in range(1, len(RULES) + 1):
        expected |= {f"homes-{index}-title", f"turns-{index}-title"}
    assert labelled == expected
    assert all(attributes["role"] == "img" for attributes in svgs)
    tables = {attributes.get("id") for tag, attributes in elements.tags if tag == "table"}
    assert tables == {
        "seat-table",
        "headline-table",
        "home-table",
        "turn-table",
        "mean-table",
        "agent-table",
        "difference-table-1",
    }
    assert text.count("<caption>") == len(tables)
    for rules in RULES:
        assert f"<h3>{rules}</h3>" in text  # a homes map and a turns map each
        assert text.count(f"<h3>{rules}</h3>") == 2
        assert f'<th scope="col" class="number">{rules}</th>' in text
    for home in report["rule_sets"][0]["home_win_rate"]:
        assert f'<th scope="row">{home["home"]}</th>' in text
    for heading in ("Win rate by seat", "Win rate by home", "Final totals", "Agents"):
        assert f">{heading}</h2>" in text
    # every tile of every map names its state
    charts = balance_charts(report, board)
    for entry in charts["rule_sets"]:
        for chart in (entry["homes"], entry["turns"]):
            shown = set(re.findall(r">([A-Z]{2})</text>", chart["svg"]))
            assert shown == set(board.states)


def test_ids_are_unique_on_the_page(run):
    _, page = run
    ids = [a["id"] for _, a in parsed(page.read_text("utf-8")).tags if "id" in a]
    assert [name for name, count in Counter(ids).items() if count > 1] == []
    for reference in re.findall(r'(?:href="#|url\(#)([^")]+)', page.read_text("utf-8")):
        assert reference in ids


@pytest.mark.slow
def test_the_same_report_gives_the_same_bytes(run, board, tmp_path):
    report, page = run
    assert balance_page(report, board) == page.read_text("utf-8")
    # and in another process, whatever its hash seed (no set order leaks out)
    saved = tmp_path / "report.json"
    saved.write_text(json.dumps(report))
    script = (
        "import json, sys\n"
        "from evlogic.loading.boards import load_board\n"
        "from evlogic.resources import bundled_boards\n"
        "from evlogic.pages.balance import balance_page\n"
        "report = json.load(open(sys.argv[1]))\n"
        "sys.stdout.write(balance_page(report, load_board(bundled_boards()['usa'], 'usa')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(saved)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        timeout=120,
        check=True,
    )
    assert done.stdout == page.read_text("utf-8")


@pytest.mark.parametrize("scale", [HOME_SCALE, TURN_SCALE])
def test_tile_labels_read_on_every_colour_of_the_scales(scale):
    """WCAG AA for text (4.5:1) whatever colour a tile has."""

    def luminance(colour):
        def channel(c):
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        red, green, blue = (channel(c) for c in colour[:3])
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    colours = matplotlib.colormaps[scale]
    for step in range(256):
        colour = colours(step / 255)
        light = luminance(colour)
        ink = _ink(colour)
        contrast = (light + 0.05) / 0.05 if ink == "#000000" else 1.05 / (light + 0.05)
        assert contrast >= 4.5, (scale, step, ink)


# --- in a browser ----------------------------------------------------------------------


@pytest.mark.browser
def test_chromium_shows_the_charts_offline(run):
    playwright = pytest.importorskip("playwright.sync_api")
    from test_web_browser import CHROMIUM_FLAGS, chromium_path

    report, page = run
    url = page.as_uri()
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        try:
            context = browser.new_context(viewport={"width": 1300, "height": 900})
            opened = context.new_page()
            requests: list[str] = []
            opened.on("request", lambda request: requests.append(request.url))
            problems: list[str] = []
            opened.on("pageerror", lambda error: problems.append(str(error)))
            opened.goto(url)
            assert requests == [url]  # the page itself, nothing else
            assert problems == []
            seats = opened.locator('svg[aria-labelledby="seats-title"]')
            box = seats.bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 150
            for index in range(1, len(RULES) + 1):
                for kind in ("homes", "turns"):
                    chart = opened.locator(f'svg[aria-labelledby="{kind}-{index}-title"]')
                    chart.scroll_into_view_if_needed()
                    box = chart.bounding_box()
                    assert box is not None and box["width"] > 400 and box["height"] > 200
            title = opened.locator("#homes-1-title").text_content()
            assert title is not None and RULES[0] in title
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            opened.screenshot(path=str(ARTIFACTS / "balance-page.png"), full_page=True)
            seats.screenshot(path=str(ARTIFACTS / "balance-page-seats.png"))
            opened.locator('svg[aria-labelledby="homes-1-title"]').screenshot(
                path=str(ARTIFACTS / "balance-page-homes.png")
            )
        finally:
            browser.close()
    assert report["rule_sets"][0]["rules"] == RULES[0]
