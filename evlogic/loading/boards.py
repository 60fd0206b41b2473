"""Boards: loading and validating a board file.

A board is a mapping of state ids to their EV, swing flag and neighbours,
plus the game-end count.  Everything here checks shape and consistency;
nothing here knows a scoring rule.
"""

from __future__ import annotations

import os
import weakref
from dataclasses import dataclass
from pathlib import Path

from evlogic.errors import InputError, quote
from evlogic.loading.schema import validate
from evlogic.loading.yamlfile import Field, closest, missing, read_yaml
from evlogic.resources import bundled_boards

#: clingo integers are 32-bit.  Capping the board's EV keeps every sum the
#: rules form (face values times any sane multiplier, plus bonuses) exact.
MAX_BOARD_EV = 10_000_000
DEFAULT_GAME_END = 36

#: The most states and borders a board may have.  Far above any board of the
#: game (usa: 51 states, 108 borders) and the benchmarks' largest (a 5,041-
#: state lattice, 14,840 borders; the complete graph of 200 states, 19,900),
#: far below what a board file of 64 MiB could list: scoring and laying out
#: grow with them, and each costs a command its limits, not the machine.
MAX_STATES = 50_000
MAX_BORDERS = 250_000


@dataclass(frozen=True)
class State:
    """A state of a board: its id (what games name), name, EV, swing flag,
    neighbours and hex tile."""

    id: str
    name: str
    ev: int
    swing: bool
    neighbors: tuple[str, ...]
    hex: tuple[int, int] | None = None  # axial [q, r] tile for diagrams


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: boards are big
class Board:
    """A board, checked: its states by id and its game end (evlogic.load_board
    reads one)."""

    name: str
    game_end: int
    states: dict[str, State]
    source: str
    #: The board file's game_end (None: the default, DEFAULT_GAME_END or
    #: every state): an error about the game end names its file and line.
    game_end_field: Field | None = None

    def suggest(self, state_id: str) -> str:
        """A ``(did you mean ...?)`` hint for an unknown id: the state of that
        name (``Kentucky`` -> ``KY``), else the id closest in spelling, else
        how to list the board's states."""
        by_name = {state.name.casefold(): state.id for state in self.states.values()}
        if state_id.strip().casefold() in by_name:
            found = by_name[state_id.strip().casefold()]
            return f" (did you mean {found!r}? states are named by id)"
        hint = closest(state_id, self.states)
        if not hint:
            names = {state.name: state.id for state in self.states.values()}
            near = closest(state_id, names)
            if near:
                name = near.removeprefix(" (did you mean ").removesuffix("?)")[1:-1]
                hint = f" (did you mean {names[name]!r}, {name}?)"
        return hint or " (evlogic board BOARD lists the states)"


def board_from_field(top: Field, default_name: str) -> Board:
    """Validate a parsed board file: its structure against the board schema
    (evlogic/schemas/board.schema.json), then what one field says of
    another (neighbours that are states, borders on both sides, tiles)."""
    _check_size(top)
    validate(top, "board", "a board mapping")
    fields = top.members()
    name = fields["name"].text() if "name" in fields else default_name
    states_field = fields["states"]
    entries = list(states_field.entries())
    raw: dict[str, dict[str, Field]] = {}
    for key, value in entries:
        state_id = key.text("a state id")
        if state_id in raw:
            raise key.error(f"state {quote(state_id)} is listed twice")
        raw[state_id] = value.members()

    _check_borders(states_field, raw)
    states: dict[str, State] = {}
    listed_at: dict[tuple[str, str], Field] = {}
    tiles: dict[tuple[int, int], str] = {}
    total_ev = 0
    for state_id, state_fields in raw.items():
        ev = state_fields["ev"].integer(1, MAX_BOARD_EV, what="a positive whole number")
        total_ev += ev
        neighbors: list[str] = []
        for item in state_fields["neighbors"].items() if "neighbors" in state_fields else []:
            other = item.text("a state id")
            if other not in raw:
                raise item.error(f"unknown state {quote(other)}{closest(other, raw)}")
            if other == state_id:
                raise item.error(f"{quote(state_id)} cannot neighbour itself")
            neighbors.append(other)
            listed_at[state_id, other] = item
        tile = _hex_cell(state_fields["hex"]) if "hex" in state_fields else None
        if tile is not None:
            if tile in tiles:
                raise state_fields["hex"].error(f"tile {list(tile)} is also {quote(tiles[tile])}'s")
            tiles[tile] = state_id
        states[state_id] = State(
            id=state_id,
            name=state_fields["name"].text() if "name" in state_fields else state_id,
            ev=ev,
            swing=state_fields["swing"].flag() if "swing" in state_fields else False,
            neighbors=tuple(neighbors),
            hex=tile,
        )
    if total_ev > MAX_BOARD_EV:
        raise states_field.error(
            f"EVs add up to {total_ev}, more than the {MAX_BOARD_EV} evlogic scores exactly"
        )

    for (state_id, other), item in listed_at.items():
        if (other, state_id) not in listed_at:
            raise item.error(
                f"{quote(state_id)} lists {quote(other)} as a neighbour, but {quote(other)} "
                f"does not list {quote(state_id)} (borders must be listed on both sides)"
            )

    game_end_field = fields.get("game_end")
    if game_end_field is not None:
        game_end = game_end_field.integer(1, len(states), what="a number of states")
    else:
        game_end = min(DEFAULT_GAME_END, len(states))
    board = Board(
        name=name,
        game_end=game_end,
        states=states,
        source=top.source,
        game_end_field=game_end_field,
    )
    _CHECKED.add(board)
    return board


#: Boards validated already (read from a file, or checked by checked_board).
_CHECKED: weakref.WeakSet[Board] = weakref.WeakSet()


def checked_board(board: object, source: str, path: str = "board") -> Board:
    """``board`` (built in Python, say) validated exactly as a board file is:
    its fields go through :func:`board_from_field`, so an error is the
    same InputError, naming ``source`` (the argument) and the field
    (``board.states.NY.neighbors[0]``).  A board is checked once (boards
    are compared by identity: change none after using it)."""
    if not isinstance(board, Board):
        what = f"must be a Board (evlogic.load_board reads one), not {_kind(board)}"
        raise InputError(source, what, field=path)
    if board in _CHECKED:
        return board
    states: object = board.states  # not a mapping: board_from_field words it
    if isinstance(board.states, dict):
        entries: dict[str, object] = {}
        for key, state in board.states.items():
            where = f"{path}.states.{key}"
            if not isinstance(state, State):
                raise InputError(source, f"must be a State, not {_kind(state)}", field=where)
            if state.id != key:
                raise InputError(
                    source, f"is the State of id {quote(state.id)}, not {quote(key)}", field=where
                )
            entry: dict[str, object] = {"ev": state.ev, "name": state.name, "swing": state.swing}
            entry["neighbors"] = _listed(state.neighbors)
            if state.hex is not None:
                entry["hex"] = _listed(state.hex)
            entries[key] = entry
        states = entries
    mapping = {"name": board.name, "game_end": board.game_end, "states": states}
    board_from_field(Field(source, path, mapping, None, None), default_name="board")
    _CHECKED.add(board)
    return board


def _listed(value: object) -> object:
    """A tuple as the list a file would hold; anything else as it is."""
    return list(value) if isinstance(value, tuple) else value


def _kind(value: object) -> str:
    return "nothing" if value is None else type(value).__name__


def _check_size(top: Field) -> None:
    """At most MAX_STATES states, counted before anything else is checked."""
    states = top.value.get("states") if isinstance(top.value, dict) else None
    if isinstance(states, dict) and len(states) > MAX_STATES:
        where = top.members()["states"]
        raise where.error(f"{len(states):,} states, more than the {MAX_STATES:,} a board may have")


def _check_borders(states_field: Field, raw: dict[str, dict[str, Field]]) -> None:
    """At most MAX_BORDERS borders (each listed on both sides), counted
    before any is read."""
    listed = sum(
        len(fields["neighbors"].value)
        for fields in raw.values()
        if "neighbors" in fields and isinstance(fields["neighbors"].value, list)
    )
    if listed > 2 * MAX_BORDERS:
        raise states_field.error(
            f"{listed // 2:,} borders (neighbours listed on both sides), more than the "
            f"{MAX_BORDERS:,} a board may have"
        )


def _hex_cell(field: Field) -> tuple[int, int]:
    # (the schema checked its shape; integer() reads 010 as no number)
    q, r = (item.integer(-10_000, 10_000) for item in field.items())
    return (q, r)


def load_board(path: str | os.PathLike[str], source: str | None = None) -> Board:
    """Load and validate a board: a bundled board's name (``"usa"``), as
    the command line takes one, or a board file.  Text is a name unless it
    has a '/' or '\\' or ends in .yaml or .yml (as a game's ``board:``); a
    ``Path`` is always a file.  An unknown name is an InputError naming
    ``board`` that lists the bundled boards."""
    if isinstance(path, str) and not looks_like_board_path(path):
        reference = Field("board", "", path, None, None)
        return load_board(resolve_board(reference, Path.cwd()), source or path)
    path = Path(path)
    return board_from_field(read_yaml(path, source), default_name=path.stem)


def looks_like_board_path(text: str) -> bool:
    """Whether a game's ``board:`` value is read as a file path (a '/' or
    '\\', or .yaml/.yml), not as a bundled board's name."""
    return "/" in text or "\\" in text or text.endswith((".yaml", ".yml"))


def resolve_board(reference: Field, relative_to: Path) -> Path:
    """A game's ``board:`` value: a bundled board name, or a path relative to the game."""
    text = reference.text("a board name or path")
    bundled = bundled_boards()
    if not looks_like_board_path(text):
        if text in bundled:
            return bundled[text]
        raise reference.error(
            f"no bundled board {quote(text)}{closest(text, bundled)}; "
            f"bundled boards: {', '.join(bundled)}; a file path needs .yaml or a '/'"
        )
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = relative_to / path
    if not path.is_file():
        raise reference.error(
            f"board file {quote(text)} {missing(path)} (looked for {quote(str(path))})"
        )
    return path
