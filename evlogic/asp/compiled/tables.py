"""A board compiled under a rule set (rules/batch/compile.lp) into tables.

The board is compiled once per (board, rule set numbers), by ASP, over the
readable rules' face values and triangles; every chunk the batch command
grounds (evlogic.asp.compiled.chunk) gets the tables, and this module's
:class:`Compiled` also keeps how state ids are packed into bits: 56 states
a block, 8 a group.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import clingo
from clingo import Number, Symbol

from evlogic.asp.compiled.private import Flat, atoms, shown_text
from evlogic.asp.facts import board_program, state_ids
from evlogic.asp.solver import SolverError
from evlogic.loading.boards import Board
from evlogic.loading.rulesets import RuleSet
from evlogic.resources import rules_dir

#: The readable rules compile.lp reads (face values, triangles, game end,
#: 32-bit bounds), then compile.lp itself.
COMPILE_RULES = (
    "scoring/position.lp",
    "scoring/face.lp",
    "scoring/cores.lp",
    "scoring/overflow.lp",
    "batch/compile.lp",
)

#: Tables compile.lp shows, handed to chunks through rules/batch/tables.lp.
TABLES = (
    "slot",
    "adjacent",
    "group_face",
    "home_row",
    "popcount",
    "neighbors",
    "one_hot",
    "core_in_block",
    "core_across",
    "core_mask",
    "core_joiner",
    "bonus_for",
)

BLOCK = 56  # states a block: 7 groups of 8

#: The most blocks a board the compiled encoding scores may have.  Its
#: tables are dense: every state's neighbours and every core's states are
#: rows for every block, and a closure's reach is a row a block at every
#: step, so compiling and grounding grow with states times blocks (a board
#: of 19 blocks compiles in seconds and a gigabyte, one of 54 runs out of
#: memory before its first line).  Larger boards are scored by the readable
#: rules, which grow with the board's borders and the positions' states
#: (bench/bench_encodings.py: the compiled encoding is the faster one up to
#: 5 blocks and the slower one from 8).
MAX_BLOCKS = 6


@dataclass(frozen=True, eq=False)
class Compiled:
    """A board under a rule set, compiled by rules/batch/compile.lp."""

    tables: dict[str, list[Symbol]]  # name -> rows (tuples of numbers)
    scalars: dict[str, Symbol]  # blocks, links_needed, siege_cost, end_of_game, union_region
    game_end: int
    readable_only: bool  # a figure could pass 2^31: the readable rules score
    blocks: int
    slots: dict[str, tuple[int, int, int]]  # state id -> (block, group, bit)
    decode: dict[tuple[int, int], tuple[tuple[str, ...], ...]]  # (block, group) -> ids by mask
    ids: tuple[str, ...]  # state ids by number
    bits: dict[str, int]  # state id -> 2 ** its number (slot/4: its group's bit)
    numbers: dict[str, int]  # state id -> its number


#: A rule set's numbers, in the order of :func:`rule_set_key`.
RuleSetKey = tuple[tuple[tuple[int, int], ...], int, int, int, bool, str, int | None]


def rule_set_key(rules: RuleSet) -> RuleSetKey:
    """What a compiled board depends on: the rule set's numbers, not its name."""
    return (
        rules.tiers,
        rules.siege_penalty,
        rules.links_needed,
        rules.swing_multiplier,
        rules.home_swing,
        rules.region,
        rules.game_end,
    )


def applies(board: Board, rules: RuleSet) -> bool:
    """Whether the compiled encoding scores this board and rule set: a rule
    set of parameters only whose figures fit in 32 bits on this board (else
    the readable rules score it, and flag a figure that does not fit), on a
    board of at most :data:`MAX_BLOCKS` blocks (the readable rules score a
    larger one: the compiled tables would grow with states times blocks)."""
    if rules.programs or blocks_of(board) > MAX_BLOCKS:
        return False
    return not compiled(board, rules).readable_only


def blocks_of(board: Board) -> int:
    """How many blocks of :data:`BLOCK` states the board's states fill."""
    return -(-len(board.states) // BLOCK)


def compiled(board: Board, rules: RuleSet) -> Compiled:
    """The board compiled under ``rules`` (once per process and key)."""
    return _compiled(board, rule_set_key(rules), rules)


@lru_cache(maxsize=32)
def _compiled(board: Board, key: RuleSetKey, rules: RuleSet) -> Compiled:
    del key  # the cache key only
    control = clingo.Control(["--models=1"], logger=messages_are_bugs)
    for name in COMPILE_RULES:
        control.load(str(rules_dir() / name))
    control.add("base", [], rules.program() + board_program(board))
    control.ground([("base", [])])
    shown: list[str] = []
    control.solve(on_model=lambda model: shown.append(shown_text(model)))
    # The shown atoms are read from their text, every argument a number
    # (the Python API costs ~11 us an atom: a fifth of a worker's start).
    rows: dict[str, Flat] = {name: [] for name in TABLES}
    widths: dict[str, int] = dict.fromkeys(TABLES, 1)
    scalars: dict[str, Symbol] = {"union_region": Number(0)}
    readable_only = False
    for name, arguments in _SHOWN_ATOM.findall(shown[0][1:-1]):
        if name in rows:
            values = [int(value) for value in arguments.split(",")]
            rows[name] += values
            widths[name] = len(values)
        elif name == "readable_only":
            readable_only = True
        elif name == "union_region":
            scalars["union_region"] = Number(1)
        else:
            scalars[name] = Number(int(arguments))
    tuples = atoms("")  # Tuple_: a function without a name
    tables = {name: tuples(rows[name], widths[name]) for name in TABLES}
    ids = state_ids(board)
    slots = {}
    slot_rows = rows["slot"]
    for start in range(0, len(slot_rows), 4):
        state, block, group, bit = slot_rows[start : start + 4]
        slots[ids[state]] = (block, group, bit)
    decode = {}
    blocks = scalars["blocks"].number
    for block in range(blocks):
        for group in range(7):
            members = [
                (bit, ids[s])
                for s in range(block * BLOCK + group * 8, len(ids))
                if slots[ids[s]][:2] == (block, group)
                for bit in [slots[ids[s]][2]]
            ]
            decode[block, group] = tuple(
                tuple(name for bit, name in members if mask & bit) for mask in range(256)
            )
    return Compiled(
        tables=tables,
        scalars=scalars,
        game_end=scalars["end_of_game"].number,
        readable_only=readable_only,
        blocks=blocks,
        slots=slots,
        decode=decode,
        ids=ids,
        bits={
            state: 1 << (block * BLOCK + group * 8 + bit.bit_length() - 1)
            for state, (block, group, bit) in slots.items()
        },
        numbers={state: n for n, state in enumerate(ids)},
    )


def messages_are_bugs(code: clingo.MessageCode, message: str) -> None:
    """Any message but an undefined atom is a bug in the compiled encoding."""
    if code != clingo.MessageCode.AtomUndefined:
        raise SolverError("clingo: " + message.strip())


#: A shown atom of compile.lp in the model's text: its name, its arguments
#: (numbers, none nested).
_SHOWN_ATOM = re.compile(r"([a-z_]+)(?:\(([-0-9,]*)\))?")
