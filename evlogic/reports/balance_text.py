"""The balance report as text: a table a figure, a block a rule set."""

from __future__ import annotations

from evlogic.reports.balance_figures import BalanceReport, Estimate
from evlogic.reports.balance_words import difference_text, figure_name, rate
from evlogic.reports.render import columns


def _number(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _mean(entry: Estimate) -> str:
    return f"{_number(entry.value)} [{_number(entry.low)}, {_number(entry.high)}]"


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    return ["  " + line for line in columns(rows, right)]


def balance_to_text(report: BalanceReport) -> str:
    """``evlogic balance``'s text output."""
    agents = report.agents
    agent_text = agents[0] if len(set(agents)) == 1 else ",".join(agents)
    lines = [
        f"{report.board}: moves {report.moves_model}, {report.players} players, "
        f"agents {agent_text}, {report.order} order, {report.games} games a rule set, "
        f"seed {report.seed}",
        "(95% confidence intervals in brackets; a rate counts a k-way tie 1/k to each winner)",
    ]
    for rule_set in report.rule_sets:
        lines += [
            "",
            f"== {rule_set.rules} ({rule_set.games} games, moves {rule_set.moves_model})",
            "",
        ]
        rows = [["Seat", "Win rate"]] + [
            [str(seat.seat), rate(seat.to_dict())] for seat in rule_set.seat_win_rate
        ]
        lines += _table(rows, {0})
        first = rule_set.first_seat_advantage
        lines.append(
            f"  first mover's advantage under {rule_set.moves_model} (seat 1 over a fair share): "
            f"{100 * first.value:+.1f} points "
            f"[{100 * first.low:+.1f}, {100 * first.high:+.1f}]"
        )
        lines.append("")
        lines.append(f"  bonus decides the winner: {rate(rule_set.bonus_decides.to_dict())}")
        lines.append(f"  siege decides the winner: {rate(rule_set.siege_decides.to_dict())}")
        lines.append("")
        rows = [["Mean", "Value"]] + [
            [name.replace("_", " "), _mean(entry)] for name, entry in rule_set.mean.items()
        ]
        lines += _table(rows, set())
        if len(rule_set.agent_win_rate) > 1:
            lines.append("")
            rows = [["Agent", "Win rate"]] + [
                [entry.agent, rate(entry.to_dict())] for entry in rule_set.agent_win_rate
            ]
            lines += _table(rows, set())
        marked = [home for home in rule_set.home_win_rate if home.verdict]
        lines.append("")
        if marked:
            rows = [["Home", "Games", "Win rate", ""]] + [
                [home.home, str(home.games), rate(home.to_dict()), home.verdict or ""]
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
                [
                    figure_name(figure.to_dict()),
                    difference_text(figure.to_dict()),
                    "*" if figure.significant else "",
                ]
            )
        lines += _table(rows, set())
    return "\n".join(lines) + "\n"
