"""Rendering: score reports as a text table or JSON, and :func:`columns`,
the layout of every text table evlogic prints."""

from __future__ import annotations

from typing import TYPE_CHECKING

import yaml

from evlogic.errors import escaped
from evlogic.reports.report import PlayerScore, ScoreReport

if TYPE_CHECKING:  # only for annotations: keeps `evlogic score` start-up lean
    from collections.abc import Collection, Sequence

    from evlogic.loading.boards import Board
    from evlogic.loading.rulesets import RuleSet
    from evlogic.reports.boardreport import BoardReport
    from evlogic.reports.check import CheckResult
    from evlogic.reports.diff import DiffResult
    from evlogic.reports.explain import Explanation
    from evlogic.reports.stats import BatchStats
    from evlogic.reports.verify import ScenarioResult


def json_text(document: object) -> str:
    """Every JSON document evlogic prints: indented, text as written."""
    import json  # here: `evlogic score`'s text table starts without it

    return json.dumps(document, indent=2, ensure_ascii=False)


def to_json(report: ScoreReport) -> str:
    return json_text(report.to_dict())


def _signed(number: int) -> str:
    return f"+{number}" if number > 0 else str(number)


def _row(player: PlayerScore) -> list[str]:
    region = f"{len(player.region)}: {' '.join(player.region)}" if player.region else "-"
    siege = " ".join(player.siege) if player.siege else "-"
    return [
        player.name,
        player.home,
        str(len(player.states)),
        str(player.face_ev),
        region,
        _signed(player.region_bonus),
        siege,
        _signed(-player.siege_penalty),
        _signed(player.net_bonus),
        str(player.total),
    ]


HEADER = [
    "Player",
    "Home",
    "States",
    "Face EV",
    "Region",
    "Bonus",
    "Siege",
    "Penalty",
    "Net bonus",
    "Total",
]
NUMERIC = {2, 3, 5, 7, 8, 9}


def columns(
    rows: Sequence[Sequence[str]], right: Collection[int] = (), *, strip: bool = True
) -> list[str]:
    """Every text table evlogic prints: ``rows`` (the header first) as lines
    of cells padded to their column's width, two spaces apart; the columns
    numbered in ``right`` flush right, the others flush left; ``strip``: no
    trailing spaces."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        line = "  ".join(
            cell.rjust(width) if column in right else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        lines.append(line.rstrip() if strip else line)
    return lines


def _table(rows: list[list[str]]) -> list[str]:
    return columns(rows, NUMERIC)


def to_text(report: ScoreReport) -> str:
    won = f"{report.states_won} of {report.game_end} states won"
    status = f"final position, {won}" if report.final else f"projection, {won} (game not over)"
    lines = [
        f"{report.board}, {report.rules} rules: {status}",
        "",
        *_table([HEADER, *(_row(player) for player in report.players)]),
        "",
    ]
    best = report.players[[p.name for p in report.players].index(report.winners[0])].total
    label = "Winner" if len(report.winners) == 1 else "Tied winners"
    lines.append(f"{label}: {', '.join(report.winners)} ({best} EV)")
    if not report.final:
        lines.append(
            f"Note: not a final position: the game ends when state {report.game_end} is won, "
            "so these scores are a projection."
        )
    return "\n".join(lines) + "\n"


def explanation_to_json(explanation: Explanation) -> str:
    return json_text(explanation.to_dict())


def explanation_to_text(explanation: Explanation, what_if_limit: int = 10) -> str:
    score = explanation.score
    home = score.home
    lines = [f"{explanation.player} (home {home}): total {score.total} EV", ""]
    sources = ", ".join(
        f"{source.source} {_signed(source.value)}" for source in explanation.face_sources
    )
    lines.append(f"Face EV: {score.face_ev}" + (f", including {sources}" if sources else ""))

    if score.core:
        _, a, b = score.core
        lines.append(f"Core: {home} + {a} + {b}: {a} and {b} both border {home} and each other.")
    else:
        lines.append(
            f"Core: none. A core needs two owned states that border {home} and each other."
        )
    for join in explanation.joins:
        lines.append(f"  + {join.state} joins: touches {_listing(join.links)}")
    if score.region:
        lines.append(f"Region: {len(score.region)} states, bonus {_signed(score.region_bonus)}")
    for state in explanation.excluded:
        touches = (
            f"touches only {state.links[0]}"
            if len(state.links) == 1
            else (f"touches {_listing(state.links)}" if state.links else "touches no region state")
        )
        lines.append(f"  - {state.state} left out: {touches}; needs {state.needed}")

    if explanation.siege:
        lines.append("Siege:")
        for sieged in explanation.siege:
            lines.append(f"  {sieged.state} held by {sieged.owner}: -{sieged.penalty}")
        floor = " (floored at 0)" if score.region_bonus < score.siege_penalty else ""
        lines.append(
            f"  bonus {_signed(score.region_bonus)} - {score.siege_penalty} = "
            f"{_signed(score.net_bonus)}{floor}"
        )
    else:
        lines.append("Siege: none")

    shown = explanation.what_if[:what_if_limit]
    if shown:
        more = len(explanation.what_if) - len(shown)
        lines += ["", "What if you also won... (best first)"]
        width = max(len(option.state) for option in shown)
        for option in shown:
            taken = f" from {option.holder}" if option.holder else ""
            reasons = "; ".join(option.reasons) or "no change"
            lines.append(f"  {option.state.ljust(width)}  {option.gain:+4d}{taken}: {reasons}")
        if more > 0:
            lines.append(f"  ... and {more} more (--format json lists all)")
    return "\n".join(lines) + "\n"


def _listing(states: list[str]) -> str:
    return ", ".join(states) if states else "nothing"


def stats_to_json(stats: BatchStats) -> str:
    return json_text(stats.to_dict())


def stats_to_text(stats: BatchStats) -> str:
    lines = [
        f"{stats.games} games ({stats.errors} error lines skipped); "
        f"decided by the regional bonus: {stats.bonus_decided} "
        f"({100 * stats.bonus_decided_share:.1f}%)",
        "",
    ]
    header = ["Home", "Games", "Wins", "Win rate", "Mean total", "Mean bonus", "Mean net bonus"]
    rows = [header] + [
        [
            h.state,
            str(h.games),
            f"{h.wins:g}",
            f"{100 * h.win_rate:.1f}%",
            f"{h.mean_total:.1f}",
            f"{h.mean_region_bonus:.1f}",
            f"{h.mean_net_bonus:.1f}",
        ]
        for h in stats.homes
    ]
    lines += columns(rows, range(1, len(header)), strip=False)
    lines.append("")
    lines.append("Wins: a tie between k winners counts 1/k for each.")
    return "\n".join(lines) + "\n"


def verify_to_json(results: list[ScenarioResult]) -> str:
    return json_text({"scenarios": [result.to_dict() for result in results]})


def verify_to_text(results: list[ScenarioResult]) -> str:
    lines = []
    for result in results:
        lines.append(f"{'PASS' if result.passed else 'FAIL'}  {escaped(result.file)}")
        if result.error is not None:
            lines.append(f"      error: {result.error}")
        for failure in result.failures:
            who = f"{failure.player} " if failure.player is not None else ""
            lines.append(
                f"      {who}{failure.field}: expected {failure.expected}, got {failure.actual}"
            )
    passed = sum(result.passed for result in results)
    scenarios = "1 scenario" if len(results) == 1 else f"{len(results)} scenarios"
    lines.append(f"{scenarios}: {passed} passed, {len(results) - passed} failed")
    return "\n".join(lines) + "\n"


def board_report_to_json(report: BoardReport) -> str:
    return json_text(report.to_dict())


def board_report_to_text(report: BoardReport) -> str:
    tiers = list(report.homes[0].ways_to_earn) if report.homes else []
    header = [
        "Home",
        "Cores",
        "Max region",
        *(f"Ways {t}" for t in tiers),
        *(f"Sieged {t}" for t in tiers),
        "Neighbors",
        "",
    ]
    rows = [header] + [
        [
            home.state,
            str(home.cores),
            str(home.max_region),
            *(str(home.ways_to_earn[t]) for t in tiers),
            *(
                "-"
                if home.bonus_after_worst_siege[t] is None
                else str(home.bonus_after_worst_siege[t])
                for t in tiers
            ),
            str(home.neighbors),
            "" if home.can_earn_bonus else "never earns a bonus",
        ]
        for home in report.homes
    ]
    lines = [f"{report.board}, {report.rules} rules: what each home can reach", ""]
    lines += columns(rows, range(1, len(header) - 1))
    never = [home.state for home in report.homes if not home.can_earn_bonus]
    lines += [
        "",
        "Ways N: sets of exactly N states (home included) whose region is all of them.",
        "Sieged N: the bonus left when the home holds such a set with the fewest of its",
        "  neighbours and opponents hold every other neighbour (-: no way to earn tier N).",
    ]
    if never:
        lines.append(f"Never earn a regional bonus: {', '.join(never)}")
    return "\n".join(lines) + "\n"


def players_text(count: int) -> str:
    return f"{count} player" if count == 1 else f"{count} players"


def smallest_text(smallest: bool) -> str:
    if smallest:
        return "a smallest one (fewest owned states)"
    return "not proved smallest: time ran out before every smaller size was ruled out"


def check_to_json(result: CheckResult) -> str:
    return json_text(result.to_dict())


def check_to_text(result: CheckResult) -> str:
    where = f"{result.board} with {players_text(result.players)} ({result.rules} rules)"
    if result.max_states is not None:
        where += f", at most {result.max_states} owned states"
    took = f"{result.seconds:.1f} s"
    if result.result == "holds":
        return f"{result.property}: holds for every position on {where} (proved in {took})\n"
    if result.result == "unknown":
        return f"{result.property}: unknown on {where}: no answer within {took}\n"
    game = yaml.safe_dump(result.counterexample, sort_keys=False, allow_unicode=True)
    return (
        f"# {result.property}: counterexample on {where}, found in {took};\n"
        f"# {smallest_text(result.smallest)}. Score it with: evlogic score FILE\n{game}"
    )


def diff_to_json(result: DiffResult) -> str:
    return json_text(result.to_dict())


def diff_to_text(result: DiffResult, first: RuleSet, second: RuleSet, board: Board) -> str:
    """Each witness as a game file, then its score under both rule sets."""
    from evlogic.loading.games import game_from_fields
    from evlogic.loading.yamlfile import Field
    from evlogic.reports.score import score_game

    a, b = result.rules
    lines = [f"{a} vs {b} on {result.board} with {players_text(result.players)}"]
    for label, search in (
        ("a different total", result.total_diff),
        ("a different winner", result.winner_diff),
    ):
        lines.append("")
        if search.result == "equivalent":
            lines.append(f"No position gives {label}: proved in {search.seconds:.1f} s.")
            continue
        if search.result == "unknown":
            lines.append(f"{label.capitalize()}: unknown, no answer within {search.seconds:.1f} s.")
            continue
        game = search.counterexample
        lines.append(
            f"Position with {label}, {smallest_text(search.smallest)} "
            f"(found in {search.seconds:.1f} s):"
        )
        lines.append(yaml.safe_dump(game, sort_keys=False, allow_unicode=True).rstrip())
        top = Field("diff", "", game, None, None)
        fields = top.fields(["players"], ["board", "rules"])
        for rules in (first, second):
            report = score_game(game_from_fields(fields, board, "diff", rules))
            lines.append("")
            lines.append(to_text(report).rstrip())
    return "\n".join(lines) + "\n"


def board_to_text(board: Board) -> str:
    """A board's states as a table: id, name, EV, swing, neighbors."""
    rows = [["Id", "Name", "EV", "Swing", "Neighbors"]]
    for state in sorted(board.states.values(), key=lambda state: state.id):
        rows.append(
            [
                state.id,
                state.name,
                str(state.ev),
                "swing" if state.swing else "",
                " ".join(state.neighbors) or "-",
            ]
        )
    lines = [
        f"{board.name}: {len(board.states)} states, the game ends when {board.game_end} are won"
    ]
    lines.append("")
    lines += columns(rows, {2})
    return "\n".join(lines) + "\n"
