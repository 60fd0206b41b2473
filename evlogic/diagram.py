"""Region diagrams: an SVG hex map of one player's position.

Roles and links come from ``rules/roles.lp`` (via :mod:`evlogic.explain`);
this module only places tiles (:mod:`evlogic.layout`) and draws them.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from evlogic.boards import Board
from evlogic.explain import ROLES, Explanation, explain_game
from evlogic.games import Game
from evlogic.layout import board_layout

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
    corners = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        corners.append(f"{x + RADIUS * math.cos(angle):.1f},{y + RADIUS * math.sin(angle):.1f}")
    return " ".join(corners)


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
        x1="0",
        y1="0",
        x2="0",
        y2="8",
        stroke="#000000",
        **{"stroke-width": "2.5", "stroke-opacity": "0.45"},
    )
    dots = ET.SubElement(
        defs, "pattern", id="dots", width="8", height="8", patternUnits="userSpaceOnUse"
    )
    ET.SubElement(dots, "rect", width="8", height="8", fill=STYLE["excluded"][0])
    ET.SubElement(
        dots, "circle", cx="4", cy="4", r="1.6", fill="#000000", **{"fill-opacity": "0.55"}
    )


def _fill(role: str) -> str:
    pattern = STYLE[role][2]
    return f"url(#{pattern})" if pattern else STYLE[role][0]


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
    left, top = min(xs) - RADIUS - MARGIN, min(ys) - RADIUS - MARGIN - 28
    map_width = max(xs) - min(xs) + 2 * (RADIUS + MARGIN)
    present = [role for role in ROLES if role in {explanation.roles[s] for s in shown}]
    legend_top = max(ys) + RADIUS + MARGIN
    title = (
        f"{explanation.player}: {score.total} EV "
        f"({score.face_ev} face {score.net_bonus:+d} net bonus)"
    )
    words = caption(explanation)
    # No font metrics here: 0.62 em per character is generous for Helvetica.
    width = max(map_width, 0.62 * 14 * len(words) + 2 * MARGIN, 0.62 * 15 * len(title) + 2 * MARGIN)
    height = legend_top - top + LEGEND_ROW * (len(present) + 2) + MARGIN

    svg = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}",
        width=f"{width:.0f}",
        height=f"{height:.0f}",
        role="img",
        **{"font-family": "Helvetica, Arial, sans-serif"},
    )
    ET.SubElement(svg, "title").text = f"{explanation.player}'s region on {board.name}: {words}"
    _patterns(ET.SubElement(svg, "defs"))
    ET.SubElement(
        svg,
        "text",
        x=f"{left + MARGIN:.1f}",
        y=f"{top + 22:.1f}",
        **{"font-size": "15", "font-weight": "bold"},
    ).text = title

    tiles = ET.SubElement(svg, "g", {"class": "tiles"})
    for state in shown:
        role = explanation.roles[state]
        info = board.states[state]
        x, y = centres[state]
        tile = ET.SubElement(tiles, "g", {"class": "tile", "data-state": state, "data-role": role})
        swing = ", swing" if info.swing else ""
        ET.SubElement(tile, "title").text = f"{info.name} ({state}): {info.ev} EV{swing} — {role}"
        ET.SubElement(
            tile,
            "polygon",
            points=_hexagon(x, y),
            fill=_fill(role),
            stroke="#555555",
            **{"stroke-width": "1"},
        )
        ink = STYLE[role][1]
        ET.SubElement(
            tile,
            "text",
            x=f"{x:.1f}",
            y=f"{y - 2:.1f}",
            fill=ink,
            **{"text-anchor": "middle", "font-size": "13", "font-weight": "bold"},
        ).text = state
        ET.SubElement(
            tile,
            "text",
            x=f"{x:.1f}",
            y=f"{y + 13:.1f}",
            fill=ink,
            **{"text-anchor": "middle", "font-size": "10"},
        ).text = f"{info.ev}{'×2' if info.swing else ''}"

    lines = ET.SubElement(svg, "g", {"class": "links", "fill": "none", "stroke-linecap": "round"})
    for link in explanation.links:
        if link.start in centres and link.end in centres:
            x1, y1, x2, y2 = _trimmed(centres[link.start], centres[link.end], RADIUS * 0.55)
            ET.SubElement(
                lines,
                "line",
                {
                    "class": f"link {link.kind}",
                    "data-from": link.start,
                    "data-to": link.end,
                    "x1": f"{x1:.1f}",
                    "y1": f"{y1:.1f}",
                    "x2": f"{x2:.1f}",
                    "y2": f"{y2:.1f}",
                    **LINK_STYLE[link.kind],
                },
            )

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
    ET.SubElement(
        svg,
        "text",
        {
            "class": "caption",
            "x": f"{left + MARGIN:.1f}",
            "y": f"{legend_top + len(present) * LEGEND_ROW + 16:.1f}",
            "font-size": "14",
        },
    ).text = words
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def draw_diagram(game: Game, player: str, focus: bool = False) -> str:
    """``evlogic diagram``: ``player``'s position in ``game`` as SVG text."""
    return render_svg(explain_game(game, player), game.board, focus=focus)


def svg_to_png(svg: str) -> bytes:
    """PNG bytes, when the optional cairosvg is installed (``evlogic[png]``)."""
    import cairosvg  # optional extra

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))
