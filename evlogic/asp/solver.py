"""Solving: ground the rules with facts and return the one answer set.

The scoring programs in ``rules/scoring/`` are stratified: grounding already decides
them and the solver only confirms the single model, so no search happens.
Grounding is multi-shot in one place: ``rules/scoring/region_order.lp`` has
``frontier(k)`` and ``layer(k)`` parts, grounded (in that order, in two
calls) for k = 1, 2, ... while ``grew(k-1)`` holds.
"""

from __future__ import annotations

import atexit
import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec, TypeVar

import clingo

from evlogic.asp.program import UserProgram, read_program, shipped, user_files, user_program_error
from evlogic.errors import InputError
from evlogic.limits import checkpoint, watch
from evlogic.resources import display_path, rules_dir

if TYPE_CHECKING:  # clingo.ast is imported where trees are built: a process that
    import clingo.ast  # grounds once (evlogic score) loads the rule files as text

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
    "explain/sources.lp",
)


Arguments = ParamSpec("Arguments")
Result = TypeVar("Result")


#: Every thread's caches of :func:`per_thread_cache`, for :func:`_forget_trees`.
_CACHES: list[threading.local] = []


@atexit.register
def _forget_trees() -> None:
    """At exit, the exiting thread's cached trees freed while clingo.ast is
    whole: imported on demand (after this module), its globals are cleared
    before this module's, and a tree freed after that fails in its __del__."""
    for local in _CACHES:
        local.__dict__.clear()


def per_thread_cache(
    maxsize: int,
) -> Callable[[Callable[Arguments, Result]], Callable[Arguments, Result]]:
    """:func:`functools.lru_cache`, one cache a thread.

    For clingo syntax trees: a tree is used by one thread only.  clingo
    counts a tree's references without a lock, so trees shared by threads
    that parse and add them at the same time end in "invalid ast" errors
    and then a crash (threads scoring at once, diff's two searches, a web
    server's requests).  And a thread cannot always be stopped when its
    work is given up on: clingo interrupts a solve (evlogic.limits.watch)
    but not a grounding, so a search past its deadline may still be
    grounding on its own thread, and its trees must stay its own.  With a
    cache a thread, each thread parses its own trees once and no other
    thread ever touches them.  A thread's cache goes with the thread."""

    def decorate(function: Callable[Arguments, Result]) -> Callable[Arguments, Result]:
        local = threading.local()
        _CACHES.append(local)

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


#: Whether this thread has ground a program before (:func:`_grounded_before`).
_grounded = threading.local()


def _grounded_before() -> bool:
    """Whether this thread has ground a program before.  The first time,
    evlogic's rule files reach clingo as text: clingo parses it once, for
    less than parsing it into trees and adding them, and a process that
    grounds once (evlogic score) never imports clingo.ast; from the second
    time on, the trees parsed once a thread (:func:`rule_statements`) pay."""
    before = getattr(_grounded, "before", False)
    _grounded.before = True
    return before


def _builder(control: clingo.Control) -> clingo.ast.ProgramBuilder:
    from clingo.ast import ProgramBuilder

    return ProgramBuilder(control)


def ground(
    facts: str,
    rules: Sequence[Path],
    options: Sequence[str] = (),
    context: object = None,
    statements: Sequence[clingo.ast.AST] = (),
    program: UserProgram | None = None,
) -> clingo.Control:
    """A control with ``rules`` and ``facts`` (program text of facts over
    numbers, see evlogic.asp.facts) grounded, multi-shot layers included (see
    rules/scoring/region_order.lp).

    ``program``: a user's programs as read once (evlogic.asp.program),
    grounded after ``rules``; without it, the files among ``rules`` that a
    user wrote (outside evlogic's rules/: a property, a rule set's extra .lp
    files) are read here.  Any clingo message about a file a user wrote,
    undefined atoms included, is an InputError naming the file and line: a
    misspelt predicate there would otherwise silently never hold.
    Elsewhere, any message but "undefined atom" (input predicates may have
    no facts) is a bug: SolverError.  ``context`` answers the rules' @-calls
    (see rules/scoring/position_input.lp); ``statements`` are rules built as syntax
    trees (never from a user's text; or facts parsed once,
    :func:`parsed_facts`), added to the base program.  evlogic's own rule
    files are added as trees parsed once a thread (:func:`rule_statements`)."""
    ours = [path for path in rules if shipped(path)]
    if program is None:
        program = read_program(user_files(rules))  # errors and Python first
    else:
        assert len(ours) == len(rules), "a user's files come read, as program"
    messages: list[str] = []
    user_messages: list[str] = []
    prefixes = tuple(f"{name}:" for name in sorted(program.files))

    def log(code: clingo.MessageCode, message: str) -> None:
        if message.startswith(prefixes):
            user_messages.append(message.strip())
        elif code != clingo.MessageCode.AtomUndefined:
            messages.append(message.strip())

    control = clingo.Control(list(options), logger=log)
    watch(control)  # interrupted if this work is given up on (evlogic.limits)
    checkpoint()
    try:
        _add_programs(control, ours, program, log)
        control.add("base", [], facts)
        _add_statements(control, statements)
        control.ground([("base", [])], context=context)
        checkpoint()
    except RuntimeError:
        if not user_messages:
            raise
    if user_messages:
        raise user_program_error(user_messages[0])
    _ground_layers(control)
    if messages:
        raise SolverError("clingo: " + " | ".join(messages))
    return control


def _add_statements(control: clingo.Control, statements: Iterable[clingo.ast.AST]) -> None:
    """Syntax trees added to the base program (none: no builder)."""
    statements = list(statements)
    if statements:
        with _builder(control) as builder:
            for statement in statements:
                builder.add(statement)


def _add_programs(
    control: clingo.Control,
    ours: Sequence[Path],
    program: UserProgram,
    log: Callable[[clingo.MessageCode, str], None],
) -> None:
    """evlogic's rule files ``ours`` and a user's ``program`` added to
    ``control``: ours as trees parsed once a thread after the first
    grounding, as text before it (clingo's one parse of the text costs less
    than trees made once)."""
    if _grounded_before():
        _add_statements(control, (node for path in ours for node in rule_statements(path)))
    else:
        for path in ours:
            control.load(str(path))
    _add_statements(control, (node for _path, nodes in program.own for node in nodes))
    if program.users:
        # A user's programs as read, what clingo said reading them as if
        # said now, "for every such X" grounded as evlogic means it
        # (evlogic/asp/quantifier.py).
        for code, message in program.messages:
            log(code, message)
        from evlogic.asp.quantifier import rewritten  # a user's programs only

        _add_statements(control, rewritten(program.written))


def _ground_layers(control: clingo.Control) -> None:
    """The multi-shot layers of the region closure, one a step while the
    last one grew (rules/scoring/region_order.lp)."""
    layer = 0
    while is_fact(control, clingo.Function("grew", [clingo.Number(layer)])):
        layer += 1
        control.ground([("frontier", [clingo.Number(layer)])])
        checkpoint()
        control.ground([("layer", [clingo.Number(layer)])])
        checkpoint()


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
def rule_statements(path: Path) -> tuple[clingo.ast.AST, ...]:
    """One of evlogic's own rule files as syntax trees, parsed once a
    thread (see :func:`per_thread_cache`; the asking thread's alone: the
    search's soundness check reads them on the thread that grounds them,
    evlogic/asp/soundness.py): parsing the scoring rules cost
    more than adding their trees (1.7 ms against 0.9 ms of the 12 ms a usa
    position takes).  Each file's trees begin with its ``#program base.``;
    comments are left out."""
    from clingo.ast import ASTType, parse_files

    statements: list[clingo.ast.AST] = []
    parse_files([str(path)], statements.append)
    return tuple(s for s in statements if s.ast_type != ASTType.Comment)


@per_thread_cache(maxsize=16)
def parsed_facts(facts: str) -> tuple[clingo.ast.AST, ...]:
    """Facts that stay the same from call to call (a board's, see
    evlogic.asp.facts.board_program) as syntax trees for :func:`ground`'s
    ``statements``, parsed once a thread (see :func:`per_thread_cache`:
    the trees are the asking thread's alone): adding the trees of the usa
    board costs half of parsing its text."""
    from clingo.ast import parse_string

    statements: list[clingo.ast.AST] = []
    parse_string(facts, statements.append)
    return tuple(statements)


def is_fact(control: clingo.Control, atom: clingo.Symbol) -> bool:
    """Whether ``atom`` is a fact of the grounded ``control``."""
    found = control.symbolic_atoms[atom]
    return found is not None and found.is_fact
