"""A plain Python playout: the tests' cross-check of `evlogic play`.

It plays a draft the way a person would, with none of the engine's code and
none of its rules: each turn it scores, with tests/plain_scorer.py, what
every free state would give, and picks the agent's move.  Only the order
of ties is shared with evlogic/simulation/engine.py, because it is the seed's
contract, not a rule: ``random.Random(seed)``, and each turn (the last one,
which finds the game over, included) a shuffle of the ranks 1..N, the
state numbered i (its place among the sorted ids) taking rank ranks[i];
of equally good states the one of the lowest rank is won.

The agents are the bundled ones, read from their headers (rules/agents/):

* greedy: the largest gain in the mover's own total;
* spoiler: the largest lead after the move, the mover's total less the
  best rival's (without a rival, the mover's total);
* face: the largest face EV the state adds (a swing state's multiplied);
* random: the lowest rank.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from plain_scorer import Rules, score_player


@dataclass
class PlainMove:
    turn: int
    player: str
    state: str
    gain: int
    totals: dict[str, int]


def turns(players: int, order: str) -> Iterator[int]:
    """Seat indices in turn order: snake is 1..N, N..1, ...; round-robin 1..N, 1..N."""
    while True:
        yield from range(players)
        if order == "snake":
            yield from reversed(range(players))


def totals(board: dict[str, dict], seats: Sequence[dict], rules: Rules) -> list[int]:
    """Every seat's total: ``seats`` are {"home", "states"} (states in the order won)."""
    holdings = [{seat["home"], *seat["states"]} for seat in seats]
    result = []
    for index, seat in enumerate(seats):
        others = set().union(*(held for i, held in enumerate(holdings) if i != index))
        scored = score_player(seat["home"], holdings[index], others, board, rules, seat["states"])
        result.append(scored["total"])
    return result


def mover_total(
    board: dict[str, dict], seats: Sequence[dict], mover: int, rules: Rules, state: str
) -> int:
    """The mover's total had they won ``state`` too (listed last)."""
    seat = seats[mover]
    others = {
        s for i, other in enumerate(seats) if i != mover for s in (other["home"], *other["states"])
    }
    owned = {seat["home"], *seat["states"], state}
    listed = [*seat["states"], state]
    return score_player(seat["home"], owned, others, board, rules, listed)["total"]


def face_worth(board: dict[str, dict], home: str, state: str, rules: Rules) -> int:
    ev = board[state]["ev"]
    doubled = board[state].get("swing", False) and (state != home or rules.home_swing)
    return ev * rules.swing_multiplier if doubled else ev


def playout(
    board: dict[str, dict],
    seats: Sequence[dict],
    agents: Sequence[str],
    rules: Rules,
    game_end: int,
    order: str,
    seed: int,
) -> list[PlainMove]:
    """Play to the game end.  ``board``: {id: {"ev", "swing", "neighbors"}};
    ``seats``: [{"name", "home", "states"}], states already won in the order
    won; ``agents``: a bundled agent's name a seat; ``game_end``: the
    board's (``rules.game_end`` overrides it)."""
    seats = [{**seat, "states": list(seat["states"])} for seat in seats]
    end = rules.game_end if rules.game_end is not None else game_end
    ids = sorted(board)
    rng = random.Random(seed)
    order_of = turns(len(seats), order)
    moves: list[PlainMove] = []
    for turn in range(1, len(ids) + 1):
        mover = next(order_of)
        ranks = list(range(1, len(ids) + 1))
        rng.shuffle(ranks)
        rank = dict(zip(ids, ranks, strict=True))
        taken = {s for seat in seats for s in (seat["home"], *seat["states"])}
        if len(taken) >= end:
            break
        free = [state for state in ids if state not in taken]
        now = totals(board, seats, rules)
        value = {
            state: agent_value(board, seats, mover, rules, agents[mover], state) for state in free
        }
        best = max(value.values())
        state = min((s for s in free if value[s] == best), key=rank.__getitem__)
        seats[mover]["states"].append(state)
        after = totals(board, seats, rules)
        names = [seat["name"] for seat in seats]
        moves.append(
            PlainMove(
                turn,
                names[mover],
                state,
                after[mover] - now[mover],
                dict(zip(names, after, strict=True)),
            )
        )
    return moves


def agent_value(
    board: dict[str, dict], seats: Sequence[dict], mover: int, rules: Rules, agent: str, state: str
) -> int:
    """How much ``agent`` likes winning ``state`` (the largest value wins)."""
    if agent == "greedy":  # the mover's total now is the same for every state
        return mover_total(board, seats, mover, rules, state)
    if agent == "face":
        return face_worth(board, seats[mover]["home"], state, rules)
    if agent == "random":
        return 0
    if agent == "spoiler":
        after = [
            {**seat, "states": [*seat["states"], state]} if index == mover else seat
            for index, seat in enumerate(seats)
        ]
        scores = totals(board, after, rules)
        rivals = [score for index, score in enumerate(scores) if index != mover]
        return scores[mover] - max(rivals) if rivals else scores[mover]
    raise ValueError(f"no plain agent {agent!r}")
