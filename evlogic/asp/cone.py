"""What a search's programs read about the players: their cone of influence.

A property (or a diff) whose programs read only player 0's figures does not
need the other players' regions, only which states they hold and which are
their homes; rules/search/generate_player0.lp then merges their other
states into one homeless seat (see its header, and the README's check
section for why that is sound).  :func:`reads_player0_only` decides it from
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
from pathlib import Path

import clingo
import clingo.ast

ASTType = clingo.ast.ASTType

#: Predicates whose atoms compare players: never in a reduced search.
BETWEEN_PLAYERS = {("winner", 2), ("outscored", 2)}

#: A player's own figures, and the argument that names the player.
FIGURES = {
    ("face_value", 4): 1,
    ("multiplied", 3): 1,
    ("core_candidate", 3): 1,
    ("grown", 4): 1,
    ("region_reaches", 3): 1,
    ("region_tier", 3): 1,
    ("region_bonus", 3): 1,
    ("net_bonus", 3): 1,
    ("siege", 3): 1,
    ("besieged", 2): 1,
    ("siege_penalty", 3): 1,
    ("points", 4): 1,
    ("scores", 3): 1,
    ("change", 5): 2,
    ("total", 3): 1,
    ("face_ev", 3): 1,
    ("core", 3): 1,
    ("beaten", 3): 1,
    ("counted", 3): 1,
    ("seed", 3): 1,
    ("region", 3): 1,
    ("region_size", 3): 1,
    ("reached", 4): 1,
    ("joined", 4): 1,
}

#: What a position is made of, and the argument that names the player.
POSITION = {("home", 3): 1, ("owned", 3): 1, ("player", 2): 1}

#: AST nodes whose elements are conditions or aggregates.
NESTED = {
    ASTType.Aggregate,
    ASTType.BodyAggregate,
    ASTType.HeadAggregate,
    ASTType.Disjunction,
    ASTType.ConditionalLiteral,
    ASTType.TheoryAtom,
}


def reads_player0_only(programs: Sequence[Path]) -> bool:
    """Whether every statement of ``programs`` qualifies (see the module's
    docstring).  Parse errors are left to the grounding (False here)."""
    statements = _parsed(programs)
    return statements is not None and all(_qualifies(statement) for statement in statements)


def sees_near_states_only(programs: Sequence[Path]) -> bool:
    """Whether ``programs`` read only player 0's figures
    (:func:`reads_player0_only`) and, besides, read the other players'
    holdings only to copy them into another position: no statement but a
    copy rule (``owned(1, P, S) :- owned(0, P, S).``, one body literal of
    the same predicate, the same arguments but the position) has a
    ``home/3`` or ``owned/3`` atom whose player is not the constant 0.

    Then nothing the programs see tells which far states (not next to
    player 0's home) other players hold: the scoring rules read another
    player's states only for the siege, next to the home (rules/siege.lp),
    so rules/search/near_only.lp may place the far homes of the other
    players on the lowest free far states and leave seat N no far state
    (see its header)."""
    statements = _parsed(programs)
    if statements is None or not all(_qualifies(statement) for statement in statements):
        return False
    return all(_copies_or_reads_player0(statement) for statement in statements)


def _parsed(programs: Sequence[Path]) -> list[clingo.ast.AST] | None:
    """The statements of ``programs`` (None: a parse error, left to the grounding)."""
    statements: list[clingo.ast.AST] = []
    try:
        clingo.ast.parse_files([str(path) for path in programs], statements.append, logger=_quiet)
    except RuntimeError:
        return None
    return statements


#: Position atoms that tell which states a player holds.
HOLDINGS = {("home", 3), ("owned", 3)}


def _copies_or_reads_player0(statement: clingo.ast.AST) -> bool:
    """No holdings atom of a player other than the constant 0, unless the
    statement is a copy rule."""
    others = False
    for node, _in_head, _nested in _walk(statement, in_head=False, nested=False):
        if node.ast_type != ASTType.SymbolicAtom or node.symbol.ast_type != ASTType.Function:
            continue
        symbol = node.symbol
        if (symbol.name, len(symbol.arguments)) in HOLDINGS and not _is_zero(symbol.arguments[1]):
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


def _quiet(_code: clingo.MessageCode, _message: str) -> None:
    pass


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
        if signature in BETWEEN_PLAYERS:
            return False
        if signature in FIGURES:
            if not _is_zero(node.symbol.arguments[FIGURES[signature]]):
                return False
        elif signature in POSITION:
            argument = node.symbol.arguments[POSITION[signature]]
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
            return variable.name
    return None


def _is_zero(term: clingo.ast.AST) -> bool:
    return term.ast_type == ASTType.SymbolicTerm and term.symbol == clingo.Number(0)


def _is_anonymous(term: clingo.ast.AST) -> bool:
    return term.ast_type == ASTType.Variable and term.name == "_"
