"""A user's program, read once: a property, a rule set's ``.lp`` files, or
the files a diff compares with (evlogic's own, read in a user's program's
place).

:func:`read_program` parses the files (``#include``s followed) once and
keeps what every later step asks of them: the statements, what they
derive and mention, the files clingo read and what clingo said reading
them.  The fragment (evlogic/asp/fragment.py), the per-atom check and the
search (evlogic/asp/search/), the cone of influence (evlogic/asp/cone.py),
the soundness check (evlogic/asp/soundness.py) and the grounding
(evlogic/asp/solver.py) all take that one object.

Its syntax trees belong to one thread at a time: clingo counts a tree's
references without a lock (``clingo_ast_acquire`` and ``_release``, called
without the GIL), so two threads walking one tree at once corrupt it
("invalid ast" errors, then a crash).  A command reads its programs on its
own thread and hands them to the search's worker (evlogic.limits.call_before),
waiting while the worker runs and touching the trees no more once it gives
up on it; the worker holds its own reference, so whichever thread lets go
last frees them.  A program is read for one command and never cached
between commands (evlogic's own rule files are, one cache a thread:
evlogic.asp.solver.per_thread_cache).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import clingo

from evlogic.errors import InputError
from evlogic.loading.yamlfile import read_file
from evlogic.resources import display_path, rules_dir

if TYPE_CHECKING:  # clingo.ast is imported where a program is parsed: evlogic score
    from clingo.ast import AST  # with no program of a user's never needs it

Predicate = tuple[str, int]

#: What clingo said while parsing: its code and its message.
Message = tuple[clingo.MessageCode, str]


@dataclass(frozen=True, eq=False)
class UserProgram:
    """A user's program as read (see the module's docstring)."""

    paths: tuple[Path, ...]
    #: evlogic's own files among ``paths`` (a bundled property, a diff's
    #: files), each with its statements as grounding adds them (comments
    #: left out): grounded as they are.
    own: tuple[tuple[Path, tuple[AST, ...]], ...]
    #: The statements of the other files, read together as clingo reads
    #: them, ``#include``s followed: what a user wrote, grounded with "for
    #: every such X" as evlogic means it (evlogic/asp/quantifier.py).
    written: tuple[AST, ...]
    #: Every file of the user's read (included ones too), as clingo names
    #: it in messages: a message about one is the user's to mend.
    files: frozenset[str]
    #: What clingo said reading the user's files (warnings: an error is an
    #: InputError at once); grounding passes them on as it does its own.
    messages: tuple[Message, ...]
    #: Every file of the user's read, resolved: two programs that share one
    #: are read together (:meth:`joined`).
    read: frozenset[Path]
    #: The predicates in the heads of its rules.
    defines: frozenset[Predicate]
    #: Every predicate it mentions.
    mentions: frozenset[Predicate]

    @property
    def statements(self) -> tuple[AST, ...]:
        """Every statement: evlogic's own files' first, then the user's."""
        return (*(node for _path, nodes in self.own for node in nodes), *self.written)

    @property
    def users(self) -> tuple[Path, ...]:
        """The files among ``paths`` that a user wrote (not shipped in rules/)."""
        return tuple(path for path in self.paths if not shipped(path))

    def rules(self) -> Iterator[AST]:
        """Its rules (choices included)."""
        from clingo.ast import ASTType as T

        return (node for node in self.statements if node.ast_type == T.Rule)

    def joined(self, other: UserProgram) -> UserProgram:
        """Both programs, as :func:`read_program` reads their paths given
        together (``self``'s first) without reading them again.  clingo
        reads files given together last first (so the user's statements of
        ``other`` come first), and a file that both read only once, with a
        warning: two programs that share a file are read again, together."""
        if not other.paths:
            return self
        if not self.paths:
            return other
        if self.read & other.read:
            return read_program([*self.paths, *other.paths])
        return UserProgram(
            self.paths + other.paths,
            self.own + other.own,
            other.written + self.written,
            self.files | other.files,
            other.messages + self.messages,
            self.read | other.read,
            self.defines | other.defines,
            self.mentions | other.mentions,
        )


NOTHING = UserProgram((), (), (), frozenset(), (), frozenset(), frozenset(), frozenset())


def read_program(paths: Sequence[Path]) -> UserProgram:
    """Parse a user's programs, ``#include``s followed, once.

    Parsed, not loaded: text that is not UTF-8 (:func:`check_user_text`), a
    syntax error, a ``#script`` block or an ``@``-call is an InputError
    naming the file and line, before clingo could run a script.  A user's
    program may not run Python (evlogic's own rules answer their @-calls
    from a grounding context, which a user's call would reach)."""
    if not paths:  # (clingo would parse standard input for an empty list)
        return NOTHING
    from clingo.ast import ASTType as T
    from clingo.ast import Transformer, parse_files

    paths = tuple(paths)
    visited = check_user_text(paths)
    users = [path for path in paths if not shipped(path)]
    mentions: set[Predicate] = set()
    defines: set[Predicate] = set()
    files = {str(path) for path in users}
    refused: list[InputError] = []

    def refuse(node: AST, what: str) -> None:
        where = node.location.begin
        refused.append(InputError(display_path(Path(where.filename)), what, line=where.line))

    class Read(Transformer):
        def visit_SymbolicAtom(self, node: AST) -> AST:
            term = node.symbol
            if term.ast_type == T.Function:
                mentions.add((term.name, len(term.arguments)))
            return node.update(**self.visit_children(node))

        def visit_Function(self, node: AST) -> AST:
            if node.external:
                refuse(node, f"@{node.name}: rule set and property programs cannot call Python")
            return node.update(**self.visit_children(node))

        def visit_Script(self, node: AST) -> AST:
            refuse(node, "a #script block: rule set and property programs cannot run Python")
            return node

    read = Read()

    def parse(group: Sequence[Path], user: bool) -> tuple[list[AST], list[Message]]:
        statements: list[AST] = []
        messages: list[Message] = []

        def statement(node: AST) -> None:
            if user:
                files.add(node.location.begin.filename)
            read(node)
            if node.ast_type == T.Rule:
                defines.update(_signature(atom) for atom in _head_atoms(node.head))
            statements.append(node)

        def log(code: clingo.MessageCode, message: str) -> None:
            messages.append((code, message))

        try:
            parse_files([str(path) for path in group], statement, logger=log)
        except RuntimeError:
            raise user_program_error(messages[0][1].strip()) from None
        return statements, messages

    own: list[tuple[Path, tuple[AST, ...]]] = []
    for path in paths:
        if shipped(path):  # parsed one by one, as grounding parses evlogic's files
            statements, _messages = parse([path], user=False)
            own.append((path, tuple(node for node in statements if node.ast_type != T.Comment)))
    written, messages = parse(users, user=True) if users else ([], [])
    if refused:
        raise refused[0]
    read_files = {Path(name).resolve() for name in files} | {path.resolve() for path in visited}
    return UserProgram(
        paths,
        tuple(own),
        tuple(written),
        frozenset(files),
        tuple(messages),
        frozenset(path for path in read_files if not shipped(path)),
        frozenset(defines),
        frozenset(mentions),
    )


def user_files(rules: Sequence[Path]) -> list[Path]:
    """The programs among ``rules`` that a user wrote (not shipped in rules/)."""
    return [path for path in rules if not shipped(path)]


@lru_cache(maxsize=1024)
def shipped(path: Path) -> bool:
    """``path`` is one of evlogic's own rules (resolving paths costs more
    than grounding a small position, so each is resolved once)."""
    return rules_dir().resolve() in path.resolve().parents


#: An ``#include "file"`` directive, and the comments that may hide one.
_INCLUDE = re.compile(r'#include\s*"((?:[^"\\]|\\.)*)"')
_COMMENTS = re.compile(r"%\*.*?\*%|%[^\n]*", re.DOTALL)


def check_user_text(programs: Sequence[Path]) -> set[Path]:
    """Every file a user's programs read (``#include "..."`` followed, as
    clingo resolves it: the working directory first, then the including
    file's folder) is UTF-8 text, else an InputError naming the file and
    line.  clingo quotes a file's bytes in its messages (a syntax error, an
    undefined atom), and a message that is not UTF-8 ends the process from
    inside clingo's Python logger, which cannot decode it.  Returns the
    files read."""
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
    return seen


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


def _signature(atom: AST) -> Predicate:
    symbol = atom.symbol
    return symbol.name, len(symbol.arguments)


def _head_atoms(head: AST) -> list[AST]:
    """A rule head's atoms: one plain atom, or a choice's elements."""
    from clingo.ast import ASTType as T

    if head.ast_type == T.Literal and head.atom.ast_type == T.SymbolicAtom:
        return [head.atom] if head.atom.symbol.ast_type == T.Function else []
    if head.ast_type == T.Aggregate:
        return [
            element.literal.atom
            for element in head.elements
            if element.literal.atom.ast_type == T.SymbolicAtom
            and element.literal.atom.symbol.ast_type == T.Function
        ]
    return []


def refuse_unsafe(program: UserProgram) -> None:
    """Raise an InputError naming the file and line of a rule of
    ``program`` clingo cannot ground on its own terms (an unsafe variable:
    one no positive body atom binds), before any game grounds it: the
    statements added to a throwaway control and grounded with no facts."""
    errors: list[str] = []

    def logger(code: clingo.MessageCode, message: str) -> None:
        if code == clingo.MessageCode.RuntimeError or ": error:" in message:
            errors.append(message)

    control = clingo.Control(["--warn=none"], logger=logger, message_limit=1)
    from clingo.ast import ProgramBuilder

    try:
        with ProgramBuilder(control) as builder:
            for statement in program.statements:
                builder.add(statement)
        control.ground([("base", [])])
    except RuntimeError:
        if errors:
            error = user_program_error(errors[0])
            text = error.message.replace("[#inc_base];", "").replace(":-[#inc_base].", ".")
            text = re.sub(r"\S+:\d+:\d+-\d+: note: ", "", text)  # the notes, less their place
            raise InputError(
                error.source,
                text + " (every variable must occur in a positive body atom)",
                line=error.line,
            ) from None
        raise
