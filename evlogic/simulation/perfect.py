"""Perfect play on a small board: every position of a game searched, the
value of each for every seat, and the perfect move at each.

Solution concept (docs/play.md, "Perfect play"): each player maximises
its own final total minus the best rival's (its margin); for two players
that is minimax of seat 1's margin.  Values are backed up by max^n: at a
position the mover takes the move whose final position gives it the
largest margin, ties between equally good moves going to the smallest
state id (a pass after every state).  A pass is searched only when it is
the mover's one legal move: a pass that could be made at will would let
a game under a model that keeps passing legal (the campaign) go on
without end.

Nothing is ruled on here.  The search walks the game layer by layer (a
layer: the positions at one turn) and asks the rules about each layer at
once: rules/solve/transitions.lp with the move model's statements (the
layer's positions handed over as numbers by rules/solve/input.lp) says
which positions are over and, at the others, the legal moves and what the
model keeps after each (``next/1``); the final positions are scored by
score's rules in one grounding (evlogic.simulation.engine's batch
scoring).  Python keeps the bookkeeping a played game keeps (who won
what, the turn order) and compares the totals the rules derived.  What a
model says is asked once for each distinct set of the inputs it reads
(a draft reads only the unclaimed states: one question for every
position with the same states held).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import clingo
import clingo.ast
from clingo import Function, Number, Symbol

from evlogic.asp.facts import board_program, number_symbol, state_ids, state_numbers
from evlogic.asp.solver import solve
from evlogic.errors import InputError
from evlogic.limits import checkpoint
from evlogic.reports.score import score_game
from evlogic.resources import rules_dir
from evlogic.simulation.engine import PASSES_A_PLAYER, _scored, deck_facts
from evlogic.simulation.moves import MoveModel, move_model, settings_program
from evlogic.simulation.stepped import Stepped
from evlogic.simulation.table import Table, turn_order

#: A move: a state's number, or PASS.
PASS = -1

#: The most states nobody holds at the start that solve searches, by players.
BOUND_TWO_PLAYERS = 14
BOUND_MORE_PLAYERS = 10


def unclaimed_bound(players: int) -> int:
    """The most unclaimed states at the start solve searches for ``players``."""
    return BOUND_TWO_PLAYERS if players <= 2 else BOUND_MORE_PLAYERS


class Position(NamedTuple):
    """A position of the search: each state's holder, as one number (the
    digit of state number X in base players + 1 is its holder's seat + 1,
    0 for nobody: :meth:`PerfectPlay.owners` reads it), the states somebody
    holds (bit X), the model's state (``holds/1``: what ``next/1`` said)
    and the turn to be played (from 1, passes counted).  Plain numbers, so
    that a million positions hash and fit."""

    held: int
    taken: int
    holds: tuple[Symbol, ...]
    turn: int


class Layer:
    """The @-calls of rules/solve/input.lp: a layer's positions as number
    symbols, each list by position (empty where the model reads nothing
    of it)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.held: dict[int, list[Symbol]] = {}
        self.holders: dict[int, list[Symbol]] = {}
        self.movers: dict[int, list[Symbol]] = {}
        self.turns: dict[int, list[Symbol]] = {}
        self.kept: dict[int, list[Symbol]] = {}
        self.moves: dict[int, list[Symbol]] = {}

    def positions(self) -> list[Symbol]:
        return [number_symbol(k) for k in range(self.size)]

    def taken(self, k: Symbol) -> list[Symbol]:
        return self.held.get(k.number, [])

    def owns(self, k: Symbol) -> list[Symbol]:
        return self.holders.get(k.number, [])

    def moving(self, k: Symbol) -> list[Symbol]:
        return self.movers.get(k.number, [])

    def at_turn(self, k: Symbol) -> list[Symbol]:
        return self.turns.get(k.number, [])

    def holding(self, k: Symbol) -> list[Symbol]:
        return self.kept.get(k.number, [])

    def made(self, k: Symbol) -> list[Symbol]:
        return self.moves.get(k.number, [])


@dataclass(frozen=True)
class Ruling:
    """What the rules say at a position: whether it is over; else the moves
    searched (states by state id, then PASS) and what the model keeps after
    each."""

    over: bool
    moves: tuple[int, ...]
    kept: dict[int, tuple[Symbol, ...]]


class PerfectPlay:
    """The game of ``table`` (board, rule set and its move model, seats with
    homes and states won, turn order, seed), searched whole from the table's
    position (:meth:`search`); positions off that search (a move the
    search leaves out) are searched when asked for (:meth:`totals`)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.model: MoveModel = move_model(table.rules)
        self.players = len(table.seats)
        self.ids = state_ids(table.board)
        number = state_numbers(table.board)
        # the tie order: state ids (as strings), then a pass
        self._order = sorted(range(len(self.ids)), key=lambda x: self.ids[x])
        self._base = self.players + 1
        self._power = [self._base**x for x in range(len(self.ids))]
        held = taken = 0
        for seat, sitting in enumerate(table.seats):
            for state in (sitting.home, *sitting.states):
                held += (seat + 1) * self._power[number[state]]
                taken |= 1 << number[state]
        self.start = Position(held, taken, (), 1)
        self._movers = list(itertools.islice(turn_order(self.players, table.order), 4 * 10**4))
        self._rulings: dict[tuple[object, ...], Ruling] = {}
        self._values: dict[Position, tuple[int, ...]] = {}
        #: each model state once (many positions hold the same)
        self._interned: dict[tuple[Symbol, ...], tuple[Symbol, ...]] = {}
        reads = {name for name, _arity in self.model.reads}
        self._reads_owned = "owned" in reads
        self._reads_mover = "mover" in reads
        self._reads_turn = "turn" in reads
        self._reads_holds = "holds" in reads
        self._statements = _variable_turn(self.model.before) + _variable_turn(self.model.after)
        self._before = _variable_turn(self.model.before)
        self._keeps = bool(self.model.after.statements)
        self._rules = [rules_dir() / "solve" / name for name in ("input.lp", "transitions.lp")]
        self._program = "\n".join(
            [
                board_program(table.board),
                table.rules.program(0),
                settings_program(table.rules),
                *(f"player(0,{seat})." for seat in range(self.players)),
                *(
                    f"home(0,{seat},{number[sitting.home]})."
                    for seat, sitting in enumerate(table.seats)
                ),
                *deck_facts(0, table),
            ]
        )

    # --- what the search found ------------------------------------------------------

    @property
    def positions(self) -> int:
        """The positions searched (each once, however many ways it is reached)."""
        return len(self._values)

    def mover(self, position: Position) -> int:
        return self._movers[position.turn - 1]

    def totals(self, position: Position) -> tuple[int, ...]:
        """Every seat's final total under perfect play from ``position``."""
        if position not in self._values:
            self.search(position)
        return self._values[position]

    def owners(self, position: Position) -> tuple[int, ...]:
        """Each state's holder at ``position``: a seat from 0, or -1."""
        held, base = position.held, self._base
        return tuple((held // power) % base - 1 for power in self._power)

    def best(self, position: Position) -> int | None:
        """The perfect move at ``position`` (None once the game is over):
        the first of :meth:`perfect_moves`, the smallest state id."""
        moves = self.perfect_moves(position)
        return moves[0] if moves else None

    def perfect_moves(self, position: Position) -> tuple[int, ...]:
        """Every move as good as the best for the mover at ``position``."""
        ruling = self.ruling(position)
        if ruling.over:
            return ()
        mover = self.mover(position)
        margins = {
            move: margin(self.totals(self.after(position, move)), mover) for move in ruling.moves
        }
        most = max(margins.values())
        return tuple(move for move in ruling.moves if margins[move] == most)

    def ruling(self, position: Position) -> Ruling:
        key = self._key(position)
        if key not in self._rulings:
            self._rule([position])
        return self._rulings[key]

    def after(self, position: Position, move: int) -> Position:
        """The position after the mover makes ``move`` (one the rules allow)."""
        holds: tuple[Symbol, ...] = ()
        if self._keeps:
            kept = self.ruling(position).kept
            if move not in kept:
                kept = self._kept_after(position, move)
            holds = kept[move]
        if move == PASS:
            return Position(position.held, position.taken, holds, position.turn + 1)
        seat = self._movers[position.turn - 1] + 1
        return Position(
            position.held + seat * self._power[move],
            position.taken | 1 << move,
            holds,
            position.turn + 1,
        )

    # --- the search -------------------------------------------------------------------

    def search(self, root: Position) -> None:
        """Every position from ``root`` on: its totals under perfect play and
        its perfect move."""
        layers: list[list[Position]] = []
        layer = [root] if root not in self._values else []
        finals: list[Position] = []
        limit = len(self.ids) + PASSES_A_PLAYER * self.players
        while layer:
            checkpoint()
            if len(layers) > limit:
                raise InputError(
                    self.model.source,
                    f"the move model passed {PASSES_A_PLAYER * self.players} turns in a row "
                    "with the game not over: it never lets the game end",
                )
            layers.append(layer)
            self._rule(layer)
            following: dict[Position, None] = {}
            for position in layer:
                ruling = self._rulings[self._key(position)]
                if ruling.over:
                    finals.append(position)
                    continue
                for move in ruling.moves:
                    child = self.after(position, move)
                    if child not in self._values:
                        following[child] = None
            layer = list(following)
        self._score(finals)
        for layer in reversed(layers):
            checkpoint()
            for position in layer:
                if position not in self._values:
                    self._back_up(position)
            # a layer's rulings are done with once it is backed up: asked
            # again on demand (what it keeps at the bound: gigabytes)
            for position in layer:
                self._rulings.pop(self._key(position), None)

    def _back_up(self, position: Position) -> None:
        mover = self.mover(position)
        most: int | None = None
        value: tuple[int, ...] = ()
        for move in self._rulings[self._key(position)].moves:
            totals = self._values[self.after(position, move)]
            gained = margin(totals, mover)
            if most is None or gained > most:
                value, most = totals, gained
        self._values[position] = value

    def _score(self, finals: Sequence[Position]) -> None:
        """The final positions' totals, by score's rules, in one grounding."""
        new = [position for position in finals if position not in self._values]
        if not new:
            return
        names = [seat.name for seat in self.table.seats]
        games = []
        for position in new:
            won: dict[str, list[str]] = {name: [] for name in names}
            for state, seat in enumerate(self.owners(position)):
                if seat >= 0 and self.ids[state] not in self._held_at_start(seat):
                    won[names[seat]].append(self.ids[state])
            games.append(self.table.game(won))
        # a rule set with programs of its own: score's rules with them, a
        # grounding a position (the batch grounding takes numbers only)
        reports = (
            [score_game(game) for game in games] if self.table.rules.programs else _scored(games)
        )
        for position, report in zip(new, reports, strict=True):
            self._values[position] = tuple(player.total for player in report.players)

    def _held_at_start(self, seat: int) -> set[str]:
        sitting = self.table.seats[seat]
        return {sitting.home, *sitting.states}

    # --- asking the rules ---------------------------------------------------------------

    def _key(self, position: Position) -> tuple[object, ...]:
        """What the model's rules (and the game end) read of ``position``."""
        return (
            position.held if self._reads_owned else position.taken,
            self.mover(position) if self._reads_mover else None,
            position.turn if self._reads_turn else None,
            position.holds if self._reads_holds else None,
        )

    def _rule(self, positions: Iterable[Position]) -> None:
        """Rulings for the positions whose inputs were not asked about yet."""
        asked: dict[tuple[object, ...], Position] = {}
        for position in positions:
            key = self._key(position)
            if key not in self._rulings and key not in asked:
                asked[key] = position
        if not asked:
            return
        keys = list(asked)
        symbols = solve(self._program, self._rules, self._layer(list(asked.values())), self._before)
        over: set[int] = set()
        legal: dict[int, list[int]] = {k: [] for k in range(len(keys))}
        passes: set[int] = set()
        for symbol in symbols:  # a fault first: a stray legal term is no number
            self._refuse(symbol, asked, keys)
        for symbol in symbols:
            if symbol.name == "over":
                over.add(symbol.arguments[0].number)
            elif symbol.name == "legal":
                index = symbol.arguments[0].arguments[1].number
                move = symbol.arguments[1]
                if move.match("pass", 0):
                    passes.add(index)
                else:
                    legal[index].append(move.number)
        moves: dict[int, tuple[int, ...]] = {}
        for index in range(len(keys)):
            states = sorted(legal[index], key=lambda x: self.ids[x])
            forced = not states and index in passes
            moves[index] = (PASS,) if forced else tuple(states)
        kept = self._kept(asked, keys, moves, over)
        for index, key in enumerate(keys):
            self._rulings[key] = Ruling(index in over, moves[index], kept.get(index, {}))

    def _kept(
        self,
        asked: dict[tuple[object, ...], Position],
        keys: Sequence[tuple[object, ...]],
        moves: dict[int, tuple[int, ...]],
        over: set[int],
    ) -> dict[int, dict[int, tuple[Symbol, ...]]]:
        """What the model keeps (next/1) after each move searched at each
        position: its rules grounded again with the move as does/1."""
        kept: dict[int, dict[int, tuple[Symbol, ...]]] = {
            index: {move: () for move in moves[index]}
            for index in range(len(keys))
            if index not in over
        }
        if not self.model.after.statements:
            return kept
        pairs = [(index, move) for index in kept for move in moves[index]]
        positions = [asked[keys[index]] for index, _move in pairs]
        layer = self._layer(positions, [move for _index, move in pairs])
        symbols = solve(self._program, self._rules, layer, self._statements)
        found: dict[int, list[Symbol]] = {k: [] for k in range(len(pairs))}
        for symbol in symbols:
            if symbol.name == "next":
                found[symbol.arguments[0].arguments[1].number].append(symbol.arguments[1])
        for k, (index, move) in enumerate(pairs):
            holds = tuple(sorted(found[k]))
            kept[index][move] = self._interned.setdefault(holds, holds)
        return kept

    def _kept_after(self, position: Position, move: int) -> dict[int, tuple[Symbol, ...]]:
        """What the model keeps after a move the search left out (a pass
        made at will, by an agent): asked alone."""
        key = self._key(position)
        kept = self._kept({key: position}, [key], {0: (move,)}, set())[0]
        return {**self._rulings[key].kept, **kept}

    def _layer(self, positions: Sequence[Position], made: Sequence[int] | None = None) -> Layer:
        """The grounding context of rules/solve/input.lp: each position's
        numbers, those the model reads only (what :meth:`_key` keeps of a
        position), and the move made at each, if given."""
        layer = Layer(len(positions))
        base = len(self.ids)
        for k, position in enumerate(positions):
            if self._reads_mover:
                layer.movers[k] = [number_symbol(self.mover(position))]
            if self._reads_turn:
                layer.turns[k] = [number_symbol(position.turn)]
            owners = self.owners(position)
            layer.held[k] = [number_symbol(x) for x, seat in enumerate(owners) if seat >= 0]
            if self._reads_owned:
                layer.holders[k] = [
                    number_symbol(seat * base + x) for x, seat in enumerate(owners) if seat >= 0
                ]
            if self._reads_holds:
                layer.kept[k] = list(position.holds)
            if made is not None:
                layer.moves[k] = [move_symbol(made[k])]
        return layer

    def _refuse(
        self, symbol: Symbol, asked: dict[tuple[object, ...], Position], keys: Sequence[object]
    ) -> None:
        """A designer's model doing what no move model may (as in play)."""
        if symbol.name not in ("stuck", "claimed_legal", "stray_legal"):
            return
        position = asked[keys[symbol.arguments[0].number]]  # type: ignore[index]
        turn, source = position.turn, self.model.source
        if symbol.name == "stuck":
            raise InputError(
                source,
                f"the move model leaves the mover no legal move at turn {turn}, "
                "while the game is not over",
            )
        if symbol.name == "claimed_legal":
            state = self.ids[symbol.arguments[1].number]
            raise InputError(
                source,
                f"the move model makes {state} legal at turn {turn}, "
                "which a player holds: a legal move wins a state nobody holds",
            )
        raise InputError(
            source,
            f"the move model makes '{symbol.arguments[1]}' legal at turn {turn}, "
            "which is neither a state nor pass",
        )


def margin(totals: Sequence[int], seat: int) -> int:
    """A seat's total less the best rival's (comparing the rules' totals)."""
    return totals[seat] - max(total for other, total in enumerate(totals) if other != seat)


def move_symbol(move: int) -> Symbol:
    return Function("pass") if move == PASS else Number(move)


def _variable_turn(program: Stepped) -> list[clingo.ast.AST]:
    """A model's statements with the decision's turn a variable: position K
    is the decision (0, K), so one grounding rules on many positions."""
    name = program.parameter

    class Variable(clingo.ast.Transformer):
        def visit_Function(self, node: clingo.ast.AST) -> clingo.ast.AST:
            if node.name == name and not node.arguments:
                return clingo.ast.Variable(node.location, "Position_" + name)
            return node.update(**self.visit_children(node))

    return [Variable()(statement) for statement in program.statements]
