"""evlogic: answer-set scoring rules for an electoral-vote board game.

The rules live in clingo programs (``rules/``); this package loads
boards and games, turns them into facts, solves, and decodes the model::

    import evlogic
    result = evlogic.score("examples/rulebook/full-example.yaml")
    result.report.players[0].total   # 39
    print(result.to_json())          # what `evlogic score --format json` prints

Every command is a function here (evlogic.api: ``help(evlogic.check)``),
taking the command's argument first and its options as keywords.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from evlogic.api.pages import RulebookResult, rulebook
    from evlogic.api.scoring import (
        BatchLine,
        DiagramResult,
        ExplainResult,
        SampleResult,
        ScoreResult,
        VerifyResult,
        batch,
        diagram,
        explain,
        sample,
        score,
        verify,
    )
    from evlogic.api.searches import (
        BoardReportResult,
        CheckAnswer,
        DiffAnswer,
        LayoutResult,
        board_report,
        check,
        diff,
        layout,
    )
    from evlogic.api.simulation import (
        BalanceReport,
        GameState,
        LadderReport,
        PlayReport,
        SolveReport,
        TuneReport,
        balance,
        game_state,
        ladder,
        play,
        solve,
        tune,
    )
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
    # the library: a function per command (evlogic.api), and their results
    "score": "evlogic.api.scoring",
    "explain": "evlogic.api.scoring",
    "diagram": "evlogic.api.scoring",
    "verify": "evlogic.api.scoring",
    "batch": "evlogic.api.scoring",
    "sample": "evlogic.api.scoring",
    "ScoreResult": "evlogic.api.scoring",
    "ExplainResult": "evlogic.api.scoring",
    "DiagramResult": "evlogic.api.scoring",
    "VerifyResult": "evlogic.api.scoring",
    "BatchLine": "evlogic.api.scoring",
    "SampleResult": "evlogic.api.scoring",
    "check": "evlogic.api.searches",
    "diff": "evlogic.api.searches",
    "board_report": "evlogic.api.searches",
    "layout": "evlogic.api.searches",
    "CheckAnswer": "evlogic.api.searches",
    "DiffAnswer": "evlogic.api.searches",
    "BoardReportResult": "evlogic.api.searches",
    "LayoutResult": "evlogic.api.searches",
    "rulebook": "evlogic.api.pages",
    "RulebookResult": "evlogic.api.pages",
    "play": "evlogic.api.simulation",
    "balance": "evlogic.api.simulation",
    "tune": "evlogic.api.simulation",
    "game_state": "evlogic.api.simulation",
    "GameState": "evlogic.api.simulation",
    "PlayReport": "evlogic.api.simulation",
    "BalanceReport": "evlogic.api.simulation",
    "TuneReport": "evlogic.api.simulation",
    "solve": "evlogic.api.simulation",
    "ladder": "evlogic.api.simulation",
    "LadderReport": "evlogic.api.simulation",
    "SolveReport": "evlogic.api.simulation",
    # what they read and report
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
    "BalanceReport",
    "BatchLine",
    "Board",
    "BoardReportResult",
    "CheckAnswer",
    "DiagramResult",
    "DiffAnswer",
    "ExplainResult",
    "Explanation",
    "Game",
    "GameState",
    "InputError",
    "LadderReport",
    "LayoutResult",
    "PlayReport",
    "Player",
    "PlayerScore",
    "RuleSet",
    "RulebookResult",
    "SampleResult",
    "ScoreReport",
    "ScoreResult",
    "SolveReport",
    "State",
    "TuneReport",
    "VerifyResult",
    "__version__",
    "balance",
    "batch",
    "board_report",
    "check",
    "diagram",
    "diff",
    "draw_diagram",
    "explain",
    "explain_game",
    "game_state",
    "ladder",
    "layout",
    "load_board",
    "load_game",
    "load_rule_set",
    "play",
    "rulebook",
    "sample",
    "score",
    "score_file",
    "score_game",
    "solve",
    "tune",
    "verify",
]
