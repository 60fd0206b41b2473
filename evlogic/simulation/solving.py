"""evlogic solve: perfect play on a small board, and agents measured
against it.

The search is evlogic.simulation.perfect's (every position, ruled on by
the move model's rules, final positions scored by score's rules).  Here:
the bound on what is searched, the figures a report gives, and the agents'
figures, each agent's moves chosen through the game-state API
(evlogic.simulation.state) exactly as in a played game.

- An agent's *optimal move rate*: over the positions perfect play reaches
  (from the start, every player making any of its perfect moves) where
  the mover has a choice (a forced move is no test), the share where the
  agent, sitting at the mover's seat, chooses a perfect move; None when
  there is no such position.  At most :data:`MOST_JUDGED` positions are
  judged, the nearest the start first.
- An agent's *margin against perfect*: the agent in one seat, every other
  seat playing perfectly, played to the end; its margin (its total less
  the best rival's), for each seat in turn, and their mean.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from evlogic.errors import InputError
from evlogic.limits import checkpoint
from evlogic.reports.balance_figures import Json
from evlogic.simulation.agents import load_agents
from evlogic.simulation.perfect import PASS, PerfectPlay, Position, margin, unclaimed_bound
from evlogic.simulation.state import GameState, MoveId
from evlogic.simulation.table import Table

#: The most positions an agent's moves are judged at (the nearest the start first).
MOST_JUDGED = 1000


@dataclass(frozen=True)
class SeatValue:
    """A seat's final figures: its total and its margin (total less the
    best rival's).  Seats count from 1 in turn order."""

    seat: int
    player: str
    home: str
    total: int
    margin: int

    def to_dict(self) -> dict[str, Json]:
        return {
            "seat": self.seat,
            "player": self.player,
            "home": self.home,
            "margin": self.margin,
            "total": self.total,
        }


@dataclass(frozen=True)
class AgentFigures:
    """An agent against perfect play: the share of the judged positions
    where its move is a perfect one, and its final figures in each seat
    with every other seat playing perfectly (``seats``) and their mean
    margin."""

    agent: str
    optimal_move_rate: float | None  # None: no position to judge
    judged: int
    margin_against_perfect: float
    seats: tuple[SeatValue, ...]

    def to_dict(self) -> dict[str, Json]:
        return {
            "agent": self.agent,
            "optimal_move_rate": self.optimal_move_rate,
            "judged": self.judged,
            "margin_against_perfect": self.margin_against_perfect,
            "seats": [seat.to_dict() for seat in self.seats],
        }


@dataclass(frozen=True)
class SolveReport:
    """What ``evlogic solve`` reports: the game solved (board, players and
    homes in turn order, rule set, move model, turn order, seed), the
    positions searched, every seat's value under perfect play, the perfect
    first move (a state id; None when it is a pass, or the game is over at
    the start) with every move as good, and each agent's figures."""

    board: str
    players: int
    homes: tuple[str, ...]
    rules: str
    moves_model: str
    order: str
    seed: int
    game_end: int
    unclaimed: int
    positions: int
    value: tuple[SeatValue, ...]
    first_move: str | None
    first_moves: tuple[str | None, ...]
    agents: tuple[AgentFigures, ...]

    def to_dict(self) -> dict[str, Json]:
        """The ``solve --format json`` document as plain data."""
        return {
            "board": self.board,
            "players": self.players,
            "homes": list(self.homes),
            "rules": self.rules,
            "moves_model": self.moves_model,
            "order": self.order,
            "seed": self.seed,
            "game_end": self.game_end,
            "unclaimed": self.unclaimed,
            "positions": self.positions,
            "value": [seat.to_dict() for seat in self.value],
            "first_move": self.first_move,
            "first_moves": list(self.first_moves),
            "agents": [agent.to_dict() for agent in self.agents],
        }

    def to_json(self) -> str:
        """Exactly ``evlogic solve --format json``'s output, less the last newline."""
        from evlogic.reports.render import json_text

        return json_text(self.to_dict())

    def to_text(self) -> str:
        """Exactly ``evlogic solve``'s text output."""
        return solve_to_text(self)


# --- the search ---------------------------------------------------------------------


def check_bound(table: Table) -> int:
    """The states nobody holds at the start; over solve's bound, an InputError."""
    held = {state for seat in table.seats for state in (seat.home, *seat.states)}
    unclaimed = len(table.board.states) - len(held)
    players = len(table.seats)
    bound = unclaimed_bound(players)
    if unclaimed > bound:
        raise InputError(
            table.board.source,
            f"{unclaimed} states nobody holds at the start: perfect play searches every "
            f"position, up to {bound} such states for {players} players",
            field="states",
        )
    return unclaimed


def solve_table(table: Table, agents: tuple[str, ...] = ()) -> SolveReport:
    """Perfect play at ``table`` (its seats' agents are not used), and each
    of ``agents`` (agent references, as ``--agents`` names them) against it."""
    unclaimed = check_bound(table)
    if agents and table.rules.programs:
        raise InputError(
            table.rules.source,
            "a rule set with programs of its own: solve's --agents play through the "
            "game-state API, which takes rule sets of numbers only (solve without --agents)",
        )
    search = PerfectPlay(table)
    totals = search.totals(search.start)
    first = search.best(search.start)
    first_moves = tuple(_move_id(search, m) for m in search.perfect_moves(search.start))
    positions = search.positions  # (an agent's move off the search searches more)
    figures = tuple(_against_perfect(search, name) for name in agents)
    rules = table.rules
    return SolveReport(
        board=table.board.name,
        players=len(table.seats),
        homes=tuple(seat.home for seat in table.seats),
        rules=rules.name,
        moves_model=rules.moves_model,
        order=table.order,
        seed=table.seed,
        game_end=table.board.game_end if rules.game_end is None else rules.game_end,
        unclaimed=unclaimed,
        positions=positions,
        value=_seat_values(table, totals),
        first_move=None if first is None else _move_id(search, first),
        first_moves=first_moves,
        agents=figures,
    )


def _seat_values(table: Table, totals: tuple[int, ...]) -> tuple[SeatValue, ...]:
    return tuple(
        SeatValue(index + 1, seat.name, seat.home, totals[index], margin(totals, index))
        for index, seat in enumerate(table.seats)
    )


def _move_id(search: PerfectPlay, move: int) -> MoveId:
    return None if move == PASS else search.ids[move]


def _move_number(search: PerfectPlay, move: MoveId) -> int:
    return PASS if move is None else search.ids.index(move)


# --- agents against perfect play ----------------------------------------------------------


def _against_perfect(search: PerfectPlay, agent: str) -> AgentFigures:
    table = search.table
    players = len(table.seats)
    everywhere = replace(
        table,
        seats=tuple(
            replace(seat, agent=chosen)
            for seat, chosen in zip(table.seats, load_agents(agent, players), strict=True)
        ),
    )
    rate, judged = _optimal_move_rate(search, everywhere)
    seats = tuple(_agent_in_seat(search, everywhere, seat) for seat in range(players))
    mean = sum(seat.margin for seat in seats) / players
    return AgentFigures(agent, rate, judged, round(mean, 2), seats)


def _optimal_move_rate(search: PerfectPlay, table: Table) -> tuple[float | None, int]:
    """The share of the positions perfect play reaches where the mover has
    a choice (two moves or more searched; at most MOST_JUDGED, nearest the
    start first) at which the mover's agent chooses a perfect move; None
    when there is no such position."""
    seen: set[Position] = {search.start}
    waiting: deque[tuple[Position, GameState]] = deque([(search.start, GameState(table))])
    judged = perfect = 0
    while waiting and judged < MOST_JUDGED:
        checkpoint()
        position, state = waiting.popleft()
        moves = search.perfect_moves(position)
        if not moves:  # the game is over
            continue
        if len(search.ruling(position).moves) > 1:  # a forced move is no choice
            judged += 1
            perfect += _move_number(search, state.choice()) in moves
        for move in moves:
            child = search.after(position, move)
            if child not in seen:
                seen.add(child)
                following = state.clone()
                following.apply(_move_id(search, move))
                waiting.append((child, following))
    return (round(perfect / judged, 4) if judged else None), judged


def _agent_in_seat(search: PerfectPlay, table: Table, seat: int) -> SeatValue:
    """The agent at ``seat``, every other seat playing perfect moves, to the end."""
    position, state = search.start, GameState(table)
    while not state.is_over():
        checkpoint()
        if search.mover(position) == seat:
            move = _move_number(search, state.choice())
        else:
            best = search.best(position)
            assert best is not None
            move = best
        state.apply(_move_id(search, move))
        position = search.after(position, move)
    totals = search.totals(position)
    sitting = table.seats[seat]
    return SeatValue(seat + 1, sitting.name, sitting.home, totals[seat], margin(totals, seat))


# --- text ------------------------------------------------------------------------------


def solve_to_text(report: SolveReport) -> str:
    """``evlogic solve``'s text output."""
    homes = ", ".join(f"{seat.player} {seat.home}" for seat in report.value)
    first = ", ".join("pass" if move is None else move for move in report.first_moves)
    lines = [
        f"{report.board}: {report.players} players ({homes}), rules {report.rules}, "
        f"moves {report.moves_model}, {report.order} order, seed {report.seed}",
        f"{_count(report.unclaimed, 'state')} nobody holds; the game ends when "
        f"{_count(report.game_end, 'state')} {'is' if report.game_end == 1 else 'are'} won",
        "",
        f"Perfect play ({_count(report.positions, 'position')} searched):",
    ]
    lines += [
        f"  seat {seat.seat} {seat.player}: total {seat.total}, margin {seat.margin:+d}"
        for seat in report.value
    ]
    if report.first_move is None and not report.first_moves:
        lines.append("The game is over at the start: no first move.")
    else:
        shown = "pass" if report.first_move is None else report.first_move
        lines.append(f"Perfect first move: {shown} (every move as good: {first})")
    if report.agents:
        lines += ["", "Against perfect play:"]
        width = max(len(agent.agent) for agent in report.agents)
        for agent in report.agents:
            margins = ", ".join(f"seat {seat.seat} {seat.margin:+d}" for seat in agent.seats)
            rate = (
                "no choice to judge"
                if agent.optimal_move_rate is None
                else f"perfect moves {100 * agent.optimal_move_rate:.1f}% of {agent.judged}"
            )
            lines.append(
                f"  {agent.agent:{width}}  {rate}; margin against perfect "
                f"{agent.margin_against_perfect:+.2f} ({margins})"
            )
    return "\n".join(lines) + "\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
