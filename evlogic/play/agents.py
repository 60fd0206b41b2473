"""Agents: the ASP programs that choose a mover's state.

An agent is a bundled name (``rules/agents/NAME.lp``) or a path to a ``.lp``
file of the user's, read once and checked against the agent fragment
(evlogic/asp/fragment.py, ``Kind.AGENT``): normal rules over what a
decision gives (rules/play/moves.lp's outputs, the board, the position,
``tie_break/2``, ``turn/1``), deriving ``choose/1`` and helpers of its own,
stratified.  Such a program has exactly one answer set, so a decision is a
function of the position and the seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import clingo.ast

from evlogic.asp.fragment import AGENT_INPUTS, BOARD_FACTS, Kind, read_program, refuse_outside
from evlogic.asp.soundness import refuse_unsound
from evlogic.errors import InputError, quote
from evlogic.resources import display_path, rules_dir

#: The bundled agents, in the order --help lists them.
BUNDLED = ("greedy", "random", "spoiler", "face")

#: The encoding every decision grounds beside the agent.
MOVES = "play/moves.lp"

#: What an agent's atoms name as they are written: what a decision gives
#: it, the board, and the choice it derives.  Every other predicate is the
#: agent's own and is renamed with :data:`OWN` in front, so that no helper
#: of an agent's is a helper of rules/play/moves.lp (no predicate of the
#: encoding starts so): an agent that derives ``in/3`` derives
#: ``agent_in/3``, and cannot change what a move gives.
SHARED = AGENT_INPUTS | BOARD_FACTS | {("choose", 1)}
OWN = "agent_"


@dataclass(frozen=True)
class Agent:
    """An agent's name as the reports print it, and its statements."""

    name: str
    path: Path
    statements: tuple[clingo.ast.AST, ...]  # less #show: the engine reads atoms


def _rules(statements: tuple[clingo.ast.AST, ...]) -> tuple[clingo.ast.AST, ...]:
    hidden = (clingo.ast.ASTType.ShowSignature, clingo.ast.ASTType.ShowTerm)
    own = _Own()
    return tuple(own(s) for s in statements if s.ast_type not in hidden)


class _Own(clingo.ast.Transformer):
    """Renames the agent's own predicates (see :data:`SHARED`)."""

    def visit_SymbolicAtom(self, atom: clingo.ast.AST) -> clingo.ast.AST:
        return atom.update(symbol=self._renamed(atom.symbol))

    def visit_Defined(self, node: clingo.ast.AST) -> clingo.ast.AST:
        if (node.name, node.arity) in SHARED:
            return node
        return node.update(name=OWN + node.name)

    def _renamed(self, term: clingo.ast.AST) -> clingo.ast.AST:
        if term.ast_type == clingo.ast.ASTType.UnaryOperation:  # -p(X)
            return term.update(argument=self._renamed(term.argument))
        if term.ast_type != clingo.ast.ASTType.Function:
            return term
        if (term.name, len(term.arguments)) in SHARED:
            return term
        return term.update(name=OWN + term.name)


def bundled_agent_path(name: str) -> Path:
    return rules_dir() / "agents" / f"{name}.lp"


def load_agent(reference: str, field: str = "--agents") -> Agent:
    """A bundled agent by name, or the user's agent program at a path
    (anything with a '/' or ending in .lp).  One-line InputErrors: an
    unknown name, a missing file, a statement outside the fragment."""
    if reference in BUNDLED:
        path = bundled_agent_path(reference)
        return Agent(reference, path, _rules(read_program([path]).statements))
    if not (reference.endswith(".lp") or "/" in reference or "\\" in reference):
        names = ", ".join(BUNDLED)
        raise InputError(
            field, f"unknown agent {quote(reference)} (bundled: {names}; or a path to a .lp file)"
        )
    path = Path(reference)
    if not path.is_file():
        raise InputError(field, f"agent program {quote(reference)} is not a file")
    program = read_program([path])
    refuse_outside(program, Kind.AGENT)
    refuse_unsound([rules_dir() / MOVES, path])
    return Agent(display_path(path), path, _rules(program.statements))


def load_agents(text: str, players: int) -> tuple[Agent, ...]:
    """``--agents A[,A...]``: one name for every seat, or one a seat."""
    references = [part.strip() for part in text.split(",")]
    if any(not part for part in references):
        raise InputError("--agents", f"an empty agent name in {quote(text)}")
    if len(references) == 1:
        references *= players
    elif len(references) != players:
        raise InputError(
            "--agents",
            f"{len(references)} agents for {players} players: give one agent, or one a seat",
        )
    read: dict[str, Agent] = {}
    for reference in references:
        if reference not in read:
            read[reference] = load_agent(reference)
    return tuple(read[reference] for reference in references)
