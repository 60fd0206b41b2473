"""The balance report as text: a table a figure, a block a rule set."""

from __future__ import annotations

from evlogic.reports.balance_figures import (
    AgentRate,
    BalanceReport,
    DifferenceFigure,
    Estimate,
    HomeRate,
    Rate,
    SeatRate,
)


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _rate(entry: Rate | SeatRate | HomeRate | AgentRate) -> str:
    return f"{_percent(entry.rate)} [{_percent(entry.low)}, {_percent(entry.high)}]"


def _number(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _mean(entry: Estimate) -> str:
    return f"{_number(entry.value)} [{_number(entry.low)}, {_number(entry.high)}]"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return [
        "  "
        + "  ".join(
            cell.rjust(width) if column in right else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]


def balance_to_text(report: BalanceReport) -> str:
    """``evlogic balance``'s text output."""
    agents = report.agents
    agent_text = agents[0] if len(set(agents)) == 1 else ",".join(agents)
    lines = [
        f"{report.board}: {report.players} players, agents {agent_text}, "
        f"{report.order} order, {report.games} games a rule set, seed {report.seed}",
        "(95% confidence intervals in brackets; a rate counts a k-way tie 1/k to each winner)",
    ]
    for rule_set in report.rule_sets:
        lines += ["", f"== {rule_set.rules} ({rule_set.games} games)", ""]
        rows = [["Seat", "Win rate"]] + [
            [str(seat.seat), _rate(seat)] for seat in rule_set.seat_win_rate
        ]
        lines += _table(rows, {0})
        first = rule_set.first_seat_advantage
        lines.append(
            f"  first seat's advantage over a fair share: {100 * first.value:+.1f} points "
            f"[{100 * first.low:+.1f}, {100 * first.high:+.1f}]"
        )
        lines.append("")
        lines.append(f"  bonus decides the winner: {_rate(rule_set.bonus_decides)}")
        lines.append(f"  siege decides the winner: {_rate(rule_set.siege_decides)}")
        lines.append("")
        rows = [["Mean", "Value"]] + [
            [name.replace("_", " "), _mean(entry)] for name, entry in rule_set.mean.items()
        ]
        lines += _table(rows, set())
        if len(rule_set.agent_win_rate) > 1:
            lines.append("")
            rows = [["Agent", "Win rate"]] + [
                [entry.agent, _rate(entry)] for entry in rule_set.agent_win_rate
            ]
            lines += _table(rows, set())
        marked = [home for home in rule_set.home_win_rate if home.verdict]
        lines.append("")
        if marked:
            rows = [["Home", "Games", "Win rate", ""]] + [
                [home.home, str(home.games), _rate(home), home.verdict or ""]
                for home in sorted(marked, key=lambda h: (-h.rate, h.home))
            ]
            lines += _table(rows, {1})
        else:
            lines.append("  no home significantly strong or weak")
        wanted = rule_set.state_desirability[:10]
        if wanted:
            lines.append("")
            lines.append(
                "  won earliest (mean turn): "
                + ", ".join(f"{entry.state} {entry.mean_turn:.1f}" for entry in wanted)
            )
    for difference in report.differences:
        lines += [
            "",
            f"== {difference.rules} against {difference.against} "
            "(paired by game; * where the interval leaves out 0)",
            "",
        ]
        rows = [["Figure", "Difference", ""]]
        for figure in difference.figures:
            rows.append(
                [_figure_name(figure), _difference(figure), "*" if figure.significant else ""]
            )
        lines += _table(rows, set())
    return "\n".join(lines) + "\n"


def _figure_name(figure: DifferenceFigure) -> str:
    if figure.figure == "seat_win_rate":
        return f"seat {figure.seat} win rate"
    if figure.figure == "agent_win_rate":
        return f"{figure.agent} win rate"
    if figure.figure == "mean":
        return f"mean {(figure.of or '').replace('_', ' ')}"
    return figure.figure.replace("_", " ")


def _difference(figure: DifferenceFigure) -> str:
    if figure.figure == "mean":
        return f"{figure.difference:+.2f} [{figure.low:+.2f}, {figure.high:+.2f}]"
    return (
        f"{100 * figure.difference:+.1f} points [{100 * figure.low:+.1f}, {100 * figure.high:+.1f}]"
    )
