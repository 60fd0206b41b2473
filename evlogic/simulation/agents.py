"""Agents: the ASP programs that choose a mover's state.

An agent is a bundled name (``rules/agents/NAME.lp``) or a path to a ``.lp``
file of the user's, read once and checked against the agent fragment
(evlogic/asp/fragment.py, ``Kind.AGENT``): normal rules over what a
decision gives (rules/play/moves.lp's outputs, the board, the position,
``tie_break/2``, ``turn/1``), deriving ``choose/1`` and helpers of its own,
stratified as a whole (evlogic/asp/soundness.py).  Such a program has
exactly one answer set, so a decision is a function of the position and the
seed.  An agent is read here once, whatever the rule set it plays under
(docs/play.md, "Writing an agent"): both encodings of a decision ground the
statements :class:`Agent` holds, never the file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import clingo.ast

from evlogic.asp.fragment import AGENT_INPUTS, Kind, refuse_outside
from evlogic.asp.predicates import BOARD_FACTS
from evlogic.asp.program import read_program, refuse_unsafe
from evlogic.asp.soundness import refuse_unstratified
from evlogic.errors import InputError, quote
from evlogic.resources import display_path, rules_dir
from evlogic.simulation.stepped import Vocabulary, stepped

#: The bundled agents, in the order --help lists them.
BUNDLED = ("greedy", "random", "spoiler", "face")

#: The bundled planning agents (evlogic.simulation.planning): their
#: parameter (``lookahead:K``), its default and its bounds.
PLANNERS = {"lookahead": (3, 1, 5)}

#: The encoding every decision grounds beside the agent.
MOVES = "play/moves.lp"

#: What an agent reads that no game changes: the board and the rule set.
BOARD = BOARD_FACTS

#: What stays the same all game: the players and their homes, with the
#: game as a first argument in the engine's control (rules/play/moves.lp's
#: base part: games are played side by side).
GAME = frozenset({("home", 2), ("player", 1)})

#: What a decision gives an agent and what it derives: each has the
#: decision, (game, turn), as a first argument in front of those the agent
#: writes (rules/play/moves.lp, rules/play/decision.lp).
STEPPED = (AGENT_INPUTS - GAME) | {("choose", 1)}

#: The agent's own predicates (every other one) get the decision and this
#: prefix, so that no helper of an agent's is a predicate of
#: rules/play/moves.lp or decision.lp (none of theirs starts so): an agent
#: that derives ``in/3`` derives ``agent_in/4``, and cannot change what a
#: move gives.
OWN = "agent_"


@dataclass(frozen=True)
class Planner:
    """A planning agent's search (evlogic.simulation.planning): its kind
    and its parameter (``lookahead``: the plan's length)."""

    kind: str
    depth: int


@dataclass(frozen=True)
class Agent:
    """An agent's name as the reports print it, and its statements as the
    engine grounds them, under no #program: the rules (less #show: the
    engine reads atoms), each atom with the decision ``(G, turn)`` in
    front of its arguments (the game ``G`` in front of a :data:`GAME`
    atom's, nothing in front of a :data:`BOARD` atom's), each rule with
    ``deciding((G, turn))`` in its body, where ``G`` is a variable and
    ``turn`` the constant :attr:`parameter`, both of names the agent does
    not use.  Both encodings of a decision ground these statements, and
    no other: the agent's file is read once (:func:`load_agent`)."""

    name: str
    statements: tuple[clingo.ast.AST, ...]
    parameter: str
    reads: frozenset[tuple[str, int]]  # the inputs of STEPPED it mentions
    #: A planning agent's search: the engine asks it for the move
    #: (no statements are grounded in the decision's control).
    planner: Planner | None = None


def _agent(name: str, statements: Sequence[clingo.ast.AST]) -> Agent:
    program = stepped(statements, WORDS)
    return Agent(name, program.statements, program.parameter, program.reads)


#: What an agent shares with the engine (evlogic/simulation/stepped.py).
WORDS = Vocabulary(frozenset(STEPPED), GAME, BOARD, OWN)


def bundled_agent_path(name: str) -> Path:
    return rules_dir() / "agents" / f"{name}.lp"


def load_agent(reference: str, field: str = "--agents") -> Agent:
    """A bundled agent by name, or the user's agent program at a path
    (anything with a '/' or ending in .lp).  One-line InputErrors: an
    unknown name, a missing file, a statement outside the fragment."""
    if reference in BUNDLED:
        path = bundled_agent_path(reference)
        return _read_agent(reference, path)
    kind, colon, parameter = reference.partition(":")
    if kind in PLANNERS:
        return _planner(reference, kind, parameter if colon else None, field)
    if not (reference.endswith(".lp") or "/" in reference or "\\" in reference):
        names = ", ".join((*BUNDLED, *(f"{kind}[:K]" for kind in PLANNERS)))
        raise InputError(
            field, f"unknown agent {quote(reference)} (bundled: {names}; or a path to a .lp file)"
        )
    path = Path(reference)
    if not path.is_file():
        raise InputError(field, f"agent program {quote(reference)} is not a file")
    return _read_agent(display_path(path), path)


def _planner(reference: str, kind: str, parameter: str | None, field: str) -> Agent:
    """A bundled planning agent, ``kind[:K]``: no statements of its own in
    a decision, its search's parameter checked."""
    default, low, high = PLANNERS[kind]
    depth = default
    if parameter is not None:
        # plain digits only: lookahead:02, lookahead:+2 would name one agent two ways
        depth = int(parameter) if re.fullmatch(r"[1-9][0-9]{0,2}", parameter) else low - 1
        if not low <= depth <= high:
            raise InputError(
                field,
                f"{quote(reference)}: {kind}'s parameter is a whole number between {low} and "
                f"{high}, not {quote(parameter)}",
            )
    return Agent(reference, (), "t", frozenset(), Planner(kind, depth))


def _read_agent(name: str, path: Path) -> Agent:
    """The one way an agent is read, whatever the rule set it plays under:
    parsed once (``#include``s followed), checked against the fragment
    and for stratification as a whole, its statements given the decision
    and its own predicates renamed apart (:func:`_agent`).  Both encodings
    ground these statements (evlogic/simulation/engine.py); the file is never
    read again."""
    program = read_program([path])
    refuse_outside(program, Kind.AGENT)
    refuse_unstratified(program, UNSTRATIFIED)
    refuse_unsafe(program)
    return _agent(name, program.statements)


#: Why an agent may not loop through negation or an aggregate.
UNSTRATIFIED = (
    "a loop like that can leave a decision no answer or several, and an agent's rules "
    "must be stratified (docs/play.md#writing-an-agent)"
)


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
