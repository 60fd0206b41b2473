""" "For every such X" in a property: ``1 { p(X) : condition } 1.``

A property may build a second position from position 0 by choosing one
thing (own-monotone: one more state for player 0).  The search reads the
choice as a quantifier: the property fails when it fails for some choice.
Written as is, the choice would also rule out every position where the
condition holds of nothing (exactly one of none is impossible), and with
it any counterexample there.  So evlogic grounds it as "at most one, and
exactly one when the condition holds of something":

    { p(X) : condition } 1.
    evlogic_for_every_domain(I) :- condition.
    evlogic_for_every_made(I) :- p(X).
    :- evlogic_for_every_domain(I), not evlogic_for_every_made(I).

built from the user's own syntax trees (never from text).  The fragment
(evlogic/asp/fragment.py) makes p a predicate of the property's own that no
other rule derives and keeps the condition free of loops through p, so
every position keeps at least one answer: none is ever ruled out.
"""

from __future__ import annotations

from collections.abc import Iterable

import clingo
import clingo.ast

AST = clingo.ast.AST
T = clingo.ast.ASTType

DOMAIN = "evlogic_for_every_domain"
MADE = "evlogic_for_every_made"


def is_for_every(node: AST) -> bool:
    """Whether ``node`` is ``1 { p(X) : condition } 1.`` (or ``{ ... } =
    1.``): one element of one plain atom, no body."""
    if node.ast_type != T.Rule or node.head.ast_type != T.Aggregate or node.body:
        return False
    head = node.head
    if len(head.elements) != 1 or not _exactly_one(head):
        return False
    literal = head.elements[0].literal
    plain: bool = (  # (clingo types an AST's fields as Any)
        literal.ast_type == T.Literal
        and literal.sign == clingo.ast.Sign.NoSign
        and literal.atom.ast_type == T.SymbolicAtom
        and literal.atom.symbol.ast_type == T.Function
    )
    return plain


def _exactly_one(head: AST) -> bool:
    operators = clingo.ast.ComparisonOperator
    guards = [guard for guard in (head.left_guard, head.right_guard) if guard is not None]
    if not guards or not all(_is_one(guard.term) for guard in guards):
        return False
    if len(guards) == 2:
        return all(guard.comparison == operators.LessEqual for guard in guards)
    equal: bool = guards[0].comparison == operators.Equal
    return equal


def _is_one(term: AST) -> bool:
    return (
        term.ast_type == T.SymbolicTerm
        and term.symbol.type == clingo.SymbolType.Number
        and term.symbol.number == 1
    )


def rewritten(statements: Iterable[AST]) -> list[AST]:
    """The statements as evlogic grounds them: each "for every such X"
    choice as the module's docstring says, everything else as it is."""
    out: list[AST] = []
    count = 0
    for node in statements:
        if not is_for_every(node):
            out.append(node)
            continue
        out.extend(_grounded_as_meant(node, count))
        count += 1
    return out


def _grounded_as_meant(node: AST, index: int) -> list[AST]:
    location = node.location
    element = node.head.elements[0]
    one = clingo.ast.SymbolicTerm(location, clingo.Number(1))
    number = clingo.ast.SymbolicTerm(location, clingo.Number(index))

    def marker(name: str, sign: clingo.ast.Sign = clingo.ast.Sign.NoSign) -> AST:
        function = clingo.ast.Function(location, name, [number], 0)
        return clingo.ast.Literal(location, sign, clingo.ast.SymbolicAtom(function))

    at_most_one = clingo.ast.Aggregate(
        location,
        None,
        [element],
        clingo.ast.Guard(clingo.ast.ComparisonOperator.LessEqual, one),
    )
    false = clingo.ast.Literal(location, clingo.ast.Sign.NoSign, clingo.ast.BooleanConstant(False))
    return [
        clingo.ast.Rule(location, at_most_one, []),
        clingo.ast.Rule(location, marker(DOMAIN), list(element.condition)),
        clingo.ast.Rule(location, marker(MADE), [element.literal]),
        clingo.ast.Rule(location, false, [marker(DOMAIN), marker(MADE, clingo.ast.Sign.Negation)]),
    ]
