"""Region diagrams: an SVG hex map of one player's position.

Roles and links come from ``rules/explain/roles.lp`` (via :mod:`evlogic.reports.explain`);
this module only places tiles (:mod:`evlogic.drawing.layout`) and draws them.
"""

from __future__ import annotations

import heapq
import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

from evlogic.drawing.layout import Cell, around, board_layout, distance
from evlogic.loading.boards import Board
from evlogic.loading.games import Game
from evlogic.reports.explain import ROLES, Explanation, explain_game

RADIUS = 30.0
MARGIN = 24.0
LEGEND_ROW = 22.0
#: The margin around a bare map (``legend=False``).
BARE_MARGIN = 8.0

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
#: A link crosses the border it stands for, centre towards centre, on a white
#: casing (it reads on the dark home tile); a wall lies along an edge and is
#: zig-zag, so the two never look alike.
LINK_STYLE = {
    "core": {"stroke": "#000000", "stroke-width": "4"},
    "join": {"stroke": "#444444", "stroke-width": "2.5"},
    "lone": {"stroke": "#7a0000", "stroke-width": "2.5", "stroke-dasharray": "5 3"},
}
LINK_CASING = {"stroke": "#ffffff", "stroke-linecap": "round", "stroke-linejoin": "round"}
#: What each kind of link is, as a legend says it.
LINK_WORDS = {
    "core": "Core link: a border inside the core",
    "join": "Join link: a border that let a state join",
    "lone": "Lone link: an excluded state's one border",
}
#: How far a link between touching tiles stops short of each centre (it
#: runs under the label, whose rim of the tile's colour keeps it clear).
LINK_TRIM = 0.3


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


def cell_centre(cell: tuple[int, int]) -> tuple[float, float]:
    """The drawing's point at the centre of axial cell ``(q, r)`` (tiles
    ``RADIUS`` from centre to corner, pointy side up)."""
    q, r = cell
    return (math.sqrt(3) * RADIUS * (q + r / 2), 1.5 * RADIUS * r)


def hex_points(x: float, y: float) -> str:
    """The points attribute of a tile's polygon."""
    return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in hex_corners(x, y))


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


def hex_corners(x: float, y: float) -> list[tuple[float, float]]:
    """The six corners of the tile centred at ``(x, y)``, clockwise from the
    upper right."""
    return [
        (
            x + RADIUS * math.cos(math.radians(60 * i - 30)),
            y + RADIUS * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]


def corner_key(point: tuple[float, float]) -> tuple[int, int]:
    """A corner as a key that tiles sharing it agree on (tenths, rounded)."""
    return (round(point[0] * 10), round(point[1] * 10))


Corner = tuple[int, int]  # a tile corner's corner_key


def route(
    start: tuple[int, int], end: tuple[int, int], cells: Iterable[tuple[int, int]]
) -> list[tuple[float, float]]:
    """The points of a link from tile ``start`` to tile ``end`` (hex cells).

    Touching tiles: a short straight line between their centres.  Others: a
    path along tile edges (the shortest over the hex lattice around
    ``cells``), so a link never runs across another tile or its label; it
    leaves and enters its own tiles through their nearest corners, and ends
    three quarters of the way in (:data:`TERMINAL`), short of their labels.
    A bridge (:func:`bridge_routes`) takes such a path too."""
    a, b = cell_centre(start), cell_centre(end)
    if distance(start, end) == 1:
        x1, y1, x2, y2 = _trimmed(a, b, RADIUS * LINK_TRIM)
        return [(x1, y1), (x2, y2)]
    return _Lattice([*cells, start, end]).path(start, end)


def bridge_routes(
    cells: dict[str, Cell],
    bridges: list[Pair],
    walls: list[Pair],
    avoid: Iterable[tuple[Cell, Cell]] = (),
) -> dict[Pair, list[tuple[float, float]]]:
    """The path of each bridge (from its first state to its second), along
    tile edges as :func:`route`'s; routed one after the other, each avoiding
    the edges and corners taken by those before it, the walls' edges and
    the edges between the cell pairs of ``avoid`` (region outlines) where a
    detour is short, so two lines seldom share a stretch."""
    lattice = _Lattice(cells.values())
    for a, b in walls:
        lattice.block(cells[a], cells[b])
    for here, there in avoid:
        lattice.block(here, there)
    routes = {}
    for a, b in bridges:
        routes[a, b] = lattice.path(cells[a], cells[b], claim=True)
    return routes


class _Lattice:
    """Tile corners and edges around some cells: where routed lines run."""

    def __init__(self, cells: Iterable[Cell]) -> None:
        region = set(cells)
        qs = [q for q, _ in region]
        rs = [r for _, r in region]
        self.points: dict[Corner, tuple[float, float]] = {}
        self.edges: dict[Corner, set[Corner]] = {}
        for q in range(min(qs) - 2, max(qs) + 3):
            for r in range(min(rs) - 2, max(rs) + 3):
                ring = hex_corners(*cell_centre((q, r)))
                for i, corner in enumerate(ring):
                    here, there = corner_key(corner), corner_key(ring[(i + 1) % 6])
                    self.points.setdefault(here, corner)
                    self.edges.setdefault(here, set()).add(there)
                    self.edges.setdefault(there, set()).add(here)
        self.cost: dict[tuple[Corner, Corner], int] = {}  # an edge's extra cost
        self.taken: set[Corner] = set()

    def block(self, a: Cell, b: Cell) -> None:
        """Make the edge between touching cells ``a`` and ``b`` dear (a wall)."""
        shared = sorted(
            {corner_key(c) for c in hex_corners(*cell_centre(a))}
            & {corner_key(c) for c in hex_corners(*cell_centre(b))}
        )
        if len(shared) == 2:
            self.cost[shared[0], shared[1]] = self.cost.get((shared[0], shared[1]), 0) + 4

    def _extra(self, here: Corner, there: Corner) -> int:
        low, high = (here, there) if here < there else (there, here)
        return self.cost.get((low, high), 0) + (3 if there in self.taken else 0)

    def path(self, start: Cell, end: Cell, claim: bool = False) -> list[tuple[float, float]]:
        """The cheapest path from a corner of ``start`` to one of ``end``
        (each edge costs 1, and its extra), with both terminals; a detour
        longer than twice the shortest path and two edges is not worth it,
        and the shortest is taken instead.  ``claim``: later paths pay for
        sharing its edges and corners.  Ties go the same way every time
        (drawings never flicker)."""
        a, b = cell_centre(start), cell_centre(end)
        keys = self._cheapest(a, b, extras=True)
        shortest = self._cheapest(a, b, extras=False)
        if len(keys) - 1 > 2 * (len(shortest) - 1) + 2:
            keys = shortest
        if claim:
            self.taken.update(keys)
            for here, there in itertools.pairwise(keys):
                low, high = (here, there) if here < there else (there, here)
                self.cost[low, high] = self.cost.get((low, high), 0) + 2
        path = [self.points[key] for key in keys]
        return [_terminal(a, path[0]), *path, _terminal(b, path[-1])]

    def _cheapest(
        self, a: tuple[float, float], b: tuple[float, float], extras: bool
    ) -> list[Corner]:
        """Dijkstra over the corners, from those of the tile at ``a`` to
        those of the tile at ``b``; ``extras``: edges cost their extra."""
        targets = {corner_key(c) for c in hex_corners(*b)}

        def towards(key: Corner) -> float:
            return round(math.dist(self.points[key], b), 1)

        queue = [(0, towards(k), k) for k in sorted({corner_key(c) for c in hex_corners(*a)})]
        heapq.heapify(queue)
        previous: dict[Corner, Corner | None] = {key: None for _, _, key in queue}
        best = {key: 0 for _, _, key in queue}
        found = queue[0][2]  # (replaced: the lattice is connected)
        while queue:
            cost, _, key = heapq.heappop(queue)
            if cost > best[key]:
                continue
            if key in targets:
                found = key
                break
            for step in sorted(self.edges[key]):
                total = cost + 1 + (self._extra(key, step) if extras else 0)
                if total < best.get(step, total + 1):
                    best[step] = total
                    previous[step] = key
                    heapq.heappush(queue, (total, towards(step), step))
        keys = []
        node: Corner | None = found
        while node is not None:
            keys.append(node)
            node = previous[node]
        keys.reverse()
        return keys


#: How far towards the corner it leaves by a routed line ends inside its own
#: tile: three quarters of the way out, clear of the tile's name and value.
TERMINAL = 0.75


def _terminal(centre: tuple[float, float], corner: tuple[float, float]) -> tuple[float, float]:
    return (
        centre[0] + (corner[0] - centre[0]) * TERMINAL,
        centre[1] + (corner[1] - centre[1]) * TERMINAL,
    )


#: Where the picture and the board disagree, as the legend words it: a
#: bridge is a border between tiles that do not touch, a wall an edge
#: between touching tiles whose states are not neighbours.  With both drawn,
#: every border in the picture is a border of the board and every touching
#: without a wall is one.
EXCEPTION_WORDS = {
    "bridge": "Dotted bridge: neighbours whose tiles do not touch",
    "wall": "Wall: the tiles touch, the states are not neighbours",
}
#: A bridge: a chain of dark beads on a broad white band, a ring at each
#: end; nothing else in a diagram is dotted or white-banded, so it never
#: reads as a tile's outline though it runs along tile edges.
BRIDGE_STYLE = {
    "stroke": "#222222",
    "stroke-width": "3.4",
    "stroke-dasharray": "0 6",
    "stroke-linecap": "round",
    "stroke-linejoin": "round",
    "fill": "none",
}
BRIDGE_CASING = {
    "stroke": "#ffffff",
    "stroke-width": "7",
    "stroke-linejoin": "round",
    "stroke-linecap": "round",
    "fill": "none",
}
BRIDGE_END = {"r": "4", "fill": "#ffffff", "stroke": "#222222", "stroke-width": "2.2"}
#: A wall: a black zig-zag on a white band, the whole length of the edge
#: (no outline, link or bridge zig-zags).
WALL_STYLE = (("#ffffff", "6"), ("#000000", "2.2"))
WALL_TOOTH = 7.0  # a tooth's length along the wall
WALL_AMPLITUDE = 3.2


def _zigzag(x1: float, y1: float, x2: float, y2: float) -> str:
    """The points of a wall from (x1, y1) to (x2, y2): a zig-zag across it."""
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    teeth = max(2, round(length / WALL_TOOTH))
    points = [(x1, y1)]
    for tooth in range(1, 2 * teeth):
        side = WALL_AMPLITUDE if tooth % 2 else -WALL_AMPLITUDE
        t = tooth / (2 * teeth)
        points.append((x1 + dx * t + nx * side, y1 + dy * t + ny * side))
    points.append((x2, y2))
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


Pair = tuple[str, str]


def exceptions(
    board: Board, cells: dict[str, Cell], shown: Iterable[str]
) -> tuple[list[Pair], list[Pair]]:
    """The bridges and walls among the ``shown`` states: borders whose tiles
    do not touch, and touching tiles that are not neighbours; each a sorted
    pair of ids, in order."""
    present = set(shown)
    bridges = {
        (s, t) if s < t else (t, s)
        for s in present
        for t in board.states[s].neighbors
        if t in present and distance(cells[s], cells[t]) != 1
    }
    owner = {cells[s]: s for s in present}
    walls = {
        (s, t) if s < t else (t, s)
        for s in present
        for cell in around(cells[s])
        if (t := owner.get(cell)) is not None and t not in board.states[s].neighbors
    }
    return sorted(bridges), sorted(walls)


def draw_exceptions(
    svg: ET.Element,
    board: Board,
    cells: dict[str, Cell],
    routes: dict[Pair, list[tuple[float, float]]],
    walls: list[Pair],
    between: Callable[[], None] | None = None,
) -> None:
    """Walls on their shared edges, then bridges along their routes
    (:func:`bridge_routes`), each ending in a ring inside its two tiles;
    ``between`` draws what runs along a bridge (its link): above the
    bridge's white band, under its beads."""
    group = ET.SubElement(svg, "g", {"class": "walls", "fill": "none"})
    for a, b in walls:
        shared = {corner_key(c): c for c in hex_corners(*cell_centre(cells[a]))}
        ends = [c for c in hex_corners(*cell_centre(cells[b])) if corner_key(c) in shared]
        x1, y1, x2, y2 = _trimmed(ends[0], ends[1], 1.5)
        wall = ET.SubElement(group, "g", {"class": "wall", "data-wall": f"{a} {b}"})
        ET.SubElement(wall, "title").text = (
            f"{board.states[a].name} and {board.states[b].name}: "
            "the tiles touch, but the states are not neighbours"
        )
        zigzag = _zigzag(x1, y1, x2, y2)
        for colour, width in WALL_STYLE:
            ET.SubElement(
                wall,
                "polyline",
                {
                    "points": zigzag,
                    "stroke": colour,
                    "stroke-width": width,
                    "stroke-linejoin": "miter",
                },
            )
    group = ET.SubElement(svg, "g", {"class": "bridges", "fill": "none"})
    beads: list[tuple[dict[str, str], list[tuple[float, float]]]] = []
    for (a, b), points in routes.items():
        bridge = ET.SubElement(group, "g", {"class": "bridge", "data-bridge": f"{a} {b}"})
        ET.SubElement(bridge, "title").text = (
            f"{board.states[a].name} and {board.states[b].name}: "
            "neighbours, though their tiles do not touch"
        )
        line = {"points": " ".join(f"{x:.1f},{y:.1f}" for x, y in points)}
        ET.SubElement(bridge, "polyline", {**line, **BRIDGE_CASING})
        beads.append((line, points))
    if between is not None:
        between()
    for (a, b), (line, points) in zip(routes, beads, strict=True):
        top = ET.SubElement(svg, "g", {"class": "bridge-beads", "data-of": f"{a} {b}"})
        ET.SubElement(top, "polyline", {**line, **BRIDGE_STYLE})
        for x, y in (points[0], points[-1]):
            ET.SubElement(top, "circle", {"cx": f"{x:.1f}", "cy": f"{y:.1f}", **BRIDGE_END})


def exception_sample(parent: ET.Element, kind: str, x: float, y: float) -> None:
    """A legend's 16-unit sample of a bridge or a wall, its top left at (x, y)."""
    ends = {"x1": f"{x:.1f}", "y1": f"{y + 8:.1f}", "x2": f"{x + 16:.1f}", "y2": f"{y + 8:.1f}"}
    if kind == "wall":
        points = _zigzag(x, y + 8, x + 16, y + 8)
        for colour, width in WALL_STYLE:
            ET.SubElement(
                parent,
                "polyline",
                {"points": points, "stroke": colour, "stroke-width": width, "fill": "none"},
            )
        return
    ET.SubElement(parent, "line", {**ends, **BRIDGE_CASING})
    ET.SubElement(parent, "line", {**ends, **BRIDGE_STYLE})
    for end in (x + 2, x + 14):
        ET.SubElement(parent, "circle", {"cx": f"{end:.1f}", "cy": f"{y + 8:.1f}", **BRIDGE_END})


def link_sample(parent: ET.Element, kind: str, x: float, y: float) -> None:
    """A legend's 18-unit sample of a link, its top left at (x, y)."""
    style = LINK_STYLE[kind]
    place = {
        "x1": f"{x + 1:.1f}",
        "y1": f"{y + 8:.1f}",
        "x2": f"{x + 17:.1f}",
        "y2": f"{y + 8:.1f}",
        "stroke-linecap": "round",
    }
    casing = {**LINK_CASING, "stroke-width": f"{float(style['stroke-width']) + 3:g}"}
    ET.SubElement(parent, "line", {**place, **casing})
    ET.SubElement(parent, "line", {**place, **style})


def tile_text(
    tile: ET.Element,
    x: float,
    y: float,
    ink: str,
    name: str,
    value: str,
    halo: str | None = None,
) -> None:
    """A tile's two lines: its name (bold) and its value underneath;
    ``halo``: a rim of the tile's colour round the letters, so lines
    drawn under the label stop short of it."""
    rim = (
        {"stroke": halo, "stroke-width": "3", "stroke-linejoin": "round", "paint-order": "stroke"}
        if halo
        else {}
    )
    for line, dy, style in (
        (name, -2, {"font-size": "13", "font-weight": "bold"}),
        (value, 13, {"font-size": "10"}),
    ):
        place = {"x": f"{x:.1f}", "y": f"{y + dy:.1f}", "fill": ink, "text-anchor": "middle"}
        ET.SubElement(tile, "text", {**place, **style, **rim}).text = line


def svg_root(left: float, top: float, width: float, height: float) -> ET.Element:
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


def draw_background(svg: ET.Element, left: float, top: float, width: float, height: float) -> None:
    """The drawing's opaque background rectangle, over the whole view box."""
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


def tile_label(state: str, worth: dict[str, tuple[int, int]], board: Board) -> str:
    """What a tile says its state is worth: the solver's value, and "EV×M"
    exactly when the score multiplies it (rules/explain/tile_value.lp)."""
    value, multiplier = worth.get(state, (board.states[state].ev, 1))
    return str(value) if multiplier == 1 else f"{board.states[state].ev}×{multiplier}"


def render_svg(
    explanation: Explanation, board: Board, focus: bool = False, legend: bool = True
) -> str:
    """The diagram as SVG text (deterministic: same input, same bytes).
    ``legend=False``: the map alone (no heading, legend or caption), for a
    page that has one legend for all its diagrams (:func:`marks_of` says
    what the map draws)."""
    cells = board_layout(board)
    score = explanation.score
    shown = sorted(board.states)
    if focus:
        near = {score.home, *board.states[score.home].neighbors, *score.states}
        shown = [state for state in shown if state in near]
    centres = {state: cell_centre(cells[state]) for state in shown}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    margin = MARGIN if legend else BARE_MARGIN
    map_width = max(xs) - min(xs) + 2 * (RADIUS + margin)
    width = max(map_width, 340.0) if legend else map_width
    title = (
        f"{explanation.player}: {score.total} EV "
        f"({score.face_ev} face {score.net_bonus:+d} net bonus)"
    )
    title_lines = _wrap(title, width - 2 * MARGIN, 15) if legend else []
    left = min(xs) - RADIUS - margin - (width - map_width) / 2
    top = min(ys) - RADIUS - margin - (8 + 20 * len(title_lines) if legend else 0)
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
    notes = value_notes(explanation.worth, board, multiplied, swing_homes) if legend else []
    bridges, walls = exceptions(board, cells, shown)
    kinds = [kind for kind, pairs in (("bridge", bridges), ("wall", walls)) if pairs]
    words = caption(explanation)
    caption_lines = _wrap(words, width - 2 * MARGIN, 14) if legend else []
    legend_top = max(ys) + RADIUS + margin
    link_kinds = [
        kind
        for kind in LINK_STYLE
        if any(
            link.kind == kind and link.start in centres and link.end in centres
            for link in explanation.links
        )
    ]
    rows = len(present) + len(link_kinds) + len(kinds) + len(notes) if legend else 0
    height = legend_top - top
    if legend:
        height += LEGEND_ROW * rows + 20 * len(caption_lines) + MARGIN + 8

    svg = svg_root(left, top, width, height)
    ET.SubElement(
        svg, "title"
    ).text = f"Region diagram for {explanation.player} on {board.name}: {words}"
    _patterns(ET.SubElement(svg, "defs"))
    draw_background(svg, left, top, width, height)
    _draw_heading(svg, title_lines, left, top)
    _draw_tiles(svg, explanation, board, shown, centres)
    shown_cells = {state: cells[state] for state in shown}
    routes = bridge_routes(shown_cells, bridges, walls)
    draw_exceptions(
        svg,
        board,
        shown_cells,
        routes,
        walls,
        between=lambda: _draw_links(svg, explanation, cells, shown_cells, routes),
    )
    _draw_labels(svg, explanation, board, shown, centres)
    if legend:
        key = ET.SubElement(svg, "g", {"class": "legend", "font-size": "12"})
        rows_of = (present, link_kinds, kinds, notes)
        _draw_legend(key, explanation, rows_of, left + MARGIN, legend_top)
        _draw_caption(svg, caption_lines, left + MARGIN, legend_top + rows * LEGEND_ROW + 16)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _draw_heading(svg: ET.Element, lines: list[str], left: float, top: float) -> None:
    """The diagram's heading (the player and their score), line by line."""
    for row, line in enumerate(lines):
        ET.SubElement(
            svg,
            "text",
            {"class": "heading"},
            x=f"{left + MARGIN:.1f}",
            y=f"{top + 22 + 20 * row:.1f}",
            **{"font-size": "15", "font-weight": "bold"},
        ).text = line


def _draw_tiles(
    svg: ET.Element,
    explanation: Explanation,
    board: Board,
    shown: list[str],
    centres: dict[str, tuple[float, float]],
) -> None:
    """A tile a shown state: its hexagon, coloured by role, and its tooltip."""
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
                "points": hex_points(x, y),
                "fill": _fill(role),
                "stroke": "#555555",
                "stroke-width": "1",
            },
        )
        if "×" in tile_label(state, explanation.worth, board):
            tile.set("data-value", "multiplied")


def _draw_links(
    svg: ET.Element,
    explanation: Explanation,
    cells: dict[str, Cell],
    shown_cells: dict[str, Cell],
    routes: dict[Pair, list[tuple[float, float]]],
) -> None:
    """The explanation's links between shown states (drawn between the
    bridges and the walls, :func:`draw_exceptions`)."""
    drawn = list(shown_cells.values())
    lines = ET.SubElement(svg, "g", {"class": "links", "fill": "none", "stroke-linecap": "round"})
    for link in explanation.links:
        if link.start not in shown_cells or link.end not in shown_cells:
            continue
        points = _along(routes, link.start, link.end) or route(
            cells[link.start], cells[link.end], drawn
        )
        attributes = {
            "class": f"link {link.kind}",
            "data-from": link.start,
            "data-to": link.end,
            "data-link": link.kind,
        }
        style = LINK_STYLE[link.kind]
        casing = {**LINK_CASING, "stroke-width": f"{float(style['stroke-width']) + 3:g}"}
        if len(points) == 2:
            (x1, y1), (x2, y2) = points
            place = {"x1": f"{x1:.1f}", "y1": f"{y1:.1f}", "x2": f"{x2:.1f}", "y2": f"{y2:.1f}"}
            ET.SubElement(lines, "line", {**place, **casing})
            ET.SubElement(lines, "line", {**attributes, **place, **style})
        else:
            line = {
                "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                "stroke-linejoin": "round",
            }
            ET.SubElement(lines, "polyline", {**attributes, **line, **style})


def _draw_labels(
    svg: ET.Element,
    explanation: Explanation,
    board: Board,
    shown: list[str],
    centres: dict[str, tuple[float, float]],
) -> None:
    """The tiles' labels, drawn last, over the links that run from centre to
    centre (a click on a label is a click on its tile: the serve page's
    tiles are buttons)."""
    labels = ET.SubElement(svg, "g", {"class": "labels", "pointer-events": "none"})
    for state in shown:
        role = explanation.roles[state]
        x, y = centres[state]
        label = ET.SubElement(labels, "g", {"class": "label", "data-label": state})
        words = tile_label(state, explanation.worth, board)
        tile_text(label, x, y, STYLE[role][1], state, words, halo=STYLE[role][0])


def _draw_legend(
    key: ET.Element,
    explanation: Explanation,
    rows_of: tuple[list[str], list[str], list[str], list[str]],
    x: float,
    top: float,
) -> None:
    """The legend, a row a mark: the roles present, the kinds of link, the
    exceptions (bridges, walls), then the notes on tile values."""
    present, link_kinds, kinds, notes = rows_of
    for row, role in enumerate(present):
        y = top + row * LEGEND_ROW
        item = ET.SubElement(key, "g", {"class": "legend-item", "data-role": role})
        ET.SubElement(
            item,
            "rect",
            x=f"{x:.1f}",
            y=f"{y:.1f}",
            width="16",
            height="16",
            fill=_fill(role),
            stroke="#555555",
        )
        ET.SubElement(item, "text", x=f"{x + 24:.1f}", y=f"{y + 12.5:.1f}").text = legend_label(
            role, explanation
        )
    for row, kind in enumerate(link_kinds, start=len(present)):
        y = top + row * LEGEND_ROW
        item = ET.SubElement(key, "g", {"class": "legend-link", "data-link-kind": kind})
        link_sample(item, kind, x, y)
        ET.SubElement(item, "text", x=f"{x + 24:.1f}", y=f"{y + 12.5:.1f}").text = LINK_WORDS[kind]
    for row, kind in enumerate(kinds, start=len(present) + len(link_kinds)):
        y = top + row * LEGEND_ROW
        item = ET.SubElement(key, "g", {"class": "legend-exception", "data-exception": kind})
        exception_sample(item, kind, x, y)
        ET.SubElement(item, "text", x=f"{x + 24:.1f}", y=f"{y + 12.5:.1f}").text = EXCEPTION_WORDS[
            kind
        ]
    for row, note in enumerate(notes, start=len(present) + len(link_kinds) + len(kinds)):
        y = top + row * LEGEND_ROW
        ET.SubElement(
            key, "text", {"class": "legend-note"}, x=f"{x:.1f}", y=f"{y + 12.5:.1f}"
        ).text = note


def _draw_caption(svg: ET.Element, lines: list[str], x: float, top: float) -> None:
    """The caption under the legend (what the diagram shows, in words)."""
    for row, line in enumerate(lines):
        ET.SubElement(
            svg,
            "text",
            {
                "class": "caption",
                "x": f"{x:.1f}",
                "y": f"{top + 20 * row:.1f}",
                "font-size": "14",
            },
        ).text = line


#: Every mark a region diagram draws, in a legend's order: the tiles' roles,
#: the three kinds of link, bridges, walls and a multiplied tile value.
MARKS = (
    *ROLES,
    "link-core",
    "link-join",
    "link-lone",
    "bridge",
    "wall",
    "value-multiplied",
)


def marks_of(svg: str) -> list[str]:
    """The marks a drawing draws (read from its data- attributes), in
    :data:`MARKS` order: what a legend for it must name."""
    found = set()
    for element in ET.fromstring(svg).iter():
        attributes = element.attrib
        if "data-role" in attributes and "data-state" in attributes:
            found.add(attributes["data-role"])
        if "data-link" in attributes:
            found.add(f"link-{attributes['data-link']}")
        if "data-bridge" in attributes:
            found.add("bridge")
        if "data-wall" in attributes:
            found.add("wall")
        if attributes.get("data-value") == "multiplied":
            found.add("value-multiplied")
    return [mark for mark in MARKS if mark in found]


def mark_sample(mark: str) -> str:
    """A small inline SVG of ``mark`` as diagrams draw it, for a page's
    legend (decorative: the legend's words say what it is)."""
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": "0 0 28 20",
            "width": "28",
            "height": "20",
            "aria-hidden": "true",
            "focusable": "false",
        },
    )
    if mark in STYLE:
        fill = _fill(mark)
        pattern = STYLE[mark][2]
        if pattern:  # the pattern alone, its id the sample's own (a page holds several)
            defs = ET.Element("defs")
            _patterns(defs)
            for element in list(defs):
                if element.get("id") == pattern:
                    element.set("id", f"key-{mark}-{pattern}")
                    svg.append(ET.Element("defs"))
                    svg[0].append(element)
            fill = f"url(#key-{mark}-{pattern})"
        ET.SubElement(
            svg,
            "polygon",
            {
                "points": _sample_hexagon(14, 10, 9.5),
                "fill": fill,
                "stroke": "#555555",
                "stroke-width": "1",
            },
        )
    elif mark.startswith("link-"):
        link_sample(svg, mark.removeprefix("link-"), 5, 2)
    elif mark in ("bridge", "wall"):
        exception_sample(ET.SubElement(svg, "g", {"transform": "translate(6 2)"}), mark, 0, 0)
    else:
        ET.SubElement(
            svg,
            "text",
            {
                "x": "14",
                "y": "14",
                "font-size": "10",
                "text-anchor": "middle",
                "font-family": "Helvetica, Arial, sans-serif",
            },
        ).text = "N×M"
    return ET.tostring(svg, encoding="unicode")


def _sample_hexagon(x: float, y: float, radius: float) -> str:
    return " ".join(
        f"{x + radius * math.cos(math.radians(60 * i - 30)):.1f},"
        f"{y + radius * math.sin(math.radians(60 * i - 30)):.1f}"
        for i in range(6)
    )


def _along(
    routes: dict[Pair, list[tuple[float, float]]], start: str, end: str
) -> list[tuple[float, float]] | None:
    """The bridge's route from ``start`` to ``end``, if they have a bridge:
    a link between tiles apart runs along it."""
    if (start, end) in routes:
        return routes[start, end]
    if (end, start) in routes:
        return routes[end, start][::-1]
    return None


def _homes(explanation: Explanation) -> set[str]:
    return {player.home for player in explanation.report.players}


def value_notes(
    worth: dict[str, tuple[int, int]], board: Board, multiplied: list[str], swing_homes: list[str]
) -> list[str]:
    """Legend lines that say what a tile's number means, when it is not plain EV."""
    notes = []
    if multiplied:
        first = multiplied[0]
        value, multiplier = worth[first]
        notes.append(
            f"{board.states[first].ev}×{multiplier}: a swing state, worth {value} EV "
            f"to its holder (EV × {multiplier})"
        )
    if swing_homes:
        notes.append(f"A swing home scores its face value ({', '.join(swing_homes)})")
    return notes


def draw_diagram(game: Game, player: str, focus: bool = False, legend: bool = True) -> str:
    """``evlogic diagram``: ``player``'s position in ``game`` as SVG text."""
    return render_svg(explain_game(game, player), game.board, focus=focus, legend=legend)


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes at ``scale`` pixels per SVG unit, when the optional cairosvg
    is installed (``evlogic[png]``)."""
    import cairosvg  # optional extra

    png: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
    return png
