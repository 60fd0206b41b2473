"""The engine: a game in, a score report out (facts -> clingo -> report)."""

from __future__ import annotations

from pathlib import Path

from evlogic.facts import board_facts, game_facts
from evlogic.games import Game, load_game
from evlogic.report import ScoreReport, decode
from evlogic.solver import solve


def score_game(game: Game) -> ScoreReport:
    """Score one position with the rules in ``rules/``."""
    facts = [*board_facts(game.board), *game_facts(game)]
    return decode(solve(facts), game)


def score_file(path: str | Path) -> ScoreReport:
    """Load a game file (and its board) and score it."""
    return score_game(load_game(Path(path)))
