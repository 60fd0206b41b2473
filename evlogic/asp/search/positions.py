"""Positions as a search's controls hold them: player 0's home as an
assumption, the bound on owned states, a model's position 0, and a found
position as a game."""

from __future__ import annotations

import clingo

from evlogic.asp.facts import state_ids
from evlogic.loading.boards import Board

#: A counterexample: position 0's ``home(P, S)`` and ``owned(P, S)`` (not
#: homes), as :func:`position` reads them from a model.
Found = list[clingo.Symbol]

#: Atoms assumed true or false for one solve.
Assumptions = list[tuple[clingo.Symbol, bool]]


def at_home(state: int) -> tuple[clingo.Symbol, bool]:
    """The assumption: player 0's home is state number ``state``."""
    return clingo.Function("home", [clingo.Number(0), clingo.Number(0), clingo.Number(state)]), True


def set_bound(control: clingo.Control, bound: int | None) -> None:
    """At most ``bound`` owned states from now on (None: any number)."""
    for atom in control.symbolic_atoms.by_signature("evlogic_limit", 1):
        if atom.is_external:
            control.assign_external(atom.symbol, atom.symbol.arguments[0].number == bound)


def position(model: clingo.Model) -> Found:
    """Position 0 of a model as rules/search/generate.lp shows it, ``home(P, S)``
    and ``owned(P, S)`` (not homes), read from the model's atoms rather than
    from what it shows: a property may #show terms of its own, and a term
    computed from a variable (``#show X : X = owned(0, 4).``) would pass for
    a state of the position found."""
    zero = clingo.Number(0)
    atoms = model.context.symbolic_atoms
    homes = [
        atom.symbol
        for atom in atoms.by_signature("home", 3)
        if atom.symbol.arguments[0] == zero and model.contains(atom.symbol)
    ]
    at_home = {tuple(home.arguments[1:]) for home in homes}
    owned = [
        atom.symbol
        for atom in atoms.by_signature("owned", 3)
        if atom.symbol.arguments[0] == zero
        and tuple(atom.symbol.arguments[1:]) not in at_home
        and model.contains(atom.symbol)
    ]
    return [clingo.Function(atom.name, atom.arguments[1:]) for atom in (*homes, *owned)]


def owned_count(symbols: Found) -> int:
    """How many states a found position's players own, homes included."""
    return sum(symbol.name in ("home", "owned") for symbol in symbols)


def position_game(
    symbols: Found,
    board: Board,
    board_reference: str,
    rules_reference: str,
    players: int,
) -> dict[str, object]:
    """A found position as a game mapping (the game-file schema)."""
    ids = state_ids(board)
    homes: dict[int, str] = {}
    seated: list[int] = []  # homes on seats of their own (rules/search/generate_player0.lp)
    states: dict[int, list[str]] = {p: [] for p in range(players)}
    for symbol in symbols:
        if symbol.name not in ("home", "owned"):
            continue  # a program's own #show
        owner, state = (argument.number for argument in symbol.arguments)
        if symbol.name == "home" and owner < players:
            homes[owner] = ids[state]
        elif symbol.name == "home":
            seated.append(state)
        elif symbol.name == "owned":  # seat N's states (generate_player0.lp) are player 1's
            states[owner if owner < players else 1].append(ids[state])
    for seat, state in enumerate(sorted(seated), start=1):
        homes[seat] = ids[state]
    return {
        "board": board_reference,
        "rules": rules_reference,
        "players": [
            {"name": f"P{p + 1}", "home": homes[p], "states": sorted(states[p])}
            for p in range(players)
        ],
    }
