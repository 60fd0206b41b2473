"""`evlogic diagram`: the SVG parsed and checked; layouts; the gallery."""

from __future__ import annotations

import importlib.util
import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO, RULEBOOK, board_dict
from evlogic.drawing.diagram import render_svg
from evlogic.drawing.gallery import render_gallery
from evlogic.drawing.layout import board_layout, compute_layout, distance
from evlogic.loading.boards import load_board
from evlogic.loading.games import load_game
from evlogic.reports.explain import ROLES, explain_game
from strategies import as_game, positions

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tiles(root: ET.Element) -> dict[str, str]:
    found = {}
    for element in root.iter():
        if "data-state" in element.attrib:
            assert element.attrib["data-state"] not in found, "one element per state"
            found[element.attrib["data-state"]] = element.attrib["data-role"]
    return found


def label_lines(root: ET.Element) -> dict[str, list[str]]:
    """Each tile's label, its lines: in a region diagram the labels lie
    over the links (g.label[data-label]); the whole table keeps them in the
    tiles."""
    found = {
        group.attrib["data-label"]: [t.text for t in group.iter(f"{SVG}text")]
        for group in root.iter(f"{SVG}g")
        if "data-label" in group.attrib
    }
    for tile in root.iter(f"{SVG}g"):
        if "data-state" in tile.attrib and tile.attrib["data-state"] not in found:
            found[tile.attrib["data-state"]] = [t.text for t in tile.iter(f"{SVG}text")]
    return found


def label_text(root: ET.Element, state: str) -> ET.Element:
    """The first text element of ``state``'s label (its name)."""
    for group in root.iter(f"{SVG}g"):
        if group.attrib.get("data-label") == state or (
            group.attrib.get("data-state") == state and group.find(f"{SVG}text") is not None
        ):
            text = group.find(f"{SVG}text")
            assert text is not None
            return text
    raise AssertionError(f"no label for {state}")


def legend(root: ET.Element) -> dict[str, str]:
    return {
        item.attrib["data-role"]: "".join(item.itertext()).strip()
        for item in root.iter(f"{SVG}g")
        if item.attrib.get("class") == "legend-item"
    }


def caption(root: ET.Element) -> str:
    """The caption, its lines joined (it wraps to the drawing's width)."""
    return " ".join(t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "caption")


def test_full_example_diagram(cli, tmp_path):
    out = tmp_path / "full.svg"
    result = cli("diagram", RULEBOOK / "full-example.yaml", "--player", "You", "-o", out)
    assert result.code == 0, result.err
    root = parse(out.read_text())
    roles = tiles(root)
    assert len(roles) == 51  # the whole board by default
    assert roles["KY"] == "home"
    assert {s for s, r in roles.items() if r == "core"} == {"IN", "WV"}  # won first
    assert roles["TN"] == "region"
    assert {s for s, r in roles.items() if r == "siege"} == {"MO", "VA"}
    assert roles["OH"] == "opponent"
    assert roles["CA"] == "unclaimed"
    assert legend(root) == {
        "home": "Home (KY)",
        "core": "Core region",
        "region": "Your region",
        "siege": "Opponent siege states",
        "opponent": "Opponent states",
        "unclaimed": "Unclaimed",
    }
    assert caption(root) == "+25 EV regional bonus − 10 EV (MO) − 10 EV (VA) = +5 EV net bonus"
    for tile in root.iter(f"{SVG}g"):
        if "data-state" in tile.attrib:
            assert tile.find(f"{SVG}title") is not None
            assert label_text(root, tile.attrib["data-state"]).text == tile.attrib["data-state"]


@pytest.mark.parametrize("scenario", sorted(p.stem for p in RULEBOOK.glob("*.yaml")))
def test_the_legend_names_the_links_drawn(cli, scenario):
    """Core, join and lone links each get a legend line when drawn, and
    only then (a link is a line across a border, never a wall or bridge)."""
    root = parse(
        cli("diagram", RULEBOOK / f"{scenario}.yaml", "--player", "You", "--focus", "-o", "-").out
    )
    drawn = {e.attrib["data-link"] for e in root.iter() if "data-link" in e.attrib}
    named = {
        item.attrib["data-link-kind"]
        for item in root.iter(f"{SVG}g")
        if item.attrib.get("class") == "legend-link"
    }
    assert named == drawn and "core" in drawn


def test_missouri_diagram_draws_the_lone_link_and_crops(cli):
    result = cli(
        "diagram", RULEBOOK / "diagram-3-missouri.yaml", "--player", "You", "--focus", "-o", "-"
    )
    assert result.code == 0, result.err
    root = parse(result.out)
    assert set(tiles(root)) == {"KY", "IN", "MO", "TN", "VA", "WV"}
    assert legend(root)["excluded"] == "One link only — excluded"
    assert legend(root)["unclaimed"] == "Not in region"
    lines = [line.attrib for line in root.iter(f"{SVG}line") if "data-from" in line.attrib]
    assert {(a["data-from"], a["data-to"]) for a in lines if "lone" in a["class"]} == {("KY", "MO")}
    assert caption(root) == "+15 EV regional bonus"


def test_png_output(cli, tmp_path):
    if importlib.util.find_spec("cairosvg") is None:
        pytest.skip("cairosvg (the png extra) is not installed")
    out = tmp_path / "full.png"
    assert cli("diagram", RULEBOOK / "full-example.yaml", "--player", "You", "-o", out).code == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_diagram_is_deterministic():
    game = load_game(RULEBOOK / "full-example.yaml")
    first = render_svg(explain_game(game, "You"), game.board)
    second = render_svg(explain_game(game, "You"), game.board)
    assert first == second


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.data())
def test_random_diagrams_have_one_tile_per_state_and_a_true_legend(position, data):
    board, players = position
    me = data.draw(st.integers(0, len(players) - 1))
    game = as_game(board, players)
    explained = explain_game(game, players[me]["name"])
    root = parse(render_svg(explained, game.board))
    roles = tiles(root)
    assert roles == explained.roles
    assert set(roles.values()) <= set(ROLES)
    assert set(legend(root)) == set(roles.values())
    score = explained.score
    words = caption(root)
    if score.core:
        assert words.startswith(f"+{score.region_bonus} EV regional bonus")
        if score.siege:
            assert words.endswith(f"= {score.net_bonus:+d} EV net bonus") or "never below" in words
    else:
        assert words.startswith("No core")


# --- layouts ---------------------------------------------------------------


def test_usa_layout_puts_kentucky_among_its_rulebook_neighbours():
    board = load_board(REPO / "maps" / "usa.yaml")
    cells = board_layout(board)
    ring = {s for s in cells if distance(cells[s], cells["KY"]) == 1}
    assert {"IN", "MO", "TN", "VA", "WV"} <= ring
    assert len(set(cells.values())) == 51


def test_computed_layout_places_every_state_once_and_neighbours_close(write_game, tmp_path):
    edges = [(f"S{i}", f"S{i + 1}") for i in range(9)] + [("S0", "S2"), ("X", "Y")]
    board_file = write_game(board_dict(edges, states=["Lonely"]), [{"name": "A", "home": "S0"}])
    board = load_board(board_file.parent / "board.yaml")
    cells = compute_layout(board)
    assert set(cells) == set(board.states)
    assert len(set(cells.values())) == len(cells)
    assert distance(cells["X"], cells["Y"]) == 1
    assert cells == compute_layout(board)


def test_two_states_on_one_tile_is_an_error(cli, tmp_path):
    (tmp_path / "board.yaml").write_text(
        "states:\n  A: {ev: 1, hex: [0, 0]}\n  B: {ev: 1, hex: [0, 0]}\n"
    )
    (tmp_path / "game.yaml").write_text("board: board.yaml\nplayers: [{name: P, home: A}]\n")
    result = cli("score", tmp_path / "game.yaml")
    assert result.code == 2
    assert "states.B.hex" in result.err and "also 'A'" in result.err


# --- the gallery -----------------------------------------------------------


def test_gallery_diagram_2_tells_the_rulebook_story(cli, tmp_path):
    """Diagram 2: the core KY + IN + WV (listed first, so won first), then
    Tennessee joins; drawn and explained so, through the command line."""
    scenario = RULEBOOK / "diagram-2-tennessee.yaml"
    out = tmp_path / "d2.svg"
    assert cli("diagram", scenario, "--player", "You", "--focus", "-o", out).code == 0
    root = parse(out.read_text())
    roles = tiles(root)
    assert roles["KY"] == "home"
    assert {s for s, r in roles.items() if r == "core"} == {"IN", "WV"}
    assert {s for s, r in roles.items() if r == "region"} == {"TN"}
    drawn = {
        (line.attrib["data-from"], line.attrib["data-to"], line.attrib["class"])
        for line in root.iter()
        if line.attrib.get("class", "").startswith("link ")
    }
    core_links = {frozenset((a, b)) for a, b, kind in drawn if kind == "link core"}
    assert core_links == {frozenset(p) for p in [("KY", "IN"), ("KY", "WV"), ("IN", "WV")]}
    joins = {(a, b) for a, b, kind in drawn if kind == "link join"}
    assert {b for _, b in joins} == {"TN"} and {a for a, _ in joins} < {"KY", "IN", "WV"}
    explained = cli("explain", scenario, "--player", "You").out
    assert "Core: KY + IN + WV: IN and WV both border KY and each other." in explained
    assert "+ TN joins: touches IN, KY, WV" in explained
    assert (REPO / "docs/gallery/diagram-2-tennessee.svg").read_text(encoding="utf-8") == (
        render_gallery()["diagram-2-tennessee.svg"]
    )


def test_gallery_is_up_to_date():
    """Regenerate with: python -m evlogic.drawing.gallery"""
    checked_in = {
        p.name: p.read_text(encoding="utf-8") for p in (REPO / "docs/gallery").glob("*.svg")
    }
    assert checked_in == render_gallery()


def test_the_gallery_parses_its_arguments_like_every_command(tmp_path, monkeypatch):
    """--help is help, not a folder named --help."""
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "evlogic.drawing.gallery", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "FOLDER" in done.stdout
    assert not (tmp_path / "--help").exists()
    wrong = subprocess.run(
        [sys.executable, "-m", "evlogic.drawing.gallery", "--bogus"], capture_output=True, text=True
    )
    assert wrong.returncode == 2 and not (tmp_path / "--bogus").exists()


# --- what tiles say, backgrounds, links, the whole table --------------------


def tile_labels(root: ET.Element) -> dict[str, str]:
    return {state: lines[1] for state, lines in label_lines(root).items()}


def test_tiles_say_what_the_state_scores_under_the_rule_set(cli, tmp_path):
    (tmp_path / "g.yaml").write_text(
        "board: usa\nrules: {extends: standard, swing_multiplier: 3}\n"
        "players:\n  - {name: You, home: NC, states: [VA, TN, GA]}\n"
        "  - {name: Rival, home: PA, states: [MI]}\n"
    )
    root = parse(cli("diagram", tmp_path / "g.yaml", "--player", "You", "-o", "-").out)
    labels = tile_labels(root)
    assert labels["NC"] == "16"  # a swing home scores face value
    assert labels["GA"] == "16×3"  # a won swing state, times the rule set's multiplier
    assert labels["PA"] == "19"  # a swing home, the rival's
    assert labels["AZ"] == "11×3"  # unclaimed: what winning it would score
    assert labels["KY"] == "8"
    notes = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "legend-note"]
    assert any(note.startswith("11×3: a swing state, worth 33 EV") for note in notes)
    assert any("A swing home scores its face value (NC, PA)" in note for note in notes)


def test_every_drawing_has_an_opaque_background_and_plain_wording(cli):
    for args in (("--player", "You"), ("--player", "You", "--focus"), ("--all",)):
        root = parse(cli("diagram", RULEBOOK / "full-example.yaml", *args, "-o", "-").out)
        background = next(
            r for r in root.iter(f"{SVG}rect") if r.attrib.get("class") == "background"
        )
        box = [float(v) for v in root.attrib["viewBox"].split()]
        assert background.attrib["fill"] == "#ffffff"
        assert [float(background.attrib[k]) for k in ("x", "y", "width", "height")] == box
        assert "'s region" not in root.find(f"{SVG}title").text


def link_segments(root: ET.Element) -> list[tuple[str, str, list[tuple[float, float]]]]:
    found = []
    for element in root.iter():
        if "data-from" not in element.attrib:
            continue
        if element.tag == f"{SVG}line":
            a = element.attrib
            points = [(float(a["x1"]), float(a["y1"])), (float(a["x2"]), float(a["y2"]))]
        else:
            points = [tuple(map(float, p.split(","))) for p in element.attrib["points"].split()]
        found.append((element.attrib["data-from"], element.attrib["data-to"], points))
    return found


def centres(root: ET.Element) -> dict[str, tuple[float, float]]:
    found = {}
    for tile in root.iter(f"{SVG}g"):
        if "data-state" in tile.attrib:
            text = label_text(root, tile.attrib["data-state"])
            found[tile.attrib["data-state"]] = (
                float(text.attrib["x"]),
                float(text.attrib["y"]) + 2,
            )
    return found


def segment_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ((dx * dx + dy * dy) or 1.0)))
    return ((px - ax - t * dx) ** 2 + (py - ay - t * dy) ** 2) ** 0.5


def assert_links_avoid_other_tiles(root: ET.Element) -> None:
    where = centres(root)
    for start, end, points in link_segments(root):
        for a, b in itertools.pairwise(points):
            for state, centre in where.items():
                if state not in (start, end):
                    assert segment_distance(centre, a, b) >= 15, (start, end, state)


def test_links_never_cross_another_tile(cli, tmp_path):
    """No link crosses a tile it does not join (WV-PA around OH), so a
    21-state region stays legible."""
    (tmp_path / "g.yaml").write_text(
        "board: usa\nplayers:\n  - {name: You, home: OH, states: [PA, WV, MI, IN, KY, TN, VA,"
        " NC, MD, DE, NJ, NY, IL, WI, MO, GA, SC, AL, MS, KS, IA]}\n"
        "  - {name: Rival, home: CA, states: [NV]}\n"
    )
    root = parse(cli("diagram", tmp_path / "g.yaml", "--player", "You", "-o", "-").out)
    assert len(link_segments(root)) > 20
    assert_links_avoid_other_tiles(root)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.data())
def test_random_diagrams_route_links_around_other_tiles(position, data):
    board, players = position
    me = data.draw(st.integers(0, len(players) - 1))
    game = as_game(board, players)
    assert_links_avoid_other_tiles(
        parse(render_svg(explain_game(game, players[me]["name"]), game.board))
    )


def test_the_whole_table(cli):
    result = cli("diagram", RULEBOOK / "full-example.yaml", "--all", "-o", "-")
    assert result.code == 0, result.err
    root = parse(result.out)
    owners = {
        tile.attrib["data-state"]: tile.attrib["data-owner"]
        for tile in root.iter(f"{SVG}g")
        if "data-state" in tile.attrib
    }
    assert len(owners) == 51
    assert {s for s, o in owners.items() if o == "You"} == {"KY", "IN", "WV", "TN"}
    assert {s for s, o in owners.items() if o == "Rival"} == {"OH", "VA", "MO"}
    assert owners["CA"] == ""
    outlines = [p.attrib["data-player"] for p in root.iter(f"{SVG}path")]
    assert outlines == ["You"]  # only You has a region
    rows = {
        row.attrib["data-player"]: [t.text for t in row.iter(f"{SVG}text")]
        for row in root.iter(f"{SVG}g")
        if row.attrib.get("class") == "score-row"
    }
    assert rows["You"][-1] == "39" and rows["Rival"][-1] == "40"
    assert rows["Rival"][0] == "Rival (winner)"


def test_diagram_needs_a_player_or_all(cli):
    for args in ((), ("--all", "--player", "You"), ("--all", "--focus")):
        result = cli("diagram", RULEBOOK / "full-example.yaml", *args, "-o", "-")
        assert result.code == 2 and len(result.err.splitlines()) == 1


CANNOT = (
    "diagram writes .svg or .png files "
    "(the format follows the extension; - writes to standard output)"
)


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("x.gif", [], f"-o: cannot write 'x.gif': {CANNOT}"),
        ("x.svgz", [], f"-o: cannot write 'x.svgz': {CANNOT}"),
        ("x.png", ["--format", "svg"], "-o: 'x.png' ends in .png, but --format is svg"),
        ("x.svg", ["--format", "png"], "-o: 'x.svg' ends in .svg, but --format is png"),
    ],
)
def test_an_output_name_the_format_does_not_match_is_refused(
    cli, tmp_path, monkeypatch, name, options, message
):
    """-o x.gif once wrote SVG into x.gif: a file its name lies about."""
    monkeypatch.chdir(tmp_path)
    args = ("diagram", RULEBOOK / "full-example.yaml", "--player", "You", "-o", name, *options)
    result = cli(*args)
    assert (result.code, result.out, result.err) == (2, "", f"evlogic: error: {message}\n")
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_the_extension_sets_the_format_in_any_case(cli, tmp_path):
    out = tmp_path / "x.SVG"
    result = cli("diagram", RULEBOOK / "full-example.yaml", "--player", "You", "-o", out)
    assert result.code == 0 and out.read_text().startswith("<svg")
    plain = tmp_path / "drawing"  # no extension: --format, or SVG
    result = cli("diagram", RULEBOOK / "full-example.yaml", "--all", "-o", plain)
    assert result.code == 0 and plain.read_text().startswith("<svg")


def test_png_scale_prints_sharply(cli, tmp_path):
    if importlib.util.find_spec("cairosvg") is None:
        pytest.skip("cairosvg (the png extra) is not installed")
    sizes = []
    for scale in ("1", "3"):
        out = tmp_path / f"x{scale}.png"
        result = cli(
            "diagram",
            RULEBOOK / "full-example.yaml",
            "--player",
            "You",
            "-o",
            out,
            "--scale",
            scale,
        )
        assert result.code == 0, result.err
        sizes.append(int.from_bytes(out.read_bytes()[16:20], "big"))  # the PNG's width
    assert sizes[1] == pytest.approx(3 * sizes[0], abs=3)
    assert (
        cli(
            "diagram", RULEBOOK / "full-example.yaml", "--player", "You", "-o", "-", "--scale", "2"
        ).code
        == 2
    )  # SVG scales by itself


def test_both_player_and_all_is_one_clear_error(cli, tmp_path):
    """Was 'give --player NAME or --all' when both were given."""
    game = Path(__file__).resolve().parents[1] / "examples" / "rulebook" / "full-example.yaml"
    result = cli("diagram", game, "--player", "You", "--all", "-o", tmp_path / "x.svg")
    assert result.code == 2
    assert result.err == (
        "evlogic: error: --all: draws every player: give it or --player NAME, not both\n"
    )


# --- bridges and walls: every border drawn is a border ---------------------


def drawn_pairs(root: ET.Element, attribute: str) -> set[tuple[str, str]]:
    pairs = set()
    for element in root.iter():
        if attribute in element.attrib:
            a, b = element.attrib[attribute].split(" ")
            assert a < b, "the two ids sorted"
            assert (a, b) not in pairs, "one element a pair"
            pairs.add((a, b))
    return pairs


def expected_exceptions(board, shown: set[str]) -> tuple[set, set]:
    """From the board and its layout, counted here: borders between tiles
    apart, and touching tiles that are not borders, among the shown states."""
    cells = board_layout(board)
    bridges, walls = set(), set()
    for a, b in itertools.combinations(sorted(shown), 2):
        border = b in board.states[a].neighbors
        touching = distance(cells[a], cells[b]) == 1
        if border and not touching:
            bridges.add((a, b))
        if touching and not border:
            walls.add((a, b))
    return bridges, walls


def bridge_segments(root: ET.Element) -> list[tuple[str, list[tuple[float, float]]]]:
    found = []
    for bridge in root.iter(f"{SVG}g"):
        if "data-bridge" in bridge.attrib:
            line = bridge.find(f"{SVG}polyline")
            points = [tuple(map(float, p.split(","))) for p in line.attrib["points"].split()]
            found.append((bridge.attrib["data-bridge"], points))
    return found


def drawings():
    """Every rulebook scenario and the walkthrough's game, each player, whole
    and cropped, and every player at once; every bundled board, whole."""
    games = [*sorted(RULEBOOK.glob("*.yaml")), REPO / "examples" / "lakeland" / "game.yaml"]
    for path in games:
        yield pytest.param(path, None, False, id=f"{path.stem}-all")
        for player in load_game(path).players:
            for focus in (False, True):
                yield pytest.param(
                    path, player.name, focus, id=f"{path.stem}-{player.name}-{focus}"
                )
    from evlogic.resources import bundled_boards

    for name in bundled_boards():
        yield pytest.param(name, None, False, id=f"board-{name}")


@pytest.mark.parametrize(("source", "player", "focus"), list(drawings()))
def test_bridges_and_walls_are_exactly_where_tiles_and_borders_disagree(
    cli, tmp_path, source, player, focus
):
    if isinstance(source, str):  # a bundled board: a game on it with one player
        board = load_board(source)
        game_file = tmp_path / "game.yaml"
        game_file.write_text(
            f"board: {source}\nplayers: [{{name: P, home: {min(board.states)}}}]\n"
        )
        args = ["--player", "P"]
    else:
        game_file = source
        args = ["--all"] if player is None else ["--player", player] + (["--focus"] * focus)
    result = cli("diagram", game_file, *args, "-o", "-")
    assert result.code == 0, result.err
    root = parse(result.out)
    board = load_game(game_file).board
    shown = set(centres(root))
    bridges, walls = expected_exceptions(board, shown)
    assert drawn_pairs(root, "data-bridge") == bridges
    assert drawn_pairs(root, "data-wall") == walls
    kinds = {
        item.attrib["data-exception"]
        for item in root.iter(f"{SVG}g")
        if item.attrib.get("class") == "legend-exception"
    }
    assert kinds == {kind for kind, pairs in (("bridge", bridges), ("wall", walls)) if pairs}
    # A bridge, and a link between tiles apart, keeps off every label (its
    # own tiles' too): 20 units from every tile's centre.
    where = centres(root)
    lines = [points for _, points in bridge_segments(root)]
    lines += [points for _, _, points in link_segments(root) if len(points) > 2]
    for points in lines:
        for a, b in itertools.pairwise(points):
            for centre in where.values():
                assert segment_distance(centre, a, b) >= 20


def test_the_rulebook_four_clique_is_drawn_with_a_bridge(cli):
    """KY, IN, WV and TN all touch each other: no hex grid has that, so the
    picture bridges at least one pair, and the TN link runs along it."""
    root = parse(
        cli("diagram", RULEBOOK / "full-example.yaml", "--player", "You", "--focus", "-o", "-").out
    )
    clique = {frozenset(p) for p in itertools.combinations(["IN", "KY", "TN", "WV"], 2)}
    bridged = {frozenset(p) for p in drawn_pairs(root, "data-bridge")}
    assert bridged & clique
    legend_text = " ".join(
        "".join(item.itertext())
        for item in root.iter(f"{SVG}g")
        if item.attrib.get("class") == "legend-exception"
    )
    assert "Dotted bridge: neighbours whose tiles do not touch" in legend_text


def test_the_whole_table_marks_swing_states_as_every_diagram_does(cli):
    root = parse(cli("diagram", RULEBOOK / "full-example.yaml", "--all", "-o", "-").out)
    labels = tile_labels(root)
    assert labels["PA"] == "19×2"  # unclaimed swing: what winning it scores
    assert labels["KY"] == "8"
    mine = parse(cli("diagram", RULEBOOK / "full-example.yaml", "--player", "You", "-o", "-").out)
    assert tile_labels(mine) == labels
    rings = [p for p in root.iter(f"{SVG}polygon") if p.attrib.get("class") == "home-ring"]
    assert len(rings) == 2 and all(p.attrib["stroke"] == "#ffffff" for p in rings)
    outlines = {p.attrib.get("stroke-width") for p in root.iter(f"{SVG}polygon")}
    assert "4" not in outlines  # no heavy black tile outline, like a region's


def test_the_score_table_has_no_blank_column(cli):
    root = parse(cli("diagram", RULEBOOK / "full-example.yaml", "--all", "-o", "-").out)
    table = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "score-table")
    header = table.findall(f"{SVG}text")[:6]
    cells = [[t.text for t in row.iter(f"{SVG}text")] for row in table.findall(f"{SVG}g")]
    starts = [float(t.attrib["x"]) for t in header]
    for column, (a, b) in enumerate(itertools.pairwise(starts)):
        widest = max(len(header[column].text), *(len(row[column]) for row in cells))
        assert b - a <= 8 * widest + 24, (header[column].text, b - a)  # Region: was 130
