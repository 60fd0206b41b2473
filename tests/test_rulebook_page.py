"""evlogic rulebook: the page's numbers are score's, for every bundled rule
set; --against marks exactly what differs; a placeholder nothing fills is
one line naming the template's line; the page prints and opens."""

from __future__ import annotations

import html
import importlib.util
import re
import shutil
import subprocess

import pytest

from conftest import REPO
from evlogic.loading.games import load_game
from evlogic.loading.rulesets import bundled_rule_sets, load_rule_set
from evlogic.reports.explain import explain_game
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
    page = re.sub(r"</?mark[^>]*>", "", page)  # inline: a mark is no word break
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def signed(number: int) -> str:
    return f"+{number}" if number > 0 else str(number).replace("-", "\u2212")


def score(name: str, rules: str) -> dict:
    game = load_game(SCENARIOS / f"{name}.yaml", rules=load_rule_set(rules))
    return {p.name: p for p in score_game(game).players}


#: Every bundled rule set, the example ones (examples/, docs/formats.md) and
#: one a user might write that takes every branch the others do not.
RULE_SETS = [*sorted(bundled_rule_sets()), "small-board", "home-bonus", "stern"]


@pytest.fixture(scope="module")
def rule_set_files(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("rule-sets")
    (folder / "home-bonus.lp").write_text("face_value(G, P, home_bonus, 5) :- home(G, P, _).\n")
    (folder / "home-bonus.yaml").write_text(
        "name: home-bonus\nextends: standard\nprograms: [home-bonus.lp]\n"
    )
    # No bonus below 4 states, no siege, no multiplier, four links to join.
    (folder / "stern.yaml").write_text(
        "name: stern\nextends: standard\ntiers: {4: 20, 5: 30}\nsiege_penalty: 0\n"
        "swing_multiplier: 1\nlinks_needed: 4\n"
    )
    files = {name: name for name in bundled_rule_sets()}
    files["small-board"] = str(REPO / "examples" / "lakeland" / "small-board.yaml")
    files["home-bonus"] = str(folder / "home-bonus.yaml")
    files["stern"] = str(folder / "stern.yaml")
    return files


def section_of(page: str, scenario: str) -> tuple[str, str]:
    """The heading and the words of the page's section on ``scenario``."""
    found = re.search(
        rf'<section[^>]*data-scenario="{scenario}"[^>]*>(.*?)</section>', page, flags=re.S
    )
    assert found, scenario
    heading = re.search(r"<h3[^>]*>(.*?)</h3>", found[1], flags=re.S)
    return (text_of(heading[1]) if heading else ""), text_of(found[1])


def ids_of(names: str, board) -> set[str]:
    """``Indiana, Kentucky and West Virginia`` as state ids."""
    by_name = {state.name: state.id for state in board.states.values()}
    return {by_name[name] for name in re.split(r", | and ", names)}


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("against", [None, "standard"])
def test_every_scenario_says_what_explain_answers(cli, rule_set_files, rules, against):
    """Each scenario's prose follows explain's answer for it under the rule
    set: the core, which states join and on which links, which are left out
    and why, the heading over a left-out state, the siege arithmetic; and
    the page's one legend names what its diagrams draw."""
    args = ["--against", against] if against else []
    page = page_of(cli, "--rules", rule_set_files[rules], *args)
    assert_one_legend_names_every_mark_drawn(page)
    rule_set = load_rule_set(rule_set_files[rules])
    for scenario in ("diagram-1-core", "diagram-2-tennessee", "diagram-3-missouri"):
        game = load_game(SCENARIOS / f"{scenario}.yaml", rules=rule_set)
        board, explained = game.board, explain_game(game, "You")
        you = explained.score
        name = {state.id: state.name for state in board.states.values()}
        heading, text = section_of(page, scenario)
        region = f"{' + '.join(you.region)} = {signed(you.region_bonus)} EV"
        if scenario == "diagram-1-core" and you.core:
            pair = f"{name[you.core[1]]} and {name[you.core[2]]} both border {name[you.home]}"
            assert pair in text
            assert " + ".join(you.core) in text
        for join in explained.joins:
            said = re.search(
                rf"{name[join.state]} borders (.+?): (\d+) region states?, at least the (\d+) "
                rf"it needs, so it joins\. The region grows to (.+?) EV\.",
                text,
            )
            assert said, (scenario, join)
            assert ids_of(said[1], board) == set(join.links)
            assert int(said[2]) == len(join.links)
            assert int(said[3]) == rule_set.links_needed
            assert f"{said[4]} EV" == region
        for left in explained.excluded:
            said = re.search(
                rf"{name[left.state]} borders (.+?) but no other region state: it has (\d+) "
                rf"connections? to the region, not the (\d+) it needs, so it does not join\. "
                rf"The region stays (.+?) EV\.",
                text,
            )
            assert said, (scenario, left)
            assert ids_of(said[1], board) == set(left.links)
            assert (int(said[2]), int(said[3])) == (len(left.links), left.needed)
            assert f"{said[4]} EV" == region
        joined = {join.state for join in explained.joins}
        for state in set(you.region) - set(you.core) - joined:  # another core's (union)
            assert f"{name[state]} completes a core of its own" in text
        if scenario == "diagram-3-missouri":
            assert ("does not count" in heading) == bool(explained.excluded), heading
            if "MO" in joined:
                assert "Missouri joins" in heading
    game = load_game(SCENARIOS / "diagram-4-siege.yaml", rules=rule_set)
    explained = explain_game(game, "You")
    you, cost = explained.score, {s.state: s.penalty for s in explained.siege}
    _, text = section_of(page, "diagram-4-siege")
    arithmetic = f"{signed(you.region_bonus)} EV regional bonus" + "".join(
        f" \u2212 {cost.get(state, 0)} EV ({state})" for state in you.siege
    )
    assert f"{arithmetic} = {signed(you.net_bonus)} EV net bonus" in text
    if you.siege and you.region_bonus and you.siege_penalty:
        cut = round(100 * (you.region_bonus - you.net_bonus) / you.region_bonus)
        assert f"cut the bonus by {cut}%" in text
    else:
        assert "cut the bonus by" not in text
    if rule_set.siege_penalty == 0:
        assert "costs nothing" in text


MARKS_DRAWN = {
    "role": re.compile(r'<g class="tile" data-state="[^"]+" data-role="([a-z]+)"'),
    "link": re.compile(r'data-link="([a-z]+)"'),
    "bridge": re.compile(r"data-bridge="),
    "wall": re.compile(r"data-wall="),
    "value": re.compile(r'data-value="([a-z]+)"'),
}


def assert_one_legend_names_every_mark_drawn(page: str) -> None:
    """The page's one legend names every mark its four diagrams draw (read
    from their data- attributes) and nothing else."""
    figures = re.findall(r"<figure>.*?</figure>", page, flags=re.S)
    assert len(figures) == 4
    drawn: set[str] = set()
    for figure in figures:
        assert 'class="legend' not in figure  # no legend of its own
        drawn |= set(MARKS_DRAWN["role"].findall(figure))
        drawn |= {f"link-{kind}" for kind in MARKS_DRAWN["link"].findall(figure)}
        drawn |= {kind for kind in ("bridge", "wall") if MARKS_DRAWN[kind].search(figure)}
        drawn |= {f"value-{kind}" for kind in MARKS_DRAWN["value"].findall(figure)}
    legends = re.findall(r'<aside class="legend".*?</aside>', page, flags=re.S)
    assert len(legends) == 1
    named = re.findall(r'<li data-mark="([a-z-]+)">.*?<span>(.+?)</span></li>', legends[0])
    assert {mark for mark, _ in named} == drawn
    assert {"home", "core", "link-core", "bridge", "wall"} <= drawn  # the page's own marks
    assert all(words.strip() for _, words in named)
    assert len(named) == len({mark for mark, _ in named})


@pytest.mark.slow
def test_the_subtitle_says_when_nothing_differs(cli, tmp_path):
    (tmp_path / "mine.yaml").write_text("name: mine\nextends: standard\n")
    for rules, against in (("standard", "standard"), (tmp_path / "mine.yaml", "standard")):
        page = page_of(cli, "--rules", rules, "--against", against)
        assert MARK.findall(page) == [] and 'class="diagram"' not in page
        subtitle = text_of(re.search(r'<p class="subtitle">(.*?)</p>', page, flags=re.S)[1])
        assert "identical to standard" in subtitle and "differ from" not in subtitle
    page = page_of(cli, "--rules", "open-region", "--against", "standard")
    subtitle = text_of(re.search(r'<p class="subtitle">(.*?)</p>', page, flags=re.S)[1])
    assert "marked where they differ from standard" in subtitle


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
    assert page_of(cli, "--rules", rules).count('role="img"') == 4  # the diagrams


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


@pytest.mark.browser
@pytest.mark.parametrize("rules", RULE_SETS)
def test_the_page_prints_on_two_a4_pages_at_most(cli, tmp_path, rule_set_files, rules):
    """Printed with --against (the longer page: its marks and the notes under
    marked diagrams), every bundled and example rule set: A4, two pages."""
    for tool in ("chromium", "pdfinfo"):
        if shutil.which(tool) is None:
            pytest.fail(f"the PDF test needs {tool}: apt-get install -y chromium poppler-utils")
    pdf = tmp_path / "page.pdf"
    against = "open-region" if rules == "standard" else "standard"
    result = cli(
        "rulebook",
        "--rules",
        rule_set_files[rules],
        "--against",
        against,
        "--pdf",
        pdf,
        "-o",
        tmp_path / "page.html",
    )
    assert result.code == 0, result.err
    assert pdf.read_bytes().startswith(b"%PDF")
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M)[1])
    assert 1 <= pages <= 2
    width, height = map(float, re.search(r"^Page size:\s+([\d.]+) x ([\d.]+)", info, re.M).groups())
    assert abs(width - 595) < 1 and abs(height - 842) < 1


@pytest.mark.browser
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
        assert page.locator(".legend").count() == 1  # one legend for the page
        # Printed: body text at 9 pt or more, no figure, table or step cut
        # by a page break.
        page.emulate_media(media="print")
        smallest = page.evaluate(
            """() => Math.min(...[...document.querySelectorAll(
                 'p, li, td, th, caption, figcaption, h1, h2, h3')]
               .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
        )
        assert smallest >= 12  # CSS pixels: 9 pt
        unbroken = page.evaluate(
            """() => [...document.querySelectorAll('figure, table, .step, .legend')]
               .every(e => getComputedStyle(e).breakInside === 'avoid')"""
        )
        assert unbroken
        page.emulate_media(media="screen")
        shot = tmp_path / "page.png"
        page.screenshot(path=str(shot), full_page=True)
        assert requests == [page_file.as_uri()]  # self-contained: nothing else is fetched
        if importlib.util.find_spec("axe_playwright_python") is not None:
            from test_web_access import serious

            assert serious(page) == []
        browser.close()
    assert shot.stat().st_size > 10_000


def test_the_docs_show_the_standard_page():
    assert (REPO / "docs" / "rulebook-standard.png").is_file()
    assert "rulebook-standard.png" in (REPO / "docs" / "rulebook.md").read_text()
