"""A plain Python replay of the bundled move models, independent of
rules/moves/ and evlogic/simulation/: it knows the models' rules as
docs/play.md states them and checks a played game move by move.

Given a board, the seats (name, home, states won before play) in seat
order, the turn order, the seed, the model and its numbers, and a game's
moves as ``play --format json`` gives them (``turn``, ``player``,
``state`` or None for a pass, ``legal``, ``market``, ``points``), it
requires: turns numbered from 1 with passes counted; the mover of each
turn by the turn order (passes take their turn); the legal set before
each move (state ids in the board's order, None last when passing is
legal); the market and the points before each move; the move one of the
legal ones; the game over exactly when the game end's state is won.

draft: every unclaimed state.  market: every state shuffled by
``random.Random(f"evlogic-deck:{seed}")`` (over the states in id order),
the unclaimed ones in that order a deck; the first ``market_size`` face
up; a face-up state won is replaced by the first unclaimed state of the
deck not face up.  campaign: 0 points each at the start; the mover gains
``campaign_income`` at the start of its turn; a state costs its board EV;
pass is always legal; points not spent carry over.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any


def turns(players: int, order: str) -> Iterator[int]:
    forward = list(range(players))
    while True:
        yield from forward
        if order == "snake":
            yield from reversed(forward)


def replay(
    ev: Mapping[str, int],
    seats: Sequence[tuple[str, str, Sequence[str]]],
    order: str,
    seed: int,
    model: str,
    numbers: Mapping[str, int],
    game_end: int,
    moves: Sequence[Mapping[str, Any]],
) -> None:
    """Raise AssertionError at the first move the model's rules do not allow
    or the log gets wrong (see the module's docstring)."""
    ids = sorted(ev)
    held = {state for _, home, states in seats for state in (home, *states)}
    names = [name for name, _, _ in seats]
    deck = list(range(len(ids)))
    random.Random(f"evlogic-deck:{seed}").shuffle(deck)
    cards = [ids[x] for x in deck if ids[x] not in held]  # the deck, unclaimed at the start
    size = numbers.get("market_size", 5)
    income = numbers.get("campaign_income", 10)
    face_up = cards[:size]
    points = dict.fromkeys(names, 0)
    order_of = turns(len(seats), order)
    assert len(held) < game_end or not moves, "a move after the game's end"
    for number, move in enumerate(moves, start=1):
        where = f"move {number} ({move})"
        assert len(held) < game_end, f"{where}: a move (or pass) after the game's end"
        mover = names[next(order_of)]
        assert move["turn"] == number, where
        assert move["player"] == mover, f"{where}: {mover} is to move"
        unclaimed = [state for state in ids if state not in held]
        if model == "draft":
            legal: list[str | None] = list(unclaimed)
        elif model == "market":
            legal = sorted(face_up)
            assert sorted(move["market"]) == sorted(face_up), f"{where}: market {face_up}"
        else:
            points[mover] += income
            legal = [state for state in unclaimed if ev[state] <= points[mover]]
            legal.append(None)
            assert move["points"] == points, f"{where}: points {points}"
        assert move["legal"] == legal, f"{where}: legal {legal}"
        state = move["state"]
        assert state in legal, f"{where}: not legal"
        if state is None:
            continue
        held.add(state)
        if model == "market":
            face_up.remove(state)
            rest = [card for card in cards if card not in held and card not in face_up]
            if rest:
                face_up.append(rest[0])
        elif model == "campaign":
            points[mover] -= ev[state]
        assert len(held) <= game_end, f"{where}: played past the game end"
    assert len(held) >= game_end, f"the game stopped at {len(held)} states, before {game_end}"
