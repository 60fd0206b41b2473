"""The engine: a game in, a score report out (facts -> clingo -> report)."""

from __future__ import annotations

from pathlib import Path

from evlogic.facts import Positions, board_program
from evlogic.games import Game, load_game
from evlogic.report import ScoreReport, atoms_by_position, decode
from evlogic.solver import POSITION_INPUT, rule_paths, solve


def score_game(game: Game) -> ScoreReport:
    """Score one position with the rules in ``rules/`` (the way `evlogic
    batch` scores a chunk of them)."""
    facts = game.rules.program() + board_program(game.board)
    paths = [*rule_paths(), *rule_paths(POSITION_INPUT), *game.rules.programs]
    atoms = atoms_by_position(solve(facts, paths, Positions(game.board, [game])))
    return decode(atoms[0], game)


def score_file(path: str | Path) -> ScoreReport:
    """Load a game file (and its board) and score it."""
    return score_game(load_game(Path(path)))
