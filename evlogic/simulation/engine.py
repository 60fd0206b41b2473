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
game's report is the report ``evlogic score`` gives its final position; a
game is always played to its end (:class:`PlayedGame`).

A rule set with programs of its own is played by score's rules and
rules/play/readable.lp instead; its figures reach the mover's agent as the
atoms moves.lp derives, and the agent is grounded as here (:class:`_Agents`):
an agent is read once (evlogic.simulation.agents.load_agent) and grounded one way
whatever the rule set.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import clingo
import clingo.ast
import clingo.backend
from clingo import Function, Number, Symbol, Tuple_

from evlogic.asp.facts import Positions, board_program, number_symbol, state_ids, state_numbers
from evlogic.asp.fragment import RULE_SET_READABLE_FILES
from evlogic.asp.solver import (
    POSITION_INPUT,
    SCORING_RULES,
    SolverError,
    parsed_facts,
    rule_paths,
    rule_statements,
    solve,
)
from evlogic.errors import InputError, quote
from evlogic.limits import checkpoint, watch
from evlogic.loading.games import Game, Player, checked_game
from evlogic.loading.rulesets import MOVE_MODELS
from evlogic.reports.report import ScoreReport, atoms_by_position, decode
from evlogic.reports.score import CACHED_BOARD_STATES, score_game, scoring_rules
from evlogic.resources import rules_dir
from evlogic.simulation.agents import MOVES, Agent, Planner
from evlogic.simulation.moves import MoveModel, move_model, settings_program
from evlogic.simulation.stepped import add_part
from evlogic.simulation.table import Table, turn_order

#: The encoding of a decision, and what the engine reads of it; a move
#: model's turn (beside the model's statements).
DECISION = (MOVES, "play/decision.lp")
MODEL = "play/model.lp"

#: What a decision shows beside decision.lp when the game's log records
#: every move's legal set and the model's visible state.
RECORDED = (
    "#show few_legal/1. #show listed_legal/2. #show barred/2. #show market/2. #show points/3."
)

#: Turns in a row a game may pass, a player, before the engine calls the
#: move model one that never lets the game end.
PASSES_A_PLAYER = 100

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
    """A move of a played game.  ``state`` is None for a pass.  When the
    game's log records them (play, ``balance --games-out``): ``legal``, the
    moves the mover could make (state ids in the board's order, None for
    pass), and what the move model showed before the move: ``market``, the
    face-up states; ``points``, every player's points (the mover's with
    this turn's income)."""

    turn: int  # from 1, passes counted
    player: str
    state: str | None
    gain: int  # the mover's gain
    totals: dict[str, int]  # every player's total after the move
    legal: tuple[str | None, ...] | None = None
    market: tuple[str, ...] | None = None
    points: dict[str, int] | None = None


@dataclass(frozen=True)
class PlayedGame:
    """A game played to its end: its final position is final (a report of
    an unfinished game is a bug of the engine's, never a figure: play,
    balance and tune never see one)."""

    table: Table
    moves: tuple[Move, ...]
    final: Game  # each player's states in the order won
    report: ScoreReport

    def __post_init__(self) -> None:
        if not self.report.final:
            raise SolverError(
                f"a played game stopped after {len(self.moves)} moves, before its game end"
            )


@dataclass
class _Playing:
    """One game of a batch, as the engine keeps it."""

    table: Table
    number: int  # its place in the batch: G in rules/play/moves.lp
    rng: random.Random
    taken: set[str]  # state ids won, homes included
    free: set[int]  # state numbers not won: @ranks gives their ranks
    won: dict[str, list[str]]  # each seat's states won in play, in order
    moves: list[Move]
    last: tuple[int, int] = (-1, -1)  # (seat, state) won last turn; (-1, -1): none
    pending: _Pending | None = None  # last turn's move, scored at this decision
    passes: int = 0  # turns passed in a row
    ended: bool = False
    holds: list[Symbol] = field(default_factory=list)  # what next/1 said last turn
    ranks: list[int] = field(default_factory=list)  # this turn's random order, by state


@dataclass(frozen=True)
class _Pending:
    """A move made, waiting for the next decision's totals."""

    turn: int
    seat: int
    state: int  # -1: a pass
    before: dict[int, int]  # the totals before it
    decision: _Decision


def play(table: Table, readable: bool = False, record: bool = True) -> PlayedGame:
    """Play ``table`` to the game end; the same table, the same game.
    Decisions are scored by rules/play/moves.lp, or by score's own rules
    (:func:`_play_readable`) for a rule set with programs of its own, which
    moves.lp does not read, or when ``readable`` is asked for: the same
    game, several times slower."""
    if readable or table.rules.programs:
        return _play_readable(table, record)
    return play_games([table], record)[0]


def play_games(tables: Sequence[Table], record: bool = False) -> list[PlayedGame]:
    """Play every table to its game end, the games of one board, rule set,
    turn order and seats' agents side by side in one control (each game
    is the game play() plays): a grounding a turn for them all.
    ``record``: each move keeps its legal set and the model's visible
    state (:class:`Move`)."""
    batches: dict[tuple[int, int, str, tuple[int, ...]], list[int]] = {}
    played: list[PlayedGame | None] = [None] * len(tables)
    for index, table in enumerate(tables):
        if table.rules.programs:
            played[index] = _play_readable(table, record)
            continue
        agents = tuple(id(seat.agent) for seat in table.seats)
        key = (id(table.board), id(table.rules), table.order, agents)
        batches.setdefault(key, []).append(index)
    for indices in batches.values():
        batch = _play_batch([tables[i] for i in indices], record)
        for index, game in zip(indices, batch, strict=True):
            played[index] = game
    return [game for game in played if game is not None]


def _play_batch(tables: Sequence[Table], record: bool) -> list[PlayedGame]:
    first = tables[0]
    ids = state_ids(first.board)
    names = [seat.name for seat in first.seats]
    planners = any(seat.agent.planner is not None for seat in first.seats)
    # a planning agent chooses among the legal moves: the decision records them
    control = _Control(tables, RECORDED if record or planners else "")
    games = [
        _Playing(
            table,
            number,
            random.Random(table.seed),
            {state for seat in table.seats for state in (seat.home, *seat.states)},
            set(),
            {seat.name: [] for seat in table.seats},
            [],
        )
        for number, table in enumerate(tables)
    ]
    number = state_numbers(first.board)
    for game in games:
        game.free = set(range(len(ids))) - {number[s] for s in game.taken}
    seats = turn_order(len(first.seats), first.order)
    for turn in itertools.count(1):
        mover = next(seats)
        playing = [g for g in games if not g.ended]
        if not playing:
            break
        for game in playing:
            game.free.discard(game.last[1])
        planner = first.seats[mover].agent.planner
        if planner is None:
            decisions = control.decide(turn, mover, playing)
        else:
            decisions = control.decide(turn, mover, playing, agent=False)
            _planned(control, planner, turn, mover, playing, decisions, record)
        for index, game in enumerate(playing):
            _advance(game, turn, mover, decisions.get(index), ids, names)
    finals = [game.table.game(game.won) for game in games]
    reports = _scored(finals)
    return [
        PlayedGame(game.table, tuple(game.moves), final, report)
        for game, final, report in zip(games, finals, reports, strict=True)
    ]


def _planned(
    control: _Control | _Agents,
    planner: Planner,
    turn: int,
    mover: int,
    playing: Sequence[_Playing],
    decisions: dict[int, _Decision],
    record: bool,
) -> None:
    """A planning agent's moves at ``turn`` (evlogic.simulation.planning),
    each decision grounded without the agent: the move it returns made as
    the game-state API makes a move, its choice among the legal moves the
    decision recorded."""
    from evlogic.simulation.planning import plan_choice, plan_decision

    made: dict[int, Symbol] = {}
    for index, game in enumerate(playing):
        decision = decisions.get(index)
        if decision is None or decision.over:
            continue
        legal = frozenset(decision.legal or ())
        choice = plan_choice(
            planner,
            plan_decision(
                game.table, game.won, mover, turn, legal, frozenset(game.free), game.ranks
            ),
        )
        if choice is None and not decision.passes:
            raise SolverError(f"a planning agent found no legal move at turn {turn}")
        move = Function("pass") if choice is None else Number(choice)
        decision.chosen = [] if choice is None else [move]
        made[game.number] = move
        if not record:  # recorded for the agent, not for the log
            decision.legal, decision.market, decision.points = None, [], {}
    if control.reads_the_move and made:
        following = control.given_all(turn, made)
        for index, game in enumerate(playing):
            decision = decisions.get(index)
            if decision is not None and game.number in following:
                decision.next = following[game.number]


def _scored(finals: Sequence[Game]) -> list[ScoreReport]:
    """score_game's reports of positions on one board under one rule set
    (no programs of its own), all of them in one grounding of score's rules."""
    finals = [checked_game(final) for final in finals]
    first = finals[0]
    if len(finals) == 1 or len(first.board.states) > CACHED_BOARD_STATES:
        return [score_game(final) for final in finals]
    # one-shot region layers if every game takes them (both give the same layers)
    choices = {scoring_rules(final) for final in finals}
    layers = choices.pop() if len(choices) == 1 else SCORING_RULES
    paths = [*rule_paths(layers), *rule_paths(POSITION_INPUT)]
    board = parsed_facts(board_program(first.board))
    symbols = solve(first.rules.program(), paths, Positions(first.board, finals), board)
    atoms = atoms_by_position(symbols)
    return [decode(atoms[index], final) for index, final in enumerate(finals)]


def _advance(
    game: _Playing,
    turn: int,
    mover: int,
    decision: _Decision | None,
    ids: Sequence[str],
    names: Sequence[str],
) -> None:
    """Game ``game`` after its decision at ``turn``: last turn's move
    scored, the game over or the mover's move taken (a state or a pass)."""
    if decision is None:
        raise SolverError(f"no decision for a played game at turn {turn}")
    pending = game.pending
    if pending is not None:  # last turn's move, scored now
        game.moves.append(_move(pending, decision.totals, ids, names))
    if decision.over:
        game.ended = True
        return
    table = game.table
    model = move_model(table.rules)
    _refuse_model(model, decision, turn, ids)
    agent = table.seats[mover].agent
    state = _chosen_move(agent, model, decision, turn, ids, game.free)
    game.pending = _Pending(turn, mover, state, decision.totals, decision)
    game.holds = decision.next
    if state < 0:
        game.last = (-1, -1)
        game.passes += 1
        if game.passes >= PASSES_A_PLAYER * len(names):
            raise InputError(
                model.source,
                f"the move model passed {game.passes} turns in a row up to turn {turn} with "
                "the game not over: it never lets the game end",
            )
        return
    game.passes = 0
    game.last = (mover, state)
    game.won[names[mover]].append(ids[state])
    game.taken.add(ids[state])


def _move(
    pending: _Pending, totals: dict[int, int], ids: Sequence[str], names: Sequence[str]
) -> Move:
    """A move, scored by the totals of the decision after it."""
    seat, state, decision = pending.seat, pending.state, pending.decision
    recorded = decision.legal is not None
    return Move(
        pending.turn,
        names[seat],
        ids[state] if state >= 0 else None,
        totals[seat] - pending.before[seat],
        {names[p]: totals[p] for p in range(len(names))},
        legal=_legal_ids(decision, ids) if recorded else None,
        market=tuple(ids[x] for x in sorted(decision.market)) if decision.market else None,
        points=(
            {names[p]: n for p, n in sorted(decision.points.items())} if decision.points else None
        ),
    )


def _legal_ids(decision: _Decision, ids: Sequence[str]) -> tuple[str | None, ...]:
    """The legal moves: states in the board's order, then pass (None)."""
    assert decision.legal is not None
    states = tuple(ids[x] for x in sorted(x for x in decision.legal if x >= 0))
    return (*states, None) if decision.passes else states


def _refuse_model(model: MoveModel, decision: _Decision, turn: int, ids: Sequence[str]) -> None:
    """What no move model may do at a turn of a game not over: leave the
    mover no legal move, make a state somebody holds legal, or a move that
    is neither a state nor pass."""
    if decision.stuck:
        raise InputError(
            model.source,
            f"the move model leaves the mover no legal move at turn {turn}, "
            "while the game is not over",
        )
    if decision.claimed:
        state = ids[min(decision.claimed)]
        raise InputError(
            model.source,
            f"the move model makes {state} legal at turn {turn}, "
            "which a player holds: a legal move wins a state nobody holds",
        )
    decision.shown_wrong += [f"market({x})" for x in decision.market if not 0 <= x < len(ids)]
    decision.shown_wrong += [
        f"points({p},{n})" for p, n in decision.points.items() if p not in decision.totals
    ]
    if decision.shown_wrong:
        raise InputError(
            model.source,
            f"the move model shows {decision.shown_wrong[0]} at turn {turn}: market/1 takes "
            "a state, points/2 a player and a whole number (states and players are numbers)",
        )
    if decision.stray:
        raise InputError(
            model.source,
            f"the move model makes {quote(str(decision.stray[0]))} legal at turn {turn}, "
            "which is neither a state nor pass",
        )


@dataclass
class _Decision:
    """What a decision shows (rules/play/decision.lp)."""

    over: bool = False
    totals: dict[int, int] = field(default_factory=dict)  # player -> total at this turn
    chosen: list[Symbol] = field(default_factory=list)  # the terms the agent chose
    passes: bool = False  # pass is legal
    stuck: bool = False  # no legal move, the game not over
    claimed: list[int] = field(default_factory=list)  # legal states somebody holds
    stray: list[Symbol] = field(default_factory=list)  # legal moves neither state nor pass
    legal: set[int] | None = None  # the legal states, when recorded (:func:`_legal`)
    few: bool = False  # recorded as the legal states (else as the others: barred)
    barred: set[int] = field(default_factory=set)  # unclaimed states not legal
    market: list[int] = field(default_factory=list)  # face-up states, when recorded
    points: dict[int, int] = field(default_factory=dict)  # player -> points, when recorded
    illegal: bool = False  # the agent chose a move that is not legal
    shown_wrong: list[str] = field(default_factory=list)  # market/points of no state, player
    next: list[Symbol] = field(default_factory=list)  # the model's state after the move


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
    control = _Control([table], FIGURES_SHOWN, every_figure=True)
    number = state_numbers(table.board)
    taken = {number[s] for seat in table.seats for s in (seat.home, *seat.states)}
    game = _Playing(table, 0, random.Random(0), set(), set(range(len(number))) - taken, {}, [])
    control.decide(1, mover, [game])
    over, candidates = False, set()
    total: dict[int, int] = {}
    after: dict[tuple[int, int], int] = {}
    gain: dict[int, int] = {}
    face_gain: dict[int, int] = {}
    for symbol in control.shown:
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


class _Control:
    """The clingo control of games played side by side (game G: the G-th
    table): the base part grounded, then a turn a call of :meth:`decide`."""

    def __init__(
        self, tables: Sequence[Table], shown: str = "", every_figure: bool = False
    ) -> None:
        """``shown``: #show statements beside decision.lp's; ``every_figure``:
        every optional part grounded at every decision (the tests' and the
        game-state API's view), not only those the mover's agent reads."""
        checkpoint()
        first = tables[0]
        self.shown: list[Symbol] = []
        self._states = len(first.board.states)
        self._moves: list[Symbol] = []
        self._codes: list[Symbol] = []
        self._holds: list[Symbol] = []
        self._does: list[Symbol] = []
        self._control = control = clingo.Control(["--warn=none"])
        watch(control)  # interrupted if this work is given up on (evlogic.limits)
        control.register_observer(_Shown(self.shown))
        agents: dict[int, int] = {}  # id(agent) -> its part's number
        for seat in first.seats:
            agents.setdefault(id(seat.agent), len(agents))
        self._parts = [agents[id(seat.agent)] for seat in first.seats]
        model = move_model(first.rules)
        wanted = {OPTIONAL[read] for read in model.reads if read in OPTIONAL}
        self._reads = [
            sorted(wanted | {OPTIONAL[read] for read in seat.agent.reads if read in OPTIONAL})
            if not every_figure
            else sorted(OPTIONAL.values())
            for seat in first.seats
        ]
        self.recorded = "barred" in shown
        self._checked = model.name not in MOVE_MODELS
        self._chosen = _reads_the_move(model)
        self.reads_the_move = self._chosen
        self._carried = ("holds", 1) in model.reads
        rules = first.rules
        self._links = {1: "links_1", 2: "links_2"}.get(rules.links_needed, "links")
        self._region = "best_core" if rules.region == "best-core" else "union"
        number = state_numbers(first.board)
        lines = [shown, settings_program(rules)]
        for game, table in enumerate(tables):
            for player, seat in enumerate(table.seats):
                lines.append(f"home({game},{player},{number[seat.home]}).")
                lines.extend(f"held({game},{player},{number[state]})." for state in seat.states)
            if ("deck", 2) in model.reads:
                lines.extend(deck_facts(game, table))
        with clingo.ast.ProgramBuilder(control) as builder:
            for statement in _moves():
                builder.add(statement)
            for statement in _board(first):
                builder.add(statement)
            add_part(builder, model.before, "moves_before")
            add_part(builder, model.after, "moves_after")
            added: set[int] = set()
            for seat in first.seats:
                part = agents[id(seat.agent)]
                if part not in added:
                    added.add(part)
                    _add_agent(builder, seat.agent, part)
        control.add("base", [], "\n".join(lines))
        control.ground([("base", [])])
        self.shown.clear()

    # @moves(t) and @ranks(t) in rules/play/moves.lp, @holds(t) in rules/play/model.lp
    def moves(self, _turn: Symbol) -> list[Symbol]:
        return self._moves

    def holds(self, _turn: Symbol) -> list[Symbol]:
        return self._holds

    def ranks(self, _turn: Symbol) -> list[Symbol]:
        return self._codes

    def decide(
        self, turn: int, mover: int, games: Sequence[_Playing], agent: bool = True
    ) -> dict[int, _Decision]:
        """Ground turn ``turn`` of ``games`` (those still on, each with its
        tables's index in the batch), seat ``mover`` to move; the
        decisions by the games' places in ``games``.  Without ``agent``,
        the turn stops before the move: :meth:`given` makes it."""
        checkpoint()
        n = self._states
        self._moves = []
        self._codes = []
        self._holds = [Tuple_([Number(game.number), f]) for game in games for f in game.holds]
        index: dict[int, int] = {}
        for place, game in enumerate(games):
            g = game.number
            index[g] = place
            seat, state = game.last
            self._moves.append(Tuple_([Number(g), Number(seat), Number(state)]))
            ranks = list(range(1, n + 1))
            game.rng.shuffle(ranks)
            game.ranks = ranks
            free = game.free
            self._codes.extend(
                number_symbol((g * n + rank - 1) * n + state)
                for state, rank in enumerate(ranks)
                if state in free
            )
        self.shown.clear()
        t, m = Number(turn), Number(mover)
        parts = [
            ("decision", [t, m]),
            (self._links, [t]),
            (self._region, [t]),
            ("model", [t]),
            ("moves_before", [t]),
        ]
        if agent:
            parts.append((f"agent_{self._parts[mover]}", [t]))
            if self._chosen:
                parts += [("chosen", [t]), ("moves_after", [t])]
        for read in self._reads[mover]:
            parts.append((read, [t, m] if read in WITH_MOVER else [t]))
        if self.recorded:
            parts.append(("recorded", [t]))
        if self._checked:
            parts.append(("checks", [t]))
        if self._carried:
            parts.append(("carried", [t]))
        self._control.ground(parts, context=self)
        checkpoint()
        decisions = _read(self.shown, index, self.recorded)
        for place, game in enumerate(games):
            _legal(decisions[place], game.free)
        return decisions

    def agent_choice(self, turn: int, mover: int) -> list[Symbol]:
        """What seat ``mover``'s agent chooses at turn ``turn``, grounded
        after :meth:`decide` without an agent (once a turn): its choose/2
        atoms' terms."""
        checkpoint()
        self.shown.clear()
        self._control.ground([(f"agent_{self._parts[mover]}", [Number(turn)])], context=self)
        checkpoint()
        return [symbol.arguments[1] for symbol in self.shown if symbol.name == "choose"]

    # @does(t) in rules/play/model.lp
    def does(self, _turn: Symbol) -> list[Symbol]:
        return self._does

    def given_all(self, turn: int, moves: dict[int, Symbol]) -> dict[int, list[Symbol]]:
        """Turn ``turn``'s moves (by game number: a state's number or
        pass), grounded after :meth:`decide` without an agent: what the
        move model's next/1 says in each game."""
        return _given(self, self._control, turn, moves)

    def given(self, turn: int, game: int, move: Symbol) -> list[Symbol]:
        """Turn ``turn``'s move ``move`` (a state's number or pass) in game
        ``game``, grounded after :meth:`decide` without an agent: what the
        move model's next/1 says."""
        return self.given_all(turn, {game: move})[game]


def _given(
    owner: _Control | _Agents, control: clingo.Control, turn: int, moves: dict[int, Symbol]
) -> dict[int, list[Symbol]]:
    """Turn ``turn``'s moves made from outside (by game number), in
    ``owner``'s control, whose @does(t) answers them: rules/play/model.lp's
    given part and the model's rules that read the move; what next/1 says in
    each game."""
    checkpoint()
    owner._does = [Tuple_([Number(game), move]) for game, move in moves.items()]
    owner.shown.clear()
    t = Number(turn)
    control.ground([("moves_after", [t]), ("given", [t])], context=owner)
    checkpoint()
    found: dict[int, list[Symbol]] = {game: [] for game in moves}
    for symbol in owner.shown:
        if symbol.name == "next":
            found[symbol.arguments[0].arguments[0].number].append(symbol.arguments[1])
    return found


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


def _chosen_move(
    agent: Agent,
    model: MoveModel,
    decision: _Decision,
    turn: int,
    ids: Sequence[str],
    free: set[int],
) -> int:
    """The move the agent chose at ``turn``: a legal state, one of the
    ``free`` ones, or -1 for a pass (pass legal, and the agent chose pass
    or nothing); else an InputError naming the agent (both encodings)."""
    chosen = decision.chosen
    if not chosen and decision.passes:
        return -1
    if len(chosen) != 1:
        states = ", ".join(sorted(_state_named(symbol, ids) for symbol in chosen)) or "nothing"
        raise InputError(
            agent.name,
            f"agent chose {len(chosen)} states ({states}) at turn {turn}: "
            "an agent derives choose(X) for exactly one candidate X",
        )
    symbol = chosen[0]
    if symbol.match("pass", 0) and decision.passes:
        return -1
    state = _state_number(symbol, len(ids))
    if state is None or state not in free:
        raise InputError(
            agent.name,
            f"agent chose {_state_named(symbol, ids)} at turn {turn}, which is not a "
            "candidate (an unclaimed state)",
        )
    if decision.illegal:
        raise InputError(
            agent.name,
            f"agent chose {ids[state]} at turn {turn}, which is not legal under the move "
            f"model {model.name}",
        )
    return state


def _state_number(symbol: Symbol, states: int) -> int | None:
    """The state a chosen term numbers, if it numbers one."""
    if symbol.type == clingo.SymbolType.Number and 0 <= symbol.number < states:
        return symbol.number
    return None


def _state_named(symbol: Symbol, ids: Sequence[str]) -> str:
    """A chosen state's id, or the term the agent chose if it is no state."""
    state = _state_number(symbol, len(ids))
    return quote(str(symbol)) if state is None else ids[state]


def _legal(decision: _Decision, free: set[int]) -> None:
    """A recorded decision's legal states, as rules/play/model.lp told them:
    listed, or the unclaimed ones less those it barred."""
    if decision.legal is not None and not decision.few and not decision.over:
        decision.legal = free - decision.barred


def _read(symbols: Sequence[Symbol], index: dict[int, int], recorded: bool) -> dict[int, _Decision]:
    """Each game's decision by its place (``index``: place by game number)."""
    decisions = {place: _Decision() for place in index.values()}
    if recorded:
        for decision in decisions.values():
            decision.legal = set()
    for symbol in symbols:
        arguments = symbol.arguments
        decision = decisions[index[arguments[0].arguments[0].number]]
        name = symbol.name
        if name == "total":
            decision.totals[arguments[1].number] = arguments[2].number
        elif name == "choose":
            decision.chosen.append(arguments[1])
        elif name == "over":
            decision.over = True
        elif name == "passes":
            decision.passes = True
        else:
            _read_model(decision, name, arguments)
    return decisions


def _read_model(decision: _Decision, name: str, arguments: Sequence[Symbol]) -> None:
    """A decision's atom of the move model's (rules/play/model.lp)."""
    if name == "listed_legal":
        if decision.legal is not None:
            decision.legal.add(arguments[1].number)
    elif name == "few_legal":
        decision.few = True
    elif name == "barred":
        decision.barred.add(arguments[1].number)
    elif name == "market":
        if arguments[1].type == clingo.SymbolType.Number:
            decision.market.append(arguments[1].number)
        else:
            decision.shown_wrong.append(f"market({arguments[1]})")
    elif name == "points":
        if all(argument.type == clingo.SymbolType.Number for argument in arguments[1:]):
            decision.points[arguments[1].number] = arguments[2].number
        else:
            decision.shown_wrong.append(f"points({arguments[1]},{arguments[2]})")
    elif name == "stuck":
        decision.stuck = True
    elif name == "claimed_legal":
        decision.claimed.append(arguments[1].number)
    elif name == "stray_legal":
        decision.stray.append(arguments[1])
    elif name == "illegal":
        decision.illegal = True
    elif name == "next":
        decision.next.append(arguments[1])


def _reads_the_move(model: MoveModel) -> bool:
    """Whether a decision grounds rules/play/model.lp's chosen part (the
    move made, and whether the agent's choice is legal): for every model
    but the draft, whose legal moves are the unclaimed states (which the
    engine checks a choice against) and which keeps no state."""
    return model.name != "draft" or bool(model.after.statements)


def _moves() -> list[clingo.ast.AST]:
    names = (*DECISION, MODEL)
    return [statement for name in names for statement in rule_statements(rules_dir() / name)]


def deck_facts(game: int, table: Table) -> list[str]:
    """Game ``game``'s deck, deck(G, X, R): every state X at place R from 1,
    shuffled by the table's seed (a stream of its own: the tie-break
    orders stay as they were)."""
    states = list(range(len(table.board.states)))
    random.Random(f"evlogic-deck:{table.seed}").shuffle(states)
    return [f"deck({game},{x},{place})." for place, x in enumerate(states, start=1)]


def _board(table: Table) -> tuple[clingo.ast.AST, ...]:
    return parsed_facts(board_program(table.board) + table.rules.program(0))


# --- the readable rules: rule sets with programs of their own ----------------------


def _play_readable(table: Table, record: bool = True) -> PlayedGame:
    """:func:`play` by score's own rules: each decision a grounding of
    rules/scoring/ on every position a move could make, beside
    rules/play/readable.lp, whose figures are then handed to the mover's
    agent as moves.lp's atoms (:class:`_Agents`), with the tie-break order
    of :meth:`_Control.decide` (a shuffle of the ranks 1..n a turn, from
    ``random.Random(table.seed)``), so the game is the one moves.lp plays;
    its moves are read as moves.lp's are (:func:`_advance`)."""
    ids = state_ids(table.board)
    number = state_numbers(table.board)
    names = [seat.name for seat in table.seats]
    taken = {state for seat in table.seats for state in (seat.home, *seat.states)}
    free = set(range(len(ids))) - {number[s] for s in taken}
    game = _Playing(
        table, 0, random.Random(table.seed), taken, free, {name: [] for name in names}, []
    )
    planners = any(seat.agent.planner is not None for seat in table.seats)
    agents = _Agents(table, RECORDED if record or planners else "")
    seats = turn_order(len(table.seats), table.order)
    for turn in itertools.count(1):
        mover = next(seats)
        game.free.discard(game.last[1])
        ranks = list(range(1, len(ids) + 1))
        game.rng.shuffle(ranks)
        game.ranks = ranks
        figures = _readable_figures(game, mover)
        planner = table.seats[mover].agent.planner
        decision = agents.decide(turn, mover, figures, ranks, game, agent=planner is None)
        if planner is not None:
            _planned(agents, planner, turn, mover, [game], {0: decision}, record)
        _advance(game, turn, mover, decision, ids, names)
        if game.ended:
            break
    final = table.game(game.won)
    return PlayedGame(table, tuple(game.moves), final, score_game(final))


def _readable_figures(game: _Playing, mover: int) -> Sequence[Symbol]:
    """A decision's figures by the readable rules, as
    rules/play/readable_decision.lp shows them: position 0 now, then one
    position a state nobody holds, the mover winning it last
    (rules/play/readable.lp)."""
    table = game.table
    board = table.board
    number = state_numbers(board)
    homes = [number[seat.home] for seat in table.seats]
    owned = [[number[s] for s in (*seat.states, *game.won[seat.name])] for seat in table.seats]
    games = [_position(table, homes, owned)]
    worlds = sorted(game.free)
    for x in worlds:
        grown = [list(states) for states in owned]
        grown[mover].append(x)
        games.append(_position(table, homes, grown))
    lines = [f"evlogic_mover({mover})."]
    lines.extend(f"evlogic_world({index},{x})." for index, x in enumerate(worlds, start=1))
    paths = [
        *rule_paths((*RULE_SET_READABLE_FILES, *POSITION_INPUT)),
        *table.rules.programs,
        *rule_paths(READABLE),
    ]
    facts = table.rules.program() + "\n".join(lines) + "\n"
    # readable_decision.lp alone shows: the scoring files here have no #show, and a rule
    # set's program may not hold one (evlogic/asp/fragment.py)
    return solve(facts, paths, Positions(board, games), parsed_facts(board_program(board)))


def _position(table: Table, homes: Sequence[int], owned: Sequence[Sequence[int]]) -> Game:
    ids = state_ids(table.board)
    players = tuple(
        Player(seat.name, ids[homes[p]], tuple(ids[s] for s in owned[p]))
        for p, seat in enumerate(table.seats)
    )
    return Game(table.board, players, "play", table.rules)


#: The readable rules of a decision, beside score's.
READABLE = ("play/readable.lp", "play/readable_decision.lp")

#: How readable.lp's figures reach the mover's agent, beside decision.lp.
READABLE_AGENT = "play/readable_agent.lp"


class _Agents:
    """The seats' agents of one game played by the readable rules, in a
    clingo control of their own, as moves.lp's games ground them: the
    board, the rule set, rules/play/decision.lp and each agent's part
    (:func:`_add_agent`: the statements evlogic.simulation.agents.load_agent
    read, whatever the rule set); at each decision,
    rules/play/readable_agent.lp's part, which gives readable.lp's figures
    as the atoms moves.lp derives for game 0, then the mover's agent.  The
    agent reads nothing of the scoring rules' nor of readable.lp's, and
    derives nothing they read."""

    def __init__(self, table: Table, shown: str) -> None:
        checkpoint()
        self.shown: list[Symbol] = []
        self.recorded = "barred" in shown
        self._checked = move_model(table.rules).name not in MOVE_MODELS
        self._figures: Sequence[Symbol] = ()
        self._ranks: list[Symbol] = []
        self._holds: list[Symbol] = []
        self._does: list[Symbol] = []
        model = move_model(table.rules)
        self._control = control = clingo.Control(["--warn=none"])
        watch(control)  # interrupted if this work is given up on (evlogic.limits)
        control.register_observer(_Shown(self.shown))
        parts: dict[int, int] = {}  # id(agent) -> its part's number
        with clingo.ast.ProgramBuilder(control) as builder:
            for name in (DECISION[1], READABLE_AGENT, MODEL):
                for statement in rule_statements(rules_dir() / name):
                    builder.add(statement)
            for statement in _board(table):
                builder.add(statement)
            add_part(builder, model.before, "moves_before")
            add_part(builder, model.after, "moves_after")
            for seat in table.seats:
                if id(seat.agent) not in parts:
                    parts[id(seat.agent)] = len(parts)
                    _add_agent(builder, seat.agent, parts[id(seat.agent)])
        self._parts = [parts[id(seat.agent)] for seat in table.seats]
        lines = [shown, settings_program(table.rules), *deck_facts(0, table)]
        control.add("base", [], "\n".join(lines))
        control.ground([("base", [])])
        self.shown.clear()

    # @figures(t) and @ranks(t) in rules/play/readable_agent.lp, @holds(t) in
    # rules/play/model.lp
    def figures(self, _turn: Symbol) -> Sequence[Symbol]:
        return self._figures

    def holds(self, _turn: Symbol) -> list[Symbol]:
        return self._holds

    def ranks(self, _turn: Symbol) -> list[Symbol]:
        return self._ranks

    def decide(
        self,
        turn: int,
        mover: int,
        figures: Sequence[Symbol],
        ranks: Sequence[int],
        game: _Playing,
        agent: bool = True,
    ) -> _Decision:
        """The mover's agent on ``figures`` (readable_decision.lp's) at
        ``turn``; ``ranks``: each state's rank in the turn's random order,
        given for the ``free`` states, as moves.lp gives it.  Without
        ``agent``, the turn stops before the move: :meth:`given_all` makes
        it."""
        checkpoint()
        self._figures = figures
        self._ranks = [Tuple_([Number(x), Number(ranks[x])]) for x in sorted(game.free)]
        self._holds = [Tuple_([Number(0), f]) for f in game.holds]
        self.shown.clear()
        t, m = Number(turn), Number(mover)
        parts = [
            *([("recorded", [t])] if self.recorded else []),
            *([("checks", [t])] if self._checked else []),
            ("carried", [t]),
            ("figures", [t, m]),
            ("model", [t]),
            ("moves_before", [t]),
        ]
        if agent:
            parts += [
                ("chosen", [t]),
                ("moves_after", [t]),
                (f"agent_{self._parts[mover]}", [t]),
            ]
        self._control.ground(parts, context=self)
        checkpoint()
        decision = _read(self.shown, {0: 0}, self.recorded)[0]
        _legal(decision, game.free)
        return decision

    #: A move given from outside is grounded whatever the model reads.
    reads_the_move = True

    # @does(t) in rules/play/model.lp
    def does(self, _turn: Symbol) -> list[Symbol]:
        return self._does

    def given_all(self, turn: int, moves: dict[int, Symbol]) -> dict[int, list[Symbol]]:
        """Turn ``turn``'s move (game 0's), grounded after :meth:`decide`
        without the agent: what the move model's next/1 says."""
        return _given(self, self._control, turn, moves)
