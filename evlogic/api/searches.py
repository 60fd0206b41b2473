"""The library's search commands: check, diff, board_report and layout,
each a function returning a frozen result whose ``to_json()`` is the
command's ``--format json`` output (without its final newline)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from evlogic.api.inputs import (
    BoardInput,
    PathText,
    RulesInput,
    board_of,
    rule_set,
    rules_name,
)
from evlogic.errors import InputError, quote
from evlogic.loading.boards import Board
from evlogic.loading.rulesets import RuleSet, load_rule_set

if TYPE_CHECKING:
    from evlogic.asp.search import Watch
    from evlogic.drawing.relayout import Count, Layout
    from evlogic.reports.boardreport import BoardReport
    from evlogic.reports.check import CheckResult
    from evlogic.reports.diff import DiffResult


def _board_reference(board: BoardInput) -> str:
    """How a report (and a counterexample's board:) names ``board``."""
    return board.source if isinstance(board, Board) else os.fspath(board)


@dataclass(frozen=True)
class CheckAnswer:
    """A property checked: ``result`` holds the answer (holds,
    counterexample, unknown), the counterexample as a game mapping, and
    the seconds it took."""

    result: CheckResult

    def exit_status(self) -> int:
        """The command's: 0 holds, 1 counterexample, 3 unknown."""
        return self.result.exit_status()

    def to_json(self) -> str:
        """``evlogic check --format json``."""
        from evlogic.reports.render import check_to_json

        return check_to_json(self.result)

    def to_text(self) -> str:
        """``evlogic check``."""
        from evlogic.reports.render import check_to_text

        return check_to_text(self.result)


@dataclass(frozen=True)
class CheckInputs:
    """What a check searches, read: the property as given, the board and
    the rule set, loaded, and how the report names them."""

    property: str
    board: Board
    board_reference: str
    rules: RuleSet
    rules_reference: str
    players: int
    max_states: int | None


def check_inputs(
    property: PathText,
    *,
    board: BoardInput = "usa",
    players: int = 2,
    max_states: int | None = None,
    rules: RulesInput | None = None,
) -> CheckInputs:
    """:func:`check`'s inputs read (the board, then the rule set)."""
    loaded = board_of(board)
    rules_loaded = rule_set(rules) or load_rule_set("standard")
    return CheckInputs(
        os.fspath(property),
        loaded,
        _board_reference(board),
        rules_loaded,
        rules_name(rules) or "standard",
        players,
        max_states,
    )


def run_check(
    inputs: CheckInputs, timeout: float, deadline: float | None = None, watch: Watch | None = None
) -> CheckAnswer:
    """:func:`check` on read inputs, until ``deadline`` (time.monotonic();
    default ``timeout`` seconds from now), shown to ``watch`` as it goes."""
    from evlogic.asp.search import TimeLimit
    from evlogic.reports.check import check as check_property

    return CheckAnswer(
        check_property(
            inputs.property,
            inputs.board,
            inputs.board_reference,
            inputs.rules,
            inputs.rules_reference,
            players=inputs.players,
            max_states=inputs.max_states,
            limit=TimeLimit(timeout, deadline),
            watch=watch,
        )
    )


def check_so_far(inputs: CheckInputs, watch: Watch, started: float) -> CheckAnswer:
    """What :func:`run_check` (given ``watch``, started at ``started``)
    would answer now: its answer, or unknown with what it found so far."""
    from evlogic.reports.check import check_so_far as so_far

    return CheckAnswer(
        so_far(
            inputs.property,
            inputs.board,
            inputs.board_reference,
            inputs.rules,
            inputs.rules_reference,
            inputs.players,
            inputs.max_states,
            watch,
            started,
        )
    )


def check(
    property: PathText,
    *,
    board: BoardInput = "usa",
    players: int = 2,
    max_states: int | None = None,
    timeout: float = 60.0,
    rules: RulesInput | None = None,
) -> CheckAnswer:
    """Search every position on a board that can happen (all homes, all
    ownerships, at most the game end's number of states won) for a
    counterexample to a property.

    ``property``: a bundled property name (``region-connected``,
    ``bonus-bounds``, ...) or the path of an .lp file defining
    ``violation``.  ``board``: a bundled name, a board file or a loaded
    :class:`evlogic.Board`.  ``players``: players per position.
    ``max_states``: only positions with at most this many owned states.
    ``timeout``: seconds before answering unknown, grounding included.
    ``rules``: a rule set (name, file or :class:`evlogic.RuleSet`;
    default standard).

    Returns a :class:`CheckAnswer`: ``.result.result`` is holds,
    counterexample (``.result.counterexample``, a game mapping: the
    smallest unless time ran out first) or unknown.  A property no rule
    can make fail, or bad input, raises :class:`evlogic.InputError`.

    >>> evlogic.check("region-connected", board="examples/lakeland/board.yaml").result.result
    'holds'
    """
    inputs = check_inputs(
        property, board=board, players=players, max_states=max_states, rules=rules
    )
    return run_check(inputs, timeout)


@dataclass(frozen=True)
class DiffAnswer:
    """Two rule sets compared: ``result`` holds each search's answer
    (a different total, a different winner): differs with the smallest
    position, equivalent, or unknown."""

    result: DiffResult
    first: RuleSet
    second: RuleSet
    board: Board

    def exit_status(self) -> int:
        """The command's: 0 equivalent, 1 a difference, 3 unknown."""
        return self.result.exit_status()

    def to_json(self) -> str:
        """``evlogic diff --format json``."""
        from evlogic.reports.render import diff_to_json

        return diff_to_json(self.result)

    def to_text(self) -> str:
        """``evlogic diff``: each difference as a game file and both score tables."""
        from evlogic.reports.render import diff_to_text

        return diff_to_text(self.result, self.first, self.second, self.board)


@dataclass(frozen=True)
class DiffInputs:
    """What a diff compares, read."""

    first: RuleSet
    first_reference: str
    second: RuleSet
    second_reference: str
    board: Board
    board_reference: str
    players: int


def diff_inputs(
    rules: Sequence[RulesInput], *, board: BoardInput = "usa", players: int = 2
) -> DiffInputs:
    """:func:`diff`'s inputs read (the two rule sets, then the board)."""
    if len(rules) != 2:
        raise InputError("--rules", f"give exactly two rule sets, not {len(rules)}")
    first, second = (rule_set(reference) for reference in rules)
    assert first is not None and second is not None  # (rules are never None here)
    return DiffInputs(
        first,
        rules_name(rules[0]) or first.name,
        second,
        rules_name(rules[1]) or second.name,
        board_of(board),
        _board_reference(board),
        players,
    )


def run_diff(
    inputs: DiffInputs, timeout: float, deadline: float | None = None, watch: Watch | None = None
) -> DiffAnswer:
    """:func:`diff` on read inputs, until ``deadline`` (time.monotonic();
    default ``timeout`` seconds from now), shown to ``watch`` as it goes."""
    from evlogic.asp.search import TimeLimit
    from evlogic.reports.diff import diff as compare

    result = compare(
        inputs.first,
        inputs.first_reference,
        inputs.second,
        inputs.second_reference,
        inputs.board,
        inputs.board_reference,
        players=inputs.players,
        limit=TimeLimit(timeout, deadline),
        watch=watch,
    )
    return DiffAnswer(result, inputs.first, inputs.second, inputs.board)


def diff_so_far(inputs: DiffInputs, watch: Watch, started: float) -> DiffAnswer:
    """What :func:`run_diff` (given ``watch``, started at ``started``)
    would answer now: each search's answer, or unknown with what it found."""
    from evlogic.reports.diff import diff_so_far as so_far

    result = so_far(
        inputs.first_reference,
        inputs.second_reference,
        inputs.board,
        inputs.board_reference,
        inputs.players,
        watch,
        started,
    )
    return DiffAnswer(result, inputs.first, inputs.second, inputs.board)


def diff(
    rules: Sequence[RulesInput],
    *,
    board: BoardInput = "usa",
    players: int = 2,
    timeout: float = 60.0,
) -> DiffAnswer:
    """Find the smallest position (fewest owned states) where two rule
    sets give a player a different total, and one where they crown a
    different winner, or prove that none exists.  Both searches run side
    by side and share the timeout; only positions that can happen under
    both rule sets are searched.

    ``rules``: the two rule sets (``--rules A --rules B``), each a bundled
    name, a file or a loaded :class:`evlogic.RuleSet` of numbers only.
    ``board``: a bundled name, a board file or a loaded :class:`evlogic.Board`.
    ``players``: players per position.  ``timeout``: seconds before a
    search answers unknown, grounding included.

    Returns a :class:`DiffAnswer`: ``.result.total_diff`` and
    ``.result.winner_diff``, each differs (with its position), equivalent
    or unknown.  Bad input raises :class:`evlogic.InputError`.

    >>> answer = evlogic.diff(["standard", "gentle-siege"], board="examples/lakeland/board.yaml")
    >>> answer.result.total_diff.result
    'differs'
    """
    return run_diff(diff_inputs(rules, board=board, players=players), timeout)


@dataclass(frozen=True)
class BoardReportResult:
    """What every home of a board can reach: ``report.homes``, one per home."""

    report: BoardReport

    def to_json(self) -> str:
        """``evlogic board-report --format json``."""
        from evlogic.reports.render import board_report_to_json

        return board_report_to_json(self.report)

    def to_text(self) -> str:
        """``evlogic board-report``."""
        from evlogic.reports.render import board_report_to_text

        return board_report_to_text(self.report)


def board_report(
    board: BoardInput = "usa", *, rules: RulesInput | None = None
) -> BoardReportResult:
    """The fairness check for a board: for every home state, the cores it
    has, the largest region it can reach, for each bonus tier the ways to
    earn it and the bonus left after the worst siege they allow, the
    fewest owned states that reach each tier, its siege exposure, and
    whether it can earn a regional bonus at all.

    ``board``: a bundled name, a board file or a loaded :class:`evlogic.Board`.
    ``rules``: a rule set of numbers only (default standard; one with .lp
    programs raises :class:`evlogic.InputError`).

    Returns a :class:`BoardReportResult`.

    >>> evlogic.board_report("examples/lakeland/board.yaml").report.homes[0].can_earn_bonus
    True
    """
    from evlogic.reports.boardreport import board_report as report_on

    loaded = board_of(board, "BOARD")
    rules_loaded = rule_set(rules) or load_rule_set("standard")
    return BoardReportResult(report_on(loaded, rules_loaded, rules_name(rules)))


@dataclass(frozen=True)
class LayoutResult:
    """Hex tiles for a board: ``layout`` holds the cells found (and where
    each started), the bridges and walls before and after, whether clingo
    proved it optimal, and the seconds it took."""

    board: Board
    layout: Layout
    path: Path | None  # the board's file (None: a loaded board)
    reference: str | None  # the board as given (a name or a path; None: a loaded board)

    def to_json(self) -> str:
        """The layout as data: the cells, the counts before and after."""
        found = self.layout
        return json.dumps(
            {
                "board": self.board.name,
                "states": len(self.board.states),
                "before": None if found.before is None else _count(found.before),
                "after": _count(found.after),
                "optimal": found.optimal,
                "seconds": round(found.seconds, 3),
                "moved": found.moved(),
                "cells": {state: list(cell) for state, cell in sorted(found.cells.items())},
            },
            indent=2,
            ensure_ascii=False,
        )

    def to_text(self) -> str:
        """``evlogic layout``: the counts before and after, the tiles moved."""
        from evlogic.errors import escaped

        found = self.layout
        board = self.board
        before = "does not fit the grid" if found.before is None else str(found.before)
        lines = [f"{escaped(board.name)}: {len(board.states)} states", f"before: {before}"]
        if found.optimal:
            how = f"optimal, proved in {found.seconds:.1f} s"
        else:
            how = f"the best found in {found.seconds:.0f} s, not proved optimal"
        lines.append(f"after:  {found.after}: {how}")
        moved = found.moved()
        lines.append(f"moved:  {len(moved)} of {len(board.states)} tiles")
        for state in moved:
            old, new = found.start[state], found.cells[state]
            lines.append(f"  {escaped(state)}: [{old[0]}, {old[1]}] -> [{new[0]}, {new[1]}]")
        return "\n".join(lines) + "\n"

    def to_yaml(self, output: str = "-") -> str:
        """The board file with the new ``hex:`` cells, every other field as
        it was (``-o``; ``output`` names it in an error)."""
        from evlogic.drawing.relayout import board_text_with_cells
        from evlogic.loading.boards import board_from_field
        from evlogic.loading.yamlfile import read_file, utf8_text, yaml_document

        if self.path is None or self.reference is None:
            raise InputError("-o", "a board loaded in Python has no file to rewrite")
        text = utf8_text(read_file(self.path, self.reference), self.reference)
        written = board_text_with_cells(text, self.layout.cells)
        board_from_field(yaml_document(written, output), default_name=self.board.name)
        return written


def _count(count: Count) -> dict[str, int]:
    return {"bridges": count.bridges, "walls": count.walls, "total": count.total}


def layout(
    board: BoardInput = "usa",
    *,
    keep: str | Sequence[str] = (),
    reach: int = 2,
    timeout: float = 60.0,
) -> LayoutResult:
    """Find hex tiles (``hex: [q, r]``) for a board's states with the
    fewest bridges (neighbours whose tiles do not touch) and walls
    (touching tiles that are not neighbours), by an optimisation in ASP
    (rules/layout/layout.lp), starting from the board's current layout.

    ``board``: a bundled name, a board file or a loaded :class:`evlogic.Board`.
    ``keep``: states that keep their cells (a list, or comma-separated
    text as ``--keep`` takes).  ``reach``: how many tiles a state may
    move from where it starts.  ``timeout``: seconds to search, grounding
    included; the best layout found by then is the answer.

    Returns a :class:`LayoutResult`; ``to_yaml()`` is the board file with
    the new cells.

    >>> evlogic.layout("examples/lakeland/board.yaml").layout.after.total
    0
    """
    from evlogic.drawing.relayout import MAX_LAYOUT_STATES, lay_out
    from evlogic.loading.boards import looks_like_board_path, resolve_board
    from evlogic.loading.yamlfile import Field

    loaded = board_of(board, "BOARD")
    if len(loaded.states) > MAX_LAYOUT_STATES:
        raise InputError(
            _board_reference(board),
            f"{len(loaded.states):,} states; layout places up to {MAX_LAYOUT_STATES}",
        )
    if isinstance(keep, str):
        keep = keep.split(",")
    kept = [state.strip() for state in keep if state.strip()]
    for state in kept:
        if state not in loaded.states:
            raise InputError("--keep", f"unknown state {quote(state)}{loaded.suggest(state)}")
    found = lay_out(loaded, timeout, keep=kept, reach=reach)
    if isinstance(board, Board):
        return LayoutResult(loaded, found, None, None)
    name = os.fspath(board)
    field = Field("BOARD", "", name, None, None)
    path = Path(name) if looks_like_board_path(name) else resolve_board(field, Path.cwd())
    return LayoutResult(loaded, found, path, name)
