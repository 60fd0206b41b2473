"""Solving: ground the rules with facts and return the one answer set.

The scoring programs in ``rules/scoring/`` are stratified: grounding already decides
them and the solver only confirms the single model, so no search happens.
Grounding is multi-shot in one place: ``rules/scoring/region_order.lp`` has
``frontier(k)`` and ``layer(k)`` parts, grounded (in that order, in two
calls) for k = 1, 2, ... while ``grew(k-1)`` holds.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import ParamSpec, TypeVar

import clingo
import clingo.ast

from evlogic.asp.quantifier import rewritten
from evlogic.errors import InputError
from evlogic.limits import checkpoint, watch
from evlogic.loading.yamlfile import read_file
from evlogic.resources import display_path, rules_dir

#: The scoring program, one concern per file (see each file's header).  The
#: numbers it reads come from a rule set (evlogic.loading.rulesets) as facts.
SCORING_RULES: tuple[str, ...] = (
    "scoring/position.lp",
    "scoring/face.lp",
    "scoring/cores.lp",
    "scoring/region.lp",
    "scoring/region_order.lp",
    "scoring/siege.lp",
    "scoring/bonus.lp",
    "scoring/totals.lp",
    "scoring/overflow.lp",
    "scoring/output.lp",
)

#: The scoring program with every region layer ground in the one base call
#: (rules/scoring/region_layers.lp for rules/scoring/region_order.lp): faster where regions
#: are small, quadratic in a region's size (see evlogic.reports.score).
SCORING_RULES_ONE_SHOT: tuple[str, ...] = tuple(
    "scoring/region_layers.lp" if name == "scoring/region_order.lp" else name
    for name in SCORING_RULES
)

#: How positions reach the scoring program as symbols (evlogic.asp.facts.Positions).
POSITION_INPUT: tuple[str, ...] = ("scoring/position_input.lp",)

#: Scoring plus the witnesses behind `evlogic explain` and `evlogic diagram`.
EXPLAIN_RULES: tuple[str, ...] = (
    *SCORING_RULES,
    "explain/explain.lp",
    "explain/what_if.lp",
    "explain/roles.lp",
    "explain/tile_value.lp",
)


Arguments = ParamSpec("Arguments")
Result = TypeVar("Result")


def per_thread_cache(
    maxsize: int,
) -> Callable[[Callable[Arguments, Result]], Callable[Arguments, Result]]:
    """:func:`functools.lru_cache`, one cache a thread.

    For clingo syntax trees: a tree is used by one thread only.  Trees
    shared by threads that parse and add them at the same time end in
    "invalid ast" errors and then a crash, and a search past its deadline
    may still be grounding on a thread of its own; with a cache a thread,
    each thread parses its own trees once and no other thread ever touches
    them.  A thread's cache goes with the thread."""

    def decorate(function: Callable[Arguments, Result]) -> Callable[Arguments, Result]:
        local = threading.local()

        @functools.wraps(function)
        def cached(*args: Arguments.args, **kwargs: Arguments.kwargs) -> Result:
            # (the cache takes hashable arguments, which a ParamSpec cannot say)
            call: Callable[..., Result]
            try:
                call = local.call
            except AttributeError:
                fresh: Callable[..., Result] = lru_cache(maxsize=maxsize)(function)
                call = local.call = fresh
            return call(*args, **kwargs)

        return cached

    return decorate


# Facts may be empty for some input predicates, which clingo reports as
# undefined; any other message is a bug.


class SolverError(RuntimeError):
    """The rules did not yield exactly one model: a bug in evlogic, not in the input."""


def rule_paths(names: Sequence[str] = SCORING_RULES) -> list[Path]:
    directory = rules_dir()
    return [directory / name for name in names]


def ground(
    facts: str,
    rules: Sequence[Path],
    options: Sequence[str] = (),
    context: object = None,
    statements: Sequence[clingo.ast.AST] = (),
) -> clingo.Control:
    """A control with ``rules`` and ``facts`` (program text of facts over
    numbers, see evlogic.asp.facts) grounded, multi-shot layers included (see
    rules/scoring/region_order.lp).

    Any clingo message about a file a user wrote (any of ``rules`` outside
    evlogic's rules/: a property, a rule set's extra .lp files), undefined
    atoms included, is an InputError naming the file and line: a misspelt
    predicate there would otherwise silently never hold.  Elsewhere, any
    message but "undefined atom" (input predicates may have no facts) is a
    bug: SolverError.  ``context`` answers the rules' @-calls (see
    rules/scoring/position_input.lp); ``statements`` are rules built as syntax trees
    (never from a user's text; or facts parsed once, :func:`parsed_facts`),
    added to the base program.  evlogic's own rule files are added as trees
    parsed once a thread (:func:`_parsed`)."""
    users = user_files(rules)
    programs = read_user_programs(users)  # errors and Python first
    messages: list[str] = []
    user_messages: list[str] = []
    prefixes = tuple(f"{name}:" for name in sorted(programs.files))

    def log(code: clingo.MessageCode, message: str) -> None:
        if message.startswith(prefixes):
            user_messages.append(message.strip())
        elif code != clingo.MessageCode.AtomUndefined:
            messages.append(message.strip())

    control = clingo.Control(list(options), logger=log)
    watch(control)  # interrupted if this work is given up on (evlogic.limits)
    checkpoint()
    try:
        with clingo.ast.ProgramBuilder(control) as builder:
            for path in rules:
                for statement in _parsed(path) if _shipped(path) else ():
                    builder.add(statement)
        if users:
            # A user's programs as parsed, "for every such X" grounded as
            # evlogic means it (evlogic/asp/quantifier.py).
            parsed: list[clingo.ast.AST] = []
            clingo.ast.parse_files([str(path) for path in users], parsed.append, logger=log)
            with clingo.ast.ProgramBuilder(control) as builder:
                for statement in rewritten(parsed):
                    builder.add(statement)
        control.add("base", [], facts)
        if statements:
            with clingo.ast.ProgramBuilder(control) as builder:
                for statement in statements:
                    builder.add(statement)
        control.ground([("base", [])], context=context)
        checkpoint()
    except RuntimeError:
        if not user_messages:
            raise
    if user_messages:
        raise user_program_error(user_messages[0])
    layer = 0
    while is_fact(control, clingo.Function("grew", [clingo.Number(layer)])):
        layer += 1
        control.ground([("frontier", [clingo.Number(layer)])])
        checkpoint()
        control.ground([("layer", [clingo.Number(layer)])])
        checkpoint()
    if messages:
        raise SolverError("clingo: " + " | ".join(messages))
    return control


def solve(
    facts: str,
    rules: Sequence[Path] | None = None,
    context: object = None,
    statements: Sequence[clingo.ast.AST] = (),
) -> Sequence[clingo.Symbol]:
    """Ground ``rules`` (default: the scoring program) with ``facts`` (and
    ``context`` and ``statements``, see :func:`ground`); return the shown
    atoms of the one model.

    evlogic's rules are stratified: one model.  A user's program (a rule
    set's .lp files) could add a choice or a constraint, so then a second
    model with different shown atoms is looked for: scores that depend on
    the solver's choice, or no scores at all, are an InputError naming the
    user's files, never a number."""
    rules = rules if rules is not None else rule_paths()
    users = user_files(rules)
    options = ["--models=2", "--project=show"] if users else ["--models=1"]
    control = ground(facts, rules, options, context, statements)
    models: list[Sequence[clingo.Symbol]] = []
    handle: clingo.SolveHandle  # (clingo leaves SolveHandle.__enter__ unannotated)
    with control.solve(yield_=True) as handle:
        for model in handle:
            models.append(model.symbols(shown=True))
    checkpoint()  # an interrupted solve has no answer to give
    if len(models) == 1:
        return models[0]
    if users:
        source = ", ".join(display_path(path) for path in users)
        if models:
            raise InputError(
                source,
                "more than one answer: the scores would depend on the solver's choice "
                "(a choice rule or a disjunction?)",
            )
        raise InputError(source, "no answer: these rules rule the position out (a constraint?)")
    raise SolverError("the scoring rules have no answer set for this input")


@per_thread_cache(maxsize=256)
def _parsed(path: Path) -> tuple[clingo.ast.AST, ...]:
    """One of evlogic's own rule files as syntax trees, parsed once a
    thread (see :func:`per_thread_cache`): parsing the scoring rules cost
    more than adding their trees (1.7 ms against 0.9 ms of the 12 ms a usa
    position takes).  Each file's trees begin with its ``#program base.``;
    comments are left out."""
    statements: list[clingo.ast.AST] = []
    clingo.ast.parse_files([str(path)], statements.append)
    return tuple(s for s in statements if s.ast_type != clingo.ast.ASTType.Comment)


@per_thread_cache(maxsize=16)
def parsed_facts(facts: str) -> tuple[clingo.ast.AST, ...]:
    """Facts that stay the same from call to call (a board's, see
    evlogic.asp.facts.board_program) as syntax trees for :func:`ground`'s
    ``statements``, parsed once a thread (see :func:`per_thread_cache`:
    the trees are the asking thread's alone): adding the trees of the usa
    board costs half of parsing its text."""
    statements: list[clingo.ast.AST] = []
    clingo.ast.parse_string(facts, statements.append)
    return tuple(statements)


def user_files(rules: Sequence[Path]) -> list[Path]:
    """The programs among ``rules`` that a user wrote (not shipped in rules/)."""
    return [path for path in rules if not _shipped(path)]


@lru_cache(maxsize=1024)
def _shipped(path: Path) -> bool:
    """``path`` is one of evlogic's own rules (resolving paths costs more
    than grounding a small position, so each is resolved once)."""
    return rules_dir().resolve() in path.resolve().parents


@dataclass(frozen=True)
class UserPrograms:
    """What a user's programs (and the files they ``#include``) say."""

    mentions: frozenset[tuple[str, int]]  # every predicate (name, arity) they mention
    defines: frozenset[tuple[str, int]]  # predicates in a rule head of the base program
    files: frozenset[str]  # every file read, as clingo names it in messages
    # Statements a search must know of, as (kind, file, line): "constraint",
    # "choice" (a choice or disjunction), "external", "optimisation" (a
    # #minimize, #maximize or weak constraint), "part" (a #program other
    # than base: never grounded, or grounded by evlogic's own search parts).
    kinds: tuple[tuple[str, str, int], ...] = ()

    def first(self, *kinds: str) -> tuple[str, str, int] | None:
        """The first statement of one of ``kinds``, or None."""
        return next((found for found in self.kinds if found[0] in kinds), None)


def read_user_programs(programs: Sequence[Path]) -> UserPrograms:
    """Parse a user's programs, ``#include``s followed.

    Parsed, not loaded: a syntax error, a ``#script`` block or an ``@``-call
    is an InputError naming the file and line, before clingo could run a
    script.  A user's program may not run Python (evlogic's own rules answer
    their @-calls from a grounding context, which a user's call would reach).
    """
    mentions: set[tuple[str, int]] = set()
    defines: set[tuple[str, int]] = set()
    files = {str(path) for path in programs}
    if not programs:  # (clingo would parse standard input for an empty list)
        return UserPrograms(frozenset(), frozenset(), frozenset())
    refused: list[InputError] = []

    def refuse(node: clingo.ast.AST, what: str) -> None:
        where = node.location.begin
        refused.append(InputError(display_path(Path(where.filename)), what, line=where.line))

    class Read(clingo.ast.Transformer):
        def __init__(self, found: set[tuple[str, int]]) -> None:
            self.found = found

        def visit_SymbolicAtom(self, node: clingo.ast.AST) -> clingo.ast.AST:
            term = node.symbol
            if term.ast_type == clingo.ast.ASTType.Function:
                self.found.add((term.name, len(term.arguments)))
            return node.update(**self.visit_children(node))

        def visit_Function(self, node: clingo.ast.AST) -> clingo.ast.AST:
            if node.external:
                refuse(node, f"@{node.name}: rule set and property programs cannot call Python")
            return node.update(**self.visit_children(node))

        def visit_Script(self, node: clingo.ast.AST) -> clingo.ast.AST:
            refuse(node, "a #script block: rule set and property programs cannot run Python")
            return node

    part = [True]  # whether statements belong to the base program (base/0)
    kinds: list[tuple[str, str, int]] = []
    types = clingo.ast.ASTType

    def note(kind: str, node: clingo.ast.AST) -> None:
        where = node.location.begin
        kinds.append((kind, display_path(Path(where.filename)), where.line))

    def statement(node: clingo.ast.AST) -> None:
        files.add(node.location.begin.filename)
        if node.ast_type == types.Program:
            part[0] = node.name == "base" and not node.parameters
            if not part[0]:
                note("part", node)
        Read(mentions)(node)
        if node.ast_type == types.Rule and part[0]:
            Read(defines)(node.head)
        if node.ast_type == types.Rule:
            head = node.head
            if head.ast_type == types.Literal and head.atom.ast_type == types.BooleanConstant:
                note("constraint", node)
            elif head.ast_type in (types.Aggregate, types.HeadAggregate, types.Disjunction):
                note("choice", node)
        elif node.ast_type == types.External:
            note("external", node)
        elif node.ast_type in (types.Minimize,):
            note("optimisation", node)

    check_user_text(programs)
    errors: list[str] = []
    try:
        clingo.ast.parse_files(
            [str(path) for path in programs],
            statement,
            logger=lambda _code, message: errors.append(message.strip()),
        )
    except RuntimeError:
        raise user_program_error(errors[0]) from None
    if refused:
        raise refused[0]
    return UserPrograms(frozenset(mentions), frozenset(defines), frozenset(files), tuple(kinds))


#: An ``#include "file"`` directive, and the comments that may hide one.
_INCLUDE = re.compile(r'#include\s*"((?:[^"\\]|\\.)*)"')
_COMMENTS = re.compile(r"%\*.*?\*%|%[^\n]*", re.DOTALL)


def check_user_text(programs: Sequence[Path]) -> None:
    """Every file a user's programs read (``#include "..."`` followed, as
    clingo resolves it: the working directory first, then the including
    file's folder) is UTF-8 text, else an InputError naming the file and
    line.  clingo quotes a file's bytes in its messages (a syntax error, an
    undefined atom), and a message that is not UTF-8 ends the process from
    inside clingo's Python logger, which cannot decode it."""
    todo, seen = list(programs), set()
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():  # clingo's own message says the rest
            continue
        seen.add(path)
        source = display_path(path)
        data = read_file(path, source)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise InputError(source, f"not UTF-8 text ({exc.reason})", line=line) from None
        for name in _INCLUDE.findall(_COMMENTS.sub("", text)):
            found = next((c for c in (Path(name), path.parent / name) if c.is_file()), None)
            if found is not None:
                todo.append(found)


def user_program_error(message: str) -> InputError:
    """A clingo message about a user's .lp file as one line: FILE: line N: what."""
    location, _, rest = message.partition(": ")
    path, line, *_ = location.split(":")
    kind, _, detail = rest.partition(": ")
    lines = [part.strip() for part in detail.split("\n") if part.strip()]
    if kind == "info" and lines and lines[0].startswith("atom does not occur"):
        atom = re.sub(r"#Anon\d+", "_", lines[-1])  # as the user wrote it
        what = f"{atom} is never defined (a misspelt predicate? declare it with #defined "
        what += "if it may have no atoms)"
    else:  # clingo's "what:", its detail on the next line: "what: detail"
        what = " ".join(lines)
    return InputError(display_path(Path(path)), what, line=int(line))


def ignore_messages(_code: clingo.MessageCode, _message: str) -> None:
    """A logger for parsing a user's programs again, after
    :func:`read_user_programs` has read them and worded what clingo says
    (a warning would otherwise go to standard error once a parse)."""


def is_fact(control: clingo.Control, atom: clingo.Symbol) -> bool:
    """Whether ``atom`` is a fact of the grounded ``control``."""
    found = control.symbolic_atoms[atom]
    return found is not None and found.is_fact
