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

from evlogic.asp.fragment import Kind, refuse_outside
from evlogic.asp.program import read_program
from evlogic.asp.soundness import refuse_unsound
from evlogic.errors import InputError, quote
from evlogic.resources import display_path, rules_dir

#: The bundled agents, in the order --help lists them.
BUNDLED = ("greedy", "random", "spoiler", "face")

#: The encoding every decision grounds beside the agent.
MOVES = "play/moves.lp"


@dataclass(frozen=True)
class Agent:
    """An agent's name as the reports print it, and its statements."""

    name: str
    path: Path
    statements: tuple[clingo.ast.AST, ...]  # less #show: the engine reads atoms


def _rules(statements: tuple[clingo.ast.AST, ...]) -> tuple[clingo.ast.AST, ...]:
    hidden = (clingo.ast.ASTType.ShowSignature, clingo.ast.ASTType.ShowTerm)
    return tuple(s for s in statements if s.ast_type not in hidden)


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
    refuse_unsound([rules_dir() / MOVES], program)
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
