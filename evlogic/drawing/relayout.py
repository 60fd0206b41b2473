"""``evlogic layout``: hex tiles for a board with the fewest bridges and walls.

The optimisation is ``rules/layout/layout.lp`` (its header says what it
reads and gives); this module hands it the board as numbers
(:func:`evlogic.asp.facts.board_program`), a grid and a start layout, runs
clingo within the time given, and reads the tiles back.  Python never
counts an exception: the counts are the solver's bridge/2 and wall/4 atoms.

The time goes in three steps, on one grounding:

1. the start (the board's hexes, else :func:`evlogic.drawing.layout.compute_layout`):
   its count, the same program with every tile assumed where it is;
2. the whole problem, for a fifth of the time or 20,000 conflicts: small
   boards are solved and proved optimal here (``optimal`` is true only then);
3. then until the time is up, a large neighbourhood search: all tiles but
   a few near one exception of the best layout so far (or near a random
   tile) are assumed where they are, and clingo re-places those few for a
   bounded number of conflicts (2,000), the best layout tried first
   (``layout_best/3``, a domain heuristic).  A better answer is kept.  The
   windows (10 tiles) grow while nothing improves, up to 24.  The steps are the same every run
   (a fixed seed, conflict limits, one thread): more time only goes further.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass

import clingo
import yaml

from evlogic.asp.facts import board_program, state_ids, state_numbers
from evlogic.drawing.layout import Cell, board_layout, distance
from evlogic.errors import InputError, quote
from evlogic.limits import OutOfTime, checkpoint, watch
from evlogic.loading.boards import Board
from evlogic.resources import rules_dir

#: The most states ``evlogic layout`` places: the grounding grows with
#: states times cells (usa: 51 states, 190 cells, 0.4 s).
MAX_LAYOUT_STATES = 400

#: The share of the time and the conflicts the whole problem gets before
#: the neighbourhood search (whichever ends first).
WHOLE_SHARE = 0.2
WHOLE_CONFLICTS = 20_000
#: Conflicts a neighbourhood step may take; the windows' sizes.
STEP_CONFLICTS = 2000
WINDOW, WIDEST_WINDOW = 10, 24
#: Steps without a better count before the window grows by two.
PATIENCE = 6
#: How often a blocked wait looks at Ctrl-C.
POLL = 0.1


@dataclass(frozen=True)
class Grid:
    """The cells a layout may use: rows ``rows[0]..rows[1]`` and, in each,
    the cells whose half-tile column 2q + r lies in ``columns`` (a
    rectangle as drawn)."""

    rows: tuple[int, int]
    columns: tuple[int, int]

    def cells(self) -> list[Cell]:
        (r0, r1), (x0, x1) = self.rows, self.columns
        return [
            ((x - r) // 2, r)
            for r in range(r0, r1 + 1)
            for x in range(x0, x1 + 1)
            if (x - r) % 2 == 0
        ]


def grid_around(cells: Iterable[Cell], margin: int = 1) -> Grid:
    """The rectangle (as drawn) around ``cells``, ``margin`` tiles wider on every side."""
    cells = list(cells)
    rows = [r for _, r in cells]
    columns = [2 * q + r for q, r in cells]
    return Grid(
        (min(rows) - margin, max(rows) + margin),
        (min(columns) - 2 * margin, max(columns) + 2 * margin),
    )


@dataclass(frozen=True)
class Count:
    """A layout's exceptions, as the solver counted them."""

    bridges: int
    walls: int

    @property
    def total(self) -> int:
        return self.bridges + self.walls

    def __str__(self) -> str:
        return f"{self.total} ({_plural(self.bridges, 'bridge')}, {_plural(self.walls, 'wall')})"


@dataclass(frozen=True)
class Layout:
    """What :func:`lay_out` found."""

    cells: dict[str, Cell]  # state id -> (q, r)
    start: dict[str, Cell]
    before: Count | None  # the start's count (None: it does not fit the grid)
    after: Count
    optimal: bool  # clingo proved no layout on the grid has fewer
    seconds: float

    def moved(self) -> list[str]:
        return [state for state in sorted(self.cells) if self.cells[state] != self.start.get(state)]


@dataclass
class _Answer:
    cost: list[int]
    cells: dict[int, Cell]
    bridges: list[tuple[int, int]]
    walls: list[tuple[Cell, Cell]]

    def count(self) -> Count:
        return Count(len(self.bridges), len(self.walls))


def lay_out(
    board: Board,
    timeout: float,
    keep: Collection[str] = (),
    grid: Grid | None = None,
    start: dict[str, Cell] | None = None,
    reach: int | None = None,
    seed: int = 0,
) -> Layout:
    """Tiles for ``board`` with the fewest bridges + walls clingo finds in
    ``timeout`` seconds (grounding included), on ``grid`` (default: one tile
    around ``start``), trying ``start`` first (default: the board's layout).
    States in ``keep`` stay on their start cells; with ``reach``, every tile
    stays within that many tiles of its start."""
    began = time.monotonic()
    deadline = began + timeout
    start = dict(start or board_layout(board))
    grid = grid or grid_around(start.values())
    ids = state_ids(board)
    number = state_numbers(board)
    free_cells = set(grid.cells())
    fits = all(start[state] in free_cells for state in ids)
    if len(free_cells) < len(ids):
        raise InputError(
            board.source, f"{len(ids)} states do not fit a grid of {len(free_cells)} cells"
        )
    missing = [state for state in keep if start[state] not in free_cells]
    if missing:
        raise InputError(board.source, f"{quote(missing[0])} cannot keep a cell outside the grid")

    facts = [
        board_program(board),
        "layout_rows({},{}). layout_columns({},{}).".format(*grid.rows, *grid.columns),
        *(f"layout_start({number[s]},{start[s][0]},{start[s][1]})." for s in ids if s in start),
        *(f"layout_keep({number[s]})." for s in sorted(keep)),
        *([f"layout_reach({reach})."] if reach is not None else []),
    ]
    control = clingo.Control(["--heuristic=Domain", "--models=0"])
    watch(control)
    control.load(str(rules_dir() / "layout" / "layout.lp"))
    control.add("base", [], "\n".join(facts) + "\n")
    checkpoint()
    control.ground([("base", [])])
    checkpoint()
    solver = _Solver(control)

    # 1. The start, every tile assumed where it is.
    best = solver.solve(deadline, [_tile(number[s], start[s]) for s in ids]) if fits else None
    before = best.count() if best is not None else None
    # 2. The whole problem, the best so far tried first.
    solver.prefer(best)
    solver.limit(WHOLE_CONFLICTS)
    whole = solver.solve(min(deadline, time.monotonic() + WHOLE_SHARE * timeout), [])
    optimal = solver.exhausted
    if whole is not None and (best is None or whole.cost < best.cost):
        best = whole
    if best is None:
        if time.monotonic() >= deadline:
            raise OutOfTime  # a time limit, exit 3 (evlogic.cli)
        raise InputError(board.source, f"no layout found within {timeout:g} s (raise --timeout)")
    # 3. Neighbourhoods, until the time is up.
    if not optimal:
        best = _neighbourhoods(solver, best, deadline, seed, len(ids))
    cells = {ids[s]: cell for s, cell in best.cells.items()}
    return Layout(cells, start, before, best.count(), optimal, time.monotonic() - began)


def _neighbourhoods(
    solver: _Solver, best: _Answer, deadline: float, seed: int, size: int
) -> _Answer:
    chance = random.Random(seed)
    window, stale = WINDOW, 0
    solver.limit(STEP_CONFLICTS)
    while time.monotonic() < deadline:
        checkpoint()
        cells = best.cells
        exceptions = best.bridges + [
            (owner, other)
            for a, b in best.walls
            for owner, other in [(_owner(cells, a), _owner(cells, b))]
        ]
        if exceptions and chance.random() < 0.7:
            ends = chance.choice(exceptions)
            centres = [cells[end] for end in ends]
        else:
            centres = [cells[chance.choice(sorted(cells))]]
        near = sorted(
            cells, key=lambda s: (min(distance(cells[s], c) for c in centres), chance.random())
        )[: min(window, size)]
        solver.prefer(best)
        answer = solver.solve(
            deadline, [_tile(s, cells[s]) for s in sorted(cells) if s not in near]
        )
        if answer is not None and answer.cost < best.cost:
            if answer.cost[0] < best.cost[0]:
                window, stale = WINDOW, 0
            best = answer
        else:
            stale += 1
        if stale >= PATIENCE:
            window, stale = min(window + 2, WIDEST_WINDOW), 0
    return best


def _owner(cells: dict[int, Cell], cell: Cell) -> int:
    return next(state for state, where in cells.items() if where == cell)


def _tile(state: int, cell: Cell) -> clingo.Symbol:
    return clingo.Function(
        "tile", [clingo.Number(state), clingo.Number(cell[0]), clingo.Number(cell[1])]
    )


class _Solver:
    """One grounded control: solves under assumptions until a deadline,
    keeping the last (best) model."""

    def __init__(self, control: clingo.Control) -> None:
        self.control = control
        self.exhausted = False
        self.preferred: list[clingo.Symbol] = []

    def prefer(self, answer: _Answer | None) -> None:
        """Try ``answer``'s tiles first on the next solves (layout_best/3)."""
        for symbol in self.preferred:
            self.control.assign_external(symbol, False)
        self.preferred = []
        if answer is not None:
            for state, (q, r) in sorted(answer.cells.items()):
                symbol = clingo.Function("layout_best", [clingo.Number(n) for n in (state, q, r)])
                self.control.assign_external(symbol, True)
                self.preferred.append(symbol)

    def limit(self, conflicts: int) -> None:
        self.control.configuration.solve.solve_limit = str(conflicts)  # type: ignore[union-attr]

    def solve(self, until: float, assumed: list[clingo.Symbol]) -> _Answer | None:
        found: list[_Answer] = []

        def on_model(model: clingo.Model) -> None:
            cells: dict[int, Cell] = {}
            bridges, walls = [], []
            for atom in model.symbols(shown=True):
                args = [argument.number for argument in atom.arguments]
                if atom.name == "tile":
                    cells[args[0]] = (args[1], args[2])
                elif atom.name == "bridge":
                    bridges.append((args[0], args[1]))
                elif atom.name == "wall":
                    walls.append(((args[0], args[1]), (args[2], args[3])))
            found.append(_Answer(list(model.cost), cells, sorted(bridges), sorted(walls)))

        self.exhausted = False
        with self.control.solve(
            assumptions=[(symbol, True) for symbol in assumed],
            on_model=on_model,
            async_=True,
        ) as handle:
            while not handle.wait(max(0.0, min(POLL, until - time.monotonic()))):
                if time.monotonic() >= until:
                    handle.cancel()
                    break
            result = handle.get()
        self.exhausted = bool(result.exhausted)
        return found[-1] if found else None


# --- the board file with the new tiles --------------------------------------


def board_text_with_cells(text: str, cells: dict[str, Cell]) -> str:
    """The board file ``text`` with each state's ``hex:`` set to its cell:
    replaced where the state has one, else added as its last field; every
    other byte (comments, order, spelling) as it was, in flow or block
    style.  When the file is written in a way this cannot edit in place (a
    cell that is an alias), the board is written anew (fields in their
    order, one flow mapping a state, comments lost)."""
    try:
        edited = _edited(text, cells)
        if edited is not None and _same_but_cells(text, edited, cells):
            return edited
    except (yaml.YAMLError, ValueError, AttributeError, IndexError, KeyError, TypeError):
        pass  # not a file this can edit in place
    return _rewritten(text, cells)


def _edited(text: str, cells: dict[str, Cell]) -> str | None:
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(root, yaml.MappingNode):
        return None
    states = next(
        (
            value
            for key, value in root.value
            if isinstance(key, yaml.ScalarNode) and key.value == "states"
        ),
        None,
    )
    if not isinstance(states, yaml.MappingNode):
        return None
    edits: list[tuple[int, int, str]] = []
    for key, value in states.value:
        state = key.value
        if state not in cells or not isinstance(value, yaml.MappingNode):
            return None
        q, r = cells[state]
        cell = f"[{q}, {r}]"
        known = [(name, item) for name, item in value.value if name.value == "hex"]
        if known:
            edits.append(_cell_replaced(text, *known[0], cell))
        elif value.flow_style:
            end = value.end_mark.index - 1  # the closing brace
            if text[end] != "}":
                return None
            edits.append((end, end, f", hex: {cell}"))
        elif value.value:
            edits.append(_cell_added(text, value, cell))
        else:
            return None
    for begin, end, replacement in sorted(edits, reverse=True):
        text = text[:begin] + replacement + text[end:]
    return text


def _cell_replaced(text: str, key: yaml.Node, node: yaml.Node, cell: str) -> tuple[int, int, str]:
    """The edit that writes ``cell`` for the ``hex:`` whose key is ``key``."""
    if not (isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value):
        return node.start_mark.index, node.end_mark.index, cell
    # A block list ("- 1" lines) becomes a flow list on the key's line, from
    # the key's end to its last item; a comment within it follows the list.
    begin, end = key.end_mark.index, node.value[-1].end_mark.index
    comments = re.findall(r"(?:^|\s)(#[^\r\n]*)", text[begin:end])
    return begin, end, f": {cell}" + "".join(f"  {comment.strip()}" for comment in comments)


def _cell_added(text: str, fields: yaml.MappingNode, cell: str) -> tuple[int, int, str]:
    """The edit that adds ``hex: cell`` as the last field of a block mapping:
    a line of its own after the line the last field ends on."""
    indent = fields.value[0][0].start_mark.column
    last: yaml.Node = fields.value[-1][1]
    while isinstance(last, yaml.CollectionNode) and not last.flow_style and last.value:
        item = last.value[-1]
        last = item[1] if isinstance(item, tuple) else item
    end = text.find("\n", last.end_mark.index)
    if end == -1:
        return len(text), len(text), f"\n{' ' * indent}hex: {cell}\n"
    end -= text[end - 1] == "\r"
    newline = text[end : text.index("\n", end) + 1]
    return end, end, f"{newline}{' ' * indent}hex: {cell}"


def _same_but_cells(old: str, new: str, cells: dict[str, Cell]) -> bool:
    before = yaml.safe_load(old)
    for state, (q, r) in cells.items():
        before["states"][state]["hex"] = [q, r]
    after = yaml.safe_load(new)
    return bool(before == after) and [list(s) for s in before["states"].values()] == [
        list(s) for s in after["states"].values()
    ]


def _rewritten(text: str, cells: dict[str, Cell]) -> str:
    document = yaml.safe_load(text)
    lines = []
    for key, value in document.items():
        if key != "states":
            lines.append(
                yaml.safe_dump({key: value}, default_flow_style=True, width=1 << 20).strip()[1:-1]
            )
            continue
        lines.append("states:")
        for state, fields in value.items():
            fields = dict(fields)
            fields["hex"] = list(cells[state])
            entry = yaml.safe_dump(
                {state: fields}, default_flow_style=True, sort_keys=False, width=1 << 20
            )
            lines.append("  " + entry.strip()[1:-1])
    return "\n".join(lines) + "\n"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")
