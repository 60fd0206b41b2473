"""Hex layouts for drawing boards: where each state's tile sits.

A board may place its states itself (``hex: [q, r]`` in axial coordinates);
otherwise one is computed here: states are placed one by one next to the
neighbours already placed, then moved while that puts more board neighbours
on touching tiles.  Deterministic: the same board always gets the same
layout.  This is drawing, not scoring: adjacency on the board decides the
rules, tiles only show it.
"""

from __future__ import annotations

from collections import deque

from evlogic.loading.boards import Board

Cell = tuple[int, int]
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def around(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Cell, b: Cell) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def board_layout(board: Board) -> dict[str, Cell]:
    """The board's own ``hex`` cells when every state has one, else a computed layout."""
    cells = {state.id: state.hex for state in board.states.values() if state.hex is not None}
    if len(cells) == len(board.states):
        return cells
    return compute_layout(board)


def compute_layout(board: Board, passes: int = 4) -> dict[str, Cell]:
    neighbors = {state.id: state.neighbors for state in board.states.values()}
    cells: dict[str, Cell] = {}
    taken: set[Cell] = set()
    for component in _components(neighbors):
        start = _free_start(taken)
        for state in component:
            placed = [cells[n] for n in neighbors[state] if n in cells]
            if not placed:
                cell = start
            else:
                options = {c for p in placed for c in around(p) if c not in taken}
                if not options:  # crowded: take the nearest free cell
                    options = _nearest_free(placed[0], taken)
                cell = max(options, key=lambda c: (_fit(c, placed), -c[1], -c[0]))
            cells[state] = cell
            taken.add(cell)
    return improve(neighbors, cells, passes)


def improve(
    neighbors: dict[str, tuple[str, ...]],
    cells: dict[str, Cell],
    passes: int,
    fixed: frozenset[str] = frozenset(),
) -> dict[str, Cell]:
    """Move states to free cells or swap pairs while the fit improves;
    ``fixed`` states stay where they are."""
    cells = dict(cells)
    for _ in range(passes):
        changed = False
        for state in sorted(set(cells) - fixed):
            owner = {cell: name for name, cell in cells.items()}
            current = _state_fit(state, cells[state], neighbors, cells)
            targets = {c for n in neighbors[state] for c in around(cells[n])}
            best, best_gain = None, 0
            for target in sorted(targets - {cells[state]}):
                other = owner.get(target)
                if other in fixed:
                    continue
                if other is None:
                    gain = _state_fit(state, target, neighbors, cells) - current
                else:
                    swapped = dict(cells)
                    swapped[state], swapped[other] = target, cells[state]
                    gain = (
                        _state_fit(state, target, neighbors, swapped)
                        + _state_fit(other, cells[state], neighbors, swapped)
                        - current
                        - _state_fit(other, target, neighbors, cells)
                    )
                if gain > best_gain:
                    best, best_gain = target, gain
            if best is not None:
                other = owner.get(best)
                if other is not None:
                    cells[other] = cells[state]
                cells[state] = best
                changed = True
        if not changed:
            break
    return cells


def _fit(cell: Cell, placed: list[Cell]) -> int:
    return sum(10 if distance(cell, p) == 1 else -distance(cell, p) for p in placed)


def _state_fit(
    state: str, cell: Cell, neighbors: dict[str, tuple[str, ...]], cells: dict[str, Cell]
) -> int:
    return _fit(cell, [cells[n] for n in neighbors[state] if n != state])


def _components(neighbors: dict[str, tuple[str, ...]]) -> list[list[str]]:
    """Connected components, biggest first, each in breadth-first order from
    its best-connected state."""
    seen: set[str] = set()
    components = []
    for root in sorted(neighbors, key=lambda s: (-len(neighbors[s]), s)):
        if root in seen:
            continue
        order, queue = [], deque([root])
        seen.add(root)
        while queue:
            state = queue.popleft()
            order.append(state)
            for other in sorted(neighbors[state], key=lambda s: (-len(neighbors[s]), s)):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        components.append(order)
    components.sort(key=lambda c: -len(c))
    return components


def _free_start(taken: set[Cell]) -> Cell:
    if not taken:
        return (0, 0)
    right = max(q + r / 2 for q, r in taken)
    top = min(r for _, r in taken)
    q = int(right - top / 2) + 2
    return (q, top)


def _nearest_free(origin: Cell, taken: set[Cell]) -> set[Cell]:
    frontier, seen = [origin], {origin}
    while True:
        nxt = []
        for cell in frontier:
            for c in around(cell):
                if c not in seen:
                    seen.add(c)
                    nxt.append(c)
        free = {c for c in nxt if c not in taken}
        if free:
            return free
        frontier = nxt
