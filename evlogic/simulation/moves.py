"""Move models: the answer-set programs that say how states are won.

A move model is a bundled name (``rules/moves/NAME.lp``: draft, market,
campaign) or a path to a ``.lp`` file of the designer's.  At each turn of a
played game the engine grounds it beside the decision (rules/play/model.lp):
it reads the position (the mover, homes, owned and unclaimed states, the
board), its own state as ``holds/1`` (what its ``next/1`` said the turn
before), the game's deck (``deck/2``, drawn from the game's seed) and the
rule set's model numbers (``setting/2``); it derives ``legal/1``, the moves
the mover may make (a state, or ``pass``), and, given the move made as
``does/1``, ``next/1``.  It may show ``market/1`` and ``points/2`` on the
game's log.  The engine keeps nothing of a model but what ``next/1`` says.

A program is read once (:func:`load_move_model`), checked against the move
fragment (evlogic/asp/fragment.py, ``Kind.MOVES``: normal rules, no
figure of the scoring rules read), stratified as a whole (so a turn has
exactly one answer set), with ``legal/1`` not depending on ``does/1`` (a
move's legality cannot hang on the move made), and its own predicates
renamed apart (evlogic/simulation/stepped.py).  What a model does at a turn
the engine refuses in one line naming the program and the turn: a legal
move of a state somebody holds, no legal move while the game is not over
(evlogic/simulation/engine.py).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import clingo.ast

from evlogic.asp.fragment import MOVE_INPUTS, MOVE_OUTPUTS, Kind, refuse_outside
from evlogic.asp.predicates import BOARD_FACTS
from evlogic.asp.program import read_program, refuse_unsafe
from evlogic.asp.soundness import refuse_unstratified
from evlogic.errors import InputError
from evlogic.loading.rulesets import MOVE_MODELS, RuleSet
from evlogic.resources import display_path, rules_dir
from evlogic.simulation.stepped import Stepped, Vocabulary, stepped

Predicate = tuple[str, int]

#: What a move model shares with the engine (evlogic/simulation/stepped.py):
#: what a turn gives and takes, by decision; the players, their homes and
#: the deck, by game; the board and the model's numbers as they are.
_GAME = frozenset({("player", 1), ("home", 2), ("deck", 2)})
WORDS = Vocabulary(
    stepped=(MOVE_INPUTS | MOVE_OUTPUTS) - _GAME - {("setting", 2)},
    game=_GAME,
    board=BOARD_FACTS | {("setting", 2)},
    own="model_",
)

#: The rule set's numbers a model may read as setting(Name, Value).
SETTINGS = ("market_size", "campaign_income")

#: Why a model may not loop through negation or an aggregate.
UNSTRATIFIED = (
    "a loop like that can leave a turn no answer or several, and a move program's rules "
    "must be stratified (docs/play.md#writing-a-move-model)"
)


@dataclass(frozen=True)
class MoveModel:
    """A move model as the engine grounds it: its name as reports print it
    (a bundled name or the program's file name), its statements given the
    decision, and the rule set's numbers it reads (``setting/2``)."""

    name: str
    source: str  # what an error about it names: the program's path
    #: The rules that do not read the move made (legal/1, what it shows, and
    #: helpers), grounded before the move is chosen; then the rules that
    #: read does/1 (next/1 and its helpers), grounded once it is known.
    before: Stepped
    after: Stepped
    settings: tuple[str, ...]

    @property
    def reads(self) -> frozenset[Predicate]:
        return self.before.reads | self.after.reads


def move_model(rules: RuleSet) -> MoveModel:
    """The move model ``rules`` names, read once a process."""
    return load_move_model(rules.moves)


@cache
def load_move_model(reference: str) -> MoveModel:
    """A bundled model by name, or the move program at a path (resolved):
    parsed, checked and given the decision once."""
    if reference in MOVE_MODELS:
        path = rules_dir() / "moves" / f"{reference}.lp"
        name = reference
    else:
        path = Path(reference)
        name = path.name
    program = read_program([path])
    refuse_outside(program, Kind.MOVES)
    refuse_unstratified(program, UNSTRATIFIED)
    refuse_unsafe(program)
    waits = _reading_does(program.statements)
    settings = tuple(sorted(_settings(program.statements)))
    before = [node for node in program.statements if _head(node) not in waits]
    after = [node for node in program.statements if _head(node) in waits]
    return MoveModel(
        name, display_path(path), stepped(before, WORDS), stepped(after, WORDS), settings
    )


#: What the engine reads before the move is made: none may read does/1.
BEFORE_THE_MOVE = (("legal", 1), ("market", 1), ("points", 2))


def _head(node: clingo.ast.AST) -> Predicate | None:
    """A rule's head predicate (None for any other statement)."""
    types = clingo.ast.ASTType
    if node.ast_type != types.Rule or node.head.ast_type != types.Literal:
        return None
    atom = node.head.atom
    if atom.ast_type != types.SymbolicAtom or atom.symbol.ast_type != types.Function:
        return None
    return (atom.symbol.name, len(atom.symbol.arguments))


def _reading_does(statements: tuple[clingo.ast.AST, ...]) -> set[Predicate]:
    """The predicates that read does/1, directly or through others; an
    InputError if legal/1 (or what the log shows) is one: the move is
    chosen among the legal ones, so what is legal cannot wait for it."""
    reads: dict[Predicate, set[Predicate]] = defaultdict(set)
    rules: dict[Predicate, clingo.ast.AST] = {}
    for node in statements:
        head = _head(node)
        if head is None:
            continue
        rules.setdefault(head, node)
        for literal in node.body:
            reads[head] |= _mentioned(literal)
    waits = {("does", 1)}
    while True:
        more = {head for head, read in reads.items() if read & waits} - waits
        if not more:
            break
        waits |= more
    for predicate in BEFORE_THE_MOVE:
        if predicate in waits and predicate in rules:
            where = rules[predicate].location.begin
            raise InputError(
                display_path(Path(where.filename)),
                f"{predicate[0]}/{predicate[1]} depends on does/1: what is legal (and what the "
                "log shows before a move) cannot hang on the move made "
                "(docs/play.md#writing-a-move-model)",
                line=where.line,
            )
    return waits


def _mentioned(node: clingo.ast.AST) -> set[Predicate]:
    found: set[Predicate] = set()

    class Atoms(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, atom: clingo.ast.AST) -> clingo.ast.AST:
            symbol = atom.symbol
            if symbol.ast_type == clingo.ast.ASTType.Function:
                found.add((symbol.name, len(symbol.arguments)))
            return atom

    Atoms()(node)
    return found


def _settings(statements: tuple[clingo.ast.AST, ...]) -> set[str]:
    """The numbers a program reads by name: setting(market_size, K)."""
    found: set[str] = set()

    class Settings(clingo.ast.Transformer):
        def visit_SymbolicAtom(self, atom: clingo.ast.AST) -> clingo.ast.AST:
            symbol = atom.symbol
            if (
                symbol.ast_type == clingo.ast.ASTType.Function
                and symbol.name == "setting"
                and len(symbol.arguments) == 2
            ):
                first = symbol.arguments[0]
                if first.ast_type == clingo.ast.ASTType.SymbolicTerm and str(first) in SETTINGS:
                    found.add(str(first))
                elif first.ast_type == clingo.ast.ASTType.Variable:
                    found.update(SETTINGS)
            return atom

    for node in statements:
        Settings()(node)
    return found


def settings_program(rules: RuleSet) -> str:
    """The rule set's model numbers as setting/2 facts."""
    return "".join(f"setting({name},{getattr(rules, name)}).\n" for name in SETTINGS)
