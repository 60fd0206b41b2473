"""Properties: true for every position on a board, or here is a counterexample.

A property is an ASP file that derives ``violation`` from the scoring
outputs of position 0 (``rules/properties/``; users may pass their own).
``evlogic.asp.search`` searches every position for one: a smallest
counterexample, or the proof that there is none.  The time limit may end the
search first: "unknown", or the smallest counterexample found so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evlogic.asp.fragment import Kind, refuse_outside
from evlogic.asp.program import read_program
from evlogic.asp.search import (
    Answer,
    SearchOutcome,
    SearchRequest,
    TimeLimit,
    Watch,
    atoms_read,
    position_game,
    search,
)
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.loading.games import check_game_end
from evlogic.loading.rulesets import RuleSet
from evlogic.loading.yamlfile import closest
from evlogic.resources import bundled_properties, display_path, rules_dir


@dataclass(frozen=True)
class CheckResult:
    property: str
    board: str
    players: int
    rules: str
    result: Answer  # holds | counterexample | unknown (a StrEnum: its word)
    counterexample: dict[str, Any] | None  # a game mapping (game-file schema)
    seconds: float
    max_states: int | None  # "holds" covers positions with at most this many owned states
    smallest: bool = False  # the counterexample is proved to have the fewest owned states

    def exit_status(self) -> int:
        """0: holds; 1: counterexample; 3: unknown."""
        return {Answer.HOLDS: 0, Answer.COUNTEREXAMPLE: 1}.get(self.result, 3)

    def to_dict(self) -> dict[str, object]:
        return {
            "property": self.property,
            "board": self.board,
            "players": self.players,
            "rules": self.rules,
            "result": self.result,
            "counterexample": self.counterexample,
            "smallest": self.smallest,
            "max_states": self.max_states,
            "seconds": round(self.seconds, 3),
        }


def resolve_property(reference: str) -> tuple[str, Path]:
    bundled = bundled_properties()
    if reference in bundled:
        return reference, bundled[reference]
    path = Path(reference)
    if path.suffix == ".lp" and path.is_file():
        return path.stem, path
    raise InputError(
        "PROPERTY",
        f"no property {reference!r}{closest(reference, bundled)}; bundled: "
        f"{', '.join(bundled)}; or give the path of an .lp file defining violation",
    )


def check(
    reference: str,
    board: Board,
    board_reference: str,
    rules: RuleSet,
    rules_reference: str,
    players: int = 2,
    max_states: int | None = None,
    limit: TimeLimit | None = None,
    watch: Watch | None = None,
) -> CheckResult:
    """The check of property ``reference``, within the time ``limit``
    (default: 60 s from now),
    reading the programs included; ``watch`` is shown the search as it goes
    (for :func:`check_so_far`)."""
    limit = TimeLimit() if limit is None else limit  # (default: 60 s from now)
    started = limit.started()  # the time limit covers reading the programs too
    name, path = resolve_property(reference)
    if rules.programs and path.parent == rules_dir() / "properties":
        # A rule set's own programs may treat players differently: then
        # player 0 no longer stands for every player, so every player is asked.
        every = rules_dir() / "properties" / "every_player" / path.name
        path = every if every.is_file() else path
    check_game_end(board, rules)  # as score refuses it
    # Each program read once: the fragment, the per-atom check and the
    # search (the cone, soundness, grounding) all take what was read.
    rule_programs = read_program(rules.programs)
    refuse_outside(rule_programs, Kind.RULE_SET)
    program = read_program([path])
    refuse_outside(program, Kind.PROPERTY, beside=rule_programs)
    if ("violation", 0) not in program.defines:
        raise InputError(
            display_path(path),
            "no rule derives violation (a misspelt head?): the property could never "
            "fail, so a search would prove nothing",
        )
    request = SearchRequest(
        board,
        rules.program(),
        rule_programs.joined(program),
        players,
        max_states,
        limit.timeout,
        started,
        reads=atoms_read(program),
        label=f"check {name}",
        watch=watch,
    )
    outcome = search(request)
    return _result(
        name, board, board_reference, rules, rules_reference, players, max_states, outcome
    )


def check_so_far(
    reference: str,
    board: Board,
    board_reference: str,
    rules: RuleSet,
    rules_reference: str,
    players: int,
    max_states: int | None,
    watch: Watch,
    started: float,
) -> CheckResult:
    """What :func:`check` (given ``watch``, started at ``started``) would
    answer now: its answer, or else unknown, with the smallest
    counterexample found so far (not proved smallest)."""
    name, _path = resolve_property(reference)
    outcome = watch.so_far(f"check {name}", started)
    return _result(
        name, board, board_reference, rules, rules_reference, players, max_states, outcome
    )


def _result(
    name: str,
    board: Board,
    board_reference: str,
    rules: RuleSet,
    rules_reference: str,
    players: int,
    max_states: int | None,
    outcome: SearchOutcome,
) -> CheckResult:
    game = (
        None
        if outcome.found is None
        else position_game(outcome.found, board, board_reference, rules_reference, players)
    )
    return CheckResult(
        name,
        board.name,
        players,
        rules.name,
        outcome.result,
        game,
        outcome.seconds,
        max_states,
        outcome.smallest,
    )
