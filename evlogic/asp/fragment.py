"""The fragment of ASP a user's programs must lie in: an allowlist.

A property (``evlogic check PROPERTY``) and a rule set's ``programs`` are
accepted only when every statement is one of the forms below; anything else
is refused in one line naming the file, the line and the statement.  Why
every program in the fragment is sound for the searches, and why ``score``
and ``check`` then see the same figures, is argued in docs/verification.md;
tests/test_fragment.py checks the argument by brute force.  An agent's
fragment (``Kind.AGENT``, :func:`_agent_statement`) is argued in
docs/play.md, "Writing an agent".

Both kinds of program may hold comments, ``#program base.``, ``#defined``,
``#include`` of files in the program's own folder, and normal rules: a head
of one plain atom; a body of atoms (``not`` allowed), comparisons,
``#count``/``#sum``/``#sum+``/``#min``/``#max`` aggregates and conditional
literals, whose elements are again atoms and comparisons.  Nowhere:
integrity constraints, negated or classically negated heads, disjunctions,
choices (but the one below), ``#const``, ``#external``, other ``#program``
parts, optimisation, heuristics, ``#edge``, projection, theory atoms,
``#script``, ``@``-calls (refused by :func:`evlogic.asp.program.read_program`),
names starting ``evlogic_``.

A property's heads are ``violation``, predicates of its own (no rule file
of evlogic's and no program of the rule set mentions them), the atoms that
build another position from position 0 (``game/1``, ``player/2``,
``home/3``, ``owned/3`` of a position numbered 1 or more, ``compare/2``),
and "for every such state": ``1 { p(X) : condition } 1.``, with no body,
``p`` a predicate of its own that no other rule derives.  The search reads
it as a quantifier, so evlogic grounds it as "exactly one when the
condition holds of some X, else none" (evlogic/asp/quantifier.py): it never rules a
position out.  A property may ``#show`` what it likes but home and owned
terms (the search reads those as the position found).

A rule set's program derives ``face_value/4`` of a source of its own (a
constant no rule of evlogic's uses: ``face_value(G, P, home_bonus, 5)``)
and helpers of its own; its bodies read the board, the rule set, the
position and the figures the scoring rules derive that every search
derives alike (:data:`RULE_SET_READABLE`), never a search's own predicates;
every atom but the board's and the rule set's facts has the rule's position
(the head's first argument, a variable) as its first argument, so each
position is scored on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from pathlib import Path

import clingo
import clingo.ast

from evlogic.asp.predicates import (
    BOARD_FACTS,
    EVLOGIC_CONSTANTS,
    EVLOGIC_PREDICATES,
    FIGURE,
    HOLDINGS,
    POSITION,
    SCORING_MENTIONS,
    having,
    seat_arguments,
)
from evlogic.asp.program import UserProgram
from evlogic.asp.quantifier import is_for_every
from evlogic.errors import InputError
from evlogic.resources import display_path

AST = clingo.ast.AST
T = clingo.ast.ASTType
Predicate = tuple[str, int]


class Kind(Enum):
    """Which fragment a program must lie in."""

    PROPERTY = "a property"
    RULE_SET = "a rule set's program"
    AGENT = "an agent"
    MOVES = "a move program"


#: Where the manual states each fragment and argues it sound.
FRAGMENT_DOCS = {
    Kind.PROPERTY: "docs/verification.md",
    Kind.RULE_SET: "docs/verification.md",
    Kind.AGENT: "docs/play.md#writing-an-agent",
    Kind.MOVES: "docs/play.md#writing-a-move-model",
}


#: What a property may derive of a position numbered 1 or more (built from
#: position 0, which the search chooses).
POSITION_BUILDERS: frozenset[Predicate] = having(POSITION)

#: The scoring rules every search loads alike, or loads whenever a program
#: reads what they derive (evlogic/asp/search/encoding.py): what a rule set's program
#: may read.  Not region_order.lp, overflow.lp or output.lp (score only),
#: not points.lp, compare.lp or generate.lp (the searches only).
RULE_SET_READABLE_FILES = (
    "scoring/position.lp",
    "scoring/face.lp",
    "scoring/cores.lp",
    "scoring/region.lp",
    "scoring/siege.lp",
    "scoring/bonus.lp",
    "scoring/totals.lp",
)

#: What a decision of a played game gives an agent beside the board and
#: the rule set (rules/play/moves.lp, evlogic/simulation/engine.py): an agent's
#: rules read these and derive none of them.
AGENT_INPUTS: frozenset[Predicate] = frozenset(
    {
        ("home", 2),
        ("owned", 2),
        ("mover", 1),
        ("turn", 1),
        ("tie_break", 2),
        ("over", 0),
        ("player", 1),
        ("candidate", 1),
        ("total", 2),
        ("after", 3),
        ("gain", 2),
        ("face_gain", 2),
        ("legal", 1),
    }
)

#: What a move model reads at each turn (rules/play/moves.lp,
#: rules/play/model.lp, evlogic/simulation/engine.py) beside the board: the
#: position, the mover, its own state, the move made, the game's deck and the
#: rule set's model numbers.  Never a figure of the scoring rules.
MOVE_INPUTS: frozenset[Predicate] = frozenset(
    {
        ("mover", 1),
        ("turn", 1),
        ("player", 1),
        ("home", 2),
        ("owned", 2),
        ("unclaimed", 1),
        ("holds", 1),
        ("does", 1),
        ("deck", 2),
        ("setting", 2),
    }
)

#: What a move model derives for the engine: its legal moves, its next
#: state, and what a game's log shows of it.
MOVE_OUTPUTS: frozenset[Predicate] = frozenset(
    {("legal", 1), ("next", 1), ("market", 1), ("points", 2)}
)

#: What a rule set's program may derive of evlogic's predicates.
RULE_SET_HEADS: frozenset[Predicate] = frozenset({("face_value", 4)})

POOL = "a rule with a pool (p(1;2)): write one rule for each atom"

#: Shown names a search reads as the position it found (rules/search/generate.lp).
POSITION_SHOWN = frozenset(name for name, _arity in HOLDINGS)

#: The aggregates the fragment allows.
AGGREGATES = frozenset(
    {
        clingo.ast.AggregateFunction.Count,
        clingo.ast.AggregateFunction.Sum,
        clingo.ast.AggregateFunction.SumPlus,
        clingo.ast.AggregateFunction.Min,
        clingo.ast.AggregateFunction.Max,
    }
)

#: Statement kinds outside the fragment, as a refusal names them.
REFUSED_STATEMENTS = {
    T.Definition: "a #const, which could redefine the searches' own constants",
    T.External: "an #external, which no search switches on",
    T.Minimize: "an optimisation (#minimize, #maximize or a weak constraint)",
    T.Heuristic: "a #heuristic, which would steer the search",
    T.Edge: "an #edge, which rules out the positions whose edges make a cycle",
    T.ProjectAtom: "a #project",
    T.ProjectSignature: "a #project",
    T.TheoryDefinition: "a #theory",
    T.Script: "a #script block",
}


#: Of what those files mention, what a rule set's program may not read, and why.
NOT_READABLE: dict[Predicate, str] = {
    # figures read through them would loop through the totals
    ("winner", 2): "which compares players' totals",
    ("outscored", 2): "which compares players' totals",
    # a game lists its states in the order they were won; a search's
    # positions list nothing, so what tells that order differs between them
    ("listed", 4): "the order a game lists its states in, which a search's positions lack",
    ("won_at", 4): "the order a game lists its states in, which a search's positions lack",
    ("core_rank", 4): "the order a game lists its states in, which a search's positions lack",
    # triangle(Home, Core) holds for the homes of every position grounded
    # beside: a position a property builds would reach position 0's figures
    ("triangle", 2): (
        "whose first argument is a home of any position grounded beside, not a "
        "position (read home_triangle/3)"
    ),
}


def rule_set_readable() -> frozenset[Predicate]:
    """What a rule set's program may read of evlogic's predicates."""
    return (SCORING_MENTIONS - NOT_READABLE.keys()) | BOARD_FACTS


#: The argument of evlogic's predicates that names a player (a seat).
SEATS: dict[Predicate, int] = seat_arguments(FIGURE, POSITION)


# --- the allowlist ---------------------------------------------------------------------


class _Outside(Exception):
    """A statement outside the fragment: why, and which node."""

    def __init__(self, node: AST, why: str) -> None:
        super().__init__(why)
        self.node = node
        self.why = why


def refuse_outside(program: UserProgram, kind: Kind, beside: UserProgram | None = None) -> None:
    """Raise an InputError naming the first statement of ``program`` outside
    the fragment of ``kind`` (``beside``: the rule set's programs, whose
    predicates a property may not derive)."""
    folders = [path.resolve().parent for path in program.paths]
    theirs = EVLOGIC_PREDICATES | (beside.mentions if beside is not None else frozenset())
    chosen = _chosen(program)
    seats = _seats(program) if kind is Kind.RULE_SET else {}
    for node in program.statements:
        try:
            _inside_folders(node, folders)
            if kind is Kind.PROPERTY:
                _property_statement(node, theirs, chosen)
            elif kind is Kind.AGENT:
                _agent_statement(node, theirs | AGENT_INPUTS | BOARD_FACTS)
            elif kind is Kind.MOVES:
                _move_statement(node, theirs | AGENT_INPUTS)
            else:
                _rule_set_statement(node)
                if node.ast_type == T.Rule:
                    _seats_alike(node, seats)
        except _Outside as outside:
            raise _refusal(outside, kind) from None


def _refusal(outside: _Outside, kind: Kind) -> InputError:
    where = outside.node.location.begin
    text = " ".join(str(outside.node).split())
    shown = text if len(text) <= 60 else text[:57] + "..."
    return InputError(
        display_path(Path(where.filename)),
        f"{shown!r} is {outside.why} (what {kind.value} may hold: {FRAGMENT_DOCS[kind]})",
        line=where.line,
    )


def _inside_folders(node: AST, folders: list[Path]) -> None:
    path = Path(node.location.begin.filename).resolve()
    if not any(folder == path.parent or folder in path.parents for folder in folders):
        raise _Outside(node, "from a file #included from outside the program's folder")


def _common_statement(node: AST) -> bool:
    """Whether ``node`` is a statement both fragments take as it is; raise
    _Outside for one neither takes."""
    if node.ast_type in (T.Comment, T.Defined):
        return True
    if node.ast_type == T.Program:
        if node.name != "base" or node.parameters:
            raise _Outside(node, "a #program part other than base, which no search grounds")
        return True
    if node.ast_type in REFUSED_STATEMENTS:
        raise _Outside(node, REFUSED_STATEMENTS[node.ast_type])
    if node.ast_type in (T.ShowSignature, T.ShowTerm, T.Rule):
        return False
    raise _Outside(node, "a statement outside the fragment")


def _property_statement(
    node: AST, theirs: frozenset[Predicate], chosen: dict[Predicate, int]
) -> None:
    if _common_statement(node):
        return
    if node.ast_type == T.ShowSignature:
        if node.name in POSITION_SHOWN:
            raise _Outside(node, "a #show of home or owned, which a search reads as the position")
        return
    if node.ast_type == T.ShowTerm:
        if node.term.ast_type == T.Function and node.term.name in POSITION_SHOWN:
            raise _Outside(node, "a #show of home or owned, which a search reads as the position")
        _body(node, node.body, lambda _atom: None)
        return
    head = node.head
    if head.ast_type == T.Aggregate:
        _for_every(node, theirs, chosen)
        return
    atom = _plain_head(node)
    signature = _signature(atom)
    if signature == ("violation", 0):
        pass
    elif signature in POSITION_BUILDERS:
        if not _numbered(atom, lambda number: number >= 1):
            raise _Outside(
                node,
                f"a rule deriving {_name(signature)} of position 0 or of a position not "
                "written as a number: a property builds positions numbered 1 or more",
            )
    elif signature == ("compare", 2):
        if not all(_is_number(argument) for argument in atom.symbol.arguments):
            raise _Outside(node, "a compare/2 of positions not written as numbers")
    elif signature in theirs:
        raise _Outside(
            node,
            f"a rule deriving {_name(signature)}, which the scoring rules or the rule set "
            "derive or read: a property reads the scores, it does not change them",
        )
    elif signature in chosen:
        raise _Outside(node, f"a second rule deriving {_name(signature)}, which is chosen")
    _reserved(node, signature)
    _body(node, node.body, lambda _atom: None)


def _for_every(node: AST, theirs: frozenset[Predicate], chosen: dict[Predicate, int]) -> None:
    """``1 { p(X) : condition } 1.``: one element, exactly one, no body, p
    a predicate of the property's own that no other choice chooses, the
    condition in the fragment.  (Two choices of one p would each count the
    other's atom: three of them can ask for exactly one atom in each of
    three overlapping sets, which no set of atoms satisfies.)"""
    if not is_for_every(node):
        raise _Outside(
            node,
            "a choice other than '1 { p(X) : condition } 1.' with no body (for every such X)",
        )
    element = node.head.elements[0]
    signature = _signature(element.literal.atom)
    if signature in theirs or signature == ("violation", 0):
        raise _Outside(node, f"a choice of {_name(signature)}, which is not the property's own")
    if chosen.get(signature, 0) > 1:
        raise _Outside(
            node,
            f"a choice of {_name(signature)}, which another choice chooses too: one "
            "'for every such X' a predicate",
        )
    _reserved(node, signature)
    _body(node, element.condition, lambda _atom: None)


def _chosen(program: UserProgram) -> dict[Predicate, int]:
    """Each chosen predicate, and by how many choices."""
    chosen: dict[Predicate, int] = {}
    for node in program.rules():
        if node.head.ast_type != T.Aggregate:
            continue
        for element in node.head.elements:
            literal = element.literal
            if literal.ast_type == T.Literal and literal.atom.ast_type == T.SymbolicAtom:
                signature = _signature(literal.atom)
                chosen[signature] = chosen.get(signature, 0) + 1
    return chosen


def _agent_statement(node: AST, theirs: frozenset[Predicate]) -> None:
    """Normal rules deriving ``choose/1`` and helpers of the agent's own
    (and #show, which the engine does not read): one answer set a decision."""
    if _common_statement(node) or node.ast_type in (T.ShowSignature, T.ShowTerm):
        return
    head = node.head
    if head.ast_type == T.Aggregate:
        raise _Outside(node, "a choice: an agent derives choose(X) by normal rules")
    if head.ast_type == T.Literal and head.atom.ast_type == T.BooleanConstant:
        raise _Outside(node, "an integrity constraint, which could leave a decision no answer")
    signature = _signature(_plain_head(node))
    if signature in theirs and signature != ("choose", 1):
        raise _Outside(
            node, f"a rule deriving {_name(signature)}, which the decision gives the agent"
        )
    _reserved(node, signature)
    _body(node, node.body, lambda _atom: None)


def _move_statement(node: AST, theirs: frozenset[Predicate]) -> None:
    """Normal rules deriving :data:`MOVE_OUTPUTS` and helpers of the
    model's own, reading the board, :data:`MOVE_INPUTS` and what it
    derives: one answer set a turn, and nothing of the scores."""
    if _common_statement(node) or node.ast_type in (T.ShowSignature, T.ShowTerm):
        return
    head = node.head
    if head.ast_type == T.Aggregate:
        raise _Outside(node, "a choice: a move model derives legal(M) by normal rules")
    if head.ast_type == T.Literal and head.atom.ast_type == T.BooleanConstant:
        raise _Outside(node, "an integrity constraint, which could leave a turn no answer")
    signature = _signature(_plain_head(node))
    if signature in theirs | BOARD_FACTS | MOVE_INPUTS and signature not in MOVE_OUTPUTS:
        raise _Outside(
            node, f"a rule deriving {_name(signature)}, which the engine gives the move model"
        )
    _reserved(node, signature)
    readable = MOVE_INPUTS | MOVE_OUTPUTS | BOARD_FACTS

    def read(atom: AST) -> None:
        name = _signature(atom)
        if name in theirs and name not in readable:
            raise _Outside(
                node,
                f"a rule reading {_name(name)}, which a move model does not see: it reads "
                "the position and its own state, never a figure of the scoring rules",
            )

    _body(node, node.body, read)


def _rule_set_statement(node: AST) -> None:
    if _common_statement(node):
        return
    if node.ast_type in (T.ShowSignature, T.ShowTerm):
        raise _Outside(node, "a #show: what score shows is evlogic's")
    if node.head.ast_type == T.Aggregate:
        raise _Outside(node, "a choice, which would make the scores the solver's choice")
    atom = _plain_head(node)
    signature = _signature(atom)
    _reserved(node, signature)
    if signature in EVLOGIC_PREDICATES and signature not in RULE_SET_HEADS:
        raise _Outside(
            node,
            f"a rule deriving {_name(signature)}, which evlogic's rules derive or read "
            "(a rule set's program derives face_value/4 and helpers of its own)",
        )
    arguments = atom.symbol.arguments
    if signature in RULE_SET_HEADS:
        source = arguments[2]
        if not (
            source.ast_type == T.SymbolicTerm
            and source.symbol.type == clingo.SymbolType.Function
            and not source.symbol.arguments
            and source.symbol.name not in EVLOGIC_CONSTANTS
        ):
            raise _Outside(
                node,
                "a face_value/4 whose source is not a name of its own (face_value(G, P, "
                "my_source, V)): a state's or the bonus's source would give it a second figure",
            )
    if not arguments or arguments[0].ast_type != T.Variable or arguments[0].name == "_":
        raise _Outside(
            node, "a rule whose head's first argument is not a variable: the position it scores"
        )
    position = arguments[0].name
    readable = rule_set_readable()

    def atom_read(read: AST) -> None:
        signature = _signature(read)
        if signature in NOT_READABLE:
            raise _Outside(node, f"a rule reading {_name(signature)}, {NOT_READABLE[signature]}")
        if signature in EVLOGIC_PREDICATES and signature not in readable:
            raise _Outside(
                node,
                f"a rule reading {_name(signature)}, which score does not derive as every "
                "search does (a search's own predicate?)",
            )
        if signature in BOARD_FACTS:
            return
        first = read.symbol.arguments[0] if read.symbol.arguments else None
        if first is None or first.ast_type != T.Variable or first.name != position:
            raise _Outside(
                node,
                f"a rule reading {_name(signature)} of another position than its head's "
                f"({position}): each position is scored on its own",
            )

    _body(node, node.body, atom_read)


def _seats(program: UserProgram) -> dict[Predicate, set[int]]:
    """The arguments that name a seat: evlogic's (SEATS), and those of the
    program's own predicates that a seat's variable is passed to (never
    another argument of evlogic's: ``ev(P, 4)`` tells seat 1 from the rest)."""
    seats = {signature: {index} for signature, index in SEATS.items()}
    changed = True
    while changed:
        changed = False
        for node in program.rules():
            players = _seat_variables(node, seats)
            for atom in _all_atoms(node):
                signature = _signature(atom)
                for index, argument in enumerate(atom.symbol.arguments):
                    if (
                        signature not in EVLOGIC_PREDICATES
                        and argument.ast_type == T.Variable
                        and argument.name in players
                        and index not in seats.setdefault(signature, set())
                    ):
                        seats[signature].add(index)
                        changed = True
    return seats


def _seat_variables(node: AST, seats: dict[Predicate, set[int]]) -> set[str]:
    return {
        argument.name
        for atom in _all_atoms(node)
        for index, argument in enumerate(atom.symbol.arguments)
        if index in seats.get(_signature(atom), ())
        and argument.ast_type == T.Variable
        and argument.name != "_"
    }


def _seats_alike(node: AST, seats: dict[Predicate, set[int]]) -> None:
    """A seat is named by a variable, which occurs only where seats are
    named: no rule of a rule set's program tells one seat from another (the
    searches take player 0 to stand for every player, and players 1, 2, ...
    for one another)."""
    seated = 0
    players = _seat_variables(node, seats)
    for atom in _all_atoms(node):
        for index, argument in enumerate(atom.symbol.arguments):
            if index not in seats.get(_signature(atom), ()):
                continue
            if argument.ast_type != T.Variable:
                raise _Outside(
                    node,
                    f"a rule naming a seat ({argument}) in {_name(_signature(atom))}: a rule "
                    "set's program treats every player alike",
                )
            seated += argument.name in players
    if seated != sum(name in players for name in _variables(node)):
        raise _Outside(
            node,
            "a rule that compares, counts or copies a seat's variable: a rule set's "
            "program treats every player alike",
        )


def _variables(node: AST) -> list[str]:
    """Every occurrence of a variable in ``node``, by name."""
    found: list[str] = []

    class Variables(clingo.ast.Transformer):
        def visit_Variable(self, variable: AST) -> AST:
            found.append(variable.name)
            return variable

    Variables()(node)
    return found


def _plain_head(node: AST) -> AST:
    """The head's atom, when it is one plain atom; else _Outside."""
    head = node.head
    if head.ast_type != T.Literal:
        raise _Outside(node, "a rule whose head is not one plain atom (a disjunction?)")
    if head.atom.ast_type == T.BooleanConstant:
        raise _Outside(node, "an integrity constraint, which would rule positions out")
    if head.sign != clingo.ast.Sign.NoSign:
        raise _Outside(node, "a negated head, a constraint written otherwise")
    if head.atom.ast_type == T.SymbolicAtom and head.atom.symbol.ast_type == T.Pool:
        raise _Outside(node, POOL)
    if head.atom.ast_type != T.SymbolicAtom or head.atom.symbol.ast_type != T.Function:
        raise _Outside(node, "a rule whose head is not one plain atom (classical negation?)")
    atom: AST = head.atom
    return atom


def _reserved(node: AST, signature: Predicate) -> None:
    if signature[0].startswith("evlogic_"):
        raise _Outside(node, f"a rule deriving {_name(signature)}: evlogic_ names are evlogic's")


def _body(node: AST, literals: Sequence[AST], atom_read) -> None:  # type: ignore[no-untyped-def]
    """Every body literal in the fragment; ``atom_read`` sees each atom."""
    for literal in literals:
        if literal.ast_type == T.ConditionalLiteral:
            _literal(node, literal.literal, atom_read, aggregate=False)
            for condition in literal.condition:
                _literal(node, condition, atom_read, aggregate=False)
        else:
            _literal(node, literal, atom_read, aggregate=True)


def _literal(node: AST, literal: AST, atom_read, aggregate: bool) -> None:  # type: ignore[no-untyped-def]
    if literal.ast_type != T.Literal:
        raise _Outside(node, "a rule with a body element outside the fragment")
    if literal.sign == clingo.ast.Sign.DoubleNegation:
        raise _Outside(node, "a rule with a doubly negated literal (not not)")
    atom = literal.atom
    if atom.ast_type == T.Comparison:
        return
    if atom.ast_type == T.SymbolicAtom:
        if atom.symbol.ast_type == T.Pool:
            raise _Outside(node, POOL)
        if atom.symbol.ast_type != T.Function:
            raise _Outside(node, "a rule reading a classically negated atom (-x)")
        if atom.symbol.name.startswith("evlogic_"):
            raise _Outside(node, "a rule reading an evlogic_ name, the search's own")
        atom_read(atom)
        return
    if atom.ast_type == T.BodyAggregate and aggregate:
        if atom.function not in AGGREGATES:
            raise _Outside(node, "a rule with an aggregate other than #count, #sum, #min, #max")
        for element in atom.elements:
            for condition in element.condition:
                _literal(node, condition, atom_read, aggregate=False)
        return
    if atom.ast_type == T.BooleanConstant:
        raise _Outside(node, "a rule with #true or #false in its body")
    raise _Outside(node, "a rule with a body element outside the fragment (a theory atom?)")


# --- helpers ---------------------------------------------------------------------------


def _signature(atom: AST) -> Predicate:
    symbol = atom.symbol
    return symbol.name, len(symbol.arguments)


def _name(signature: Predicate) -> str:
    return f"{signature[0]}/{signature[1]}"


def _is_number(term: AST) -> bool:
    return term.ast_type == T.SymbolicTerm and term.symbol.type == clingo.SymbolType.Number


def _numbered(atom: AST, test) -> bool:  # type: ignore[no-untyped-def]
    arguments = atom.symbol.arguments
    return bool(arguments) and _is_number(arguments[0]) and test(arguments[0].symbol.number)


def _all_atoms(node: AST) -> list[AST]:
    found: list[AST] = []

    class Atoms(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, atom: AST) -> AST:
            if atom.symbol.ast_type == T.Function:
                found.append(atom)
            return atom

    Atoms()(node)
    return found
