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

from evlogic.asp.facts import Positions, board_program, state_ids, state_numbers
from evlogic.asp.fragment import RULE_SET_READABLE_FILES
from evlogic.asp.solver import (
    POSITION_INPUT,
    SolverError,
    parsed_facts,
    rule_paths,
    rule_statements,
    solve,
)
from evlogic.errors import InputError
from evlogic.limits import checkpoint
from evlogic.loading.games import Game, Player
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


def play(table: Table, readable: bool = False) -> PlayedGame:
    """Play ``table`` to the game end; the same table, the same game.

    Each decision is scored by rules/play/moves.lp, or, for a rule set with
    programs of its own (which moves.lp does not read) or when ``readable``
    is asked for, by score's own rules on every position a move could
    make (rules/play/readable.lp): the same game, many times slower."""
    decide = _decide_readable if readable or table.rules.programs else _decide
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
        decision = decide(table, homes, owned, mover, turn, ranks)
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


def _decide(
    table: Table,
    homes: Sequence[int],
    owned: Sequence[Sequence[int]],
    mover: int,
    turn: int,
    ranks: Sequence[int],
) -> _Decision:
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
    control.add("base", [], "\n".join(lines))
    control.ground([("base", [])])
    symbols: Sequence[Symbol] = ()
    handle: clingo.SolveHandle
    with control.solve(yield_=True) as handle:
        for model in handle:
            symbols = model.symbols(shown=True)
            break
        else:
            raise SolverError("a decision of a played game has no answer set")
    return _read(symbols)


def _decide_readable(
    table: Table,
    homes: Sequence[int],
    owned: Sequence[Sequence[int]],
    mover: int,
    turn: int,
    ranks: Sequence[int],
) -> _Decision:
    """A decision by the readable rules: position 0 now, then one position
    a state nobody holds, the mover winning it last (rules/play/readable.lp)."""
    board = table.board
    ids = state_ids(board)
    held = set(homes) | {state for states in owned for state in states}
    now = _position(table, homes, owned)
    worlds = [x for x in range(len(ids)) if x not in held]
    games = [now]
    for x in worlds:
        grown = [list(states) for states in owned]
        grown[mover].append(x)
        games.append(_position(table, homes, grown))
    lines = [f"mover({mover}). turn({turn})."]
    lines.extend(f"play_world({index},{x})." for index, x in enumerate(worlds, start=1))
    lines.extend(f"tie_break({state},{rank})." for state, rank in enumerate(ranks))
    agent = table.seats[mover].agent
    paths = [
        *rule_paths((*RULE_SET_READABLE_FILES, *POSITION_INPUT)),
        *table.rules.programs,
        rules_dir() / "play" / "readable.lp",
        rules_dir() / "play" / "decision.lp",
        agent.path,
    ]
    facts = table.rules.program() + "\n".join(lines) + "\n"
    shown = solve(facts, paths, Positions(board, games), parsed_facts(board_program(board)))
    return _read([symbol for symbol in shown if symbol.name in _DECISION_SHOWN])


def _position(table: Table, homes: Sequence[int], owned: Sequence[Sequence[int]]) -> Game:
    ids = state_ids(table.board)
    players = tuple(
        Player(seat.name, ids[homes[p]], tuple(ids[s] for s in owned[p]))
        for p, seat in enumerate(table.seats)
    )
    return Game(table.board, players, "play", table.rules)


#: What rules/play/decision.lp shows.
_DECISION_SHOWN = frozenset({"over", "choose", "chosen_after", "chosen_gain", "not_candidate"})


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
    return [statement for name in DECISION for statement in rule_statements(rules_dir() / name)]


def _board(table: Table) -> tuple[clingo.ast.AST, ...]:
    return parsed_facts(board_program(table.board) + table.rules.program(0))
