"""A chunk of positions grounded and solved by the compiled encoding.

Each chunk gets the board's tables (evlogic.asp.compiled.tables) and one
input atom per player and block, ``owns(G, P, H, K, M0..M6)``, whose masks
hold the player's states (home included) 8 to a group, and one per position
and block, ``taken(G, K, T0..T6)``, every player's masks or-ed.  The rules
decide everything else; the one question they ask back is where a state is
listed in its player's list (only for the states of cores whose closures
tie: the tie goes to the core won first).  The model's shown atoms come out
as one text (:func:`solve`), read by evlogic.asp.compiled.rows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import clingo
import clingo.ast
from clingo import Function, Number, Symbol

from evlogic.asp.compiled.positions import Position
from evlogic.asp.compiled.private import Flat, atoms, shown_text
from evlogic.asp.compiled.tables import Compiled, messages_are_bugs
from evlogic.asp.solver import SolverError, is_fact, per_thread_cache
from evlogic.resources import rules_dir

#: The chunk encoding, one concern per file.
BATCH_RULES = (
    "batch/tables.lp",
    "batch/position.lp",
    "batch/face.lp",
    "batch/region.lp",
    "batch/totals.lp",
    "batch/output.lp",
)

#: clasp's options: every atom of a grounded chunk is a fact, so the one
#: model needs no search.
SOLVE_OPTIONS = ["--models=1"]


@dataclass(frozen=True)
class Packed:
    """A chunk's positions as input atoms."""

    owns: list[Symbol]  # owns(G, P, H, K, M0..M6)
    taken: list[Symbol]  # taken(G, K, T0..T6)


# The @-calls of rules/batch/position.lp answer with the atoms themselves, not
# tuples: the grounder's head atom is then the very symbol made here, so a
# position leaves half as many symbols behind (clingo keeps every symbol).


def pack(board: Compiled, positions: Sequence[Position]) -> Packed:
    """The input atoms of every player (its masks, a block at a time) and
    position (all players' masks or-ed)."""
    owns: Flat = []  # owns(G, P, H, K, M0..M6), one row after another
    taken: Flat = []  # taken(G, K, T0..T6)
    numbers = board.numbers
    if board.blocks == 1:  # one row a player, no slicing (most boards)
        for index, position in enumerate(positions):
            everyone = 0
            for p, (home, mask) in enumerate(zip(position.homes, position.masks, strict=True)):
                everyone |= mask
                owns += (index, p, numbers[home], 0)
                owns += mask.to_bytes(7, "little")
            taken += (index, 0)
            taken += everyone.to_bytes(7, "little")
        return Packed(atoms("owns")(owns, 11), atoms("taken")(taken, 9))
    size = board.blocks * 7  # bytes: one a group
    blocks = [(block, block * 7, block * 7 + 7) for block in range(board.blocks)]
    for index, position in enumerate(positions):
        everyone = 0
        for p, (home, mask) in enumerate(zip(position.homes, position.masks, strict=True)):
            everyone |= mask
            groups = mask.to_bytes(size, "little")
            for block, start, stop in blocks:
                owns += (index, p, numbers[home], block)
                owns += groups[start:stop]
        groups = everyone.to_bytes(size, "little")
        for block, start, stop in blocks:
            taken += (index, block)
            taken += groups[start:stop]
    return Packed(atoms("owns")(owns, 11), atoms("taken")(taken, 9))


class _Context:
    """Answers the @-calls of rules/batch/tables.lp, the positions' owns/11
    and taken/9, and @listed for the states of tied cores
    (rules/batch/region.lp)."""

    def __init__(self, board: Compiled, packed: Packed, positions: Sequence[Position]) -> None:
        self._board = board
        self._packed = packed
        self._positions = positions

    # one method per table and scalar
    def __getattr__(self, name: str) -> Callable[[], list[Symbol] | Symbol]:
        board = self.__dict__["_board"]
        if name in board.tables:
            rows = board.tables[name]
            return lambda: rows
        if name in board.scalars:
            value = board.scalars[name]
            return lambda: value
        raise AttributeError(name)

    def owns(self) -> list[Symbol]:
        return self._packed.owns

    def taken(self) -> list[Symbol]:
        return self._packed.taken

    def listed(self, position: Symbol, player: Symbol, state: Symbol) -> Symbol:
        """State S's place in player P's list of position G (1 for the
        first; facts.listing numbers the readable rules' listed/4 alike)."""
        states = self._positions[position.number].states[player.number]
        return Number(states.index(self._board.ids[state.number]) + 1)


def ground_chunk(board: Compiled, packed: Packed, positions: Sequence[Position]) -> clingo.Control:
    """The batch encoding grounded for ``positions``, packed by :func:`pack`
    (the positions answer the listing order of tied cores)."""
    control = clingo.Control(SOLVE_OPTIONS, logger=messages_are_bugs)
    with clingo.ast.ProgramBuilder(control) as builder:
        for statement in _batch_statements():
            builder.add(statement)
    context = _Context(board, packed, positions)
    several = board.blocks > 1  # the parts for boards of several blocks
    control.ground([("base", []), ("blocks" if several else "one_block", [])], context=context)
    _grow(control, context, "blocks_step" if several else "one_block_step")
    if board.scalars["union_region"].number:
        control.ground([("union_base", [])], context=context)
        _grow(control, context, None, "union_step", "union_grow", "union_grew")
    control.ground([("finish", [])], context=context)
    return control


@per_thread_cache(maxsize=1)
def _batch_statements() -> tuple[clingo.ast.AST, ...]:
    """The chunk encoding, parsed once a thread (see
    evlogic.asp.solver.per_thread_cache; parsing its files costs
    about 2.5 ms a chunk, adding the parsed statements about 0.7)."""
    statements: list[clingo.ast.AST] = []
    clingo.ast.parse_files([str(rules_dir() / name) for name in BATCH_RULES], statements.append)
    return tuple(statements)


def _grow(
    control: clingo.Control,
    context: object,
    joins: str | None,
    step: str = "step",
    grow: str = "grow",
    grew: str = "grew",
) -> None:
    """Ground the parts of rules/batch/region.lp step by step: ``step(s)``
    (with ``joins(s)``, the rules that find the states joining, which
    depend on the board's number of blocks) finds the states joining at
    step s, ``grow(s)`` adds them, while some region grew."""
    s = 1
    while True:
        parts = [(step, [Number(s)])] + ([(joins, [Number(s)])] if joins else [])
        control.ground(parts, context=context)
        if not is_fact(control, Function(grew, [Number(s)])):
            return
        control.ground([(grow, [Number(s)])], context=context)
        s += 1


def solve(control: clingo.Control) -> str:
    """Solve the grounded chunk (every atom is a fact: no search) and give
    the model's shown atoms (rules/batch/output.lp) as the text of one
    tuple, for evlogic.asp.compiled.rows.read_rows (clingo's Python API
    costs about a microsecond a symbol: the text is made in clingo)."""
    handle: clingo.SolveHandle  # (clingo leaves __enter__ unannotated)
    with control.solve(yield_=True) as handle:
        for model in handle:
            return shown_text(model)
    raise SolverError("the batch encoding has no answer set")
