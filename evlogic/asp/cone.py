"""What a search's programs read about the players: their cone of influence.

A property (or a diff) whose programs read only player 0's figures does not
need the other players' regions, only which states they hold and which are
their homes; rules/search/generate_player0.lp then merges their other
states into one homeless seat (see its header, and docs/verification.md,
"Why the reductions are sound").  :func:`reads_player0_only` decides it from
the programs' text, conservatively: any doubt means the full search.

A program qualifies when, in every statement,

* no atom of a predicate that compares players (``winner/2``,
  ``outscored/2``) occurs at all;
* every atom of a player's figures (``net_bonus/3``, ``points/4``,
  ``change/5``, ``region/3``, ...) names player 0 by the constant ``0``;
* a position's own atoms (``home/3``, ``owned/3``, ``player/2``) name
  player 0 by ``0``, or anyone by ``_``, or pass a player variable through:
  one occurrence in the body, outside aggregates and conditions, compared
  with nothing but the constant 0 (``P != 0``), copied only into the player
  argument of position atoms in the head (``owned(1, P, S) :- owned(0, P, S),
  P != 0.``).  Such a rule sees of each state only "player 0's, someone
  else's, or no one's", which the merge keeps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import clingo
import clingo.ast

from evlogic.asp.predicates import (
    BETWEEN,
    BOARD,
    EVLOGIC_PREDICATES,
    FIGURE,
    GIVEN,
    HOLDINGS,
    POSITION,
    PREDICATES,
    PROPERTY,
    SEARCH_FACT,
    WHOLE,
    seat_arguments,
)
from evlogic.asp.program import UserProgram

ASTType = clingo.ast.ASTType

#: A player's own figures, and the argument that names the player.
FIGURES = seat_arguments(FIGURE)

#: What a position is made of, and the argument that names the player.
POSITION_SEATS = seat_arguments(POSITION)

#: The roles (evlogic/asp/predicates.py) a reduced search's programs may
#: read: a player's figures (player 0's only), a position, and what the
#: merge of the other players keeps: the board, the rule set, the facts of
#: a whole position (how many states are won, which states are homes),
#: what a program derives for the search, and facts no rule derives.  Not
#: what compares players, nor the search's own or any other step of the
#: rules: a whitelist, so a predicate added to the rules later (with a role
#: in the table) is refused until someone decides its role is safe.
KEPT = frozenset({BOARD, POSITION, FIGURE, WHOLE, PROPERTY, SEARCH_FACT, GIVEN})

#: Of the facts of a whole position, what moving a far home or dropping a
#: far state changes: never read by a program that gets rules/search/near_only.lp.
WHOLE_POSITION = frozenset(name for name, entry in PREDICATES.items() if entry.far)

#: AST nodes whose elements are conditions or aggregates.
NESTED = {
    ASTType.Aggregate,
    ASTType.BodyAggregate,
    ASTType.HeadAggregate,
    ASTType.Disjunction,
    ASTType.ConditionalLiteral,
    ASTType.TheoryAtom,
}


def reads_player0_only(program: UserProgram) -> bool:
    """Whether every statement of ``program`` qualifies (see the module's
    docstring)."""
    return all(_qualifies(statement) for statement in program.statements)


def sees_near_states_only(program: UserProgram) -> bool:
    """Whether ``program`` reads only player 0's figures
    (:func:`reads_player0_only`) and, besides, read the other players'
    holdings only to copy them into another position: no statement but a
    copy rule (``owned(1, P, S) :- owned(0, P, S).``, one body literal of
    the same predicate, the same arguments but the position) has a
    ``home/3`` or ``owned/3`` atom whose player is not the constant 0.

    And: every rule that derives a ``home/3`` or ``owned/3`` atom is such a
    copy (so every position the programs make is position 0, or part of
    it, with player 0 at the same home), and nothing of WHOLE_POSITION
    (states won, the end of the game, every home's triangles) is read.

    Then nothing the programs see tells which far states (not next to
    player 0's home) other players hold: player 0's figures read another
    player's states only for the siege, next to the home (rules/scoring/siege.lp),
    so rules/search/near_only.lp may place the far homes of the other
    players on the lowest free far states and leave seat N no far state
    (see its header)."""
    if not reads_player0_only(program):
        return False
    return all(
        _copies_or_reads_player0(statement) and not _reads(statement, WHOLE_POSITION)
        for statement in program.statements
    )


def _reads(statement: clingo.ast.AST, predicates: frozenset[tuple[str, int]]) -> bool:
    """Whether ``statement`` has an atom of one of ``predicates``."""
    for node, _in_head, _nested in _walk(statement, in_head=False, nested=False):
        if (
            node.ast_type == ASTType.SymbolicAtom
            and node.symbol.ast_type == ASTType.Function
            and (node.symbol.name, len(node.symbol.arguments)) in predicates
        ):
            return True
    return False


def _copies_or_reads_player0(statement: clingo.ast.AST) -> bool:
    """No holdings atom of a player other than the constant 0 and none in a
    rule's head, unless the statement is a copy rule."""
    if statement.ast_type == ASTType.ShowTerm:
        return True  # what is printed, not what is searched
    others = False
    for node, in_head, _nested in _walk(statement, in_head=False, nested=False):
        if node.ast_type != ASTType.SymbolicAtom or node.symbol.ast_type != ASTType.Function:
            continue
        symbol = node.symbol
        if (symbol.name, len(symbol.arguments)) in HOLDINGS and (
            in_head or not _is_zero(symbol.arguments[1])
        ):
            others = True
    return not others or _is_copy(statement)


def _is_copy(statement: clingo.ast.AST) -> bool:
    """``p(G, X, Y) :- p(H, X, Y).``: a head atom and one positive body atom
    of the same predicate with the same arguments but the first."""
    if statement.ast_type != ASTType.Rule or len(statement.body) != 1:
        return False
    head, (body,) = statement.head, statement.body
    atoms = []
    for literal in (head, body):
        if (
            literal.ast_type != ASTType.Literal
            or literal.sign != clingo.ast.Sign.NoSign
            or literal.atom.ast_type != ASTType.SymbolicAtom
            or literal.atom.symbol.ast_type != ASTType.Function
        ):
            return False
        atoms.append(literal.atom.symbol)
    copy, original = atoms
    return (
        copy.name == original.name
        and len(copy.arguments) == len(original.arguments)
        and [str(a) for a in copy.arguments[1:]] == [str(a) for a in original.arguments[1:]]
    )


def _qualifies(statement: clingo.ast.AST) -> bool:
    if statement.ast_type in (
        ASTType.ShowSignature,
        ASTType.ShowTerm,
        ASTType.Defined,
        ASTType.Comment,
        ASTType.Program,
        ASTType.Definition,
    ):
        return True
    uses: dict[str, list[str]] = {}  # player variable -> where it names a player
    zero: dict[str, int] = {}  # variable -> comparisons with the constant 0
    for node, in_head, nested in _walk(statement, in_head=False, nested=False):
        if node.ast_type == ASTType.Comparison:
            variable = _compared_with_zero(node)
            if variable is not None:
                zero[variable] = zero.get(variable, 0) + 1
            continue
        if node.ast_type != ASTType.SymbolicAtom or node.symbol.ast_type != ASTType.Function:
            continue
        signature = (node.symbol.name, len(node.symbol.arguments))
        entry = PREDICATES.get(signature)  # (None: a predicate of the program's own)
        if entry is not None and entry.role not in KEPT:
            return False  # what compares players, or a step this reduction was not made for
        if signature in FIGURES:
            if not _is_zero(node.symbol.arguments[FIGURES[signature]]):
                return False
        elif signature in POSITION_SEATS:
            argument = node.symbol.arguments[POSITION_SEATS[signature]]
            if argument.ast_type == ASTType.Variable and argument.name != "_":
                use = "head" if in_head else ("nested" if nested else "body")
                uses.setdefault(argument.name, []).append(use)
            elif not (_is_zero(argument) or _is_anonymous(argument)):
                return False
    for variable, found in uses.items():
        if found.count("body") != 1 or "nested" in found:
            return False
        if _occurrences(statement, variable) != len(found) + zero.get(variable, 0):
            return False  # used somewhere else too: more than "player 0 or not"
    return True


def _walk(
    node: clingo.ast.AST, in_head: bool, nested: bool
) -> Iterator[tuple[clingo.ast.AST, bool, bool]]:
    """Every node below ``node``, with whether it is in the rule's head and
    inside an aggregate or condition.  A comparison's terms are not entered."""
    yield node, in_head, nested
    if node.ast_type == ASTType.Comparison:
        return
    nested = nested or node.ast_type in NESTED
    for key in node.child_keys:
        value = getattr(node, key)
        head = in_head or (node.ast_type == ASTType.Rule and key == "head")
        for child in value if isinstance(value, Sequence) else [value]:
            if isinstance(child, clingo.ast.AST):
                yield from _walk(child, head, nested)


def _occurrences(node: clingo.ast.AST, name: str) -> int:
    """How often variable ``name`` occurs below ``node``."""
    if node.ast_type == ASTType.Variable:
        return int(node.name == name)
    count = 0
    for key in node.child_keys:
        value = getattr(node, key)
        for child in value if isinstance(value, Sequence) else [value]:
            if isinstance(child, clingo.ast.AST):
                count += _occurrences(child, name)
    return count


def _compared_with_zero(comparison: clingo.ast.AST) -> str | None:
    """V in ``V op 0`` or ``0 op V`` (one guard), else None."""
    if len(comparison.guards) != 1:
        return None
    left, right = comparison.term, comparison.guards[0].term
    for variable, other in ((left, right), (right, left)):
        if variable.ast_type == ASTType.Variable and _is_zero(other):
            name: str = variable.name
            return name
    return None


def _is_zero(term: clingo.ast.AST) -> bool:
    return term.ast_type == ASTType.SymbolicTerm and term.symbol == clingo.Number(0)


def _is_anonymous(term: clingo.ast.AST) -> bool:
    return term.ast_type == ASTType.Variable and term.name == "_"


# --- seats 1.. alike ---------------------------------------------------------------------

#: Every argument of evlogic's predicates that names a player (a seat).
SEAT_ARGUMENTS = seat_arguments(FIGURE, POSITION, BETWEEN)


def treats_other_seats_alike(program: UserProgram) -> bool:
    """Whether ``program`` cannot tell seats 1, 2, ... apart, so that
    rules/search/generate.lp may search their homes in increasing order only (every
    position is then the image of a searched one under a renaming of those
    seats, with the same figures and the same ``violation``).  Decided from
    the text, conservatively: every seat argument (of evlogic's predicates,
    and of the programs' own ones a seat's variable is passed to) is ``0``,
    ``_`` or a variable, and a seat's variable occurs elsewhere only in
    ``=`` and ``!=`` against 0 or another seat's variable.  No ``home(0, 2,
    S)``, no ``winner(0, 1)``, no ``P < Q``, no ``ev(P, 4)``."""
    rules = list(program.rules())
    seats = {signature: {index} for signature, index in SEAT_ARGUMENTS.items()}
    changed = True
    while changed:  # the own predicates' arguments a seat's variable is passed to
        changed = False
        for rule in rules:
            players = _seat_variables(rule, seats)
            for symbol in _symbols(rule):
                signature = (symbol.name, len(symbol.arguments))
                if signature in EVLOGIC_PREDICATES:
                    continue
                for index, argument in enumerate(symbol.arguments):
                    if (
                        argument.ast_type == ASTType.Variable
                        and argument.name in players
                        and index not in seats.setdefault(signature, set())
                    ):
                        seats[signature].add(index)
                        changed = True
    return all(_seats_alike(rule, seats) for rule in rules)


def _symbols(node: clingo.ast.AST) -> list[clingo.ast.AST]:
    """The function terms of the atoms below ``node``."""
    return [
        found.symbol
        for found, _in_head, _nested in _walk_all(node)
        if found.ast_type == ASTType.SymbolicAtom and found.symbol.ast_type == ASTType.Function
    ]


def _walk_all(node: clingo.ast.AST) -> Iterator[tuple[clingo.ast.AST, bool, bool]]:
    """Every node below ``node``, comparisons' terms included."""
    yield node, False, False
    for key in node.child_keys:
        value = getattr(node, key)
        for child in value if isinstance(value, Sequence) else [value]:
            if isinstance(child, clingo.ast.AST):
                yield from _walk_all(child)


def _seat_variables(rule: clingo.ast.AST, seats: dict[tuple[str, int], set[int]]) -> set[str]:
    return {
        argument.name
        for symbol in _symbols(rule)
        for index, argument in enumerate(symbol.arguments)
        if index in seats.get((symbol.name, len(symbol.arguments)), ())
        and argument.ast_type == ASTType.Variable
        and argument.name != "_"
    }


def _seats_alike(rule: clingo.ast.AST, seats: dict[tuple[str, int], set[int]]) -> bool:
    players = _seat_variables(rule, seats)
    placed = 0  # occurrences of seats' variables where seats are named or compared alike
    for symbol in _symbols(rule):
        for index in seats.get((symbol.name, len(symbol.arguments)), ()):
            argument = symbol.arguments[index]
            if argument.ast_type == ASTType.Variable:
                placed += argument.name in players
            elif not _is_zero(argument):
                return False
    operators = clingo.ast.ComparisonOperator
    for node, _in_head, _nested in _walk_all(rule):
        if node.ast_type != ASTType.Comparison or len(node.guards) != 1:
            continue
        guard = node.guards[0]
        sides = [node.term, guard.term]
        seated = [s.ast_type == ASTType.Variable and s.name in players for s in sides]
        if (
            any(seated)
            and guard.comparison in (operators.Equal, operators.NotEqual)
            and all(seat or _is_zero(side) for seat, side in zip(seated, sides, strict=True))
        ):
            placed += sum(seated)
    return placed == sum(_occurrences(rule, name) for name in players)
