"""A played game as the reports print it: the move log and the final report.

Nothing is scored here: the totals are the rules' (rules/play/moves.lp),
the final report is score's (evlogic.reports.score).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import yaml

from evlogic.loading.rulesets import RuleSet, bundled_rule_sets
from evlogic.reports.render import columns, json_text, to_text
from evlogic.reports.report import ScoreReport
from evlogic.resources import bundled_boards, display_path
from evlogic.simulation.engine import Move, PlayedGame
from evlogic.simulation.moves import move_model


def players_of(game: PlayedGame) -> list[dict[str, str]]:
    return [
        {"name": seat.name, "home": seat.home, "agent": seat.agent.name}
        for seat in game.table.seats
    ]


def model_numbers(rules: RuleSet) -> dict[str, int]:
    """The rule set's numbers its move model reads, by their rule set keys."""
    return {name: getattr(rules, name) for name in move_model(rules).settings}


def move_record(move: Move) -> dict[str, object]:
    """A move as ``play --format json`` and ``balance --games-out`` give it:
    its legal set (a pass is null there, and ``"state": null`` for a pass)
    and what the model showed before it (``market``, ``points``)."""
    record: dict[str, object] = {
        "turn": move.turn,
        "player": move.player,
        "state": move.state,
        "legal": list(move.legal) if move.legal is not None else None,
        "gain": move.gain,
        "totals": move.totals,
    }
    if move.market is not None:
        record["market"] = list(move.market)
    if move.points is not None:
        record["points"] = move.points
    return record


def play_to_dict(game: PlayedGame) -> dict[str, object]:
    """The ``play --format json`` document (docs/formats.md)."""
    table = game.table
    return {
        "board": table.board.name,
        "rules": table.rules.name,
        "moves_model": table.rules.moves_model,
        **model_numbers(table.rules),
        "seed": table.seed,
        "order": table.order,
        "players": players_of(game),
        "moves": [move_record(move) for move in game.moves],
        "final": game.report.to_dict(),
    }


def play_to_json(game: PlayedGame) -> str:
    return json_text(play_to_dict(game))


@dataclass(frozen=True)
class PlayReport:
    """One played game, as ``evlogic play`` reports it: ``game`` holds the
    table (board, rules, seed, order, seats), every move with the totals
    after it, the final position and its score report."""

    game: PlayedGame

    @property
    def moves(self) -> tuple[Move, ...]:
        return self.game.moves

    @property
    def final(self) -> ScoreReport:
        """The final position's score report (winners, totals, ...)."""
        return self.game.report

    def to_dict(self) -> dict[str, object]:
        """The ``play --format json`` document as plain data."""
        return play_to_dict(self.game)

    def to_json(self) -> str:
        """Exactly ``evlogic play --format json``'s output, less the last newline."""
        return play_to_json(self.game)

    def to_text(self) -> str:
        """Exactly ``evlogic play``'s text output."""
        return play_to_text(self.game)

    def to_yaml(self, path: str) -> str:
        """The final position as a game file to be written at ``path``
        (what ``evlogic play -o PATH`` writes)."""
        return final_game_yaml(self.game, path)


def play_to_text(game: PlayedGame) -> str:
    table = game.table
    names = [seat.name for seat in table.seats]
    rules = table.rules
    numbers = "".join(f", {key} {value}" for key, value in model_numbers(rules).items())
    lines = [
        f"{table.board.name}, rules {rules.name}, {table.order} order, seed {table.seed}",
        f"moves: {rules.moves_model}{numbers}",
        "",
    ]
    for seat in table.seats:
        lines.append(f"  {seat.name}: home {seat.home}, agent {seat.agent.name}")
    lines.append("")
    shows_market = any(move.market is not None for move in game.moves)
    shows_points = any(move.points is not None for move in game.moves)
    header = ["Turn", "Player", "State", "Gain", *names]
    if shows_points:
        header.append("Points")
    if shows_market:
        header.append("Market")
    rows = [header] + [
        [
            str(move.turn),
            move.player,
            move.state if move.state is not None else "(pass)",
            f"+{move.gain}" if move.gain > 0 else str(move.gain),
            *(str(move.totals[name]) for name in names),
            *([str((move.points or {}).get(move.player, ""))] if shows_points else []),
            *([" ".join(move.market or ())] if shows_market else []),
        ]
        for move in game.moves
    ]
    right = set(range(4 + len(names) + shows_points)) - {1, 2}
    lines += columns(rows, right)
    if not game.moves:
        lines.append("(no moves: the game had already ended)")
    lines.append("")
    return "\n".join(lines) + "\n" + to_text(game.report)


def final_game_yaml(game: PlayedGame, path: str) -> str:
    """The final position as a game file at ``path``: board and rules by
    bundled name or by a path relative to the file, each player's states in
    the order they were won."""
    folder = Path(path).resolve().parent
    board = game.table.board
    bundled = board.source in bundled_boards()
    document: dict[str, object] = {
        "board": board.source if bundled else _relative(board.source, folder)
    }
    rules = game.table.rules
    rule_sets = bundled_rule_sets()
    if rules.name in rule_sets and display_path(rule_sets[rules.name]) == rules.source:
        if rules.name != "standard":
            document["rules"] = rules.name
    else:
        document["rules"] = _relative(rules.source, folder)
    players = [
        {
            "name": player.name,
            "home": player.home,
            "states": [state for state in player.states if state != player.home],
        }
        for player in game.final.players
    ]
    heading = (
        f"# Played by evlogic play: {game.table.order} order, seed {game.table.seed}; "
        "states in the order won.\n"
    )
    top = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    rows = "".join(
        "  - " + yaml.safe_dump(player, default_flow_style=True, width=10**6, sort_keys=False)
        for player in players
    )
    return heading + top + "players:\n" + rows


def _relative(source: str, folder: Path) -> str:
    return os.path.relpath(Path(source).resolve(), folder)
