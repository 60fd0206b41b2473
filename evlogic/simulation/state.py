"""One game's state, move by move: the game-state API (in the style of
OpenSpiel's ``State``) that tests, notebooks and search agents drive.

>>> state = evlogic.game_state(players=3, seed=1)   # evlogic/api/simulation.py
>>> state.mover(), state.legal()[:3]
('P1', ('AK', 'AL', 'AR'))
>>> state.after("CA")["P1"]                # P1's total if it won California
>>> state.apply("CA"); state.is_over()

Nothing is scored or ruled on here: each turn is a grounding of the same
programs a played game grounds (rules/play/moves.lp, rules/play/model.lp,
the rule set's move model; evlogic/simulation/engine.py), stopped before
the move; :meth:`GameState.apply` grounds the move model's rules that read
the move (``does/1``) and hands what ``next/1`` says to the next turn.  A
rule set with programs of its own is played by the readable rules in
play and balance; here it is refused (:func:`GameState` says so).

A clingo control cannot branch, so :meth:`GameState.clone` replays the
moves made so far in a control of its own: a clone costs a grounding a
move made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from clingo import Function, Number, Symbol, SymbolType

from evlogic.asp.facts import state_ids, state_numbers
from evlogic.errors import InputError, quote
from evlogic.reports.report import ScoreReport
from evlogic.reports.score import score_game
from evlogic.simulation.engine import (
    FIGURES_SHOWN,
    RECORDED,
    Move,
    _Control,
    _Decision,
    _Playing,
    _refuse_model,
)
from evlogic.simulation.moves import move_model
from evlogic.simulation.table import Table, turn_order

#: A move: a state's id, or None for a pass.
MoveId = str | None


@dataclass(frozen=True)
class _Turn:
    """What one turn's grounding says, before the move."""

    decision: _Decision
    #: (state, player) -> that player's total if the mover wins the state.
    after: dict[tuple[int, int], int]


class GameState:
    """A game at a table (evlogic.simulation.table: board, rule set with
    its move model, seats, turn order, seed), from the seats' position,
    moved on by :meth:`apply`.  Players are named as the table seats them."""

    def __init__(self, table: Table) -> None:
        if table.rules.programs:
            raise InputError(
                table.rules.source,
                "a rule set with programs of its own is played by score's own rules, "
                "which the game-state API does not drive (use evlogic play)",
            )
        move_model(table.rules)  # read and checked now, once
        self._table = table
        self._ids = state_ids(table.board)
        self._names = [seat.name for seat in table.seats]
        number = state_numbers(table.board)
        taken = {state for seat in table.seats for state in (seat.home, *seat.states)}
        self._game = _Playing(
            table,
            0,
            random.Random(table.seed),
            taken,
            set(range(len(self._ids))) - {number[s] for s in taken},
            {name: [] for name in self._names},
            [],
        )
        self._control = _Control([table], FIGURES_SHOWN + " " + RECORDED, every_figure=True)
        self._order = turn_order(len(table.seats), table.order)
        self._seat = next(self._order)
        self._turn_number = 1
        self._made: list[MoveId] = []
        self._now: _Turn | None = None
        self._choice: tuple[MoveId] | None = None  # the mover's agent's, this turn

    # --- what the rules say of the state now -----------------------------------------

    def _current(self) -> _Turn:
        if self._now is None:
            game = self._game
            game.free.discard(game.last[1])
            decision = self._control.decide(self._turn_number, self._seat, [game], agent=False)[0]
            if not decision.over:
                _refuse_model(move_model(self._table.rules), decision, self._turn_number, self._ids)
            after = {}
            for symbol in self._control.shown:
                if symbol.name == "after":
                    x, player, total = (argument.number for argument in symbol.arguments[1:])
                    after[x, player] = total
            self._now = _Turn(decision, after)
        return self._now

    def turn(self) -> int:
        """The turn to be played, from 1 (passes counted)."""
        return self._turn_number

    def mover(self) -> str:
        """The name of the player to move."""
        return self._names[self._seat]

    def is_over(self) -> bool:
        """Whether the game has ended (the game end's state is won)."""
        return self._current().decision.over

    def legal(self) -> tuple[MoveId, ...]:
        """The moves the mover may make, as the move model says: state ids
        in the board's order, then None when passing is legal; nothing
        once the game is over."""
        decision = self._current().decision
        if decision.over:
            return ()
        assert decision.legal is not None
        states = tuple(self._ids[x] for x in sorted(x for x in decision.legal if x >= 0))
        return (*states, None) if decision.passes else states

    def totals(self) -> dict[str, int]:
        """Every player's total now, by name."""
        totals = self._current().decision.totals
        return {name: totals[p] for p, name in enumerate(self._names)}

    def after(self, move: MoveId) -> dict[str, int]:
        """Every player's total if the mover made ``move`` (a legal one)."""
        self._legal_move(move)
        if move is None:
            return self.totals()
        x = state_numbers(self._table.board)[move]
        after = self._current().after
        return {name: after[x, p] for p, name in enumerate(self._names)}

    def market(self) -> tuple[str, ...] | None:
        """The face-up states (a market model's), None if it shows none."""
        market = self._current().decision.market
        return tuple(self._ids[x] for x in sorted(market)) if market else None

    def points(self) -> dict[str, int] | None:
        """Every player's points (a campaign model's, the mover's with
        this turn's income), None if it shows none."""
        points = self._current().decision.points
        if not points:
            return None
        return {self._names[p]: n for p, n in sorted(points.items())}

    def choice(self) -> MoveId:
        """The move the mover's agent (the table's, seat by seat) chooses
        now, as it would in a played game: the same figures and the same
        tie-break order (the seed's).  An agent choosing no legal move is an
        InputError naming the agent and the turn."""
        if self.is_over():
            raise InputError("move", "the game is over: no agent chooses")
        if self._choice is None and self._table.seats[self._seat].agent.planner is not None:
            self._choice = (self._planned(),)
        if self._choice is None:
            chosen = self._control.agent_choice(self._turn_number, self._seat)
            agent = self._table.seats[self._seat].agent
            legal = self.legal()
            moves: list[MoveId] = []
            for symbol in chosen:
                if symbol.match("pass", 0):
                    moves.append(None)
                elif symbol.type == SymbolType.Number and 0 <= symbol.number < len(self._ids):
                    moves.append(self._ids[symbol.number])
                else:
                    moves.append(str(symbol))
            if not moves and None in legal:
                moves = [None]
            if len(moves) != 1 or moves[0] not in legal:
                shown = ", ".join("pass" if m is None else str(m) for m in moves) or "nothing"
                raise InputError(
                    agent.name,
                    f"agent chose {shown} at turn {self._turn_number}, not one legal move under "
                    f"the move model {self._table.rules.moves_model}",
                )
            self._choice = (moves[0],)
        return self._choice[0]

    def _planned(self) -> MoveId:
        """A planning agent's move (evlogic.simulation.planning), from what
        the decision recorded, as a played game asks for it."""
        from evlogic.simulation.planning import plan_choice, plan_decision

        planner = self._table.seats[self._seat].agent.planner
        assert planner is not None
        decision = self._current().decision
        game = self._game
        choice = plan_choice(
            planner,
            plan_decision(
                self._table,
                game.won,
                self._seat,
                self._turn_number,
                frozenset(decision.legal or ()),
                frozenset(game.free),
                game.ranks,
            ),
        )
        return None if choice is None else self._ids[choice]

    def moves(self) -> tuple[Move, ...]:
        """The moves made so far, as a played game's log gives them."""
        return tuple(self._game.moves)

    def report(self) -> ScoreReport:
        """The position now, scored by score's rules (``evlogic score``'s
        report: final once the game is over)."""
        return score_game(self._table.game(self._game.won))

    # --- moving on -----------------------------------------------------------------------

    def apply(self, move: MoveId) -> None:
        """The mover makes ``move`` (a legal one: else InputError); the
        next player is to move."""
        self._legal_move(move)
        game, seat = self._game, self._seat
        number = -1 if move is None else state_numbers(self._table.board)[move]
        symbol: Symbol = Function("pass") if move is None else Number(number)
        totals = self.after(move)
        before = self.totals()
        game.moves.append(
            Move(
                self._turn_number,
                self._names[seat],
                move,
                totals[self._names[seat]] - before[self._names[seat]],
                totals,
                legal=self.legal(),
                market=self.market(),
                points=self.points(),
            )
        )
        game.holds = self._control.given(self._turn_number, 0, symbol)
        if move is None:
            game.last = (-1, -1)
        else:
            game.last = (seat, number)
            game.won[self._names[seat]].append(move)
            game.taken.add(move)
        self._made.append(move)
        self._turn_number += 1
        self._seat = next(self._order)
        self._now = None
        self._choice = None

    def clone(self) -> GameState:
        """A state of its own at the same point: the moves so far replayed."""
        copy = GameState(self._table)
        for move in self._made:
            copy.apply(move)
        return copy

    def _legal_move(self, move: MoveId) -> None:
        legal = self.legal()
        if move not in legal:
            shown = "pass" if move is None else quote(str(move))
            model = self._table.rules.moves_model
            if not legal:
                raise InputError("move", f"{shown} after the game's end: no move is legal")
            raise InputError(
                "move",
                f"{shown} is not legal for {self.mover()} at turn {self._turn_number} under "
                f"the move model {model} ({_listed(legal)})",
            )


def _listed(legal: Sequence[MoveId]) -> str:
    shown = ["pass" if move is None else move for move in legal]
    text = ", ".join(shown[:8])
    return f"legal: {text}" + (f" and {len(shown) - 8} more" if len(shown) > 8 else "")
