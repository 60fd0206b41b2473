"""Region diagrams: an SVG hex map of one player's position.

Roles and links come from ``rules/explain/roles.lp`` (via :mod:`evlogic.reports.explain`);
this module only places tiles (:mod:`evlogic.drawing.layout`) and draws them.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable

from evlogic.drawing.layout import board_layout, distance
from evlogic.loading.boards import Board
from evlogic.loading.games import Game
from evlogic.reports.explain import ROLES, Explanation, explain_game

RADIUS = 30.0
MARGIN = 24.0
LEGEND_ROW = 22.0

# Okabe-Ito colours (safe for colour-blind readers); the two pairs that are
# close in grey (core/siege, region/excluded) also differ by pattern.
STYLE: dict[str, tuple[str, str, str | None]] = {  # fill, text, pattern
    "home": ("#0b2e4f", "#ffffff", None),
    "core": ("#0072b2", "#ffffff", None),
    "region": ("#56b4e9", "#000000", None),
    "excluded": ("#e69f00", "#000000", "dots"),
    "siege": ("#d55e00", "#ffffff", "hatch"),
    "opponent": ("#9a9a9a", "#000000", None),
    "unclaimed": ("#f2f2f2", "#333333", None),
}
LINK_STYLE = {
    "core": {"stroke": "#000000", "stroke-width": "3.5"},
    "join": {"stroke": "#333333", "stroke-width": "2.5"},
    "lone": {"stroke": "#7a0000", "stroke-width": "2.5", "stroke-dasharray": "6 4"},
}


def legend_label(role: str, explanation: Explanation) -> str:
    """The rulebook's words for a role in this picture."""
    if role == "home":
        return f"Home ({explanation.score.home})"
    if role == "core":
        return "Core region"
    if role == "region":
        return "Your region"
    if role == "excluded":
        if all(len(state.links) == 1 for state in explanation.excluded):
            return "One link only — excluded"
        return "Owned, not in region"
    if role == "siege":
        return "Opponent siege states"
    if role == "opponent":
        return "Opponent states"
    opponents = any(r in ("siege", "opponent") for r in explanation.roles.values())
    return "Unclaimed" if opponents else "Not in region"


def caption(explanation: Explanation) -> str:
    """The bonus arithmetic, as the rulebook writes it."""
    score = explanation.score
    if not score.core:
        text = "No core: no regional bonus"
        return text + (f" (siege: {', '.join(score.siege)})" if score.siege else "")
    text = f"+{score.region_bonus} EV regional bonus"
    if explanation.siege:
        cuts = "".join(f" − {s.penalty} EV ({s.state})" for s in explanation.siege)
        text += f"{cuts} = {score.net_bonus:+d} EV net bonus"
        if score.region_bonus < score.siege_penalty:
            text += " (never below zero)"
    return text


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    q, r = cell
    return (math.sqrt(3) * RADIUS * (q + r / 2), 1.5 * RADIUS * r)


def _hexagon(x: float, y: float) -> str:
    """The points attribute of a tile's polygon."""
    return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in _corners(x, y))


def _trimmed(
    a: tuple[float, float], b: tuple[float, float], trim: float
) -> tuple[float, float, float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    return (a[0] + ux * trim, a[1] + uy * trim, b[0] - ux * trim, b[1] - uy * trim)


def _patterns(defs: ET.Element) -> None:
    hatch = ET.SubElement(
        defs,
        "pattern",
        id="hatch",
        width="8",
        height="8",
        patternUnits="userSpaceOnUse",
        patternTransform="rotate(45)",
    )
    ET.SubElement(hatch, "rect", width="8", height="8", fill=STYLE["siege"][0])
    ET.SubElement(
        hatch,
        "line",
        {
            "x1": "0",
            "y1": "0",
            "x2": "0",
            "y2": "8",
            "stroke": "#000000",
            "stroke-width": "2.5",
            "stroke-opacity": "0.45",
        },
    )
    dots = ET.SubElement(
        defs, "pattern", id="dots", width="8", height="8", patternUnits="userSpaceOnUse"
    )
    ET.SubElement(dots, "rect", width="8", height="8", fill=STYLE["excluded"][0])
    ET.SubElement(
        dots,
        "circle",
        {"cx": "4", "cy": "4", "r": "1.6", "fill": "#000000", "fill-opacity": "0.55"},
    )


def _fill(role: str) -> str:
    pattern = STYLE[role][2]
    return f"url(#{pattern})" if pattern else STYLE[role][0]


def _wrap(text: str, width: float, font_size: float) -> list[str]:
    """``text`` in lines that fit ``width`` (no font metrics: 0.55 em a character)."""
    per_line = max(12, int(width / (0.55 * font_size)))
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _corners(x: float, y: float) -> list[tuple[float, float]]:
    return [
        (
            x + RADIUS * math.cos(math.radians(60 * i - 30)),
            y + RADIUS * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def _key(point: tuple[float, float]) -> tuple[int, int]:
    return (round(point[0] * 10), round(point[1] * 10))


def route(
    start: tuple[int, int], end: tuple[int, int], cells: Iterable[tuple[int, int]]
) -> list[tuple[float, float]]:
    """The points of a link from tile ``start`` to tile ``end`` (hex cells).

    Touching tiles: a short straight line between their centres.  Others: a
    path along tile edges (the shortest over the hex lattice around
    ``cells``), so a link never runs across another tile or its label; it
    leaves and enters its own tiles through their nearest corners."""
    a, b = _centre(start), _centre(end)
    if distance(start, end) == 1:
        x1, y1, x2, y2 = _trimmed(a, b, RADIUS * 0.55)
        return [(x1, y1), (x2, y2)]
    region = set(cells) | {start, end}
    qs = [q for q, _ in region]
    rs = [r for _, r in region]
    lattice = [
        (q, r) for q in range(min(qs) - 2, max(qs) + 3) for r in range(min(rs) - 2, max(rs) + 3)
    ]
    points: dict[tuple[int, int], tuple[float, float]] = {}
    edges: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for cell in lattice:
        ring = _corners(*_centre(cell))
        for i, corner in enumerate(ring):
            here, there = _key(corner), _key(ring[(i + 1) % 6])
            points.setdefault(here, corner)
            edges.setdefault(here, set()).add(there)
            edges.setdefault(there, set()).add(here)
    sources = {_key(c) for c in _corners(*a)}
    targets = {_key(c) for c in _corners(*b)}
    # Breadth-first from every corner of the start tile (all edges are as
    # long); ties go to corners in a fixed order, so drawings never flicker.
    previous: dict[tuple[int, int], tuple[int, int] | None] = {key: None for key in sorted(sources)}
    frontier = sorted(sources, key=lambda key: math.dist(points[key], b))
    found = None
    while frontier and found is None:
        following = []
        for key in frontier:
            if key in targets:
                found = key
                break
            for step in sorted(edges[key], key=lambda other: math.dist(points[other], b)):
                if step not in previous:
                    previous[step] = key
                    following.append(step)
        frontier = following
    if found is None:  # (cannot happen: the lattice is connected)
        return [a, b]
    path = []
    node: tuple[int, int] | None = found
    while node is not None:
        path.append(points[node])
        node = previous[node]
    path.reverse()
    inward = 0.55
    first = (a[0] + (path[0][0] - a[0]) * inward, a[1] + (path[0][1] - a[1]) * inward)
    last = (b[0] + (path[-1][0] - b[0]) * inward, b[1] + (path[-1][1] - b[1]) * inward)
    return [first, *path, last]


def _tile_text(tile: ET.Element, x: float, y: float, ink: str, name: str, value: str) -> None:
    """A tile's two lines: its name (bold) and its value underneath."""
    for line, dy, style in (
        (name, -2, {"font-size": "13", "font-weight": "bold"}),
        (value, 13, {"font-size": "10"}),
    ):
        place = {"x": f"{x:.1f}", "y": f"{y + dy:.1f}", "fill": ink, "text-anchor": "middle"}
        ET.SubElement(tile, "text", {**place, **style}).text = line


def _svg_root(left: float, top: float, width: float, height: float) -> ET.Element:
    """An SVG element with an opaque background (readable on a dark page)."""
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}",
            "width": f"{width:.0f}",
            "height": f"{height:.0f}",
            "role": "img",
            "font-family": "Helvetica, Arial, sans-serif",
        },
    )
    return svg


def _background(svg: ET.Element, left: float, top: float, width: float, height: float) -> None:
    ET.SubElement(
        svg,
        "rect",
        {
            "class": "background",
            "x": f"{left:.1f}",
            "y": f"{top:.1f}",
            "width": f"{width:.1f}",
            "height": f"{height:.1f}",
            "fill": "#ffffff",
        },
    )


def _label(state: str, explanation: Explanation, board: Board) -> str:
    """What a tile says its state is worth: the solver's value, and "EV×M"
    exactly when the score multiplies it (rules/explain/tile_value.lp)."""
    value, multiplier = explanation.worth.get(state, (board.states[state].ev, 1))
    return str(value) if multiplier == 1 else f"{board.states[state].ev}×{multiplier}"


def render_svg(explanation: Explanation, board: Board, focus: bool = False) -> str:
    """The diagram as SVG text (deterministic: same input, same bytes)."""
    cells = board_layout(board)
    score = explanation.score
    shown = sorted(board.states)
    if focus:
        near = {score.home, *board.states[score.home].neighbors, *score.states}
        shown = [state for state in shown if state in near]
    centres = {state: _centre(cells[state]) for state in shown}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    map_width = max(xs) - min(xs) + 2 * (RADIUS + MARGIN)
    width = max(map_width, 340.0)
    title = (
        f"{explanation.player}: {score.total} EV "
        f"({score.face_ev} face {score.net_bonus:+d} net bonus)"
    )
    title_lines = _wrap(title, width - 2 * MARGIN, 15)
    left = min(xs) - RADIUS - MARGIN - (width - map_width) / 2
    top = min(ys) - RADIUS - MARGIN - 8 - 20 * len(title_lines)
    present = [role for role in ROLES if role in {explanation.roles[s] for s in shown}]
    multiplied = sorted(s for s in shown if explanation.worth.get(s, (0, 1))[1] != 1)
    swing_homes = sorted(
        s
        for s in shown
        if board.states[s].swing
        and s not in multiplied
        and explanation.worth.get(s) is not None
        and s in _homes(explanation)
    )
    notes = _value_notes(explanation, board, multiplied, swing_homes)
    words = caption(explanation)
    caption_lines = _wrap(words, width - 2 * MARGIN, 14)
    legend_top = max(ys) + RADIUS + MARGIN
    rows = len(present) + len(notes)
    height = legend_top - top + LEGEND_ROW * rows + 20 * len(caption_lines) + MARGIN + 8

    svg = _svg_root(left, top, width, height)
    ET.SubElement(
        svg, "title"
    ).text = f"Region diagram for {explanation.player} on {board.name}: {words}"
    _patterns(ET.SubElement(svg, "defs"))
    _background(svg, left, top, width, height)
    for row, line in enumerate(title_lines):
        ET.SubElement(
            svg,
            "text",
            {"class": "heading"},
            x=f"{left + MARGIN:.1f}",
            y=f"{top + 22 + 20 * row:.1f}",
            **{"font-size": "15", "font-weight": "bold"},
        ).text = line

    holders = {
        state: player.name
        for player in explanation.report.players
        for state in (player.home, *player.states)
    }
    tiles = ET.SubElement(svg, "g", {"class": "tiles"})
    for state in shown:
        role = explanation.roles[state]
        info = board.states[state]
        x, y = centres[state]
        tile = ET.SubElement(tiles, "g", {"class": "tile", "data-state": state, "data-role": role})
        value = explanation.worth.get(state, (info.ev, 1))[0]
        held = f", held by {holders[state]}" if state in holders else ""
        swing = ", swing" if info.swing else ""
        ET.SubElement(
            tile, "title"
        ).text = f"{info.name} ({state}): {info.ev} EV{swing}, scores {value}{held} — {role}"
        ET.SubElement(
            tile,
            "polygon",
            {
                "points": _hexagon(x, y),
                "fill": _fill(role),
                "stroke": "#555555",
                "stroke-width": "1",
            },
        )
        _tile_text(tile, x, y, STYLE[role][1], state, _label(state, explanation, board))

    lines = ET.SubElement(svg, "g", {"class": "links", "fill": "none", "stroke-linecap": "round"})
    drawn = [cells[state] for state in shown]
    for link in explanation.links:
        if link.start in centres and link.end in centres:
            points = route(cells[link.start], cells[link.end], drawn)
            attributes = {
                "class": f"link {link.kind}",
                "data-from": link.start,
                "data-to": link.end,
            }
            if len(points) == 2:
                (x1, y1), (x2, y2) = points
                attributes.update(x1=f"{x1:.1f}", y1=f"{y1:.1f}", x2=f"{x2:.1f}", y2=f"{y2:.1f}")
                ET.SubElement(lines, "line", {**attributes, **LINK_STYLE[link.kind]})
            else:
                attributes["points"] = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
                attributes["stroke-linejoin"] = "round"
                ET.SubElement(lines, "polyline", {**attributes, **LINK_STYLE[link.kind]})

    legend = ET.SubElement(svg, "g", {"class": "legend", "font-size": "12"})
    for row, role in enumerate(present):
        y = legend_top + row * LEGEND_ROW
        item = ET.SubElement(legend, "g", {"class": "legend-item", "data-role": role})
        ET.SubElement(
            item,
            "rect",
            x=f"{left + MARGIN:.1f}",
            y=f"{y:.1f}",
            width="16",
            height="16",
            fill=_fill(role),
            stroke="#555555",
        )
        ET.SubElement(
            item, "text", x=f"{left + MARGIN + 24:.1f}", y=f"{y + 12.5:.1f}"
        ).text = legend_label(role, explanation)
    for row, note in enumerate(notes, start=len(present)):
        y = legend_top + row * LEGEND_ROW
        ET.SubElement(
            legend, "text", {"class": "legend-note"}, x=f"{left + MARGIN:.1f}", y=f"{y + 12.5:.1f}"
        ).text = note
    for row, line in enumerate(caption_lines):
        ET.SubElement(
            svg,
            "text",
            {
                "class": "caption",
                "x": f"{left + MARGIN:.1f}",
                "y": f"{legend_top + rows * LEGEND_ROW + 16 + 20 * row:.1f}",
                "font-size": "14",
            },
        ).text = line
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _homes(explanation: Explanation) -> set[str]:
    return {player.home for player in explanation.report.players}


def _value_notes(
    explanation: Explanation, board: Board, multiplied: list[str], swing_homes: list[str]
) -> list[str]:
    """Legend lines that say what a tile's number means, when it is not plain EV."""
    notes = []
    if multiplied:
        first = multiplied[0]
        value, multiplier = explanation.worth[first]
        notes.append(
            f"{board.states[first].ev}×{multiplier}: a swing state, worth {value} EV "
            f"to its holder (EV × {multiplier})"
        )
    if swing_homes:
        notes.append(f"A swing home scores its face value ({', '.join(swing_homes)})")
    return notes


def draw_diagram(game: Game, player: str, focus: bool = False) -> str:
    """``evlogic diagram``: ``player``'s position in ``game`` as SVG text."""
    return render_svg(explain_game(game, player), game.board, focus=focus)


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes at ``scale`` pixels per SVG unit, when the optional cairosvg
    is installed (``evlogic[png]``)."""
    import cairosvg  # optional extra

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
