"""`evlogic serve`'s page for everyone, in Chromium: a copied link reopens
what it shows (an uploaded board travels in it), no width from 360 to
1920 px scrolls the page sideways, everything is done by keyboard with
the focus in sight, axe-core finds nothing serious, the table scores what
can be scored, a focused player is the active one, and the explanation is
the command line's, every what-if included.  Screenshots land in
build/test-artifacts/."""

from __future__ import annotations

import json
import random
import string
import urllib.parse
from collections.abc import Iterator

import pytest
import yaml
from test_web_browser import (
    ARTIFACTS,
    CHROMIUM_FLAGS,
    build_rulebook_example,
    chromium_path,
    click,
    settle,
    total,
)
from test_web_browser import server as server  # the fixture, shared

from conftest import REPO, RULEBOOK, run_subprocess

pytestmark = pytest.mark.browser

playwright = pytest.importorskip("playwright.sync_api")
axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

#: The rulebook example: You (home KY) holds IN, WV, TN; Rival (home OH) VA, MO.
RULEBOOK_PLAYERS = [
    {"name": "You", "home": "KY", "states": ["IN", "WV", "TN"]},
    {"name": "Rival", "home": "OH", "states": ["VA", "MO"]},
]

WIDTHS = (360, 768, 1280, 1920)
LAKELAND = (REPO / "examples" / "lakeland" / "board.yaml").read_bytes()


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


def serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each."""
    results = axe_playwright.Axe().run(page)
    return [
        f"{violation['impact']} {violation['id']}: {violation['help']} "
        f"({', '.join(str(node['target']) for node in violation['nodes'][:3])})"
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def active_name(page) -> str:
    return page.locator("#players li.active input[type=text]").input_value()


def focused_state(page) -> str | None:
    return page.evaluate("document.activeElement.dataset && document.activeElement.dataset.state")


def copied(page) -> None:
    page.wait_for_function("document.getElementById('notice').textContent.includes('copied')")


def upload(page, name: str, content: bytes) -> None:
    page.set_input_files(
        "#board-upload", files=[{"name": name, "mimeType": "text/yaml", "buffer": content}]
    )
    try:
        page.wait_for_function(
            f"document.getElementById('board-select').value === {json.dumps(name)}",
            timeout=20_000,
        )
    except playwright.TimeoutError:
        pytest.fail(f"{name} was not taken: {page.inner_text('#error')}")
    settle(page)
    assert page.locator("#error").is_hidden(), page.inner_text("#error")


# --- a copied link reopens what it shows ------------------------------------------------


def test_a_link_carries_an_uploaded_board(page, context):
    """Copy link after uploading a board: the link carries the board
    (compressed in the fragment) and reopens the position on it."""
    upload(page, "isle.yaml", LAKELAND)
    click(page, "C")  # Player 1's first tile: the home
    click(page, "N")
    click(page, "W")
    page.keyboard.press("2")
    click(page, "SE")
    click(page, "I")
    assert page.locator("#copy-link-note").is_hidden()  # nothing to warn of
    page.click("#copy-link")
    copied(page)
    assert "it reopens this position" in page.inner_text("#notice")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == page.url and "board_data=" in link
    before = [total(page, "Player 1"), total(page, "Player 2")]

    again = context.new_page()  # a fresh page, as whoever is sent the link opens it
    open_at(again, link)
    assert again.locator("#error").is_hidden(), again.inner_text("#error")
    assert again.locator("g.tile[data-state]").count() == 10
    assert again.get_attribute('g.tile[data-state="C"]', "data-role") == "home"
    assert again.get_attribute('g.tile[data-state="I"]', "data-owner") == "Player 2"
    assert [total(again, "Player 1"), total(again, "Player 2")] == before
    assert "Lakeland" in again.inner_text("#status")
    assert again.input_value("#board-select") == "isle.yaml"
    again.close()


def test_a_link_without_its_board_says_which_file_and_takes_it(page):
    """A link to an uploaded board that does not carry it (too large, or
    cut short) names the file; uploading it reopens the position."""
    players = [{"name": "Ann", "home": "C", "states": ["N", "W"]}]
    open_at(page, position(page.url.split("#")[0], players, board="isle.yaml"))
    message = page.inner_text("#error")
    assert "no board 'isle.yaml'" in message
    assert "upload isle.yaml (Upload board…) to reopen the position" in message
    assert page.locator("g.tile[data-state]").count() == 51  # the page still works, on usa
    upload(page, "isle.yaml", LAKELAND)
    assert page.locator("#error").is_hidden()
    assert page.get_attribute('g.tile[data-state="C"]', "data-owner") == "Ann"
    assert total(page, "Ann") > 0


def test_a_board_too_large_for_a_link_is_said_before_copying(page):
    """Past LINK_BOARD_LIMIT compressed characters the link cannot carry the
    board: the page says so beside the button, before it is pressed."""
    rng = random.Random(27)
    states = {
        f"S{n}": {
            "ev": 3,
            "name": "".join(rng.choice(string.ascii_letters) for _ in range(1500)),
            "hex": [n, 0],
            "neighbors": [f"S{m}" for m in (n - 1, n + 1) if 0 <= m < 30],
        }
        for n in range(30)
    }
    upload(page, "noisy.yaml", yaml.safe_dump({"name": "Noisy", "states": states}).encode())
    note = page.locator("#copy-link-note")
    assert note.is_visible()
    text = note.inner_text()
    assert "too large to carry in a link" in text and "needs the file noisy.yaml" in text
    assert page.get_attribute("#copy-link", "aria-describedby") == "copy-link-note"
    assert "board_data=" not in page.url
    page.click("#copy-link")
    copied(page)
    assert "needs the file noisy.yaml" in page.inner_text("#notice")


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
    assert serious(page) == []  # the Balance panel, showing results


# --- the keyboard -------------------------------------------------------------------------


TAB_STOP = """() => {
  const e = document.activeElement;
  const svg = e.closest && e.closest("#map svg");
  let outline;
  if (svg) {  // a tile: the ring drawn round it
    const ring = svg.querySelector(".focus-ring");
    outline = svg.classList.contains("ringed") && getComputedStyle(ring).display !== "none";
  } else {
    const shown = e.closest(".file-button") || e;  // a file input: its label shows the focus
    const style = getComputedStyle(shown);
    outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  }
  return {key: e.id || e.dataset.state || e.getAttribute("aria-label") || e.textContent.trim(),
          tag: e.tagName.toLowerCase(), outline};
}"""


def tab_stops(page) -> list[dict]:
    """Every element Tab reaches, from the top of the page round to it again."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    stops: list[dict] = []
    for _ in range(200):
        page.keyboard.press("Tab")
        stop = page.evaluate(TAB_STOP)
        if stop["tag"] == "body" or (stops and stop == stops[0]):
            break
        stops.append(stop)
    return stops


def test_every_control_is_reached_by_tab_with_its_focus_in_sight(page, server):
    open_at(page, position(server, RULEBOOK_PLAYERS, focus=0))
    stops = tab_stops(page)
    keys = [stop["key"] for stop in stops]
    for wanted in (
        "board-select",
        "board-upload",  # no longer display: none
        "rules-select",
        "compare-select",
        "home-mode",
        "download",
        "game-upload",
        "paste-open",
        "copy-link",
        "balance-link",
        "You",  # the score table's names
        "Rival",
        "add-player",
        "balance-agents",
        "balance-run",
    ):
        assert wanted in keys, (wanted, keys)
    tiles = [stop for stop in stops if stop["tag"] == "g"]
    assert len(tiles) == 1  # the map is one Tab stop; the arrows move in it
    # every control the page shows is among them (a radio group is one stop)
    missing = page.evaluate(
        """(keys) => [...document.querySelectorAll(
              "button, select, input, textarea, a[href], [tabindex]")]
          .filter((e) => !e.disabled && e.tabIndex >= 0 && !e.closest("dialog")
                   && (e.offsetParent !== null || e.closest(".file-button"))
                   && !(e.type === "radio" && !e.checked))
          .map((e) => e.id || e.dataset.state || e.getAttribute("aria-label")
                      || e.textContent.trim())
          .filter((key) => !keys.includes(key))""",
        keys,
    )
    assert missing == []
    hidden = [stop["key"] for stop in stops if not stop["outline"]]
    assert hidden == []  # the focus is always visible


def test_tiles_are_claimed_by_keyboard_and_the_arrows_move_on_the_map(page):
    page.focus('g.tile[data-state="KY"]')
    page.keyboard.press("Enter")  # Player 1 has no home: KY is it
    settle(page)
    assert page.get_attribute('g.tile[data-state="KY"]', "data-role") == "home"
    assert focused_state(page) == "KY"  # the focus survives the redraw
    page.keyboard.press("ArrowUp")  # the two upper neighbours tie: clockwise, WV
    assert focused_state(page) == "WV"
    page.keyboard.press("Space")
    settle(page)
    assert page.get_attribute('g.tile[data-state="WV"]', "data-owner") == "Player 1"
    page.keyboard.press("ArrowLeft")
    assert focused_state(page) == "IN"
    page.keyboard.press("Enter")
    settle(page)
    page.keyboard.press("ArrowRight")
    assert focused_state(page) == "WV"
    page.keyboard.press("ArrowDown")  # WV's lower neighbours tie: clockwise, KY
    assert focused_state(page) == "KY"
    page.keyboard.press("ArrowRight")
    assert focused_state(page) == "VA"
    page.keyboard.press("2")
    page.keyboard.press("Shift+Enter")  # Player 2's home, by Shift
    settle(page)
    assert page.get_attribute('g.tile[data-state="VA"]', "data-role") == "home"
    assert page.get_attribute('g.tile[data-state="VA"]', "data-owner") == "Player 2"
    assert total(page, "Player 1") > 0 and total(page, "Player 2") > 0
    # the ring is drawn round the focused tile, not after a click
    assert page.evaluate("document.querySelector('#map svg').classList.contains('ringed')")
    page.click('g.tile[data-state="CA"]')
    settle(page)
    assert not page.evaluate("document.querySelector('#map svg').classList.contains('ringed')")

    # From any tile, the arrows reach every other (islands such as AK and HI too).
    ids = page.eval_on_selector_all(
        "g.tile[data-state]", "tiles => tiles.map(t => t.dataset.state)"
    )
    moves = page.evaluate(
        """(ids) => {
          const moves = {};
          for (const id of ids) {
            moves[id] = {};
            for (const key of ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]) {
              const tile = document.querySelector(`g.tile[data-state="${id}"]`);
              tile.focus();
              tile.dispatchEvent(new KeyboardEvent("keydown", {key, bubbles: true}));
              moves[id][key] = document.activeElement.dataset.state || null;
            }
          }
          return moves;
        }""",
        ids,
    )
    reached, todo = {"KY"}, ["KY"]
    while todo:
        for other in moves[todo.pop()].values():
            if other and other not in reached:
                reached.add(other)
                todo.append(other)
    assert reached == set(ids)
    # the opposite arrow leads back (where the hex has both neighbours it ties between)
    pairs = [("ArrowLeft", "ArrowRight"), ("ArrowRight", "ArrowLeft")]
    for here, keys in [(state, pairs) for state in ("KY", "OH", "MO", "NE", "PA")] + [
        (state, [("ArrowUp", "ArrowDown"), ("ArrowDown", "ArrowUp")]) for state in ("KY", "NE")
    ]:
        for key, back in keys:
            there = moves[here][key]
            assert there and moves[there][back] == here, (here, key, there)


def test_no_serious_accessibility_violation_in_the_pages_main_states(page, server):
    assert serious(page) == []  # fresh: nobody has a home
    build_rulebook_example(page)
    assert serious(page) == []  # tiles claimed, the table full
    page.click('#score tbody tr[data-player="You"] button.focus-player')
    settle(page)
    page.wait_for_selector("#explain li")
    assert serious(page) == []  # the explanation open, the diagram shown
    page.select_option("#compare-select", "gentle-siege")
    settle(page)
    page.set_viewport_size({"width": 400, "height": 900})
    assert serious(page) == []  # two rule sets, on a phone's width
    page.click("#paste-open")
    assert serious(page) == []  # the paste dialog


# --- the score table ----------------------------------------------------------------------


def test_the_table_scores_those_with_a_home_and_lists_the_others(page, tmp_path):
    rows = page.locator("#score tbody tr")
    assert rows.count() == 2  # fresh: both listed, neither scored
    for name in ("Player 1", "Player 2"):
        row = page.locator(f'#score tbody tr[data-player="{name}"]')
        assert "no home yet: not scored" in row.inner_text()
    click(page, "KY")  # the first tile: Player 1's home
    for state in ("IN", "WV", "TN"):
        click(page, state)
    assert total(page, "Player 1") == 59  # scored without Player 2
    assert "no home yet" in page.inner_text('#score tbody tr[data-player="Player 2"]')
    status = page.inner_text("#status")
    assert "Winner (of those with a home): Player 1" in status
    assert "Set a home for Player 2" in status
    # a one-player table, as the command line scores one
    page.click('#players button[aria-label="remove Player 2"]')
    settle(page)
    assert rows.count() == 1 and total(page, "Player 1") == 59
    assert page.locator('#players button[aria-label="remove Player 1"]').is_disabled()
    game = tmp_path / "one.yaml"
    one = {"name": "Player 1", "home": "KY", "states": ["IN", "WV", "TN"]}
    game.write_text(json.dumps({"board": "usa", "players": [one]}))
    scored = run_subprocess("score", str(game), "--format", "json")
    assert scored.code == 0, scored.err
    assert scored.json()["players"][0]["total"] == 59


# --- focus, the active player and Home mode ------------------------------------------------


def test_focusing_a_player_makes_them_the_active_player(page):
    build_rulebook_example(page)  # ends with Rival the active player
    assert active_name(page) == "Rival"
    page.click('#score tbody tr[data-player="You"]')
    settle(page)
    assert active_name(page) == "You"
    assert "Tiles go to You" in page.inner_text("#active-line")
    click(page, "CA")  # on You's diagram: the tile is You's
    assert (total(page, "You"), total(page, "Rival")) == (39 + 54, 40)
    # by keyboard: the name in the table is a button
    page.focus('#score tbody tr[data-player="Rival"] button.focus-player')
    page.keyboard.press("Enter")
    settle(page)
    assert active_name(page) == "Rival"
    assert page.inner_text("#explain h2").startswith("Explanation: Rival")
    pressed = page.get_attribute(
        '#score tbody tr[data-player="Rival"] button.focus-player', "aria-pressed"
    )
    assert pressed == "true"


def test_home_mode_ends_after_placing_a_home(page):
    build_rulebook_example(page)
    page.keyboard.press("1")
    page.click("#home-mode")
    assert page.get_attribute("#home-mode", "aria-pressed") == "true"
    assert "Next tile: the home of You" in page.inner_text("#active-line")
    click(page, "IN")  # You's home moves to IN
    assert page.get_attribute('g.tile[data-state="IN"]', "data-role") == "home"
    assert page.get_attribute("#home-mode", "aria-pressed") == "false"
    click(page, "KY")  # a plain click again: a state, not the home
    assert page.get_attribute('g.tile[data-state="KY"]', "data-role") == "owned"
    assert page.get_attribute('g.tile[data-state="IN"]', "data-role") == "home"


# --- the explanation ----------------------------------------------------------------------


def test_the_explanation_is_explains_and_lists_every_what_if(page, server):
    open_at(page, position(server, RULEBOOK_PLAYERS, focus=0))
    page.wait_for_selector("#explain li")
    shown = page.inner_text("#explain").replace("−", "-")
    game = RULEBOOK / "full-example.yaml"
    text = run_subprocess("explain", str(game), "--player", "You")
    assert text.code == 0, text.err
    for line in ("Face EV: 34", "Region: 4 states, bonus +25", "bonus +25 - 20 = +5"):
        assert line in text.out and line in shown, line
    assert "Core: KY + IN + WV" in shown and "+ TN joins: touches IN, KY, WV" in shown
    assert "MO held by Rival: -10" in shown and "VA held by Rival: -10" in shown
    assert "Total: 34 face +5 net bonus = 39 EV" in shown
    document = run_subprocess("explain", str(game), "--player", "You", "--format", "json").json()
    entries = page.locator("#next li")
    assert entries.count() == len(document["what_if"]) == 46  # all, not the first 15
    assert f"all {len(document['what_if'])} states" in page.inner_text("#next-heading")
    assert [entries.nth(i).get_attribute("data-state") for i in range(entries.count())] == [
        option["state"] for option in document["what_if"]
    ]
    va = page.inner_text('#next li[data-state="VA"]')
    assert "siege lifted: +10" in va and "penalty" not in va
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "serve-1400.png"), full_page=True)
