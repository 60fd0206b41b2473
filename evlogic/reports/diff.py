"""Variant diffs: the smallest position where two rule sets disagree.

Both rule sets score the same chosen position side by side in one grounding
(``rules/diff/position.lp``: rule set 0 scores position 0, rule set 1 its
copy, position 1); ``rules/diff/total.lp`` and ``winner.lp`` say what
counts as disagreeing.  The search (``evlogic.asp.search``) is the one of
``evlogic check``: a smallest witness, or the proof that the rule sets agree
on every position of the board.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from evlogic.asp.program import read_program
from evlogic.asp.search import (
    Answer,
    Floor,
    SearchOutcome,
    SearchRequest,
    TimeLimit,
    Watch,
    position_game,
    search,
)
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.games import check_game_end
from evlogic.loading.rulesets import RuleSet
from evlogic.resources import rules_dir

#: The two searches of a diff, by the name of their program (rules/diff/).
KINDS = ("total", "winner")


class Difference(StrEnum):
    """A diff search's answer (a StrEnum: its word, in JSON and in text)."""

    DIFFERS = "differs"
    EQUIVALENT = "equivalent"
    UNKNOWN = "unknown"


#: A search's answer, as diff words it.
OUTCOME = {
    Answer.COUNTEREXAMPLE: Difference.DIFFERS,
    Answer.HOLDS: Difference.EQUIVALENT,
    Answer.UNKNOWN: Difference.UNKNOWN,
}


@dataclass(frozen=True)
class DiffSearch:
    result: Difference
    counterexample: dict[str, Any] | None  # a game mapping, rules: the first rule set
    seconds: float
    smallest: bool = False  # the witness is proved to have the fewest owned states

    def to_dict(self) -> dict[str, object]:
        return {
            "result": self.result,
            "counterexample": self.counterexample,
            "smallest": self.smallest,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class DiffResult:
    rules: tuple[str, str]
    board: str
    players: int
    total_diff: DiffSearch
    winner_diff: DiffSearch

    def exit_status(self) -> int:
        """0: both proved equivalent; 1: a difference, and each part
        answered; 3: the time limit came before a part was answered (the
        report still shows any difference found by then)."""
        results = {self.total_diff.result, self.winner_diff.result}
        if Difference.UNKNOWN in results:
            return 3
        return 1 if Difference.DIFFERS in results else 0

    def to_dict(self) -> dict[str, object]:
        return {
            "rules": list(self.rules),
            "board": self.board,
            "players": self.players,
            "total_diff": self.total_diff.to_dict(),
            "winner_diff": self.winner_diff.to_dict(),
        }


def diff(
    first: RuleSet,
    first_reference: str,
    second: RuleSet,
    second_reference: str,
    board: Board,
    board_reference: str,
    players: int = 2,
    limit: TimeLimit | None = None,
    watch: Watch | None = None,
) -> DiffResult:
    """Both searches (a different total, a different winner) run side by side
    on their own threads (clingo solves without the GIL) within one shared
    time ``limit``; ``watch`` is shown both as they go (for
    :func:`diff_so_far`)."""
    for rule_set, reference in ((first, first_reference), (second, second_reference)):
        check_game_end(board, rule_set)  # as score refuses it
        if rule_set.programs:
            # Both positions are grounded together, so a program of either
            # rule set would score both: the totals would always agree.
            raise InputError(
                reference,
                f"diff compares rule sets of numbers; {rule_set.name} brings .lp programs "
                f"({', '.join(path.name for path in rule_set.programs)}), which would score "
                "both positions alike, so no difference could be seen (score each position "
                "with score --rules to compare them)",
            )
    limit = TimeLimit() if limit is None else limit  # (default: 60 s from now)
    started = limit.started()
    facts = first.program(0) + second.program(1, default=False)
    programs = [*first.programs, *second.programs, rules_dir() / "diff" / "position.lp"]

    # Rule sets of numbers treat the players alike: a different total for
    # some player is one for player 0 (rules/diff/total.lp).  A different
    # winner is asked only where player 0's total differs
    # (rules/diff/winner.lp), so every winner witness is a total witness of
    # rules/diff/total.lp: what the total search proves (none at all, or none
    # below a size) holds for the winner search too, which reads it as it runs.
    proved = Floor()
    floors = {"total": (proved, None), "winner": (Floor(), proved)}

    def run(kind: str) -> DiffSearch:
        publish, within = floors[kind]
        # read on this search's thread: its trees are its own (evlogic/asp/program.py)
        program = read_program([*programs, rules_dir() / "diff" / f"{kind}.lp"])
        request = SearchRequest(
            board,
            facts,
            program,
            players,
            None,
            limit.timeout,
            started,
            label=f"diff {kind}",
            publish=publish,
            within=within or Floor(),
            watch=watch,
        )
        outcome = search(request)
        return _search_answer(outcome, board, board_reference, first_reference, players)

    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="evlogic-diff") as pool:
        total_diff, winner_diff = pool.map(run, KINDS)
    return DiffResult(
        (first_reference, second_reference), board.name, players, total_diff, winner_diff
    )


def diff_so_far(
    first_reference: str,
    second_reference: str,
    board: Board,
    board_reference: str,
    players: int,
    watch: Watch,
    started: float,
) -> DiffResult:
    """What :func:`diff` (given ``watch``, started at ``started``) would
    answer now: each search's answer, or else unknown, with the smallest
    difference it found so far (not proved smallest)."""
    total_diff, winner_diff = (
        _search_answer(
            watch.so_far(f"diff {kind}", started), board, board_reference, first_reference, players
        )
        for kind in KINDS
    )
    return DiffResult(
        (first_reference, second_reference), board.name, players, total_diff, winner_diff
    )


def _search_answer(
    outcome: SearchOutcome, board: Board, board_reference: str, rules_reference: str, players: int
) -> DiffSearch:
    game = (
        None
        if outcome.found is None
        else position_game(outcome.found, board, board_reference, rules_reference, players)
    )
    return DiffSearch(OUTCOME[outcome.result], game, outcome.seconds, outcome.smallest)
