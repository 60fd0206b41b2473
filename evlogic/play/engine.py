"""Playing one game: a decision a turn, each one a grounding of
rules/play/moves.lp's decision part beside the mover's agent, all in one
clingo control a game.

The engine keeps the position (who won what, in which order); the rules
say whether the game is over, every player's total, what every move would
give, and the agent says which state the mover wins.  The board, the rule
set, the homes and what they fix are grounded once (moves.lp's base part);
each decision grounds ``decision(t, m, p, s)`` (turn t, mover m, the state
s that p won last turn), the parts the rule set and the agent need, and
the mover's agent, and reads what rules/play/decision.lp shows as the
grounder hands it over: every program here is stratified, so grounding
decides it and nothing is solved.  A move's totals are the totals of the
turn after it, and its gain the mover's difference.  The final position is
scored by score's own rules (evlogic.reports.score.score_game), so a played
game's report is the report ``evlogic score`` gives its final position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import clingo
import clingo.ast
import clingo.backend
from clingo import Number, Symbol

from evlogic.asp.facts import board_program, number_symbol, state_ids, state_numbers
from evlogic.asp.solver import SolverError, _parsed, parsed_facts
from evlogic.errors import InputError, quote
from evlogic.limits import checkpoint, watch
from evlogic.loading.games import Game
from evlogic.play.agents import MOVES, Agent
from evlogic.play.table import Table, turn_order
from evlogic.reports.report import ScoreReport
from evlogic.reports.score import score_game
from evlogic.resources import rules_dir

#: The encoding of a decision, and what the engine reads of it.
DECISION = (MOVES, "play/decision.lp")

#: What figures() shows beside decision.lp's atoms.
FIGURES_SHOWN = "#show candidate/2. #show after/4. #show gain/3. #show face_gain/3. #show owned/3."


#: moves.lp's parts for what only some agents read, by the predicate as an
#: agent writes it: each is grounded at a decision whose mover's agent
#: reads it (figures() grounds them all).
OPTIONAL = {
    ("after", 3): "after",
    ("face_gain", 2): "face_gain",
    ("owned", 2): "owned",
    ("mover", 1): "mover",
    ("turn", 1): "turn",
}
WITH_MOVER = frozenset({"after", "face_gain", "mover"})


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
    totals: dict[int, int]  # player -> total at this turn (after last turn's move)
    chosen: list[Symbol]  # the terms the agent chose


def play(table: Table) -> PlayedGame:
    """Play ``table`` to the game end; the same table, the same game."""
    ids = state_ids(table.board)
    rng = random.Random(table.seed)
    names = [seat.name for seat in table.seats]
    won: dict[str, list[str]] = {name: [] for name in names}
    moves: list[Move] = []
    game = _Game(table)
    seats = turn_order(len(table.seats), table.order)
    last = (-1, -1)
    before: dict[int, int] = {}
    taken = {state for seat in table.seats for state in (seat.home, *seat.states)}
    for turn in range(1, len(ids) + 2):
        mover = next(seats)
        ranks = list(range(1, len(ids) + 1))
        rng.shuffle(ranks)
        decision = game.decide(turn, mover, last, ranks)
        if last[0] >= 0:  # last turn's move, scored at this turn
            totals = {names[p]: decision.totals[p] for p in range(len(names))}
            gain = decision.totals[last[0]] - before[last[0]]
            moves.append(Move(turn - 1, names[last[0]], ids[last[1]], gain, totals))
        if decision.over:
            break
        agent = table.seats[mover].agent
        chosen = [_state_named(symbol, ids) for symbol in decision.chosen]
        if len(chosen) != 1:
            chose = ", ".join(sorted(chosen)) or "nothing"
            raise InputError(
                agent.name,
                f"agent chose {len(chosen)} states ({chose}) at turn {turn}: "
                "an agent derives choose(X) for exactly one candidate X",
            )
        state = _state_number(decision.chosen[0], len(ids))
        if state is None or ids[state] in taken:
            raise InputError(
                agent.name,
                f"agent chose {chosen[0]} at turn {turn}, which is not a candidate "
                "(an unclaimed state)",
            )
        last, before = (mover, state), decision.totals
        won[names[mover]].append(ids[state])
        taken.add(ids[state])
    else:
        raise SolverError("a played game did not reach its game end")
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
    """The figures of the first decision at ``table``'s position (its
    seats' states) with seat ``mover`` to move, the game's own way."""
    game = _Game(table, FIGURES_SHOWN)
    game.decide(1, mover, (-1, -1), range(1, len(table.board.states) + 1))
    over, candidates = False, set()
    total: dict[int, int] = {}
    after: dict[tuple[int, int], int] = {}
    gain: dict[int, int] = {}
    face_gain: dict[int, int] = {}
    for symbol in game.shown:
        values = [argument.number for argument in symbol.arguments[1:]]
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


class _Game:
    """One game's clingo control: its base part grounded, then a decision
    a call of :meth:`decide`."""

    def __init__(self, table: Table, shown: str = "") -> None:
        checkpoint()
        self.table = table
        self.shown: list[Symbol] = []
        self._states = len(table.board.states)
        self._codes: list[Symbol] = []
        self._control = control = clingo.Control(["--warn=none"])
        watch(control)  # interrupted if this work is given up on (evlogic.limits)
        control.register_observer(_Shown(self.shown))
        agents: dict[int, int] = {}  # id(agent) -> its part's number
        for seat in table.seats:
            agents.setdefault(id(seat.agent), len(agents))
        self._parts = [agents[id(seat.agent)] for seat in table.seats]
        self._reads = [
            sorted({OPTIONAL[read] for read in seat.agent.reads if read in OPTIONAL})
            if not shown
            else sorted(OPTIONAL.values())
            for seat in table.seats
        ]
        rules = table.rules
        self._links = {1: "links_1", 2: "links_2"}.get(rules.links_needed, "links")
        self._region = "best_core" if rules.region == "best-core" else "union"
        number = state_numbers(table.board)
        taken = {number[s] for seat in table.seats for s in (seat.home, *seat.states)}
        self._free = set(range(self._states)) - taken  # @ranks: their ranks only
        lines = [shown]
        for player, seat in enumerate(table.seats):
            lines.append(f"home({player},{number[seat.home]}).")
            lines.extend(f"held({player},{number[state]})." for state in seat.states)
        with clingo.ast.ProgramBuilder(control) as builder:
            for statement in _moves():
                builder.add(statement)
            for statement in _board(table):
                builder.add(statement)
            added: set[int] = set()
            for seat in table.seats:
                part = agents[id(seat.agent)]
                if part not in added:
                    added.add(part)
                    _add_agent(builder, seat.agent, part)
        control.add("base", [], "\n".join(lines))
        control.ground([("base", [])])
        self.shown.clear()

    # @ranks(t) in rules/play/moves.lp
    def ranks(self, _turn: Symbol) -> list[Symbol]:
        return self._codes

    def decide(
        self, turn: int, mover: int, last: tuple[int, int], ranks: Sequence[int]
    ) -> _Decision:
        # (the parts: rules/play/moves.lp's header)
        """Ground turn ``turn``'s decision: seat ``mover`` to move, ``last``
        the (player, state) won last turn ((-1, -1): none), ``ranks`` the
        tie order, the rank of each state by number."""
        checkpoint()
        base = self._states
        free = self._free
        free.discard(last[1])
        self._codes = [
            number_symbol((rank - 1) * base + state)
            for state, rank in enumerate(ranks)
            if state in free
        ]
        self.shown.clear()
        t, m = Number(turn), Number(mover)
        parts = [
            ("decision", [t, m, Number(last[0]), Number(last[1])]),
            (self._links, [t]),
            (self._region, [t]),
            (f"agent_{self._parts[mover]}", [t]),
        ]
        for read in self._reads[mover]:
            parts.append((read, [t, m] if read in WITH_MOVER else [t]))
        control = self._control
        control.ground(parts, context=self)
        checkpoint()
        decision = _read(self.shown)
        return decision


class _Shown(clingo.backend.Observer):
    """The shown atoms of each grounding, as the grounder hands them over."""

    def __init__(self, shown: list[Symbol]) -> None:
        self.shown = shown

    def output_atom(self, symbol: Symbol, atom: int) -> None:
        if atom != 0:  # not decided by grounding: the programs are stratified
            raise SolverError(f"a played game's {symbol} is not a fact")
        self.shown.append(symbol)


def _add_agent(builder: clingo.ast.ProgramBuilder, agent: Agent, part: int) -> None:
    """The agent's statements as part ``agent_<part>(<its parameter>)``."""
    location = clingo.ast.Location(
        clingo.ast.Position("<agent>", 1, 1), clingo.ast.Position("<agent>", 1, 1)
    )
    builder.add(
        clingo.ast.Program(location, f"agent_{part}", [clingo.ast.Id(location, agent.parameter)])
    )
    for statement in agent.statements:
        builder.add(statement)


def _state_number(symbol: Symbol, states: int) -> int | None:
    """The state a chosen term numbers, if it numbers one."""
    if symbol.type == clingo.SymbolType.Number and 0 <= symbol.number < states:
        return symbol.number
    return None


def _state_named(symbol: Symbol, ids: Sequence[str]) -> str:
    """A chosen state's id, or the term the agent chose if it is no state."""
    state = _state_number(symbol, len(ids))
    return quote(str(symbol)) if state is None else ids[state]


def _read(symbols: Sequence[Symbol]) -> _Decision:
    over = False
    totals: dict[int, int] = {}
    chosen: list[Symbol] = []
    for symbol in symbols:
        name = symbol.name
        if name == "total":
            arguments = symbol.arguments
            totals[arguments[1].number] = arguments[2].number
        elif name == "choose":
            chosen.append(symbol.arguments[1])
        elif name == "over":
            over = True
    return _Decision(over, totals, chosen)


def _moves() -> list[clingo.ast.AST]:
    return [statement for name in DECISION for statement in _parsed(rules_dir() / name)]


def _board(table: Table) -> tuple[clingo.ast.AST, ...]:
    return parsed_facts(board_program(table.board) + table.rules.program(0))
