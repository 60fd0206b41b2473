"""``evlogic balance --report``: the balance report as one page with charts.

The page is self-contained: its styles and charts are inline, it loads
nothing (no scripts, no fonts, no images from anywhere) and opens offline.
Charts are matplotlib's (an Agg canvas, saved as SVG with a fixed hash salt
and no date, so the same report gives the same bytes); the hex maps place
tiles as every board drawing does (evlogic.drawing.layout) and colour them
on colour-blind-safe sequential scales (viridis, cividis) with a legend.
Every chart has a title and a description for screen readers, and a table
below it gives its figures.  Nothing is computed here but what drawing
needs: every figure is the report's (evlogic.reports.balance).

:func:`balance_charts` gives the charts alone (the web page's Balance
panel shows them); :func:`balance_page` the whole page.
"""

from __future__ import annotations

import html
import io
import math
import re
from dataclasses import dataclass, field
from typing import Any

from evlogic.loading.boards import Board
from evlogic.reports.balance_words import MEAN_NAMES, difference_text, figure_name, percent, rate

#: Okabe-Ito colours (safe for colour-blind readers), one a seat or rule set.
PALETTE = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000")

#: Bar patterns, one a seat, so that seats also read apart in greyscale.
HATCHES = ("", "//", "..", "xx", "\\\\", "oo", "--", "++")

#: Line styles of the totals chart, one a rule set.
LINES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))

#: The two sequential scales: bright is strong (homes) and early (states won).
HOME_SCALE = "viridis"
TURN_SCALE = "cividis_r"

#: Tiles without a figure (never a home, never won): pale, hatched.
NO_DATA = "#f2f2f2"

#: Inches a hex tile is wide on the maps.
TILE_INCHES = 0.52

#: Everything matplotlib draws: the same bytes for the same report (a fixed
#: hash salt for the ids it makes), text as text (readable, searchable,
#: small), in the page's sans-serif.
STYLE: Any = {  # (matplotlib types rcParams keys as literals)
    "svg.hashsalt": "evlogic-balance",
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Helvetica", "Arial"],
    "font.size": 10,
    "text.color": "#1b1b1b",
    "axes.labelcolor": "#1b1b1b",
    "axes.edgecolor": "#555555",
    "xtick.color": "#1b1b1b",
    "ytick.color": "#1b1b1b",
    "hatch.linewidth": 0.8,
    "path.simplify": False,
}

#: A table cell without a figure.
NOTHING = "\N{EN DASH}"


# --- numbers as the page writes them ------------------------------------------------


def interval(entry: dict[str, Any], key: str = "value") -> str:
    return f"{entry[key]:.1f} [{entry['low']:.1f}, {entry['high']:.1f}]"


def points(entry: dict[str, Any], key: str = "value") -> str:
    """A difference of rates, in percentage points."""
    return f"{100 * entry[key]:+.1f} points [{100 * entry['low']:+.1f}, {100 * entry['high']:+.1f}]"


# --- charts ------------------------------------------------------------------------


@dataclass(frozen=True)
class Chart:
    """An inline SVG chart, with the words a screen reader says for it."""

    svg: str
    title: str
    description: str

    def to_dict(self) -> dict[str, str]:
        return {"title": self.title, "description": self.description, "svg": self.svg}


def new_figure(width: float, height: float) -> Any:
    """A blank matplotlib figure ``width`` by ``height`` inches on an Agg
    canvas, laid out by matplotlib (every chart of the report pages starts
    here; draw it under ``matplotlib.rc_context(STYLE)``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def inline_svg(figure: Any, prefix: str, title: str, description: str) -> Chart:
    """``figure`` as an SVG element to inline in a page: no XML prologue nor
    metadata (which names web addresses), ids prefixed (several charts share
    one page), a title and a description for screen readers."""
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context(STYLE):
        figure.savefig(
            out,
            format="svg",
            metadata={"Date": None, "Creator": None},
            bbox_inches="tight",
            pad_inches=0.06,
        )
    text = out.getvalue()
    text = text[text.index("<svg") :]
    text = re.sub(r"\s*<metadata>.*?</metadata>", "", text, flags=re.S)
    text = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}\1"', text)
    text = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}\1)", text)
    text = re.sub(r'href="#([^"]+)"', rf'href="#{prefix}\1"', text)
    # Sized by the page (CSS), drawn to the viewBox's proportions.
    text = re.sub(
        r'<svg ([^>]*?)width="([\d.]+)pt" height="([\d.]+)pt"',
        lambda m: f'<svg {m.group(1)}width="{float(m.group(2)) * 4 / 3:.0f}"',
        text,
        count=1,
    )
    head_end = text.index(">") + 1
    labels = (
        f'\n <title id="{prefix}title">{html.escape(title)}</title>'
        f'\n <desc id="{prefix}desc">{html.escape(description)}</desc>'
    )
    opening = text[: head_end - 1] + (
        f' role="img" aria-labelledby="{prefix}title" aria-describedby="{prefix}desc">'
    )
    return Chart(opening + labels + text[head_end:].rstrip() + "\n", title, description)


def seat_chart(report: dict[str, Any], prefix: str = "seats-") -> Chart:
    """Win rate by seat: bars with 95% whiskers, a group a rule set, and the
    fair share as a dashed line."""
    import matplotlib
    from matplotlib.ticker import PercentFormatter

    sets = report["rule_sets"]
    seats = report["players"]
    fair = 1 / seats
    with matplotlib.rc_context(STYLE):
        figure = new_figure(max(5.5, 1.4 + len(sets) * (0.42 * seats + 0.5)), 3.6)
        axes = figure.add_subplot()
        width = 0.82 / seats
        highest = fair
        for seat in range(seats):
            xs = [group - 0.41 + width * (seat + 0.5) for group in range(len(sets))]
            entries = [rule_set["seat_win_rate"][seat] for rule_set in sets]
            rates = [entry["rate"] for entry in entries]
            errors = [
                [entry["rate"] - entry["low"] for entry in entries],
                [entry["high"] - entry["rate"] for entry in entries],
            ]
            highest = max(highest, *(entry["high"] for entry in entries))
            axes.bar(
                xs,
                rates,
                width * 0.9,
                yerr=errors,
                color=PALETTE[seat % len(PALETTE)],
                hatch=HATCHES[seat % len(HATCHES)],
                edgecolor="#1b1b1b",
                linewidth=0.6,
                capsize=min(4.0, 24 / seats),
                error_kw={"elinewidth": 1.1, "ecolor": "#1b1b1b", "capthick": 1.1},
                label=f"Seat {seat + 1}",
            )
        axes.axhline(
            fair,
            color="#1b1b1b",
            linestyle="--",
            linewidth=1.1,
            label=f"fair share ({percent(fair)})",
        )
        axes.set_xticks(range(len(sets)), [rule_set["rules"] for rule_set in sets])
        axes.set_xlim(-0.55, len(sets) - 0.45)
        axes.set_ylim(0, min(1.0, highest + 0.05) if highest < 0.95 else 1.02)
        axes.yaxis.set_major_formatter(PercentFormatter(1.0))
        axes.set_ylabel("Win rate (95% interval)")
        axes.spines[["top", "right"]].set_visible(False)
        handles, labels = axes.get_legend_handles_labels()
        figure.legend(
            handles[1:] + handles[:1],  # the seats, then the fair share
            labels[1:] + labels[:1],
            loc="outside upper center",
            frameon=False,
            fontsize=9,
            ncols=min(seats + 1, 6),
        )
    title = f"Win rate by seat, {len(sets)} rule set{'s' if len(sets) > 1 else ''}"
    description = "; ".join(
        f"{rule_set['rules']}: "
        + ", ".join(f"seat {entry['seat']} {rate(entry)}" for entry in rule_set["seat_win_rate"])
        for rule_set in sets
    )
    return inline_svg(
        figure,
        prefix,
        title,
        f"Bars with 95% intervals; fair share {percent(fair)}. " + description + ".",
    )


def totals_chart(report: dict[str, Any], prefix: str = "totals-") -> Chart:
    """The distribution of final totals: every player's and the winners',
    one outline a rule set (the report's ``total_counts``)."""
    import matplotlib
    import numpy
    from matplotlib.ticker import PercentFormatter

    sets = report["rule_sets"]
    everything = [row["total"] for rule_set in sets for row in rule_set.get("total_counts", [])]
    with matplotlib.rc_context(STYLE):
        figure = new_figure(9.0, 3.4)
        panels = figure.subplots(1, 2, sharex=True)
        if not everything:
            for axes in panels:
                axes.text(
                    0.5, 0.5, "no totals in this report", ha="center", transform=axes.transAxes
                )
        else:
            low, high = min(everything), max(everything)
            step = max(1, math.ceil((high - low + 1) / 28))
            edges = numpy.arange(low, high + step + 1, step) - 0.5
            for index, rule_set in enumerate(sets):
                rows = rule_set.get("total_counts", [])
                values = [row["total"] for row in rows]
                for axes, key in zip(panels, ("players", "winners"), strict=True):
                    weights = [row[key] for row in rows]
                    whole = sum(weights)
                    if not whole:
                        continue
                    axes.hist(
                        values,
                        bins=edges,
                        weights=[w / whole for w in weights],
                        histtype="step",
                        linewidth=1.8,
                        color=PALETTE[index % len(PALETTE)],
                        linestyle=LINES[index % len(LINES)],
                        label=rule_set["rules"],
                    )
        for axes, what in zip(
            panels, ("Every player's final total", "The winners' totals"), strict=True
        ):
            axes.set_title(what, fontsize=10, loc="left")
            axes.set_xlabel("Total EV")
            axes.yaxis.set_major_formatter(PercentFormatter(1.0))
            axes.spines[["top", "right"]].set_visible(False)
        panels[0].set_ylabel("Share of players")
        panels[1].set_ylabel("Share of winners")
        if everything:
            figure.legend(
                *panels[0].get_legend_handles_labels(),
                loc="outside right upper",
                frameon=False,
                fontsize=9,
            )
    description = "; ".join(
        f"{rule_set['rules']}: mean total {interval(rule_set['mean']['total'])}"
        for rule_set in sets
    )
    return inline_svg(
        figure,
        prefix,
        "Distribution of final totals, every player's and the winners'",
        f"Histograms, one outline a rule set; {description}.",
    )


def _centres(board: Board) -> dict[str, tuple[float, float]]:
    from evlogic.drawing.diagram import cell_centre
    from evlogic.drawing.layout import board_layout

    cells = board_layout(board)
    return {state: cell_centre(cells[state]) for state in sorted(board.states)}


def _ink(colour: tuple[float, ...]) -> str:
    """Black or white, whichever reads better on ``colour`` (WCAG contrast)."""

    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(c) for c in colour[:3])
    luminance = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    return "#000000" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "#ffffff"


@dataclass
class HexMap:
    """What a hex map shows: a figure a state (None: no data) and its label."""

    values: dict[str, float]
    labels: dict[str, str]
    scale: str
    low: float
    high: float
    legend: str
    missing: str  # what a tile without a figure means
    marks: dict[str, str] = field(default_factory=dict)  # state -> "strong" / "weak"
    reference: float | None = None  # a value marked on the colour bar (the fair share)
    reference_label: str = ""
    percent: bool = False


def hex_map(board: Board, shown: HexMap, prefix: str, title: str, description: str) -> Chart:
    """The board's tiles (evlogic.drawing.layout's cells) coloured by figure."""
    import matplotlib
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize
    from matplotlib.patches import Patch, RegularPolygon
    from matplotlib.ticker import PercentFormatter

    from evlogic.drawing.diagram import RADIUS

    centres = _centres(board)
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    tile = math.sqrt(3) * RADIUS
    across = (max(xs) - min(xs)) / tile + 1.4
    down = (max(ys) - min(ys)) / tile + 1.5
    with matplotlib.rc_context(STYLE):
        colours = matplotlib.colormaps[shown.scale]
        norm = Normalize(shown.low, shown.high)
        figure = new_figure(max(4.8, across * TILE_INCHES), down * TILE_INCHES + 1.25)
        axes = figure.add_subplot()
        for state, (x, y) in centres.items():
            value = shown.values.get(state)
            mark = shown.marks.get(state)
            fill = colours(norm(value)) if value is not None else matplotlib.colors.to_rgba(NO_DATA)
            axes.add_patch(
                RegularPolygon(
                    (x, y),
                    6,
                    radius=RADIUS * (0.93 if mark else 0.98),
                    orientation=0,
                    facecolor=fill,
                    edgecolor="#000000" if mark else "#ffffff" if value is not None else "#8a8a8a",
                    linewidth=2.4 if mark else 0.8,
                    hatch="////" if value is None else None,
                )
            )
            ink = _ink(fill)
            label = shown.labels.get(state, "")
            if mark:
                label += " ▲" if mark == "strong" else " ▼"
            axes.text(
                x, y - 5, state, ha="center", va="center", color=ink, fontsize=9, fontweight="bold"
            )
            if label:
                axes.text(x, y + 10, label, ha="center", va="center", color=ink, fontsize=7.5)
        axes.set_xlim(min(xs) - tile * 0.7, max(xs) + tile * 0.7)
        axes.set_ylim(max(ys) + RADIUS * 1.2, min(ys) - RADIUS * 1.2)  # down the page
        axes.set_aspect("equal")
        axes.set_axis_off()
        bar = figure.colorbar(
            ScalarMappable(norm, colours),
            ax=axes,
            location="bottom",
            shrink=0.55,
            aspect=28,
            pad=0.02,
            format=PercentFormatter(1.0) if shown.percent else None,
        )
        bar.set_label(shown.legend, fontsize=9)
        bar.ax.tick_params(labelsize=8)
        if shown.reference is not None:
            bar.ax.axvline(shown.reference, color="#ffffff", linewidth=3)
            bar.ax.axvline(shown.reference, color="#000000", linewidth=1.4, linestyle="--")
        handles: list[Any] = [
            Patch(facecolor=NO_DATA, edgecolor="#8a8a8a", hatch="////", label=shown.missing)
        ]
        if shown.marks:
            handles.append(
                Patch(
                    facecolor="none",
                    edgecolor="#000000",
                    linewidth=2.4,
                    label="▲ strong, ▼ weak: interval above or below the fair share",
                )
            )
        if shown.reference is not None:
            handles.append(
                matplotlib.lines.Line2D(
                    [], [], color="#000000", linestyle="--", label=shown.reference_label
                )
            )
        figure.legend(
            handles=handles,
            loc="outside lower center",
            frameon=False,
            fontsize=8,
            ncols=len(handles),
        )
    return inline_svg(figure, prefix, title, description)


def _scale_top(values: list[float], at_least: float) -> float:
    """A colour scale's top: the highest value, up to a round tenth."""
    return max(at_least, math.ceil(max(values, default=0) * 10 - 1e-9) / 10)


def home_maps(report: dict[str, Any], board: Board) -> list[Chart]:
    """A map a rule set of its homes' win rates, all on one scale."""
    fair = 1 / report["players"]
    sets = report["rule_sets"]
    top = _scale_top([h["rate"] for s in sets for h in s["home_win_rate"]], min(1.0, 2 * fair))
    charts = []
    for index, rule_set in enumerate(sets, start=1):
        homes = rule_set["home_win_rate"]
        shown = HexMap(
            values={h["home"]: h["rate"] for h in homes},
            labels={h["home"]: f"{100 * h['rate']:.0f}%" for h in homes},
            scale=HOME_SCALE,
            low=0.0,
            high=top,
            legend="Win rate of the player with this home",
            missing="never dealt as a home",
            marks={h["home"]: h["verdict"] for h in homes if h["verdict"]},
            reference=fair,
            reference_label=f"fair share {percent(fair)}",
            percent=True,
        )
        ranked = sorted(homes, key=lambda h: (-h["rate"], h["home"]))
        strong = [h["home"] for h in homes if h["verdict"] == "strong"]
        weak = [h["home"] for h in homes if h["verdict"] == "weak"]
        words = [
            "Highest: " + ", ".join(f"{h['home']} {percent(h['rate'])}" for h in ranked[:3]),
            "lowest: " + ", ".join(f"{h['home']} {percent(h['rate'])}" for h in ranked[-3:]),
            f"significantly strong: {', '.join(strong) or 'none'}",
            f"significantly weak: {', '.join(weak) or 'none'}",
        ]
        charts.append(
            hex_map(
                board,
                shown,
                f"homes-{index}-",
                f"Win rate by home under {rule_set['rules']}, a hex map of {report['board']}",
                "; ".join(words) + ".",
            )
        )
    return charts


def turn_maps(report: dict[str, Any], board: Board) -> list[Chart]:
    """A map a rule set of how early each state is won (its mean turn)."""
    sets = report["rule_sets"]
    turns = [s["mean_turn"] for rule_set in sets for s in rule_set["state_desirability"]]
    low = math.floor(min(turns, default=1.0))
    high = max(low + 1.0, math.ceil(max(turns, default=2.0)))
    charts = []
    for index, rule_set in enumerate(sets, start=1):
        wanted = rule_set["state_desirability"]
        shown = HexMap(
            values={s["state"]: s["mean_turn"] for s in wanted},
            labels={s["state"]: f"{s['mean_turn']:.1f}" for s in wanted},
            scale=TURN_SCALE,
            low=low,
            high=high,
            legend="Mean turn the state is won (earlier: more wanted)",
            missing="never won (only ever a home, or left)",
        )
        description = (
            "Won earliest: "
            + ", ".join(f"{s['state']} turn {s['mean_turn']:.1f}" for s in wanted[:5])
            + "; latest: "
            + ", ".join(f"{s['state']} turn {s['mean_turn']:.1f}" for s in wanted[-3:])
            + "."
        )
        charts.append(
            hex_map(
                board,
                shown,
                f"turns-{index}-",
                f"How early each state is won under {rule_set['rules']}, "
                f"a hex map of {report['board']}",
                description,
            )
        )
    return charts


def balance_charts(report: dict[str, Any], board: Board) -> dict[str, Any]:
    """Every chart of the page, as JSON-ready data: ``seats`` and ``totals``
    (all rule sets), and ``rule_sets``: a ``homes`` and a ``turns`` map a
    rule set; each chart ``{"title", "description", "svg"}``."""
    homes = home_maps(report, board)
    turns = turn_maps(report, board)
    return {
        "seats": seat_chart(report).to_dict(),
        "totals": totals_chart(report).to_dict(),
        "rule_sets": [
            {"rules": rule_set["rules"], "homes": home.to_dict(), "turns": turn.to_dict()}
            for rule_set, home, turn in zip(report["rule_sets"], homes, turns, strict=True)
        ],
    }


# --- tables ------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A table of the page: a caption, column heads, and rows whose first
    cell heads the row; ``numbers``: columns aligned as figures."""

    id: str
    caption: str
    columns: list[str]
    rows: list[list[str]]
    numbers: frozenset[int] = frozenset()


def _tables(report: dict[str, Any]) -> dict[str, Any]:
    sets = report["rule_sets"]
    names = [rule_set["rules"] for rule_set in sets]
    every = frozenset(range(1, len(sets) + 1))
    seats = Table(
        "seat-table",
        "Win rate by seat, with 95% intervals (a k-way tie counts 1/k to each winner)",
        ["Seat", *names],
        [
            [f"Seat {seat + 1}", *(rate(s["seat_win_rate"][seat]) for s in sets)]
            for seat in range(report["players"])
        ],
        every,
    )
    headline = Table(
        "headline-table",
        "What decides games: the first mover's advantage under the move model (seat 1 over "
        "a fair share), and how often the regional bonus or the siege decides the winner",
        ["Rule set", "Games", "Moves", "First mover's advantage", "Bonus decides", "Siege decides"],
        [
            [
                s["rules"],
                str(s["games"]),
                s["moves_model"],
                points(s["first_seat_advantage"]),
                rate(s["bonus_decides"]),
                rate(s["siege_decides"]),
            ]
            for s in sets
        ],
        frozenset({1, 3, 4, 5}),
    )
    home_ids = sorted({h["home"] for s in sets for h in s["home_win_rate"]})
    by_home = [{h["home"]: h for h in s["home_win_rate"]} for s in sets]

    def home_cell(entry: dict[str, Any] | None) -> str:
        if entry is None:
            return NOTHING
        verdict = f" {entry['verdict']}" if entry["verdict"] else ""
        return f"{rate(entry)} n={entry['games']}{verdict}"

    homes = Table(
        "home-table",
        "Win rate by home, with 95% intervals and the number of games (n) it was a home; "
        "strong or weak where the interval leaves out the fair share",
        ["Home", *names],
        [[home, *(home_cell(rows.get(home)) for rows in by_home)] for home in home_ids],
        every,
    )
    by_state = [{s["state"]: s for s in rule_set["state_desirability"]} for rule_set in sets]
    order = [s["state"] for s in sets[0]["state_desirability"]] if sets else []
    order += sorted({state for rows in by_state for state in rows} - set(order))

    def turn_cell(entry: dict[str, Any] | None) -> str:
        return NOTHING if entry is None else f"{interval(entry, 'mean_turn')} n={entry['games']}"

    turns = Table(
        "turn-table",
        "Mean turn each state is won, with 95% intervals and the number of games (n) it was "
        f"won in; earliest first{' under ' + names[0] if len(names) > 1 else ''}",
        ["State", *names],
        [[state, *(turn_cell(rows.get(state)) for rows in by_state)] for state in order],
        every,
    )
    means = Table(
        "mean-table",
        "Means over players, with 95% intervals",
        ["Rule set", *MEAN_NAMES.values()],
        [[s["rules"], *(interval(s["mean"][key]) for key in MEAN_NAMES)] for s in sets],
        frozenset(range(1, len(MEAN_NAMES) + 1)),
    )
    agent_names = sorted({a["agent"] for s in sets for a in s["agent_win_rate"]})
    by_agent = [{a["agent"]: a for a in s["agent_win_rate"]} for s in sets]
    agents = Table(
        "agent-table",
        "Win rate by agent (over the seats it played), with 95% intervals",
        ["Agent", *names],
        [
            [agent, *(rate(rows[agent]) if agent in rows else NOTHING for rows in by_agent)]
            for agent in agent_names
        ],
        every,
    )
    differences = [
        Table(
            f"difference-table-{index}",
            f"{difference['rules']} against {difference['against']}, paired over "
            f"{difference['games']} games (95% intervals)",
            ["Figure", "Difference", "Significant"],
            [
                [
                    figure_name(figure, long=True),
                    difference_text(figure),
                    "yes" if figure["significant"] else "no",
                ]
                for figure in difference["figures"]
            ],
            frozenset({1}),
        )
        for index, difference in enumerate(report["differences"], start=1)
    ]
    return {
        "seats": seats,
        "headline": headline,
        "homes": homes,
        "turns": turns,
        "means": means,
        "agents": agents if len(agent_names) > 1 else None,
        "differences": differences,
    }


# --- the page ----------------------------------------------------------------------


def balance_page(report: dict[str, Any], board: Board, charts: dict[str, Any] | None = None) -> str:
    """The page (HTML text; the same report gives the same bytes); ``charts``:
    :func:`balance_charts`'s, when they are drawn already."""
    from evlogic.pages.environment import environment

    template = environment().get_template("balance.html.j2")
    return template.render(balance_context(report, board, charts))


def balance_context(
    report: dict[str, Any], board: Board, charts: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What balance.html.j2 fills its blocks from (the tune page fills the
    best candidate's body from it too)."""
    from markupsafe import Markup

    charts = charts if charts is not None else balance_charts(report, board)
    agents = report["agents"]
    return {
        "report": report,
        "agents": agents[0] if len(set(agents)) == 1 else ", ".join(agents),
        "one_agent": len(set(agents)) == 1,
        "level": percent(report["level"]).replace(".0%", "%"),
        "charts": charts,
        "svg": lambda chart: Markup(chart["svg"]),
        "tables": _tables(report),
    }
