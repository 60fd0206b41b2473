"""Scoring: a game in, a score report out (facts -> clingo -> report)."""

from __future__ import annotations

import os
import threading

from evlogic.asp.facts import Positions, board_program
from evlogic.asp.solver import (
    POSITION_INPUT,
    SCORING_RULES,
    SCORING_RULES_ONE_SHOT,
    parsed_facts,
    rule_paths,
    solve,
)
from evlogic.loading.games import Game, checked_game, load_game
from evlogic.loading.rulesets import RuleSet, load_rule_set
from evlogic.reports.report import ScoreReport, atoms_by_position, decode

#: Positions in which no player owns more states than this (home included)
#: are scored with every region layer ground in one call
#: (rules/scoring/region_layers.lp), the others a layer at a time
#: (rules/scoring/region_order.lp).  A region is at most its player's states, and
#: one-shot layers cost its size squared against about a millisecond a layer
#: (on the usa board and a hex lattice both take the same time at about 24
#: states; tests/test_region_layers.py checks both give the same layers).
ONE_SHOT_STATES = 20


#: Boards of up to this many states reach clingo as syntax trees parsed once
#: per board (a server scores many positions on one board: adding the usa
#: board's trees costs half of parsing its text), from the second position a
#: thread scores on the board (:func:`_scored_before`); larger ones as text,
#: which a single call parses faster (a 5,041-state lattice: 0.4 s, against
#: 1.1 s and 50 MB kept for its trees).
CACHED_BOARD_STATES = 1000

#: The boards' facts this thread has scored a position on (up to 16, as
#: parsed_facts keeps the trees of 16).
_seen = threading.local()


def scoring_rules(game: Game) -> tuple[str, ...]:
    """The scoring program for ``game``: one-shot layers where regions are
    small and the rule set brings no program of its own (a program may read
    rules/scoring/region_order.lp's predicates)."""
    largest = max((len({player.home, *player.states}) for player in game.players), default=0)
    if largest <= ONE_SHOT_STATES and not game.rules.programs:
        return SCORING_RULES_ONE_SHOT
    return SCORING_RULES


def score_game(game: Game) -> ScoreReport:
    """Score one position with the rules in ``rules/`` (the way `evlogic
    batch` scores a chunk of them).  A game built in Python is validated as
    a game file is (evlogic.loading.games.checked_game): InputError."""
    game = checked_game(game)
    paths = [*rule_paths(scoring_rules(game)), *rule_paths(POSITION_INPUT), *game.rules.programs]
    facts, board = game.rules.program(), board_program(game.board)
    if len(game.board.states) <= CACHED_BOARD_STATES and _scored_before(board):
        symbols = solve(facts, paths, Positions(game.board, [game]), parsed_facts(board))
    else:
        symbols = solve(facts + board, paths, Positions(game.board, [game]))
    return decode(atoms_by_position(symbols)[0], game)


def _scored_before(board: str) -> bool:
    """Whether this thread has scored a position on the board of these facts
    before.  The first position gets them as text: parsing their trees and
    adding them costs more than clingo's one parse of the text, and a
    process that scores one position (evlogic score) never uses the trees
    again; from the second on, the trees parsed once pay."""
    seen: set[str] | None = getattr(_seen, "boards", None)
    if seen is None:
        seen = _seen.boards = set()
    if board in seen:
        return True
    if len(seen) >= 16:
        seen.clear()
    seen.add(board)
    return False


def score_file(path: str | os.PathLike[str], rules: str | RuleSet | None = None) -> ScoreReport:
    """Load a game file (and its board) and score it; ``rules`` (a bundled
    name, a rule set file or a RuleSet) overrides the file's ``rules:``."""
    if isinstance(rules, str):
        rules = load_rule_set(rules)
    return score_game(load_game(path, rules=rules))
