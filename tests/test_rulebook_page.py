"""evlogic rulebook: the page's numbers are score's, for every bundled rule
set; --against marks exactly what differs; a placeholder nothing fills is
one line naming the template's line; the page prints and opens."""

from __future__ import annotations

import html
import re
import shutil

import pytest

from conftest import REPO
from evlogic.loading.games import load_game
from evlogic.loading.rulesets import bundled_rule_sets, load_rule_set
from evlogic.reports.score import score_game

SCENARIOS = REPO / "examples" / "rulebook"
MARK = re.compile(r'<mark title="([^"]*)">([^<]*)</mark>')


def page_of(cli, *args: str) -> str:
    result = cli("rulebook", *args)
    assert result.code == 0, result.err
    return result.out


def text_of(page: str) -> str:
    """The page's words: no diagrams, no tags, one space between words."""
    page = re.sub(r"<svg.*?</svg>", " ", page, flags=re.S)
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else str(number).replace("-", "\u2212")


def score(name: str, rules: str) -> dict:
    game = load_game(SCENARIOS / f"{name}.yaml", rules=load_rule_set(rules))
    return {p.name: p for p in score_game(game).players}


@pytest.mark.parametrize("rules", sorted(bundled_rule_sets()))
def test_every_number_on_the_page_is_the_solvers(cli, rules):
    text = text_of(page_of(cli, "--rules", rules))
    rule_set = load_rule_set(rules)
    for size, bonus in rule_set.tiers:
        row = rf"\b{size} (states|or more)( \(home \+ 2\))? {re.escape(signed(bonus))} EV"
        assert re.search(row, text), size
    assert f"Swing states score {rule_set.swing_multiplier} times" in text
    assert f"at least {rule_set.links_needed} state" in text
    core = score("diagram-1-core", rules)["You"]
    assert f"= {signed(core.region_bonus)} EV" in text
    tennessee = score("diagram-2-tennessee", rules)["You"]
    assert (
        f"Tennessee added ({len(tennessee.region)} states = {signed(tennessee.region_bonus)} EV)"
        in text
    )
    missouri = score("diagram-3-missouri", rules)["You"]
    if "MO" in missouri.region:
        assert "it joins" in text
    else:
        assert "It does not extend the bonus" in text
    siege = score("diagram-4-siege", rules)["You"]
    penalties = " ".join(f"\u2212 {rule_set.siege_penalty} EV ({s})" for s in siege.siege)
    arithmetic = (
        f"{signed(siege.region_bonus)} EV regional bonus {penalties} = {signed(siege.net_bonus)} EV"
    )
    assert arithmetic in text
    cut = round(100 * (siege.region_bonus - siege.net_bonus) / siege.region_bonus)
    assert f"cut the bonus by {cut}%" in text
    you = score("full-example", rules)["You"]
    assert f"face values {you.face_ev} EV" in text
    assert f"{len(you.region)}-state regional bonus {signed(you.region_bonus)} EV" in text
    assert f"each bordering KY) {signed(-you.siege_penalty)} EV" in text
    assert f"Total {you.total} EV" in text
    assert text.count("Diagram ") == 4
    assert page_of(cli, "--rules", rules).count("<svg") == 4


def test_against_marks_every_figure_that_differs_and_nothing_else(cli):
    assert MARK.findall(page_of(cli, "--rules", "standard", "--against", "standard")) == []
    page = page_of(cli, "--rules", "gentle-siege", "--against", "standard")
    marks = MARK.findall(page)
    assert ("standard: 10", "5") in marks  # the siege penalty
    assert ("standard: +5", "+15") in marks  # the siege example's net bonus
    assert ("standard: 80", "40") in marks  # its percentage
    assert ("standard: 39", "49") in marks  # the full example's total
    for title, shown in marks:
        assert title.split(": ", 1)[1] != shown
    assert 'class="diagram"' in page  # diagram 4's caption changes with the net bonus


def test_the_template_is_the_designers_to_write(cli, tmp_path):
    (tmp_path / "mine.yaml").write_text(
        (SCENARIOS / "full-example.yaml").read_text().replace("board: usa", "board: usa")
    )
    template = tmp_path / "page.html.j2"
    template.write_text(
        '{% set s = scenario("mine.yaml") %}<p>{{ s.you.total }} / {{ rules.siege_penalty }}'
        " / {{ s.player('Rival').face_ev }}</p>\n"
    )
    assert page_of(cli, "--template", template, "--rules", "gentle-siege") == "<p>49 / 5 / 40</p>\n"


@pytest.mark.parametrize(
    ("template", "says"),
    [
        ('<p>\n{{ scenario("nowhere").you.total }}</p>', "line 2: no scenario 'nowhere'"),
        ('{{ scenario("full-example").you.totl }}', "line 1: a scenario's player has no 'totl'"),
        ("{{ rules.siege }}", "line 1: the rule set has no 'siege'"),
        ('{{ scenario("full-example").player("Bob").total }}', "has no player 'Bob'"),
        ("\n\n{% if %}", "line 3"),
        ("{{ nothing }}", "'nothing' is undefined"),
    ],
)
def test_a_placeholder_nothing_fills_is_one_line_naming_the_template_line(
    cli, tmp_path, template, says
):
    path = tmp_path / "page.html.j2"
    path.write_text(template + "\n")
    result = cli("rulebook", "--template", path)
    assert result.code == 2
    assert result.out == ""
    assert len(result.err.strip().splitlines()) == 1
    assert says in result.err
    assert "page.html.j2" in result.err


def test_the_page_prints_to_an_a4_pdf(cli, tmp_path):
    if shutil.which("chromium") is None:
        pytest.fail("the PDF test needs Debian's chromium: apt-get install -y chromium")
    pdf = tmp_path / "page.pdf"
    result = cli("rulebook", "--pdf", pdf, "-o", tmp_path / "page.html")
    assert result.code == 0, result.err
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert boxes and all(abs(float(w) - 595) < 1 and abs(float(h) - 842) < 1 for w, h in boxes)


def test_the_page_opens_in_chromium_with_its_diagrams(cli, tmp_path):
    playwright = pytest.importorskip("playwright.sync_api")
    from test_web_browser import CHROMIUM_FLAGS, chromium_path

    page_file = tmp_path / "page.html"
    page_of(cli, "-o", page_file)
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        page = browser.new_page(viewport={"width": 900, "height": 1200})
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(page_file.as_uri())
        assert page.locator("h1").inner_text() == "Scoring & Regions"
        assert page.locator("figure svg").count() == 4
        box = page.locator("figure svg").first.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 150
        assert page.locator("table").count() == 3
        shot = tmp_path / "page.png"
        page.screenshot(path=str(shot), full_page=True)
        browser.close()
    assert shot.stat().st_size > 10_000
    assert requests == [page_file.as_uri()]  # self-contained: nothing else is fetched


def test_the_docs_show_the_standard_page():
    assert (REPO / "docs" / "rulebook-standard.png").is_file()
    assert "rulebook-standard.png" in (REPO / "docs" / "rulebook.md").read_text()
