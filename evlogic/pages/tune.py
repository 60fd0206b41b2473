"""``evlogic tune --report``: the Pareto front as a chart and a table, then
the best candidate's balance report (evlogic.pages.balance), on one
self-contained page.

The front's chart is matplotlib's, as balance's charts are: each candidate
of the front a point at its first two objectives' estimates with their 95%
intervals as whiskers (one objective: a bar each), the best marked.
Nothing is computed here but what drawing needs.
"""

from __future__ import annotations

from typing import Any

from evlogic.loading.boards import Board
from evlogic.pages.balance import PALETTE, STYLE, Chart, balance_context, inline_svg, new_figure
from evlogic.reports.balance import LEVEL, rule_set_figures


def front_chart(document: dict[str, Any], prefix: str = "front-") -> Chart:
    import matplotlib
    from matplotlib.ticker import PercentFormatter

    names = document["objectives"]
    front = document["front"]
    best = document["best"]
    with matplotlib.rc_context(STYLE):
        figure = new_figure(6.0, 4.2)
        axes = figure.add_subplot()
        labels = [entry["rule_set"]["name"] for entry in front]
        if len(names) == 1:
            values = [entry["objectives"][names[0]] for entry in front]
            axes.bar(
                range(len(front)),
                [v["value"] for v in values],
                yerr=[
                    [v["value"] - v["low"] for v in values],
                    [v["high"] - v["value"] for v in values],
                ],
                color=[PALETTE[1] if i == best else PALETTE[0] for i in range(len(front))],
                edgecolor="#1b1b1b",
                capsize=4,
            )
            axes.set_xticks(range(len(front)), labels, rotation=30, ha="right")
            axes.set_ylabel(names[0].replace("_", " "))
            axes.yaxis.set_major_formatter(PercentFormatter(1.0))
        else:
            first, second = names[0], names[1]
            for index, entry in enumerate(front):
                x, y = entry["objectives"][first], entry["objectives"][second]
                chosen = index == best
                axes.errorbar(
                    x["value"],
                    y["value"],
                    xerr=[[x["value"] - x["low"]], [x["high"] - x["value"]]],
                    yerr=[[y["value"] - y["low"]], [y["high"] - y["value"]]],
                    fmt="*" if chosen else "o",
                    markersize=13 if chosen else 7,
                    color=PALETTE[1] if chosen else PALETTE[0],
                    ecolor="#6b6b6b",
                    elinewidth=1,
                    capsize=3,
                )
                axes.annotate(
                    labels[index],
                    (x["value"], y["value"]),
                    textcoords="offset points",
                    xytext=(6, 6),
                    fontsize=8,
                )
            axes.set_xlabel(first.replace("_", " ") + " (lower is fairer)")
            axes.set_ylabel(second.replace("_", " ") + " (lower is fairer)")
            axes.xaxis.set_major_formatter(PercentFormatter(1.0))
            axes.yaxis.set_major_formatter(PercentFormatter(1.0))
        axes.spines[["top", "right"]].set_visible(False)
    title = f"The Pareto front: {len(front)} candidate{'s' if len(front) != 1 else ''}"
    description = "; ".join(
        f"{entry['rule_set']['name']}: "
        + ", ".join(
            f"{name.replace('_', ' ')} {100 * value['value']:.1f}%"
            for name, value in entry["objectives"].items()
        )
        for entry in front
    )
    return inline_svg(figure, prefix, title, description + ". The best is starred.")


def tune_page(document: dict[str, Any], result: Any, board: Board) -> str:
    """The page (HTML text): tune.html.j2, which extends the balance page and
    fills its body with the best candidate's balance report."""
    from markupsafe import Markup

    from evlogic.pages.environment import environment

    best: dict[str, Any] = {}
    if document["front"]:
        contender = result.front[result.best]
        report = {
            "board": document["board"],
            "moves_model": document["moves_model"],
            "players": document["players"],
            "agents": [document["agents"]] * document["players"],
            "order": document["order"],
            "games": contender.tally.games,
            "seed": document["seed"],
            "level": LEVEL,
            "rule_sets": [rule_set_figures(contender.tally, document["players"]).to_dict()],
            "differences": [],
        }
        best = balance_context(report, board)
    chart = front_chart(document) if document["front"] else None
    return (
        environment()
        .get_template("tune.html.j2")
        .render(
            best,
            best=bool(best),
            document=document,
            chart=chart,
            chart_svg=Markup(chart.svg) if chart else "",
        )
    )
