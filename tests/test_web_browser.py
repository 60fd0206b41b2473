"""`evlogic serve` in a real browser: Debian's chromium driven by Playwright,
against the server started as a user starts it.  The page is used as a
person would: clicks, keys, a row to focus, a rule set to switch, a file to
download and to upload.  A screenshot lands in build/test-artifacts/."""

from __future__ import annotations

import json
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest
import yaml

from conftest import REPO, RULEBOOK, run_subprocess
from evlogic.loading.games import load_game_text
from evlogic.reports.score import score_game

pytestmark = pytest.mark.browser

playwright = pytest.importorskip("playwright.sync_api")

ARTIFACTS = REPO / "build" / "test-artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str:
    """Debian's chromium (Playwright's own download cannot work here)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("the browser tests need Debian's chromium: apt-get install -y chromium")
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """`evlogic serve` on a free port, as a user runs it; stopped with Ctrl-C."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "evlogic", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "api/boards", timeout=2).read()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"evlogic serve did not start: {process.stderr.read()}")
            time.sleep(0.2)
    yield url
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=10)
    assert process.returncode == 0, err  # Ctrl-C stops it cleanly
    assert "Traceback" not in err


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1100}, accept_downloads=True)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(str(error)))
    opened.goto(server)
    settle(opened)
    yield opened
    context.close()
    assert problems == []  # no script error, ever


def settle(page) -> None:
    """Wait until the page has shown the answer to the last change."""
    page.wait_for_timeout(50)
    page.wait_for_selector("body[data-ready=true]")


def click(page, state: str, shift: bool = False) -> None:
    page.click(f'g.tile[data-state="{state}"]', modifiers=["Shift"] if shift else [])
    settle(page)


def rename(page, index: int, name: str) -> None:
    field = page.locator("#players li input[type=text]").nth(index)
    field.fill(name)
    field.press("Enter")
    settle(page)


def total(page, player: str) -> int:
    return int(page.inner_text(f'#score tbody tr[data-player="{player}"] td.total'))


def build_rulebook_example(page) -> None:
    """You: home KY, then IN, WV, TN; Rival: home OH, then VA, MO."""
    rename(page, 0, "You")
    rename(page, 1, "Rival")
    click(page, "KY", shift=True)
    for state in ("IN", "WV", "TN"):
        click(page, state)
    page.keyboard.press("2")
    click(page, "OH", shift=True)
    for state in ("VA", "MO"):
        click(page, state)


def test_the_rulebook_example_by_clicks(page, tmp_path):
    build_rulebook_example(page)
    assert (total(page, "You"), total(page, "Rival")) == (39, 40)
    assert "winner" in page.get_attribute('#score tbody tr[data-player="Rival"]', "class")
    assert "projection, 7 of 36 states won" in page.inner_text("#status")
    # The ownership map says who holds what.
    assert page.get_attribute('g.tile[data-state="WV"]', "data-owner") == "You"
    assert page.get_attribute('g.tile[data-state="MO"]', "data-owner") == "Rival"
    assert page.get_attribute('g.tile[data-state="CA"]', "data-owner") == ""

    # Focus You: the diagram's roles, the explanation, where to play next.
    page.click('#score tbody tr[data-player="You"]')
    settle(page)
    roles = {
        state: page.get_attribute(f'g.tile[data-state="{state}"]', "data-role")
        for state in ("KY", "IN", "WV", "TN", "VA", "MO", "OH", "CA")
    }
    assert roles == {  # clicked IN, WV, TN: the core KY + IN + WV is won first
        "KY": "home",
        "IN": "core",
        "WV": "core",
        "TN": "region",
        "VA": "siege",
        "MO": "siege",
        "OH": "opponent",
        "CA": "unclaimed",
    }
    explanation = page.inner_text("#explain")
    assert "Core: KY + IN + WV" in explanation and "+ TN joins" in explanation
    assert "Siege:\nMO held by Rival: −10\nVA held by Rival: −10" in explanation
    assert page.get_attribute('g.tile[data-state="VA"]', "data-gain") == "33"
    assert "VA from Rival: +33" in page.inner_text("#next")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "serve-page.png"), full_page=True)

    # Another rule set: the gentle siege gives You 49.
    page.select_option("#rules-select", "gentle-siege")
    settle(page)
    assert total(page, "You") == 49

    # Download the game: the command line scores it to the same figures.
    with page.expect_download() as download:
        page.click("#download")
    saved = tmp_path / "game.yaml"
    download.value.save_as(saved)
    scored = run_subprocess("score", str(saved), "--format", "json")
    assert scored.code == 0, scored.err
    totals = {p["name"]: p["total"] for p in json.loads(scored.out)["players"]}
    assert totals == {"You": 49, "Rival": 40}

    # The URL holds the position: a copied link reopens it.
    again = page.context.new_page()
    again.goto(page.url)
    settle(again)
    assert (total(again, "You"), total(again, "Rival")) == (49, 40)
    # still focused; under the gentle siege, winning VA lifts a 5 EV cut, not 10
    assert again.get_attribute('g.tile[data-state="VA"]', "data-gain") == "28"
    again.close()


def test_the_core_won_first_follows_the_click_order(page):
    """The page lists a player's states in the order they were clicked, so
    a tie between cores goes to the one clicked complete first."""
    rename(page, 0, "You")
    click(page, "KY", shift=True)
    for state in ("TN", "IN", "WV"):  # KY + IN + TN is complete at the second click
        click(page, state)
    page.keyboard.press("2")
    click(page, "OH", shift=True)
    page.keyboard.press("1")
    page.click('#score tbody tr[data-player="You"]')
    settle(page)

    def roles() -> dict[str, str]:
        return {
            state: page.get_attribute(f'g.tile[data-state="{state}"]', "data-role")
            for state in ("IN", "WV", "TN")
        }

    assert roles() == {"IN": "core", "TN": "core", "WV": "region"}
    click(page, "TN")  # unclaimed ...
    click(page, "TN")  # ... and won again: now listed after WV
    assert roles() == {"IN": "core", "WV": "core", "TN": "region"}
    assert "+ TN joins" in page.inner_text("#explain")


def test_undo_redo_and_homes_never_change_hands(page):
    build_rulebook_example(page)
    page.keyboard.press("1")
    click(page, "OH")  # Rival's home: refused
    assert page.get_attribute('g.tile[data-state="OH"]', "data-owner") == "Rival"
    assert "homes never change hands" in page.inner_text("#notice")
    click(page, "MO")  # taken from Rival
    assert page.get_attribute('g.tile[data-state="MO"]', "data-owner") == "You"
    click(page, "MO")  # clicked again: unclaimed
    assert page.get_attribute('g.tile[data-state="MO"]', "data-owner") == ""
    page.click("#undo")
    settle(page)
    assert page.get_attribute('g.tile[data-state="MO"]', "data-owner") == "You"
    page.keyboard.press("Control+z")
    settle(page)
    assert page.get_attribute('g.tile[data-state="MO"]', "data-owner") == "Rival"
    page.keyboard.press("Control+y")
    settle(page)
    assert page.get_attribute('g.tile[data-state="MO"]', "data-owner") == "You"


def test_players_can_be_added_and_compared_under_two_rule_sets(page):
    build_rulebook_example(page)
    page.click("#add-player")
    settle(page)
    assert page.locator("#players li").count() == 3
    assert "Set a home for Player 3" in page.inner_text("#status")
    click(page, "CA", shift=True)  # the new player is active
    assert page.get_attribute('g.tile[data-state="CA"]', "data-owner") == "Player 3"
    page.select_option("#compare-select", "gentle-siege")
    settle(page)
    header = page.inner_text("#score thead")
    assert "Total (gentle-siege)" in header and "Difference" in header
    row = page.inner_text('#score tbody tr[data-player="You"]')
    assert "49" in row and "+10" in row


def test_a_narrow_window_shows_every_column_and_both_winners(page):
    """At 1024 px, two rule sets compared: no column of the score table lies
    under the side panel (the table scrolls in its own column), the second
    rule set's winner is marked in the table, and a what-if's "4 -> 5" is
    one arrow that a line cannot break."""
    page.set_viewport_size({"width": 1024, "height": 768})
    build_rulebook_example(page)
    page.select_option("#compare-select", "gentle-siege")
    settle(page)
    page.click('#score tbody tr[data-player="You"]')
    settle(page)
    covered = page.evaluate(
        """() => [...document.querySelectorAll("#score th")].filter((th) => {
          th.scrollIntoView({block: "center", inline: "center"});
          const box = th.getBoundingClientRect();
          const seen = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return !th.contains(seen);
        }).map((th) => th.textContent)"""
    )
    assert covered == []
    # standard: Rival 40 beats You 39; the gentle siege: You 49 beats Rival 40
    assert "winner" in page.get_attribute('#score tbody tr[data-player="Rival"]', "class")
    assert "winner-b" in page.get_attribute('#score tbody tr[data-player="You"]', "class")
    marked = page.eval_on_selector(
        '#score tbody tr[data-player="You"] td.total-b',
        "cell => [cell.textContent, getComputedStyle(cell, '::after').content]",
    )
    assert marked == ["49", '" ★"']
    entry = page.inner_text('#next li[data-state="VA"]')
    assert "region 4 → 5 states: bonus +10" in entry


def test_a_broken_board_upload_shows_the_error_in_the_page(page):
    broken = b"name: broken\nstates:\n  A: {ev: 3, neighbors: [B]}\n"
    page.set_input_files(
        "#board-upload", files=[{"name": "broken.yaml", "mimeType": "text/yaml", "buffer": broken}]
    )
    page.wait_for_selector("#error:not([hidden])")
    message = page.inner_text("#error")
    assert message.startswith("evlogic: error: broken.yaml: line 3: states.A.neighbors[0]:")


def test_a_pasted_game_is_loaded(page):
    game = yaml.safe_load((RULEBOOK / "full-example.yaml").read_text())
    page.click("#paste-open")
    page.fill("#paste-text", yaml.safe_dump(game))
    page.click("#paste-load")
    settle(page)
    assert (total(page, "You"), total(page, "Rival")) == (39, 40)


# --- many clients at once -----------------------------------------------------------


def test_fifty_clients_twenty_requests_each_all_answered_correctly(server):
    """Every answer is the right report for its own position; none is lost."""
    base = yaml.safe_load((RULEBOOK / "full-example.yaml").read_text())
    you, rival = base["players"]
    positions = [
        {"board": "usa", "players": [{**you, "states": [*you["states"], extra]}, rival]}
        for extra in ("CA", "TX", "FL", "NY", "PA", "GA", "NC", "MI", "AL", "WA")
    ]
    expected = [
        score_game(load_game_text(json.dumps(game), "expected", REPO)).to_dict()
        for game in positions
    ]
    answers: list[tuple[int, dict | str]] = []
    lock = threading.Lock()

    def client(number: int) -> None:
        for request in range(20):
            which = (number * 20 + request) % len(positions)
            data = json.dumps(positions[which]).encode()
            ask = urllib.request.Request(
                server + "api/score", data=data, headers={"Content-Type": "application/json"}
            )
            try:
                with urllib.request.urlopen(ask, timeout=120) as response:
                    result: dict | str = json.loads(response.read())
            except OSError as error:
                result = repr(error)
            with lock:
                answers.append((which, result))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 1000
    wrong = [(which, result) for which, result in answers if result != expected[which]]
    assert wrong == []


# --- hostile names: text, never markup ------------------------------------------------

#: Each payload runs script if it is ever parsed as HTML or SVG markup.
XSS = [
    '<img src=x onerror="window.__xss=(window.__xss||0)+1">',
    '</script><svg onload="window.__xss=(window.__xss||0)+1"></svg>',
    '"><image href="x" onerror="window.__xss=(window.__xss||0)+1"/>',
    "'><b id=injected>bold</b>",
]


def hostile_board() -> bytes:
    ids = ["A" + XSS[0], "B" + XSS[2], "C" + XSS[3]]
    states = {
        ids[0]: {"ev": 3, "name": "n" + XSS[1], "neighbors": [ids[1], ids[2]], "hex": [0, 0]},
        ids[1]: {"ev": 4, "name": "m" + XSS[0], "neighbors": [ids[0], ids[2]], "hex": [1, 0]},
        ids[2]: {"ev": 5, "name": "o" + XSS[2], "neighbors": [ids[0], ids[1]], "hex": [0, 1]},
    }
    return yaml.safe_dump({"name": "board" + XSS[1], "states": states}).encode()


def no_markup_ran(page) -> None:
    assert page.evaluate("window.__xss === undefined")
    assert page.locator("#injected").count() == 0
    assert page.locator("img").count() == 0
    assert page.locator("image").count() == 0


def test_names_and_ids_from_an_uploaded_board_and_players_are_text(page):
    """Player names, state ids and names and the board's name from an
    uploaded board are shown as text on the map, in the table, in the
    explanation and in error lines: never parsed as HTML or SVG."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.set_input_files(
        "#board-upload",
        files=[
            {"name": "evil" + XSS[3] + ".yaml", "mimeType": "text/yaml", "buffer": hostile_board()}
        ],
    )
    page.wait_for_function(
        "document.querySelectorAll('g.tile[data-state]').length === 3"
        " || !document.getElementById('error').hidden"
    )
    assert page.locator("#error").is_hidden(), page.inner_text("#error")
    settle(page)
    ids = page.eval_on_selector_all(
        "g.tile[data-state]", "tiles => tiles.map(t => t.dataset.state)"
    )
    assert sorted(ids) == ["A" + XSS[0], "B" + XSS[2], "C" + XSS[3]]
    rename(page, 0, "P" + XSS[0])
    rename(page, 1, "Q" + XSS[2])

    def click_state(state_id: str, shift: bool = False) -> None:
        tile = page.locator("g.tile[data-state]").nth(ids.index(state_id))
        tile.dispatch_event("click", {"shiftKey": shift})  # long labels overlap: no pointer
        settle(page)

    click_state(ids[0], shift=True)
    click_state(ids[1])
    page.keyboard.press("2")
    click_state(ids[2], shift=True)
    page.locator("#score tbody tr").first.click()  # focus: the server's SVG and the explanation
    settle(page)
    page.wait_for_selector("#explain h2")
    table = page.inner_text("#score")
    assert "P" + XSS[0] in table and "Q" + XSS[2] in table
    assert XSS[0] in page.inner_text("#explain")  # a state id, quoted as text
    no_markup_ran(page)

    # an error line that quotes hostile text
    broken = ("states:\n  X: {ev: 3, neighbors: ['" + XSS[0].replace("'", "''") + "']}\n").encode()
    page.set_input_files(
        "#board-upload", files=[{"name": "broken.yaml", "mimeType": "text/yaml", "buffer": broken}]
    )
    page.wait_for_selector("#error:not([hidden])")
    assert XSS[0][:20] in page.inner_text("#error")
    no_markup_ran(page)
    assert dialogs == []
