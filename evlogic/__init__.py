"""evlogic: answer-set scoring rules for an electoral-vote board game.

The rules live in clingo programs (``rules/``); this package loads
boards and games, turns them into facts, solves, and decodes the model::

    from evlogic import score_file
    report = score_file("examples/rulebook/full-example.yaml")
    report.players[0].total   # 39
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from evlogic.api.simulation import balance, play, tune
    from evlogic.drawing.diagram import draw_diagram
    from evlogic.errors import InputError
    from evlogic.loading.boards import Board, State, load_board
    from evlogic.loading.games import Game, Player, load_game
    from evlogic.loading.rulesets import RuleSet, load_rule_set
    from evlogic.reports.explain import Explanation, explain_game
    from evlogic.reports.report import PlayerScore, ScoreReport
    from evlogic.reports.score import score_file, score_game

#: The module of each public name, imported when the name is first used
#: (PEP 562): a batch worker, which needs a few modules, imports only those.
_MODULES = {
    "play": "evlogic.api.simulation",
    "balance": "evlogic.api.simulation",
    "tune": "evlogic.api.simulation",
    "score_file": "evlogic.reports.score",
    "score_game": "evlogic.reports.score",
    "draw_diagram": "evlogic.drawing.diagram",
    "InputError": "evlogic.errors",
    "Board": "evlogic.loading.boards",
    "State": "evlogic.loading.boards",
    "load_board": "evlogic.loading.boards",
    "Game": "evlogic.loading.games",
    "Player": "evlogic.loading.games",
    "load_game": "evlogic.loading.games",
    "RuleSet": "evlogic.loading.rulesets",
    "load_rule_set": "evlogic.loading.rulesets",
    "Explanation": "evlogic.reports.explain",
    "explain_game": "evlogic.reports.explain",
    "PlayerScore": "evlogic.reports.report",
    "ScoreReport": "evlogic.reports.report",
}


def __dir__() -> list[str]:
    """The public names (imported or not yet) and the module's own dunders."""
    return sorted({*__all__, *(name for name in globals() if name.startswith("__"))})


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'evlogic' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
    "balance",
    "draw_diagram",
    "explain_game",
    "load_board",
    "load_game",
    "load_rule_set",
    "play",
    "score_file",
    "score_game",
    "tune",
]
