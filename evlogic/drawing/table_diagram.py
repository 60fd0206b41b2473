"""The whole table: every player's position on one hex map (``diagram --all``).

Each player's states in their colour (Okabe-Ito, colour-blind safe) with a
pattern of their own (solid, hatch, dots, cross, rows, columns), so owners
read apart in greyscale; homes with a white inner ring and a house mark
(no outline or hover looks like it); each player's region outlined; bridges
and walls where tiles and borders disagree, as in every diagram; the score
table underneath.  Every figure comes from the score report and the tile
values from rules/tile_value.lp (the solver's); this module only draws.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from evlogic.drawing.diagram import (
    EXCEPTION_WORDS,
    MARGIN,
    RADIUS,
    bridge_routes,
    cell_centre,
    corner_key,
    draw_background,
    draw_exceptions,
    exception_sample,
    exceptions,
    hex_corners,
    hex_points,
    svg_root,
    tile_label,
    tile_text,
    value_notes,
)
from evlogic.drawing.layout import around, board_layout
from evlogic.loading.boards import Board
from evlogic.reports.report import ScoreReport

#: fill, text ink, pattern: one per player, in player order (the web page's too).
PLAYER_STYLES: tuple[tuple[str, str, str | None], ...] = (
    ("#0072b2", "#ffffff", None),
    ("#d55e00", "#ffffff", "hatch"),
    ("#009e73", "#ffffff", "dots"),
    ("#cc79a7", "#000000", "cross"),
    ("#e69f00", "#000000", "rows"),
    ("#56b4e9", "#000000", "columns"),
)
UNCLAIMED = ("#f2f2f2", "#333333")
ROW = 20.0
#: A home: a white ring inside the tile (an inset hexagon), besides the ⌂.
HOME_RING = {"fill": "none", "stroke": "#ffffff", "stroke-width": "2.5"}
HOME_INSET = 0.8
_Point = tuple[float, float]  # a corner of a tile, in SVG units


def _owner_patterns(defs: ET.Element) -> None:
    mark = {"stroke": "#000000", "stroke-opacity": "0.4", "stroke-width": "2"}
    for index, (fill, _ink, pattern) in enumerate(PLAYER_STYLES):
        if pattern is None:
            continue
        attributes = {
            "id": f"owner-{index}",
            "width": "8",
            "height": "8",
            "patternUnits": "userSpaceOnUse",
        }
        if pattern == "hatch":
            attributes["patternTransform"] = "rotate(45)"
        element = ET.SubElement(defs, "pattern", attributes)
        ET.SubElement(element, "rect", width="8", height="8", fill=fill)
        if pattern in ("hatch", "columns"):
            ET.SubElement(element, "line", {"x1": "0", "y1": "0", "x2": "0", "y2": "8", **mark})
        elif pattern == "rows":
            ET.SubElement(element, "line", {"x1": "0", "y1": "4", "x2": "8", "y2": "4", **mark})
        elif pattern == "cross":
            ET.SubElement(element, "line", {"x1": "0", "y1": "0", "x2": "8", "y2": "8", **mark})
            ET.SubElement(element, "line", {"x1": "8", "y1": "0", "x2": "0", "y2": "8", **mark})
        elif pattern == "dots":
            ET.SubElement(
                element,
                "circle",
                {"cx": "4", "cy": "4", "r": "1.6", "fill": "#000000", "fill-opacity": "0.5"},
            )


def _owner_fill(index: int) -> str:
    fill, _ink, pattern = PLAYER_STYLES[index]
    return f"url(#owner-{index})" if pattern else fill


def render_table_svg(
    report: ScoreReport, board: Board, worth: dict[str, tuple[int, int]] | None = None
) -> str:
    """Every player at once, and the score table (deterministic).  ``worth``:
    what each tile scores to whoever holds it, and the multiplier applied
    (:attr:`evlogic.reports.explain.Explanation.worth`, the same for every
    player): the tiles say "19×2" as a player's diagram does."""
    worth = worth or {}
    if len(report.players) > len(PLAYER_STYLES):
        raise ValueError(f"--all draws up to {len(PLAYER_STYLES)} players")
    cells = board_layout(board)
    states = sorted(board.states)
    centres = {state: cell_centre(cells[state]) for state in states}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    map_width = max(xs) - min(xs) + 2 * (RADIUS + MARGIN)
    width = max(map_width, 620.0)
    left = min(xs) - RADIUS - MARGIN - (width - map_width) / 2
    top = min(ys) - RADIUS - MARGIN - 30
    table_top = max(ys) + RADIUS + MARGIN
    bridges, walls = exceptions(board, cells, states)
    kinds = [kind for kind, pairs in (("bridge", bridges), ("wall", walls)) if pairs]
    multiplied = sorted(s for s in states if worth.get(s, (0, 1))[1] != 1)
    swing_homes = sorted(
        s
        for s in states
        if board.states[s].swing and s not in multiplied and s in worth and s in homes_of(report)
    )
    notes = value_notes(worth, board, multiplied, swing_homes)
    key_rows = len(kinds) + len(notes)
    height = table_top - top + ROW * (len(report.players) + 3 + key_rows) + MARGIN

    svg = svg_root(left, top, width, height)
    where = (
        "final"
        if report.final
        else (f"projection, {report.states_won} of {report.game_end} states won")
    )
    winners = ", ".join(report.winners)
    ET.SubElement(
        svg, "title"
    ).text = f"The whole table on {board.name}, {report.rules} rules: {where}; winner {winners}"
    _owner_patterns(ET.SubElement(svg, "defs"))
    draw_background(svg, left, top, width, height)
    ET.SubElement(
        svg,
        "text",
        {"class": "heading"},
        x=f"{left + MARGIN:.1f}",
        y=f"{top + 22:.1f}",
        **{"font-size": "15", "font-weight": "bold"},
    ).text = f"{board.name}, {report.rules} rules: {where}"

    _draw_tiles(svg, report, board, worth, centres)
    _draw_region_outlines(svg, report, centres)

    outline = [
        (cells[state], cell)
        for player in report.players
        for state in player.region
        for cell in around(cells[state])
        if cell not in {cells[other] for other in player.region}
    ]
    draw_exceptions(svg, board, cells, bridge_routes(cells, bridges, walls, outline), walls)
    key_top = _score_table(svg, report, left + MARGIN, table_top)
    legend = ET.SubElement(svg, "g", {"class": "legend", "font-size": "12"})
    _draw_key(legend, kinds, notes, left + MARGIN, key_top)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _draw_tiles(
    svg: ET.Element,
    report: ScoreReport,
    board: Board,
    worth: dict[str, tuple[int, int]],
    centres: dict[str, _Point],
) -> None:
    """A tile a state, in its holder's colour (homes ringed), with its label
    and a tooltip."""
    owner: dict[str, int] = {}
    homes: set[str] = set()
    for index, player in enumerate(report.players):
        homes.add(player.home)
        for state in (player.home, *player.states):
            owner[state] = index
    regions = {state: index for index, p in enumerate(report.players) for state in p.region}
    tiles = ET.SubElement(svg, "g", {"class": "tiles"})
    for state in sorted(board.states):
        info = board.states[state]
        x, y = centres[state]
        holder = owner.get(state)
        name = "" if holder is None else report.players[holder].name
        attributes = {"class": "tile", "data-state": state, "data-owner": name}
        if state in regions:
            attributes["data-region"] = report.players[regions[state]].name
        tile = ET.SubElement(tiles, "g", attributes)
        held = "unclaimed" if holder is None else f"{name}'s home" if state in homes else name
        swing = ", swing" if info.swing else ""
        ET.SubElement(tile, "title").text = f"{info.name} ({state}): {info.ev} EV{swing} — {held}"
        ET.SubElement(
            tile,
            "polygon",
            {
                "points": hex_points(x, y),
                "fill": UNCLAIMED[0] if holder is None else _owner_fill(holder),
                "stroke": "#555555",
                "stroke-width": "1",
            },
        )
        if state in homes:
            ring = [
                (x + (cx - x) * HOME_INSET, y + (cy - y) * HOME_INSET)
                for cx, cy in hex_corners(x, y)
            ]
            points = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in ring)
            ET.SubElement(tile, "polygon", {"class": "home-ring", "points": points, **HOME_RING})
        ink = UNCLAIMED[1] if holder is None else PLAYER_STYLES[holder][1]
        name = f"⌂ {state}" if state in homes else state
        tile_text(tile, x, y, ink, name, tile_label(state, worth, board))


def _draw_region_outlines(svg: ET.Element, report: ScoreReport, centres: dict[str, _Point]) -> None:
    """Each player's region outlined (the first player's solid, the others'
    dashed): the edges of its tiles that no two of them share."""
    outlines = ET.SubElement(
        svg, "g", {"class": "regions", "fill": "none", "stroke-linecap": "round"}
    )
    for index, player in enumerate(report.players):
        if not player.region:
            continue
        edges: dict[tuple[tuple[int, int], tuple[int, int]], tuple[_Point, _Point]] = {}
        for state in player.region:
            ring = hex_corners(*centres[state])
            for i, corner in enumerate(ring):
                other = ring[(i + 1) % 6]
                low, high = sorted((corner_key(corner), corner_key(other)))
                key = (low, high)
                if key in edges:
                    del edges[key]  # shared by two region tiles: inside
                else:
                    edges[key] = (corner, other)
        path = " ".join(
            f"M{a[0]:.1f},{a[1]:.1f} L{b[0]:.1f},{b[1]:.1f}" for _, (a, b) in sorted(edges.items())
        )
        ET.SubElement(
            outlines,
            "path",
            {
                "class": "region-outline",
                "data-player": player.name,
                "d": path,
                "stroke": "#000000",
                "stroke-width": "3.5",
                "stroke-dasharray": "none" if index == 0 else "9 4",
            },
        )


def _draw_key(legend: ET.Element, kinds: list[str], notes: list[str], x: float, top: float) -> None:
    """The key under the score table: the exceptions drawn, then the notes
    on tile values."""
    for row, kind in enumerate(kinds):
        y = top + row * ROW
        item = ET.SubElement(legend, "g", {"class": "legend-exception", "data-exception": kind})
        exception_sample(item, kind, x, y)
        ET.SubElement(item, "text", x=f"{x + 22:.1f}", y=f"{y + 12.5:.1f}").text = EXCEPTION_WORDS[
            kind
        ]
    for row, note in enumerate(notes, start=len(kinds)):
        ET.SubElement(
            legend,
            "text",
            {"class": "legend-note"},
            x=f"{x:.1f}",
            y=f"{top + row * ROW + 12.5:.1f}",
        ).text = note


def homes_of(report: ScoreReport) -> set[str]:
    return {player.home for player in report.players}


#: Pixels a character of the score table takes (no font metrics), and the
#: space between its columns.
CHARACTER = 7.0
GUTTER = 18.0


def _score_table(svg: ET.Element, report: ScoreReport, x: float, top: float) -> float:
    """The table, each column as wide as its widest cell (no blank gap);
    returns where the next line goes."""
    headers = ["Player", "Home", "Face EV", "Region", "Net bonus", "Total"]
    rows = []
    for player in report.players:
        star = " (winner)" if player.name in report.winners else ""
        rows.append(
            [
                f"{player.name}{star}",
                player.home,
                str(player.face_ev),
                str(len(player.region)) if player.region else "-",
                f"{player.net_bonus:+d}" if player.net_bonus else "0",
                str(player.total),
            ]
        )
    offsets, at = [], 0.0
    for column, header in enumerate(headers):
        offsets.append(at)
        widest = max(len(header), *(len(row[column]) for row in rows))
        at += widest * CHARACTER + GUTTER
    table = ET.SubElement(svg, "g", {"class": "score-table", "font-size": "12"})
    for label, offset in zip(headers, offsets, strict=True):
        ET.SubElement(
            table,
            "text",
            {"x": f"{x + offset + 22:.1f}", "y": f"{top + 12:.1f}", "font-weight": "bold"},
        ).text = label
    for row, (player, values) in enumerate(zip(report.players, rows, strict=True), start=1):
        y = top + row * ROW
        line = ET.SubElement(table, "g", {"class": "score-row", "data-player": player.name})
        ET.SubElement(
            line,
            "rect",
            x=f"{x:.1f}",
            y=f"{y:.1f}",
            width="16",
            height="16",
            fill=_owner_fill(row - 1),
            stroke="#333333",
        )
        for offset, value in zip(offsets, values, strict=True):
            ET.SubElement(
                line, "text", x=f"{x + offset + 22:.1f}", y=f"{y + 12.5:.1f}"
            ).text = value
    ET.SubElement(
        table, "text", x=f"{x:.1f}", y=f"{top + (len(report.players) + 1) * ROW + 14:.1f}"
    ).text = (
        f"Winner: {', '.join(report.winners)}. Outlined: each player's region. "
        "⌂ and a white ring: a home."
    )
    return top + (len(report.players) + 2) * ROW + 8
