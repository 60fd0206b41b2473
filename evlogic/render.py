"""Rendering: score reports as a text table or JSON."""

from __future__ import annotations

import json

from evlogic.report import PlayerScore, ScoreReport


def to_json(report: ScoreReport) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False)


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


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if column in NUMERIC else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=False))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def to_text(report: ScoreReport) -> str:
    won = f"{report.states_won} of {report.game_end} states won"
    status = f"final position, {won}" if report.final else f"projection, {won} (game not over)"
    lines = [
        f"{report.board}: {status}",
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
