"""The engine: a game in, a score report out (facts -> clingo -> report)."""

from __future__ import annotations

import os

from evlogic.facts import Positions, board_program
from evlogic.games import Game, load_game
from evlogic.report import ScoreReport, atoms_by_position, decode
from evlogic.rulesets import RuleSet, load_rule_set
from evlogic.solver import (
    POSITION_INPUT,
    parsed_facts,
    rule_paths,
    solve,
)


def score_game(game: Game) -> ScoreReport:
    """Score one position with the rules in ``rules/`` (the way `evlogic
    batch` scores a chunk of them)."""
    paths = [*rule_paths(), *rule_paths(POSITION_INPUT), *game.rules.programs]
    board = parsed_facts(board_program(game.board))
    symbols = solve(game.rules.program(), paths, Positions(game.board, [game]), board)
    return decode(atoms_by_position(symbols)[0], game)


def score_file(path: str | os.PathLike[str], rules: str | RuleSet | None = None) -> ScoreReport:
    """Load a game file (and its board) and score it; ``rules`` (a bundled
    name, a rule set file or a RuleSet) overrides the file's ``rules:``."""
    if isinstance(rules, str):
        rules = load_rule_set(rules)
    return score_game(load_game(path, rules=rules))
