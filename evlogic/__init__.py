"""evlogic: answer-set scoring rules for an electoral-vote board game.

The rules live in clingo programs (``rules/*.lp``); this package loads
boards and games, turns them into facts, solves, and decodes the model::

    from evlogic import score_file
    report = score_file("examples/rulebook/full-example.yaml")
    report.players[0].total   # 39
"""

from __future__ import annotations

__version__ = "0.1.0"

from evlogic.asp.engine import score_file, score_game
from evlogic.drawing.diagram import draw_diagram
from evlogic.errors import InputError
from evlogic.loading.boards import Board, State, load_board
from evlogic.loading.games import Game, Player, load_game
from evlogic.loading.rulesets import RuleSet, load_rule_set
from evlogic.reports.explain import Explanation, explain_game
from evlogic.reports.report import PlayerScore, ScoreReport

__all__ = [
    "Board",
    "Explanation",
    "Game",
    "InputError",
    "Player",
    "PlayerScore",
    "RuleSet",
    "ScoreReport",
    "State",
    "__version__",
    "draw_diagram",
    "explain_game",
    "load_board",
    "load_game",
    "load_rule_set",
    "score_file",
    "score_game",
]
