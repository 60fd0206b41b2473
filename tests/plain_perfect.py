"""A plain brute-force minimax, independent of evlogic: perfect play on a
small board as docs/play.md states it, by the plain scorer
(tests/plain_scorer.py) and the bundled move models' rules (as
tests/plain_moves.py knows them).

Each player maximises its own final total minus the best rival's; at a
position the mover takes the first best move in the order of state ids,
a pass last; a pass is a move only when it is the mover's one legal move.
Positions are counted once however many ways they are reached (who holds
each state, the model's state, the turn).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import cache

from plain_moves import turns

from plain_scorer import Rules, score_position


def perfect(
    board: dict[str, dict],
    seats: Sequence[tuple[str, str]],
    order: str,
    seed: int,
    model: str,
    numbers: Mapping[str, int],
    game_end: int,
    rules: Rules | None = None,
) -> tuple[tuple[int, ...], str | None, int]:
    """Every seat's final total under perfect play, the perfect first move
    (a state id, None for a pass or a game over at the start) and the
    positions searched.  ``seats``: (name, home) in seat order."""
    rules = rules or Rules()
    ids = sorted(board)
    players = len(seats)
    movers: list[int] = []
    order_of = turns(players, order)
    while len(movers) < 4 * len(ids) * (1 + max(board[s]["ev"] for s in ids)) + 8:
        movers.append(next(order_of))
    owners0 = tuple(next((p for p, (_n, h) in enumerate(seats) if h == s), -1) for s in ids)
    size = numbers.get("market_size", 5)
    income = numbers.get("campaign_income", 10)
    deck = list(range(len(ids)))
    random.Random(f"evlogic-deck:{seed}").shuffle(deck)
    cards = [ids[x] for x in deck if owners0[x] < 0]
    if model == "market":
        extra: object = tuple(sorted(cards[:size]))
    elif model == "campaign":
        extra = (0,) * players
    else:
        extra = None
    seen: set[tuple] = set()

    def totals_of(owners: tuple[int, ...]) -> tuple[int, ...]:
        scored = score_position(
            board,
            [
                {
                    "name": name,
                    "home": home,
                    "states": [ids[x] for x, p in enumerate(owners) if p == i and ids[x] != home],
                }
                for i, (name, home) in enumerate(seats)
            ],
            game_end,
            rules,
        )
        return tuple(player["total"] for player in scored["players"])

    def margin(totals: tuple[int, ...], seat: int) -> int:
        return totals[seat] - max(t for i, t in enumerate(totals) if i != seat)

    @cache
    def value(
        owners: tuple[int, ...], extra: object, turn: int
    ) -> tuple[tuple[int, ...], str | None]:
        seen.add((owners, extra, turn))
        if sum(p >= 0 for p in owners) >= game_end:
            return totals_of(owners), None
        mover = movers[turn - 1]
        unclaimed = [ids[x] for x, p in enumerate(owners) if p < 0]
        if model == "draft":
            legal: list[str | None] = list(unclaimed)
        elif model == "market":
            legal = sorted(extra)  # type: ignore[arg-type]
        else:
            points = list(extra)  # type: ignore[arg-type]
            points[mover] += income
            legal = [s for s in unclaimed if board[s]["ev"] <= points[mover]] or [None]
        best: tuple[tuple[int, ...], str | None] | None = None
        for move in legal:
            new_owners, new_extra = owners, extra
            if move is not None:
                x = ids.index(move)
                new_owners = (*owners[:x], mover, *owners[x + 1 :])
            if model == "market":
                face = [s for s in extra if s != move]  # type: ignore[union-attr]
                rest = [c for c in cards if new_owners[ids.index(c)] < 0 and c not in face]
                if rest:
                    face.append(rest[0])
                new_extra = tuple(sorted(face))
            elif model == "campaign":
                points = list(extra)  # type: ignore[arg-type]
                points[mover] += income - (board[move]["ev"] if move is not None else 0)
                new_extra = tuple(points)
            totals, _ = value(new_owners, new_extra, turn + 1)
            if best is None or margin(totals, mover) > margin(best[0], mover):
                best = (totals, move)
        assert best is not None
        return best

    totals, first = value(owners0, extra, 1)
    return totals, first, len(seen)
