"""A user's program given the decision: how an agent's and a move model's
statements are grounded at every turn of every game played side by side.

An agent (evlogic/simulation/agents.py) and a move model
(evlogic/simulation/moves.py) are written for one decision: ``candidate(X)``,
``legal(X)``, ``holds(F)``.  The engine plays many games in one control,
turn by turn (rules/play/moves.lp), so each atom a decision gives or takes
gets the decision ``(G, turn)`` in front of its arguments, each atom of
what stays the same all game gets the game ``G``, the board's atoms stay
as they are, and every other predicate (the program's own) gets the
decision and a prefix, so that no helper of the program's is a predicate
of the engine's or of another program's.  Each rule gets
``deciding((G, turn))`` in its body, where ``G`` is a variable and ``turn``
the constant :attr:`Stepped.parameter`, both of names the program does not
use: the engine grounds the statements as part ``NAME(turn)``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

import clingo.ast

Predicate = tuple[str, int]


@dataclass(frozen=True)
class Stepped:
    """A program's statements given the decision (see the module's
    docstring), under no #program; ``reads``: the stepped and game
    predicates it mentions."""

    statements: tuple[clingo.ast.AST, ...]
    parameter: str
    reads: frozenset[Predicate]


@dataclass(frozen=True)
class Vocabulary:
    """What a kind of program shares with the engine: ``stepped``, the
    predicates of a decision; ``game``, those of a whole game; ``board``,
    those of the board and the rule set; ``own``: the prefix of the
    program's own predicates."""

    stepped: frozenset[Predicate]
    game: frozenset[Predicate]
    board: frozenset[Predicate]
    own: str


def stepped(statements: Sequence[clingo.ast.AST], words: Vocabulary) -> Stepped:
    """``statements`` (a program as read) given the decision; #show,
    #program and comments left out (the engine reads atoms)."""
    hidden = (
        clingo.ast.ASTType.ShowSignature,
        clingo.ast.ASTType.ShowTerm,
        clingo.ast.ASTType.Program,
        clingo.ast.ASTType.Comment,
    )
    kept = [s for s in statements if s.ast_type not in hidden]
    text = " ".join(str(s) for s in kept)
    parameter = _fresh(text, "turn")
    transformer = _Stepped(parameter, _fresh(text, "Game"), words)
    result = tuple(transformer.statement(s) for s in kept)
    return Stepped(result, parameter, frozenset(transformer.reads))


def _fresh(text: str, stem: str) -> str:
    """``stem`` and a number, a name ``text`` does not use."""
    used = set(re.findall(r"[A-Za-z_][A-Za-z0-9_']*", text))
    return next(f"{stem}{n}" for n in itertools.count() if f"{stem}{n}" not in used)


def add_part(builder: clingo.ast.ProgramBuilder, program: Stepped, name: str) -> None:
    """``program``'s statements as part ``name(<its parameter>)``."""
    location = clingo.ast.Location(
        clingo.ast.Position(f"<{name}>", 1, 1), clingo.ast.Position(f"<{name}>", 1, 1)
    )
    builder.add(clingo.ast.Program(location, name, [clingo.ast.Id(location, program.parameter)]))
    for statement in program.statements:
        builder.add(statement)


class _Stepped(clingo.ast.Transformer):
    """Gives a program's atoms the decision (see :class:`Stepped`)."""

    def __init__(self, parameter: str, game: str, words: Vocabulary) -> None:
        self.parameter = parameter
        self.game = game
        self.words = words
        self.reads: set[Predicate] = set()

    def statement(self, node: clingo.ast.AST) -> clingo.ast.AST:
        node = self(node)
        if node.ast_type == clingo.ast.ASTType.Rule:
            location = node.location
            deciding = clingo.ast.Literal(
                location,
                clingo.ast.Sign.NoSign,
                clingo.ast.SymbolicAtom(
                    clingo.ast.Function(location, "deciding", [self._decision(location)], 0)
                ),
            )
            node = node.update(body=[deciding, *node.body])
        return node

    def _decision(self, location: clingo.ast.Location) -> clingo.ast.AST:
        game = clingo.ast.Variable(location, self.game)
        turn = clingo.ast.Function(location, self.parameter, [], 0)
        return clingo.ast.Function(location, "", [game, turn], 0)  # a tuple

    def visit_SymbolicAtom(self, atom: clingo.ast.AST) -> clingo.ast.AST:
        return atom.update(symbol=self._stepped(atom.symbol))

    def visit_Defined(self, node: clingo.ast.AST) -> clingo.ast.AST:
        signature = (node.name, node.arity)
        words = self.words
        if signature in words.board:
            return node
        name = node.name if signature in words.stepped | words.game else words.own + node.name
        return node.update(name=name, arity=node.arity + 1)

    def _stepped(self, term: clingo.ast.AST) -> clingo.ast.AST:
        if term.ast_type == clingo.ast.ASTType.UnaryOperation:  # -p(X)
            return term.update(argument=self._stepped(term.argument))
        if term.ast_type != clingo.ast.ASTType.Function:
            return term
        signature = (term.name, len(term.arguments))
        words = self.words
        if signature in words.board:
            return term
        if signature in words.game:
            self.reads.add(signature)
            first = clingo.ast.Variable(term.location, self.game)
            return term.update(arguments=[first, *term.arguments])
        if signature in words.stepped:
            self.reads.add(signature)
        name = term.name if signature in words.stepped else words.own + term.name
        return term.update(name=name, arguments=[self._decision(term.location), *term.arguments])
