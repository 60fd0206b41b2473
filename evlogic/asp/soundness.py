"""What a search cannot prove soundly over that no single statement shows:
a loop through negation or an aggregate that a user's rule takes part in.

Every statement of a user's program lies in the fragment
(evlogic/asp/fragment.py); a program of such statements may still loop
through ``not`` or an aggregate, alone or through evlogic's own rules
(``p :- body, not p.`` is a constraint; ``a :- not b. b :- not a.`` scores
a position two ways; ``face_value(G, P, x, V) :- total(G, P, T), ...``
reads the sum it adds to).  The programs must be stratified there, which
this module checks over the user's rules read beside the search's own,
before any grounding.  Aggregates and conditions count as negation (whether
one is monotone is not worked out): a user's rule may read them, just not
in a loop.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import clingo
import clingo.ast

from evlogic.asp.predicates import BOARD_FACTS, SEARCH_FACT, having
from evlogic.asp.program import UserProgram
from evlogic.asp.solver import rule_statements
from evlogic.errors import InputError
from evlogic.resources import display_path

Predicate = tuple[str, int]

#: An atom pattern: its predicate, and its first argument when that is a
#: number (the position, for most predicates; None: any).  Loops are sought
#: among patterns, not predicates: own-monotone derives owned(1, ...) from
#: what it chooses by reading owned(0, ...), which is no loop.  A rule whose
#: head's first argument is a variable (evlogic's rules: ``region(G, P, S)
#: :- ... owned(G, P, S)``) stands for one copy a position, the variable
#: replaced wherever it is a first argument: region(0, ...) reads
#: owned(0, ...), not owned(1, ...).
Pattern = tuple[str, int, int | None]

#: An atom as written: its first argument a number, a variable's name, or
#: None (anything else).
_Atom = tuple[str, int, int | str | None]

#: A pattern as derived (True) or as read (False), in the loop search.
_Node = tuple[bool, Pattern]


@dataclass(frozen=True)
class _Rule:
    """A rule of the base part: what its head derives and what its body reads
    (``negative``: under negation, in an aggregate or in a condition)."""

    heads: frozenset[Pattern]  # empty: a constraint
    positive: frozenset[Pattern]
    negative: frozenset[Pattern]
    user: bool
    source: str
    line: int
    text: str  # the rule as written, on one line


@dataclass(frozen=True)
class _Written:
    """A rule as written, its atoms' first arguments not yet replaced."""

    heads: frozenset[_Atom]
    positive: frozenset[_Atom]
    negative: frozenset[_Atom]
    user: bool
    source: str
    line: int
    text: str

    def instances(self, positions: frozenset[int]) -> list[_Rule]:
        """One copy a position for each variable that is a head's first
        argument (up to two such variables; more: any position)."""
        bound = sorted({a[2] for a in self.heads if isinstance(a[2], str)})
        choices: list[dict[str, int]] = [{}]
        if 0 < len(bound) <= 2 and positions:
            for variable in bound:
                choices = [{**c, variable: k} for c in choices for k in sorted(positions)]
        return [
            _Rule(
                _patterns(self.heads, choice),
                _patterns(self.positive, choice),
                _patterns(self.negative, choice),
                self.user,
                self.source,
                self.line,
                self.text,
            )
            for choice in choices
        ]


def _patterns(atoms: frozenset[_Atom], choice: dict[str, int]) -> frozenset[Pattern]:
    return frozenset(
        (name, arity, first if isinstance(first, int) else choice.get(first))  # type: ignore[arg-type]
        for name, arity, first in atoms
    )


def refuse_unsound(rules: Sequence[Path], program: UserProgram) -> None:
    """Raise an InputError naming the file and line of the first user rule
    (one in a file outside evlogic's rules/) a search cannot prove soundly
    over; ``rules`` are evlogic's rule files the search loads beside
    ``program``."""
    if not program.users:
        return
    written = _read(rules, program)
    positions = frozenset(
        atom[2]
        for rule in written
        for atom in rule.heads | rule.positive | rule.negative
        if isinstance(atom[2], int)
    )
    _unstratified(
        [instance for rule in _live(written) for instance in rule.instances(positions)],
        "a loop like that can rule positions out or score one position two ways, and check "
        "and diff need programs without one",
    )


def refuse_unstratified(program: UserProgram, why: str) -> None:
    """Raise an InputError naming the file, line and text of a rule of
    ``program`` in a loop through negation or an aggregate (``why``: what
    such a loop would do), the whole program read as it stands: what it
    reads and does not derive is given as facts, and no rule beside it
    reads what it derives (an agent's, renamed apart from the engine's,
    evlogic/simulation/agents.py).  Every rule counts, whatever it reads."""
    written: list[_Written] = []
    for node in program.statements:  # (a bundled agent's too)
        if node.ast_type == clingo.ast.ASTType.Rule:
            written.append(_rule(node, True))
    _unstratified(
        [instance for rule in written for instance in rule.instances(frozenset())], why, True
    )


#: What a search's facts and externals give, beyond the board's (BOARD_FACTS).
SEARCH_FACTS: frozenset[Predicate] = having(SEARCH_FACT)


def _live(rules: list[_Written]) -> list[_Written]:
    """The rules that can apply: those whose positive body reads only what
    facts or other live rules can derive.  (diff's rules copy one
    position's closures into another, evlogic_copies_closures/2, under
    evlogic_same_position/2, which a check never derives: left in, every
    position would read every other's.)"""
    live = list(rules)
    while True:
        derivable = BOARD_FACTS | SEARCH_FACTS | {a[:2] for rule in live for a in rule.heads}
        kept = [rule for rule in live if all(a[:2] in derivable for a in rule.positive)]
        if len(kept) == len(live):
            return live
        live = kept


def _read(rules: Sequence[Path], program: UserProgram) -> list[_Written]:
    """The rules of the base part of evlogic's files and of ``program``,
    each marked as the user's when it comes from a file the user wrote (or
    one it includes), in the order clingo reads them all given together:
    evlogic's, the last file first, then the user's.

    evlogic's own rule files come from the trees grounding parses once a
    thread (solver.rule_statements): this runs on the search's own thread,
    which grounds from the same trees, never beside it."""
    own = [*((path, rule_statements(path)) for path in rules), *program.own]
    rules_read: list[_Written] = []
    for statements, users in (
        (
            [node for _path, nodes in reversed(own) for node in nodes],
            False,
        ),
        (program.written, True),
    ):
        in_base = True  # whether statements belong to the base part
        for node in statements:
            if node.ast_type == clingo.ast.ASTType.Program:
                in_base = node.name == "base" and not node.parameters
            elif node.ast_type == clingo.ast.ASTType.Rule and in_base:
                rules_read.append(_rule(node, users))
    return rules_read


def _rule(node: clingo.ast.AST, user: bool) -> _Written:
    types = clingo.ast.ASTType
    positive: set[_Atom] = set()
    negative: set[_Atom] = set()
    head = node.head
    derived: list[clingo.ast.AST] = []  # the head's literals (not their conditions)
    if head.ast_type == types.Literal:
        derived.append(head)
    elif head.ast_type in (types.Aggregate, types.Disjunction):
        for element in head.elements:  # ConditionalLiteral: literal : condition
            derived.append(element.literal)
            negative |= _atoms(*element.condition)
    elif head.ast_type == types.HeadAggregate:
        for element in head.elements:
            derived.append(element.condition.literal)
            negative |= _atoms(*element.condition.condition)
    else:  # a theory atom: whatever it names is read, not derived
        negative |= _atoms(head)
    for literal in node.body:
        plain = (
            literal.ast_type == types.Literal
            and literal.atom.ast_type == types.SymbolicAtom
            and literal.sign == clingo.ast.Sign.NoSign
        )
        (positive if plain else negative).update(_atoms(literal))
    where = node.location.begin
    return _Written(
        frozenset(_atoms(*derived)),
        frozenset(positive),
        frozenset(negative),
        user,
        display_path(Path(where.filename)),
        where.line,
        " ".join(str(node).split()),
    )


def _atoms(*nodes: clingo.ast.AST) -> set[_Atom]:
    """The atoms in ``nodes`` (a pool's each), as written."""
    found: set[_Atom] = set()
    types = clingo.ast.ASTType

    class Atoms(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, node: clingo.ast.AST) -> clingo.ast.AST:
            terms = [node.symbol]
            while terms:
                term = terms.pop()
                if term.ast_type == types.Pool:  # p(1;2), p(1);p(2)
                    terms.extend(term.arguments)
                elif term.ast_type == types.UnaryOperation:  # -p(1): outside the fragment
                    terms.append(term.argument)
                elif term.ast_type == types.Function:
                    for arguments in _pooled(term.arguments):
                        found.add((term.name, len(arguments), _first(arguments)))
            return node

    for node in nodes:
        Atoms()(node)
    return found


def _pooled(arguments: Sequence[clingo.ast.AST]) -> list[Sequence[clingo.ast.AST]]:
    """The argument lists of ``f(a;b, c)``: a pool in the first argument
    gives one list each (the first argument is what patterns keep)."""
    if arguments and arguments[0].ast_type == clingo.ast.ASTType.Pool:
        return [[first, *arguments[1:]] for first in arguments[0].arguments]
    return [arguments]


def _first(arguments: Sequence[clingo.ast.AST]) -> int | str | None:
    if not arguments:
        return None
    first = arguments[0]
    if first.ast_type == clingo.ast.ASTType.Variable:
        name: str = first.name
        return name
    if first.ast_type == clingo.ast.ASTType.SymbolicTerm and (
        first.symbol.type == clingo.SymbolType.Number
    ):
        number: int = first.symbol.number
        return number
    return None


def _predicate(pattern: Pattern) -> Predicate:
    return pattern[0], pattern[1]


def _order(pattern: Pattern) -> tuple[str, int, int]:
    """A sort key (None, any position, first)."""
    return pattern[0], pattern[1], -1 if pattern[2] is None else pattern[2]


def _name(pattern: Pattern | Predicate) -> str:
    return f"{pattern[0]}/{pattern[1]}"


def _matches(read: Pattern, derived: Pattern) -> bool:
    """Whether atoms of pattern ``derived`` can be atoms of ``read``."""
    return (read[:2] == derived[:2] and None in (read[2], derived[2])) or read == derived


def _unstratified(rules: list[_Rule], why: str, quoted: bool = False) -> None:
    """No loop through negation or an aggregate that a user's rule is in;
    ``why``: what the refusal says such a loop would do; ``quoted``: the
    refusal quotes the rule."""
    # Two nodes a pattern: as derived (a head) and as read (a body); a head
    # leads to what its rule reads, a read pattern to the heads that can
    # derive its atoms.
    derived: dict[Predicate, set[Pattern]] = defaultdict(set)
    edges: dict[_Node, set[_Node]] = defaultdict(set)
    for rule in rules:
        for head in rule.heads:
            derived[_predicate(head)].add(head)
            edges[(True, head)] |= {(False, p) for p in rule.positive | rule.negative}
    for read in {p for rule in rules for p in rule.positive | rule.negative}:
        edges[(False, read)] |= {(True, p) for p in derived[_predicate(read)] if _matches(read, p)}
    component = _components(edges)

    def inside(rule: _Rule, head: Pattern) -> list[Pattern]:
        """What the rule reads under negation from the head's own loop."""
        loop = component[(True, head)]
        return sorted((p for p in rule.negative if component[(False, p)] == loop), key=_order)

    looped: dict[int, tuple[Pattern, Pattern]] = {}  # a loop -> a negative step in it
    for rule in rules:
        for head in sorted(rule.heads, key=_order):
            found = inside(rule, head)
            if found and component[(True, head)] not in looped:
                looped[component[(True, head)]] = (head, found[0])
    # the user's rule to name: one that takes the negative step, else one in the loop
    for takes_step in (True, False):
        for rule in rules:
            for head in sorted(rule.heads, key=_order) if rule.user else ():
                step = looped.get(component[(True, head)])
                if step is not None and (bool(inside(rule, head)) or not takes_step):
                    shown = rule.text if len(rule.text) <= 60 else rule.text[:57] + "..."
                    raise InputError(
                        rule.source,
                        (f"{shown!r}: " if quoted else "")
                        + f"{_name(head)} depends on itself through negation or an aggregate "
                        f"({_name(step[0])} on {_name(step[1])}): {why}",
                        line=rule.line,
                    )


def _components(edges: dict[_Node, set[_Node]]) -> dict[_Node, int]:
    """Strongly connected components (Tarjan's algorithm, iterative): each
    node's component number."""

    def order(node: _Node) -> tuple[bool, tuple[str, int, int]]:
        return node[0], _order(node[1])

    nodes = set(edges) | {node for targets in edges.values() for node in targets}
    index: dict[_Node, int] = {}
    low: dict[_Node, int] = {}
    component: dict[_Node, int] = {}
    stack: list[_Node] = []
    on_stack: set[_Node] = set()
    counter = 0
    for root in sorted(nodes, key=order):
        if root in index:
            continue
        work: list[tuple[_Node, Iterator[_Node]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(sorted(edges.get(root, ()), key=order))))
        while work:
            node, targets = work[-1]
            advanced = False
            for target in targets:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(edges.get(target, ()), key=order))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = index[node]
                    if member == node:
                        break
    return component
