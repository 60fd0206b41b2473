"""Batch scoring by the compiled encoding (rules/batch/): positions as bit masks.

For a rule set of parameters only (no ``.lp`` programs of its own), `evlogic
batch` scores with a second encoding of the rules, laid out for many
positions: the board is compiled once per (board, rule set), by ASP
(``rules/batch/compile.lp``, over the readable rules' face values and
triangles), into tables; each chunk gets the tables and one input atom per
player and block, ``owns(G, P, N, H, K, M0..M6)``, whose masks hold the
player's states (home included) 8 to a group.  Regions, sieges, bonuses,
totals and winners are decided by the rules; this module only packs ids into
bits, decodes bits back to ids through the compiled tables, and answers
where a state is listed in its player's list when the rules ask (only for
the states of cores whose closures tie: the tie goes to the core won first).

The reports are the ``score --format json`` contract, byte for byte the
readable encoding's (tests/test_compiled.py compares them on random boards,
rule sets and positions).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import clingo
from clingo import Number, Symbol, Tuple_

from evlogic.boards import Board
from evlogic.facts import board_program, state_ids
from evlogic.games import Game
from evlogic.resources import rules_dir
from evlogic.rulesets import RuleSet
from evlogic.solver import SolverError

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
    "group_face",
    "home_fix",
    "popcount",
    "neighbors",
    "one_hot",
    "core_in_block",
    "core_across",
    "core_mask",
    "bonus_for",
    "layout",
)

BLOCK = 56  # states a block: 7 groups of 8
FIGURES = ("winner", "total", "face_ev", "siege_penalty", "region_bonus", "net_bonus")
_FLAT_ATOM = re.compile(r"(\w+)\((-?\d+(?:,-?\d+)*)\)")

#: clasp's options: the figures are read from the cost vector, which no
#: optimisation changes (every element is a fact; the bound only asks
#: clasp to enumerate, not to optimise).
SOLVE_OPTIONS = ["--models=1", "--opt-mode=enum,2147483647"]

Field = tuple[int, int, int]  # (level offset, shift, mask)


@dataclass(frozen=True)
class Reader:
    """Where the figures of a player with a given home are in the cost
    vector (compile.lp's field_at/5 and siege_field/4): the fields of
    FIGURES, and the siege groups in state order, each with its ids by mask."""

    levels: int
    figures: tuple[Field, ...]
    sieges: tuple[tuple[tuple[tuple[str, ...], ...], Field], ...]  # (ids by mask, field)


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
    readers: dict[str, Reader]  # home id -> where its player's figures are
    numbers: dict[str, Symbol]  # state id -> its number, as a symbol


def rule_set_key(rules: RuleSet) -> tuple:
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
    the readable rules score it, and flag a figure that does not fit)."""
    return not rules.programs and not compiled(board, rules).readable_only


def compiled(board: Board, rules: RuleSet) -> Compiled:
    """The board compiled under ``rules`` (once per process and key)."""
    return _compiled(board, rule_set_key(rules), rules)


@lru_cache(maxsize=32)
def _compiled(board: Board, key: tuple, rules: RuleSet) -> Compiled:
    del key  # the cache key only
    control = clingo.Control(["--models=1"], logger=_quiet)
    for name in COMPILE_RULES:
        control.load(str(rules_dir() / name))
    control.add("base", [], rules.program() + board_program(board))
    control.ground([("base", [])])
    shown: list[Symbol] = []
    control.solve(on_model=lambda model: shown.extend(model.symbols(shown=True)))
    tables: dict[str, list[Symbol]] = {name: [] for name in TABLES}
    scalars: dict[str, Symbol] = {"union_region": Number(0)}
    layout: dict[str, list[tuple[int, ...]]] = defaultdict(list)
    readable_only = False
    for symbol in shown:
        if symbol.name in tables:
            tables[symbol.name].append(Tuple_(symbol.arguments))
        elif symbol.name == "readable_only":
            readable_only = True
        elif symbol.name == "union_region":
            scalars["union_region"] = Number(1)
        elif symbol.name in ("slots", "field_at", "siege_field"):
            layout[symbol.name].append(tuple(argument.number for argument in symbol.arguments))
        else:
            scalars[symbol.name] = symbol.arguments[0]
    ids = state_ids(board)
    slots = {}
    for row in tables["slot"]:
        state, block, group, bit = (argument.number for argument in row.arguments)
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
        readers=_readers(ids, layout, decode),
        numbers={state: Number(n) for n, state in enumerate(ids)},
    )


def _readers(
    ids: tuple[str, ...],
    layout: dict[str, list[tuple[int, ...]]],
    decode: dict[tuple[int, int], tuple[tuple[str, ...], ...]],
) -> dict[str, Reader]:
    """Each home's Reader, from compile.lp's slots/2, field_at/5, siege_field/4."""
    fields: dict[int, dict[int, Field]] = defaultdict(dict)
    for home, index, level, shift, width in layout["field_at"]:
        fields[home][index] = (level, shift, (1 << width) - 1)
    sieges: dict[int, list[tuple[tuple[tuple[str, ...], ...], Field]]] = defaultdict(list)
    for home, block, group, index in sorted(layout["siege_field"]):
        sieges[home].append((decode[block, group], fields[home][index]))
    return {
        ids[home]: Reader(
            levels=levels,
            figures=tuple(fields[home][index] for index in range(1, len(FIGURES) + 1)),
            sieges=tuple(sieges[home]),
        )
        for home, levels in layout["slots"]
    }


def _quiet(code: clingo.MessageCode, message: str) -> None:
    if code != clingo.MessageCode.AtomUndefined:
        raise SolverError("clingo: " + message.strip())


class _Context:
    """Answers the @-calls of rules/batch/tables.lp, the positions' owns/12
    and taken/10, and @listed for the states of tied cores
    (rules/batch/region.lp)."""

    def __init__(self, board: Compiled, packed: Packed, games: Sequence[Game]) -> None:
        self._board = board
        self._packed = packed
        self._games = games

    def __getattr__(self, name: str):  # one method per table and scalar
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
        states = self._games[position.number].players[player.number].states
        return _number(states.index(self._board.ids[state.number]) + 1)


@lru_cache(maxsize=1 << 16)
def _number(value: int) -> Symbol:
    return Number(value)


@dataclass(frozen=True)
class Packed:
    """A chunk's positions as input atoms, and where their figures come back:
    each position's cost level, and each of its players' first level."""

    owns: list[Symbol]  # owns(G, P, L, H, K, M0..M6) arguments
    taken: list[Symbol]  # taken(G, L, K, T0..T6) arguments
    levels: list[tuple[int, list[int]]]


def pack(board: Compiled, games: Sequence[Game]) -> Packed:
    """Every player's states as masks, a block at a time (ids into bits), and
    the cost levels of positions and players (compile.lp's slots/2)."""
    owns: list[Symbol] = []
    taken: list[Symbol] = []
    levels: list[tuple[int, list[int]]] = []
    blocks, where, readers, numbers = board.blocks, board.slots, board.readers, board.numbers
    level = 0
    for index, game in enumerate(games):
        position, level = level, level + 1
        firsts = []
        all_masks = [[0] * 7 for _ in range(blocks)]
        g = _number(index)
        for p, player in enumerate(game.players):
            masks = [[0] * 7 for _ in range(blocks)]
            for state in (player.home, *player.states):
                block, group, bit = where[state]
                masks[block][group] |= bit
                all_masks[block][group] |= bit
            head = (g, _number(p), _number(level), numbers[player.home])
            firsts.append(level)
            level += readers[player.home].levels
            for block in range(blocks):
                owns.append(Tuple_([*head, _number(block), *map(_number, masks[block])]))
        for block in range(blocks):
            row = [g, _number(position), _number(block), *map(_number, all_masks[block])]
            taken.append(Tuple_(row))
        levels.append((position, firsts))
    return Packed(owns, taken, levels)


def ground_chunk(board: Compiled, packed: Packed, games: Sequence[Game]) -> clingo.Control:
    """The batch encoding grounded for the positions ``packed`` of ``games``
    (see :func:`pack`; the games answer the listing order of tied cores)."""
    control = clingo.Control(SOLVE_OPTIONS, logger=_quiet)
    for name in BATCH_RULES:
        control.load(str(rules_dir() / name))
    context = _Context(board, packed, games)
    control.ground([("base", [])], context=context)
    _grow(control, context, "step", "grow", "grew")
    if board.scalars["union_region"].number:
        control.ground([("union_base", [])], context=context)
        _grow(control, context, "union_step", "union_grow", "union_grew")
    control.ground([("finish", [])], context=context)
    return control


@dataclass(frozen=True)
class Answer:
    """The one model: its cost vector, and its shown atoms (core/4 and
    joined/4, for players with a core) as one string."""

    cost: list[int]
    shown: str


def solve(control: clingo.Control) -> Answer:
    """Solve the grounded chunk (every atom is a fact: no search) and read
    the model at once (clingo's Python API costs about a microsecond a call:
    the shown atoms are read as one string)."""
    with control.solve(yield_=True) as handle:
        for model in handle:
            return Answer(model.cost, str(Tuple_(model.symbols(shown=True))))
    raise SolverError("the batch encoding has no answer set")


def _grow(control: clingo.Control, context: object, step: str, grow: str, grew: str) -> None:
    """Ground the parts of rules/batch/region.lp step by step: ``step(s)``
    finds the states joining at step s, ``grow(s)`` adds them, while some
    region grew."""
    s = 1
    while True:
        control.ground([(step, [Number(s)])], context=context)
        if not _is_fact(control, grew, s):
            return
        control.ground([(grow, [Number(s)])], context=context)
        s += 1


def _is_fact(control: clingo.Control, name: str, value: int) -> bool:
    found = control.symbolic_atoms[clingo.Function(name, [Number(value)])]
    return found is not None and found.is_fact


def score_games(board: Board, rules: RuleSet, games: Sequence[Game]) -> list[dict]:
    """The ``score --format json`` report of every game (all on ``board``,
    scored by ``rules``, for which :func:`applies`)."""
    table = compiled(board, rules)
    packed = pack(table, games)
    return decode(table, games, packed, solve(ground_chunk(table, packed, games)))


def decode(board: Compiled, games: Sequence[Game], packed: Packed, answer: Answer) -> list[dict]:
    """Reports from the cost vector and the shown atoms (see
    rules/batch/output.lp), through compile.lp's tables."""
    cores: dict[tuple[int, int], tuple[int, ...]] = {}
    joined: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for name, arguments in _FLAT_ATOM.findall(answer.shown):
        g, p, *rest = map(int, arguments.split(","))
        if name == "core":
            cores[g, p] = tuple(rest)
        else:
            state, layer = rest
            joined[g, p].append((layer, state))
    if len(answer.cost) != _levels(board, games, packed):
        raise SolverError("the batch encoding broke its output")
    return [
        _report(board, game, answer.cost, index, levels, cores, joined)
        for index, (game, levels) in enumerate(zip(games, packed.levels, strict=True))
    ]


def _levels(board: Compiled, games: Sequence[Game], packed: Packed) -> int:
    """How many cost levels the chunk's positions and players have."""
    if not games:
        return 0
    return packed.levels[-1][1][-1] + board.readers[games[-1].players[-1].home].levels


def _report(
    board: Compiled,
    game: Game,
    cost: list[int],
    index: int,
    levels: tuple[int, list[int]],
    cores: dict[tuple[int, int], tuple[int, ...]],
    joined: dict[tuple[int, int], list[tuple[int, int]]],
) -> dict:
    ids = board.ids
    position, firsts = levels
    players = []
    winners = []
    for p, (player, first) in enumerate(zip(game.players, firsts, strict=True)):
        reader = board.readers[player.home]
        winner, total, face, penalty, bonus, net = [
            (cost[first + level] >> shift) & mask for level, shift, mask in reader.figures
        ]
        siege: list[str] = []
        for table, (level, shift, mask) in reader.sieges:
            siege.extend(table[(cost[first + level] >> shift) & mask])
        core: list[str] = []
        region: list[str] = []
        if (index, p) in cores:
            a, b = cores[index, p]
            core = [player.home, ids[a], ids[b]]
            later = sorted(
                entry
                for entry in joined[index, p]
                if entry[1] not in (a, b) and ids[entry[1]] != player.home
            )
            region = core + [ids[state] for _, state in later]
        players.append(
            {
                "name": player.name,
                "home": player.home,
                "states": sorted({player.home, *player.states}),
                "face_ev": face,
                "core": core,
                "region": region,
                "region_bonus": bonus,
                "siege": siege,
                "siege_penalty": penalty,
                "net_bonus": net,
                "total": total,
            }
        )
        if winner:
            winners.append(player.name)
    return {
        "board": game.board.name,
        "rules": game.rules.name,
        "final": bool(cost[position] & 1),
        "states_won": cost[position] >> 1,
        "game_end": board.game_end,
        "players": players,
        "winners": winners,
    }
