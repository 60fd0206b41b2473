"""Batch scoring by the compiled encoding (rules/batch/): positions as bit masks.

For a rule set of parameters only (no ``.lp`` programs of its own), `evlogic
batch` scores with a second encoding of the rules, laid out for many
positions: the board is compiled once per (board, rule set), by ASP
(``rules/batch/compile.lp``, over the readable rules' face values and
triangles), into tables; each chunk gets the tables and one input atom per
player and block, ``owns(G, P, H, K, M0..M6)``, whose masks hold the
player's states (home included) 8 to a group.  Regions, sieges, bonuses,
totals and winners are decided by the rules; this module only packs ids into
bits, reads the model's shown atoms back as rows of numbers, and answers
where a state is listed in its player's list when the rules ask (only for
the states of cores whose closures tie: the tie goes to the core won first).
evlogic/batch/lines.py writes the rows as report lines.

The reports are the ``score --format json`` contract, byte for byte the
readable encoding's (tests/test_compiled.py compares them on random boards,
rule sets and positions).
"""

from __future__ import annotations

import re
import sys
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

import clingo
import clingo.ast
from clingo import Function, Number, Symbol, Tuple_

from evlogic.asp.facts import board_program, number_symbol, state_ids
from evlogic.asp.solver import SolverError, is_fact, per_thread_cache
from evlogic.loading.boards import Board
from evlogic.loading.games import Game, quick_players
from evlogic.loading.rulesets import RuleSet
from evlogic.resources import rules_dir

#: The readable rules compile.lp reads (face values, triangles, game end,
#: 32-bit bounds), then compile.lp itself.
COMPILE_RULES = ("position.lp", "face.lp", "cores.lp", "overflow.lp", "batch/compile.lp")

#: The chunk encoding, one concern per file.
BATCH_RULES = (
    "batch/tables.lp",
    "batch/position.lp",
    "batch/face.lp",
    "batch/region.lp",
    "batch/totals.lp",
    "batch/output.lp",
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

#: clasp's options: every atom of a grounded chunk is a fact, so the one
#: model needs no search.
SOLVE_OPTIONS = ["--models=1"]


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
    control = clingo.Control(["--models=1"], logger=_messages_are_bugs)
    for name in COMPILE_RULES:
        control.load(str(rules_dir() / name))
    control.add("base", [], rules.program() + board_program(board))
    control.ground([("base", [])])
    shown: list[str] = []
    control.solve(on_model=lambda model: shown.append(_shown_text(model)))
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
    tables = {name: _tuples(rows[name], widths[name]) for name in TABLES}
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


def _messages_are_bugs(code: clingo.MessageCode, message: str) -> None:
    """Any message but an undefined atom is a bug in the compiled encoding."""
    if code != clingo.MessageCode.AtomUndefined:
        raise SolverError("clingo: " + message.strip())


@dataclass(frozen=True, slots=True)
class Position:
    """A position to score, as batch reads it from a line: the players'
    names, homes and states as listed (the home may appear), and each
    player's states, home included, as one mask (bit n: the state numbered
    n; its bytes are the masks of the groups, block by block)."""

    names: tuple[str, ...]
    homes: tuple[str, ...]
    states: tuple[tuple[str, ...], ...]
    masks: tuple[int, ...]


def read_position(value: object, board: Compiled) -> Position | None:
    """The position of a JSON line on ``board``, read and checked by
    :func:`evlogic.loading.games.quick_players` over the board's bits (the
    one quick check of a line, the one evlogic.loading.games.quick_game
    makes too); None whenever anything is unusual, so that the careful path
    finds and words the error.  Keys other than ``players`` are the
    caller's (board, rules, expect)."""
    players = quick_players(value, board.bits)
    return None if players is None else Position(*players)


def position_of(game: Game, board: Compiled) -> Position:
    """A validated game as a Position (for lines the careful path read)."""
    bits = board.bits
    return Position(
        tuple(player.name for player in game.players),
        tuple(player.home for player in game.players),
        tuple(player.states for player in game.players),
        tuple(
            sum(bits[state] for state in {player.home, *player.states}) for player in game.players
        ),
    )


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


@dataclass(frozen=True)
class Packed:
    """A chunk's positions as input atoms."""

    owns: list[Symbol]  # owns(G, P, H, K, M0..M6)
    taken: list[Symbol]  # taken(G, K, T0..T6)


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
        return Packed(_owns(owns, 11), _taken(taken, 9))
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
    return Packed(_owns(owns, 11), _taken(taken, 9))


def ground_chunk(board: Compiled, packed: Packed, positions: Sequence[Position]) -> clingo.Control:
    """The batch encoding grounded for ``positions``, packed by :func:`pack`
    (the positions answer the listing order of tied cores)."""
    control = clingo.Control(SOLVE_OPTIONS, logger=_messages_are_bugs)
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


def solve(control: clingo.Control) -> str:
    """Solve the grounded chunk (every atom is a fact: no search) and give
    the model's shown atoms (rules/batch/output.lp) as the text of one
    tuple, for :func:`read_rows` (clingo's Python API costs about a
    microsecond a symbol: the text is made in clingo)."""
    handle: clingo.SolveHandle  # (clingo leaves __enter__ unannotated)
    with control.solve(yield_=True) as handle:
        for model in handle:
            return _shown_text(model)
    raise SolverError("the batch encoding has no answer set")


@dataclass(frozen=True)
class Rows:
    """The shown atoms of a chunk's model (rules/batch/output.lp), keyed by
    their position and player as written (``"12,3"``: G,P) and their other
    numbers left as text: the report lines copy them as they are (parsing
    them costs more than the rest)."""

    won: dict[str, str]  # "G" -> "N,Final"
    figures: dict[str, str]  # "G,P" -> "Total,Face,Penalty,Bonus,Net,S012,S345,S6"
    winners: set[str]  # "G,P"
    cores: dict[str, str]  # "G,P" -> "A,B"
    joined: list[tuple[str, str, str]]  # ("G,P", S, Layer)
    sieges: list[tuple[str, str]]  # ("G,P", "K,S012,S345,S6"): blocks before the last


def read_rows(shown: str) -> Rows:
    """The rows of :func:`solve`'s text, ``(won(0,36,1),figures(0,0,...),...)``
    (split in C, each atom looked at once: a regular expression a
    predicate scans the whole text each, three times as slow)."""
    rows = Rows({}, {}, set(), {}, [], [])
    inner = shown[1:-1].removesuffix(",")  # a tuple of one atom ends in ",)"
    if not inner:
        return rows
    won, figures, winners, cores = rows.won, rows.figures, rows.winners, rows.cores
    for atom in inner[:-1].split("),"):
        name, _, arguments = atom.partition("(")
        if name == "figures":  # the most frequent first: a row a player
            position, player, numbers = arguments.split(",", 2)
            figures[f"{position},{player}"] = numbers
        elif name == "winner":
            winners.add(arguments)
        elif name == "won":
            position, numbers = arguments.split(",", 1)
            won[position] = numbers
        elif name == "core":
            position, player, numbers = arguments.split(",", 2)
            cores[f"{position},{player}"] = numbers
        elif name == "joined":
            position, player, state, layer = arguments.split(",")
            rows.joined.append((f"{position},{player}", state, layer))
        elif name == "face_upto":  # a board of several blocks only
            position, player, numbers = arguments.split(",", 2)
            rows.sieges.append((f"{position},{player}", numbers))
    return rows


def _shown_text(model: clingo.Model) -> str:
    """The model's shown atoms as the string of one tuple, made in clingo
    (no Python object a symbol), or through the Python API when this clingo
    does not expose what that needs."""
    text = _raw_shown_text(model)
    return str(Tuple_(model.symbols(shown=True))) if text is None else text


def _raw_shown_text(model: clingo.Model) -> str | None:
    try:
        from clingo._internal import _ffi, _lib

        rep = model._rep
        shown = _lib.clingo_show_type_shown
    except (ImportError, AttributeError):
        return None
    size = _ffi.new("size_t*")
    if not _lib.clingo_model_symbols_size(rep, shown, size):
        return None
    count = size[0]
    symbols = _ffi.new("clingo_symbol_t[]", max(count, 1))
    tuple_ = _ffi.new("clingo_symbol_t*")
    if not (
        _lib.clingo_model_symbols(rep, shown, symbols, count)
        and _lib.clingo_symbol_create_function(b"", symbols, count, True, tuple_)
    ):
        return None
    # Printing is most of the cost, and asking the size prints once more: a
    # buffer big enough for every shown atom is tried first (clingo fails,
    # and is asked the size, only if it is not).
    chars = _ffi.new("char[]", _SHOWN_CHARS * count + 3)
    if not _lib.clingo_symbol_to_string(tuple_[0], chars, len(chars)):
        if not _lib.clingo_symbol_to_string_size(tuple_[0], size):
            return None
        chars = _ffi.new("char[]", size[0])
        if not _lib.clingo_symbol_to_string(tuple_[0], chars, size[0]):
            return None
    text: str = _ffi.string(chars).decode()
    return text


#: Characters a shown atom of rules/batch/output.lp takes at most, comma
#: included, with room to spare: twelve numbers of up to twelve characters
#: (figures/10, the longest, has ten).
_SHOWN_CHARS = len("face_upto(),") + 12 * 12


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


# --- input atoms: owns/11 and taken/9, made in Python -------------------------
# The @-calls of rules/batch/position.lp answer with the atoms themselves, not
# tuples: the grounder's head atom is then the very symbol made here, so a
# position leaves half as many symbols behind (clingo keeps every symbol).


Flat = list[int]  # rows of numbers, one after another


def _atom_symbol(name: str, values: Flat) -> Symbol:
    """An atom of numbers as a clingo symbol."""
    return Function(name, [number_symbol(value) for value in values])


def _fast_atoms(name: str) -> Callable[[Flat, int], list[Symbol]] | None:
    """:func:`_atoms` for ``name`` through clingo's C API: the numbers'
    handles, kept in a list, go into one C array a call, and each atom is
    made from its place in it (Function costs about 6 us for 12 numbers,
    this about 0.8 us); None when this clingo does not expose what it needs
    (then Function is used)."""
    try:
        from clingo._internal import _ffi, _lib

        create = _lib.clingo_symbol_create_function
        out = _ffi.new("clingo_symbol_t*")
        handles: list[int] = [Number(value)._rep for value in range(1024)]
    except (ImportError, AttributeError):
        return None
    encoded = name.encode()
    tag = _number_tag()

    def fast(values: Flat, width: int) -> list[Symbol]:
        if not values:
            return []
        if min(values) < 0:
            return _slow_atoms(name, values, width)
        top = max(values)
        if tag is not None and top < 1 << 31:
            # each handle is the number in its low half and the tag in its
            # high half: the halves are laid out by array.array in C
            numbers = array("I", bytes(8 * len(values)))
            numbers[0::2] = array("I", values)
            numbers[1::2] = array("I", [tag]) * len(values)
        else:
            if top >= len(handles):
                handles.extend(Number(value)._rep for value in range(len(handles), 2 * top + 1))
            # array.array converts the handles in C (cffi's own list
            # conversion costs about four times as much)
            numbers = array("Q", list(map(handles.__getitem__, values)))
        first = _ffi.from_buffer("clingo_symbol_t[]", numbers)
        atoms = []
        for start in range(0, len(values), width):
            if not create(encoded, first + start, width, True, out):
                raise SolverError("clingo: cannot make an input atom")
            # (no-untyped-call: clingo leaves Symbol.__init__ unannotated)
            atoms.append(Symbol(out[0]))  # type: ignore[no-untyped-call]
        return atoms

    return fast


def _number_tag() -> int | None:
    """The high 32 bits of every handle of a number 0 <= n < 2^31 in this
    clingo, whose low 32 bits are n (clingo 5.8 on a little-endian machine),
    or None when that is not so (then the handles are looked up)."""
    tag: int = Number(0)._rep >> 32
    samples = (1, 7, 255, 256, 65_535, 1 << 20, (1 << 31) - 1)
    if sys.byteorder != "little" or any(Number(n)._rep != tag << 32 | n for n in samples):
        return None
    return tag


def _slow_atoms(name: str, values: Flat, width: int) -> list[Symbol]:
    return [
        _atom_symbol(name, values[start : start + width]) for start in range(0, len(values), width)
    ]


def _atoms(name: str) -> Callable[[Flat, int], list[Symbol]]:
    """The atoms ``name(values...)`` of rows of ``width`` numbers, given one
    after another, as clingo symbols."""
    return _fast_atoms(name) or partial(_slow_atoms, name)


_owns = _atoms("owns")
_taken = _atoms("taken")
_tuples = _atoms("")  # Tuple_: a function without a name

#: A shown atom of compile.lp in the model's text: its name, its arguments
#: (numbers, none nested).
_SHOWN_ATOM = re.compile(r"([a-z_]+)(?:\(([-0-9,]*)\))?")
