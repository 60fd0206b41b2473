"""The per-atom check: every atom a property's rules read can occur.

For each atom a property's rules read (a plain positive body atom of a
predicate the property does not derive itself: a figure, the board, a
position), a relaxed rule ``evlogic_property_reads(i) :- atom.`` grounded
beside the search.  An atom that never grounds, or that holds in no
position, is a misspelt figure, a player the search never seats, a
position the property never builds: the rule reading it could never
apply, and a search would prove nothing of it.  Each atom is tested on its
own, never a rule's whole body: a body no position satisfies is a property
that holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import clingo
import clingo.ast

from evlogic.asp.program import UserProgram
from evlogic.errors import InputError
from evlogic.loading.boards import Board
from evlogic.resources import display_path

#: The name of the atoms that say an atom a property reads can occur.
MARKER = "evlogic_property_reads"


@dataclass(frozen=True)
class AtomsRead:
    """The atoms a property's rules read, and a relaxed rule for each (see
    the module's docstring), built as syntax trees from the property's own."""

    atoms: tuple[tuple[str, str, int], ...]  # each atom as written, its file and line
    rules: tuple[clingo.ast.AST, ...]  # MARKER(i) :- atom i.
    #: The property read, whose trees the rules share (each body is one of
    #: its literals): held with them, so that those trees are not freed on
    #: the command's thread while the search's thread adds the rules
    #: (evlogic/asp/program.py).
    source: UserProgram = field(repr=False, compare=False)

    def marker(self, index: int) -> clingo.Symbol:
        """The atom that says atom ``index`` occurs."""
        return clingo.Function(MARKER, [clingo.Number(index)])

    def grounded(self, control: clingo.Control) -> set[int]:
        """The atoms whose marker a grounding has (the others never occur)."""
        return {
            atom.symbol.arguments[0].number
            for atom in control.symbolic_atoms.by_signature(MARKER, 1)
        }

    def refused(self, index: int, board: Board, players: int, where: str) -> InputError:
        atom, source, line = self.atoms[index]
        seated = f"{players} player{'s' if players != 1 else ''}"
        return InputError(
            source,
            f"{atom} {where} on {board.name} with {seated} (a figure this board never has? "
            "a player not seated, or a position never built?): the rule reading it could "
            "never apply, so a search would prove nothing of it",
            line=line,
        )


def atoms_read(program: UserProgram) -> AtomsRead:
    """What the rules of a property read, each atom once, and the relaxed
    rule for each (see the module's docstring)."""
    own = program.defines
    atoms: list[tuple[str, str, int]] = []
    rules: list[clingo.ast.AST] = []
    seen: set[str] = set()
    for node in program.rules():
        for literal in node.body:
            if not (
                literal.ast_type == clingo.ast.ASTType.Literal
                and literal.sign == clingo.ast.Sign.NoSign
                and literal.atom.ast_type == clingo.ast.ASTType.SymbolicAtom
                and literal.atom.symbol.ast_type == clingo.ast.ASTType.Function
            ):
                continue
            symbol = literal.atom.symbol
            if (symbol.name, len(symbol.arguments)) in own or str(literal) in seen:
                continue
            seen.add(str(literal))
            location = literal.location
            number = clingo.ast.SymbolicTerm(location, clingo.Number(len(rules)))
            head = clingo.ast.Literal(
                location,
                clingo.ast.Sign.NoSign,
                clingo.ast.SymbolicAtom(clingo.ast.Function(location, MARKER, [number], 0)),
            )
            rules.append(clingo.ast.Rule(location, head, [literal]))
            where = location.begin
            atoms.append((str(literal), display_path(Path(where.filename)), where.line))
    return AtomsRead(tuple(atoms), tuple(rules), program)
