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

#: A position: each state's holder (a seat, -1 nobody), the model's state, the turn.
Node = tuple[tuple[int, ...], object, int]


class PlainGame:
    """The game tree of a small board under a bundled move model."""

    def __init__(
        self,
        board: dict[str, dict],
        seats: Sequence[tuple[str, str]],
        order: str,
        seed: int,
        model: str,
        numbers: Mapping[str, int],
        game_end: int,
        rules: Rules | None = None,
    ) -> None:
        self.board, self.seats, self.model = board, seats, model
        self.rules = rules or Rules()
        self.game_end = game_end
        self.ids = sorted(board)
        players = len(seats)
        self.movers: list[int] = []
        order_of = turns(players, order)
        while (
            len(self.movers) < 4 * len(self.ids) * (1 + max(board[s]["ev"] for s in self.ids)) + 8
        ):
            self.movers.append(next(order_of))
        owners = tuple(next((p for p, (_n, h) in enumerate(seats) if h == s), -1) for s in self.ids)
        self.size = numbers.get("market_size", 5)
        self.income = numbers.get("campaign_income", 10)
        deck = list(range(len(self.ids)))
        random.Random(f"evlogic-deck:{seed}").shuffle(deck)
        self.cards = [self.ids[x] for x in deck if owners[x] < 0]
        if model == "market":
            extra: object = tuple(sorted(self.cards[: self.size]))
        elif model == "campaign":
            extra = (0,) * players
        else:
            extra = None
        self.start: Node = (owners, extra, 1)
        self.seen: set[Node] = set()
        self.value = cache(self._value)

    def totals(self, owners: tuple[int, ...]) -> tuple[int, ...]:
        scored = score_position(
            self.board,
            [
                {
                    "name": name,
                    "home": home,
                    "states": [
                        self.ids[x] for x, p in enumerate(owners) if p == i and self.ids[x] != home
                    ],
                }
                for i, (name, home) in enumerate(self.seats)
            ],
            self.game_end,
            self.rules,
        )
        return tuple(player["total"] for player in scored["players"])

    @staticmethod
    def margin(totals: tuple[int, ...], seat: int) -> int:
        return totals[seat] - max(t for i, t in enumerate(totals) if i != seat)

    def over(self, node: Node) -> bool:
        return sum(p >= 0 for p in node[0]) >= self.game_end

    def children(self, node: Node) -> list[tuple[str | None, Node]]:
        """Each move searched at ``node`` (ids in order, a forced pass) and the node after it."""
        owners, extra, turn = node
        mover = self.movers[turn - 1]
        unclaimed = [self.ids[x] for x, p in enumerate(owners) if p < 0]
        if self.model == "draft":
            legal: list[str | None] = list(unclaimed)
        elif self.model == "market":
            legal = sorted(extra)  # type: ignore[arg-type]
        else:
            points = list(extra)  # type: ignore[arg-type]
            points[mover] += self.income
            legal = [s for s in unclaimed if self.board[s]["ev"] <= points[mover]] or [None]
        result = []
        for move in legal:
            new_owners, new_extra = owners, extra
            if move is not None:
                x = self.ids.index(move)
                new_owners = (*owners[:x], mover, *owners[x + 1 :])
            if self.model == "market":
                face = [s for s in extra if s != move]  # type: ignore[union-attr]
                rest = [
                    c for c in self.cards if new_owners[self.ids.index(c)] < 0 and c not in face
                ]
                if rest:
                    face.append(rest[0])
                new_extra = tuple(sorted(face))
            elif self.model == "campaign":
                points = list(extra)  # type: ignore[arg-type]
                points[mover] += self.income - (self.board[move]["ev"] if move is not None else 0)
                new_extra = tuple(points)
            result.append((move, (new_owners, new_extra, turn + 1)))
        return result

    def _value(self, node: Node) -> tuple[tuple[int, ...], str | None]:
        """Every seat's final total under perfect play, and the perfect move."""
        self.seen.add(node)
        if self.over(node):
            return self.totals(node[0]), None
        mover = self.movers[node[2] - 1]
        best: tuple[tuple[int, ...], str | None] | None = None
        for move, child in self.children(node):
            totals, _ = self.value(child)
            if best is None or self.margin(totals, mover) > self.margin(best[0], mover):
                best = (totals, move)
        assert best is not None
        return best

    def perfect_moves(self, node: Node) -> list[tuple[str | None, Node]]:
        """Every move as good as the best, with the node after it."""
        mover = self.movers[node[2] - 1]
        margins = [
            (move, child, self.margin(self.value(child)[0], mover))
            for move, child in self.children(node)
        ]
        most = max(m for _move, _child, m in margins)
        return [(move, child) for move, child, m in margins if m == most]


def perfect(*args: object, **keywords: object) -> tuple[tuple[int, ...], str | None, int]:
    """Every seat's final total under perfect play, the perfect first move
    (a state id, None for a pass or a game over at the start) and the
    positions searched (PlainGame's arguments)."""
    game = PlainGame(*args, **keywords)  # type: ignore[arg-type]
    totals, first = game.value(game.start)
    return totals, first, len(game.seen)
