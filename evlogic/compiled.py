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
    "batch/siege.lp",
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
)

BLOCK = 56  # states a block: 7 groups of 8
_FLAT_ATOM = re.compile(r"(\w+)\((-?\d+(?:,-?\d+)*)\)")


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
    readable_only = False
    for symbol in shown:
        if symbol.name in tables:
            tables[symbol.name].append(Tuple_(symbol.arguments))
        elif symbol.name == "readable_only":
            readable_only = True
        elif symbol.name == "union_region":
            scalars["union_region"] = Number(1)
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
    )


def _quiet(code: clingo.MessageCode, message: str) -> None:
    if code != clingo.MessageCode.AtomUndefined:
        raise SolverError("clingo: " + message.strip())


class _Context:
    """Answers the @-calls of rules/batch/tables.lp, the positions' owns/12,
    and @listed for the states of tied cores (rules/batch/region.lp)."""

    def __init__(self, board: Compiled, owns: list[Symbol], games: Sequence[Game]) -> None:
        self._board = board
        self._owns = owns
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
        return self._owns

    def listed(self, position: Symbol, player: Symbol, state: Symbol) -> Symbol:
        """State S's place in player P's list of position G (1 for the
        first; facts.listing numbers the readable rules' listed/4 alike)."""
        states = self._games[position.number].players[player.number].states
        return _number(states.index(self._board.ids[state.number]) + 1)


@lru_cache(maxsize=1 << 16)
def _number(value: int) -> Symbol:
    return Number(value)


def pack(board: Compiled, games: Sequence[Game]) -> list[Symbol]:
    """owns(G, P, N, H, K, M0..M6) arguments for every player and block."""
    rows: list[Symbol] = []
    number = state_numbers_cached(board)
    blocks = board.blocks
    for index, game in enumerate(games):
        count = len(game.players)
        for p, player in enumerate(game.players):
            masks = [[0] * 7 for _ in range(blocks)]
            for state in (player.home, *player.states):
                block, group, bit = board.slots[state]
                masks[block][group] |= bit
            home = number[player.home]
            for block in range(blocks):
                rows.append(
                    Tuple_(
                        [
                            _number(index),
                            _number(p),
                            _number(count),
                            _number(home),
                            _number(block),
                            *map(_number, masks[block]),
                        ]
                    )
                )
    return rows


def state_numbers_cached(board: Compiled) -> dict[str, int]:
    return {state: n for n, state in enumerate(board.ids)}


def ground_chunk(board: Compiled, owns: list[Symbol], games: Sequence[Game]) -> clingo.Control:
    """The batch encoding grounded for the positions ``owns`` of ``games``
    (see :func:`pack`; the games answer the listing order of tied cores)."""
    control = clingo.Control(["--models=1"], logger=_quiet)
    for name in BATCH_RULES:
        control.load(str(rules_dir() / name))
    context = _Context(board, owns, games)
    control.ground([("base", [])], context=context)
    _grow(control, context, "step", "grow", "grew")
    if board.scalars["union_region"].number:
        control.ground([("union_base", [])], context=context)
        _grow(control, context, "union_step", "union_grow", "union_grew")
    control.ground([("finish", [])], context=context)
    return control


def solve_text(control: clingo.Control) -> str:
    """The one model's shown atoms, as one string (read a string at a time:
    clingo's Python API costs about a microsecond a call)."""
    with control.solve(yield_=True) as handle:
        for model in handle:
            return str(Tuple_(model.symbols(shown=True)))
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
    return decode(table, games, solve_text(ground_chunk(table, pack(table, games), games)))


def decode(board: Compiled, games: Sequence[Game], text: str) -> list[dict]:
    """Reports from the shown atoms (see rules/batch/output.lp)."""
    atoms: dict[int, dict[str, list[tuple[int, ...]]]] = defaultdict(lambda: defaultdict(list))
    for name, arguments in _FLAT_ATOM.findall(text):
        values = tuple(map(int, arguments.split(",")))
        atoms[values[0]][name].append(values[1:])
    return [_report(board, game, atoms[index]) for index, game in enumerate(games)]


def _report(board: Compiled, game: Game, atoms: dict[str, list[tuple[int, ...]]]) -> dict:
    ids = board.ids
    scores = {figures[0]: figures[1:] for figures in atoms["score"]}
    cores = {p: (a, b) for p, a, b in atoms["core"]}
    joined: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for p, state, layer in atoms["joined"]:
        joined[p].append((layer, state))
    sieges: dict[int, list[str]] = defaultdict(list)
    for p, block, *masks in sorted(atoms["siege"]):
        for group, mask in enumerate(masks):
            sieges[p].extend(board.decode[block, group][mask])
    if len(scores) != len(game.players) or len(atoms["states_won"]) != 1:
        raise SolverError("the batch encoding broke its output")
    winners = {p for (p,) in atoms["winner"]}
    players = []
    for p, player in enumerate(game.players):
        face, bonus, penalty, net, total = scores[p]
        if p in cores:
            a, b = cores[p]
            core = [player.home, ids[a], ids[b]]
            chosen = {a, b}
            later = sorted(
                entry
                for entry in joined[p]
                if entry[1] not in chosen and ids[entry[1]] != player.home
            )
            region = core + [ids[state] for _, state in later]
        else:
            core, region = [], []
        players.append(
            {
                "name": player.name,
                "home": player.home,
                "states": sorted({player.home, *player.states}),
                "face_ev": face,
                "core": core,
                "region": region,
                "region_bonus": bonus,
                "siege": sieges[p],
                "siege_penalty": penalty,
                "net_bonus": net,
                "total": total,
            }
        )
    (states_won,) = atoms["states_won"][0]
    return {
        "board": game.board.name,
        "rules": game.rules.name,
        "final": bool(atoms["final"]),
        "states_won": states_won,
        "game_end": board.game_end,
        "players": players,
        "winners": [player.name for p, player in enumerate(game.players) if p in winners],
    }
