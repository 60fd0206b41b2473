"""Playing one game: a decision a turn, each one grounding of
rules/play/moves.lp beside the mover's agent.

The engine keeps the position (who won what, in which order) and hands it
to the rules as facts over numbers (evlogic/asp/facts.py); the rules say
whether the game is over, what every move would give every player, and the
agent says which state the mover wins.  The final position is scored by
score's own rules (evlogic.reports.score.score_game), so a played game's
report is the report ``evlogic score`` gives its final position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import clingo
import clingo.ast
from clingo import Symbol

from evlogic.asp.facts import board_program, state_ids, state_numbers
from evlogic.asp.solver import SolverError, _parsed, parsed_facts
from evlogic.errors import InputError
from evlogic.limits import checkpoint
from evlogic.loading.games import Game
from evlogic.play.agents import MOVES
from evlogic.play.table import Table, turn_order
from evlogic.reports.report import ScoreReport
from evlogic.reports.score import score_game
from evlogic.resources import rules_dir

#: The encoding of a decision, and what the engine reads of it.
DECISION = (MOVES, "play/decision.lp")


@dataclass(frozen=True)
class Move:
    turn: int  # from 1
    player: str
    state: str
    gain: int  # the mover's gain
    totals: dict[str, int]  # every player's total after the move


@dataclass(frozen=True)
class PlayedGame:
    table: Table
    moves: tuple[Move, ...]
    final: Game  # each player's states in the order won
    report: ScoreReport


@dataclass(frozen=True)
class _Decision:
    over: bool
    chosen: list[int]
    outside: list[int]  # chosen states that are not candidates
    gain: int | None
    after: dict[int, int]  # player -> total after the chosen move


def play(table: Table) -> PlayedGame:
    """Play ``table`` to the game end; the same table, the same game."""
    board = table.board
    ids = state_ids(board)
    number = state_numbers(board)
    rng = random.Random(table.seed)
    names = [seat.name for seat in table.seats]
    won: dict[str, list[str]] = {name: [] for name in names}
    owned = [[number[s] for s in seat.states] for seat in table.seats]
    homes = [number[seat.home] for seat in table.seats]
    moves: list[Move] = []
    seats = turn_order(len(table.seats), table.order)
    for turn in range(1, len(ids) + 1):
        mover = next(seats)
        ranks = list(range(1, len(ids) + 1))
        rng.shuffle(ranks)
        decision = _decide(table, homes, owned, mover, turn, ranks)
        if decision.over:
            break
        agent = table.seats[mover].agent
        if len(decision.chosen) != 1:
            chose = ", ".join(ids[s] for s in sorted(decision.chosen)) or "nothing"
            raise InputError(
                agent.name,
                f"agent chose {len(decision.chosen)} states ({chose}) at turn {turn}: "
                "an agent derives choose(X) for exactly one candidate X",
            )
        state = decision.chosen[0]
        if decision.outside or decision.gain is None:
            raise InputError(
                agent.name,
                f"agent chose {ids[state]} at turn {turn}, which is not a candidate "
                "(an unclaimed state)",
            )
        owned[mover].append(state)
        won[names[mover]].append(ids[state])
        totals = {names[p]: decision.after[p] for p in range(len(names))}
        moves.append(Move(turn, names[mover], ids[state], decision.gain, totals))
    final = table.game(won)
    return PlayedGame(table, tuple(moves), final, score_game(final))


@dataclass(frozen=True)
class Figures:
    """What rules/play/moves.lp gives the agents at one decision, by state
    and player number (evlogic.asp.facts): the tests' view of a decision."""

    over: bool
    candidates: frozenset[int]
    total: dict[int, int]  # player -> total now
    after: dict[tuple[int, int], int]  # (candidate, player) -> total after
    gain: dict[int, int]  # candidate -> the mover's gain
    face_gain: dict[int, int]  # candidate -> the face EV it adds for the mover


def figures(table: Table, mover: int) -> Figures:
    """The figures of the decision at ``table``'s position (its seats'
    states) with seat ``mover`` to move."""
    number = state_numbers(table.board)
    owned = [[number[s] for s in seat.states] for seat in table.seats]
    homes = [number[seat.home] for seat in table.seats]
    ranks = list(range(1, len(number) + 1))
    shown = "#show candidate/1. #show total/2. #show after/3. #show gain/2. #show face_gain/2."
    symbols = _solve(table, homes, owned, mover, 1, ranks, shown)
    over, candidates = False, set()
    total: dict[int, int] = {}
    after: dict[tuple[int, int], int] = {}
    gain: dict[int, int] = {}
    face_gain: dict[int, int] = {}
    for symbol in symbols:
        values = [argument.number for argument in symbol.arguments]
        if symbol.name == "over":
            over = True
        elif symbol.name == "candidate":
            candidates.add(values[0])
        elif symbol.name == "total":
            total[values[0]] = values[1]
        elif symbol.name == "after":
            after[values[0], values[1]] = values[2]
        elif symbol.name == "gain":
            gain[values[0]] = values[1]
        elif symbol.name == "face_gain":
            face_gain[values[0]] = values[1]
    return Figures(over, frozenset(candidates), total, after, gain, face_gain)


def _decide(
    table: Table,
    homes: Sequence[int],
    owned: Sequence[Sequence[int]],
    mover: int,
    turn: int,
    ranks: Sequence[int],
) -> _Decision:
    return _read(_solve(table, homes, owned, mover, turn, ranks))


def _solve(
    table: Table,
    homes: Sequence[int],
    owned: Sequence[Sequence[int]],
    mover: int,
    turn: int,
    ranks: Sequence[int],
    shown: str = "",
) -> Sequence[Symbol]:
    checkpoint()
    control = clingo.Control(["--warn=none"])
    lines = [f"mover({mover}). turn({turn})."]
    for player, home in enumerate(homes):
        lines.append(f"home({player},{home}).")
        lines.extend(f"owned({player},{state})." for state in owned[player])
    lines.extend(f"tie_break({state},{rank})." for state, rank in enumerate(ranks))
    with clingo.ast.ProgramBuilder(control) as builder:
        for statement in _moves():
            builder.add(statement)
        for statement in _board(table):
            builder.add(statement)
        for statement in table.seats[mover].agent.statements:
            builder.add(statement)
    control.add("base", [], "\n".join(lines) + shown)
    control.ground([("base", [])])
    symbols: Sequence[Symbol] = ()
    handle: clingo.SolveHandle
    with control.solve(yield_=True) as handle:
        for model in handle:
            symbols = model.symbols(shown=True)
            break
        else:
            raise SolverError("a decision of a played game has no answer set")
    return symbols


def _read(symbols: Sequence[Symbol]) -> _Decision:
    over = False
    chosen: list[int] = []
    outside: list[int] = []
    gain: int | None = None
    after: dict[int, int] = {}
    for symbol in symbols:
        arguments = [argument.number for argument in symbol.arguments]
        if symbol.name == "over":
            over = True
        elif symbol.name == "choose":
            chosen.append(arguments[0])
        elif symbol.name == "not_candidate":
            outside.append(arguments[0])
        elif symbol.name == "chosen_gain":
            gain = arguments[0]
        elif symbol.name == "chosen_after":
            after[arguments[0]] = arguments[1]
    return _Decision(over, chosen, outside, gain, after)


def _moves() -> list[clingo.ast.AST]:
    return [statement for name in DECISION for statement in _parsed(rules_dir() / name)]


def _board(table: Table) -> tuple[clingo.ast.AST, ...]:
    return parsed_facts(board_program(table.board) + table.rules.program(0))
