"""``evlogic ladder --report``: the ladder's steps as a chart with 95%
whiskers, the table of steps and the ratings, on one self-contained page
(matplotlib, as balance's charts are).  Nothing is computed here but what
drawing needs."""

from __future__ import annotations

from evlogic.pages.balance import PALETTE, STYLE, Chart, inline_svg, new_figure
from evlogic.reports.ladder import LadderReport


def steps_chart(report: LadderReport, prefix: str = "steps-") -> Chart:
    """Each step's win rate of the stronger with its 95% whiskers, chance
    (50%) dashed; significant steps filled."""
    import matplotlib
    from matplotlib.ticker import PercentFormatter

    steps = report.steps
    with matplotlib.rc_context(STYLE):
        figure = new_figure(max(5.0, 1.6 + 1.1 * len(steps)), 3.6)
        axes = figure.add_subplot()
        xs = list(range(len(steps)))
        axes.bar(
            xs,
            [step.win_rate for step in steps],
            0.6,
            yerr=[
                [step.win_rate - step.low for step in steps],
                [step.high - step.win_rate for step in steps],
            ],
            color=[PALETTE[0] if step.significant else "#ffffff" for step in steps],
            edgecolor="#1b1b1b",
            linewidth=0.8,
            capsize=4,
            error_kw={"elinewidth": 1.1, "ecolor": "#1b1b1b", "capthick": 1.1},
        )
        axes.axhline(0.5, color="#1b1b1b", linestyle="--", linewidth=1.1, label="chance (50%)")
        axes.set_xticks(xs, [f"{step.weaker}\n→ {step.stronger}" for step in steps], fontsize=8)
        axes.set_ylim(0, 1.02)
        axes.yaxis.set_major_formatter(PercentFormatter(1.0))
        axes.set_ylabel("Stronger's win rate (95% interval)")
        axes.spines[["top", "right"]].set_visible(False)
        axes.legend(frameon=False, fontsize=9, loc="lower right")
    title = f"The ladder: {len(steps)} step{'s' if len(steps) != 1 else ''}, depth {report.depth}"
    description = "; ".join(
        f"{step.weaker} to {step.stronger}: {100 * step.win_rate:.1f}% "
        f"[{100 * step.low:.1f}, {100 * step.high:.1f}]"
        f"{', significant' if step.significant else ''}"
        for step in steps
    )
    return inline_svg(
        figure,
        prefix,
        title,
        "Bars with 95% intervals; chance 50%; filled: significant. " + description + ".",
    )


def ladder_page(report: LadderReport) -> str:
    """The page (HTML text; the same report gives the same bytes)."""
    from markupsafe import Markup

    from evlogic.pages.environment import environment

    chart = steps_chart(report)
    return (
        environment()
        .get_template("ladder.html.j2")
        .render(report=report, chart=chart, chart_svg=Markup(chart.svg))
    )
