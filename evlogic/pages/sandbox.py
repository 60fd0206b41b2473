"""A user's page template, rendered as data.

A template is something designers share, so rendering one must fill its
placeholders and do nothing else.  It is rendered in Jinja2's immutable
sandbox (:class:`PageEnvironment`) with:

- only the placeholders the page documents reachable: an attribute is
  reachable when the page lists it for the value's type (and a ``for``
  loop's ``loop.*``); nothing of Python's own types (no ``''.format``, no
  ``__class__``), no global but the page's (no ``range``, ``cycler``,
  ``joiner``, ``namespace``, ``lipsum``, ``dict``), and only the filters in
  :data:`FILTERS`;
- every value bounded: a text or list longer than :data:`MAX_VALUE` or a
  whole number past :data:`MAX_BITS` bits is refused before it is made
  (``'a' * 10**9``, ``[0] * 10**9``, ``10**10**9``), ``%`` formats no text,
  and the page stops at :data:`MAX_PAGE` characters;
- files read only beside the template (:func:`beside`): ``include``,
  ``import`` and ``extends`` name files in its folder, never an absolute
  path, ``..`` or a link that leads out; each must be UTF-8 text without a
  NUL byte.

Whatever a template does wrong is a :class:`~evlogic.errors.InputError`
naming the template's file and line (:func:`render`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.environment import TemplateModule
from jinja2.exceptions import SecurityError
from jinja2.nodes import EvalContext
from jinja2.runtime import BlockReference, LoopContext, markup_join, str_join
from jinja2.sandbox import ImmutableSandboxedEnvironment

from evlogic.errors import InputError, quote
from evlogic.loading.yamlfile import read_file
from evlogic.resources import display_path

#: The longest text (characters) or list (items) a template may make.
MAX_VALUE = 1_000_000

#: The largest whole number a template may make, in bits.
MAX_BITS = 256

#: The longest page a template may write, in characters.
MAX_PAGE = 20_000_000

#: The largest template file, in bytes.
MAX_TEMPLATE_BYTES = 4 * 1024 * 1024

#: The filters a template may use: Jinja2's, less those that can make a value
#: far larger than their input (``center``, ``indent``, ``wordwrap``,
#: ``format``, ``replace``, ``batch``, ``slice``) or that reach attributes
#: by name or print Python's view of a value (``attr``, ``pprint``, ...).
FILTERS = frozenset(
    {
        "abs", "capitalize", "count", "d", "default", "e", "escape", "first", "float",
        "forceescape", "int", "join", "last", "length", "list", "lower", "map", "max",
        "min", "reject", "rejectattr", "reverse", "round", "safe", "select", "selectattr",
        "sort", "string", "striptags", "sum", "title", "trim", "truncate", "unique",
        "upper", "wordcount",
    }
)  # fmt: skip

#: What a ``for`` loop's ``loop`` offers.
LOOP_ATTRIBUTES = frozenset(
    {
        "index", "index0", "revindex", "revindex0", "first", "last", "length", "depth",
        "depth0", "previtem", "nextitem", "cycle", "changed",
    }
)  # fmt: skip


class Refused(jinja2.TemplateError):
    """Something a template may not do (the message says what); ``error``:
    the file it names is not a template (not UTF-8, too large, ...)."""

    def __init__(self, message: str, error: InputError | None = None) -> None:
        super().__init__(message)
        self.error = error


def beside(folder: Path, name: str, what: str) -> Path:
    """The file ``name`` names in ``folder`` (a template's folder): a
    relative path without ``..`` that, links resolved, stays in the folder."""
    relative = PurePosixPath(name.replace("\\", "/"))
    if not name or "\0" in name or relative.is_absolute() or name.startswith("~"):
        raise Refused(f"{what} {quote(name)} must be a file beside the template (a relative path)")
    if ".." in relative.parts:
        raise Refused(f"{what} {quote(name)} must be a file beside the template (no '..')")
    path = folder / relative
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of links
        inside = False
    if not inside:
        raise Refused(f"{what} {quote(name)} leads out of the template's folder")
    if not path.is_file():
        raise Refused(f"no {what} {quote(name)} beside the template")
    return path


def template_text(data: bytes, source: str) -> str:
    """A template file's bytes as text: UTF-8 (a UTF-8 byte-order mark is
    dropped) without a NUL byte; anything else is an InputError."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        reason = f"{error.reason} at byte {error.start}"
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            reason = "UTF-16 (a byte-order mark)"
        raise InputError(source, f"not UTF-8 text ({reason})") from None
    nul = text.find("\0")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise InputError(source, "not text: a NUL byte", line=line)
    return text


class FolderLoader(jinja2.BaseLoader):
    """Templates from one folder (:func:`beside`), as :func:`template_text`
    reads them; remembers each file's name as errors show it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.shown: dict[str, str] = {}  # a template's file name -> as errors name it

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        path = beside(self.folder, template, "template")
        shown = display_path(path)
        try:
            text = template_text(read_file(path, shown, MAX_TEMPLATE_BYTES), shown)
        except InputError as error:
            raise Refused(str(error), error) from None
        self.shown[str(path)] = shown
        return text, str(path), lambda: True


class _BoundedCodeGenerator(CodeGenerator):
    """Jinja2's code generator, its ``~`` checked as the operators are."""

    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.concatenated(context, (")
        for argument in node.nodes:
            self.visit(argument, frame)
            self.write(", ")
        self.write("))")


def _too_long() -> SecurityError:
    return SecurityError(f"a value longer than {MAX_VALUE:,} (a template makes no longer)")


def _too_large() -> SecurityError:
    return SecurityError(f"a number past {MAX_BITS} bits (a template makes no larger)")


def _bounded(value: Any) -> Any:
    """``value``, when a template may make it."""
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_VALUE:
        raise _too_long()
    if isinstance(value, int) and value.bit_length() > MAX_BITS:
        raise _too_large()
    return value


def _repeated(left: Any, right: Any) -> None:
    """Refuses ``left * right`` before it is made when it would be too large."""
    for sequence, times in ((left, right), (right, left)):
        repeats = isinstance(sequence, (str, list, tuple)) and isinstance(times, int)
        if repeats and len(sequence) * max(times, 0) > MAX_VALUE:
            raise _too_long()
    both = isinstance(left, int) and isinstance(right, int)
    if both and left.bit_length() + right.bit_length() > MAX_BITS:
        raise _too_large()


def _power(base: Any, exponent: Any) -> None:
    """Refuses ``base ** exponent`` before it is made when it would be too large."""
    whole = isinstance(base, int) and isinstance(exponent, int)
    if whole and abs(base) > 1 and exponent * base.bit_length() > MAX_BITS:
        raise _too_large()


def _join(
    context: EvalContext, value: Iterable[Any], separator: str = "", attribute: Any = None
) -> str:
    """Jinja2's ``join``, refusing a text too long before it is made."""
    items = list(value)
    size = len(str(separator)) * max(len(items) - 1, 0)
    for item in items:
        size += len(str(item))
        if size > MAX_VALUE:
            break
    if size > MAX_VALUE:
        raise _too_long()
    return str(jinja2.filters.do_join(context, items, separator, attribute))


def _sum(iterable: Iterable[Any], attribute: str | None = None, start: Any = 0) -> Any:
    """Jinja2's ``sum``, of numbers only."""
    items = list(iterable)
    if attribute is not None:
        raise SecurityError("sum takes no attribute in a template")
    for item in [start, *items]:
        if not isinstance(item, (int, float)) or isinstance(item, bool):
            raise TypeError(f"sum adds numbers, not {type(item).__name__}")
    return _bounded(sum(items, start))


class PageEnvironment(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox reduced to a page's placeholders:
    ``placeholders`` maps each type the page hands a template to the
    attributes a template may read of it."""

    code_generator_class = _BoundedCodeGenerator
    intercepted_binops = frozenset({"+", "*", "**", "%", "//", "/", "-"})

    def __init__(
        self,
        loader: FolderLoader,
        placeholders: Mapping[type, frozenset[str]],
        undefined: type[jinja2.Undefined] = jinja2.StrictUndefined,
    ) -> None:
        super().__init__(
            loader=loader,
            autoescape=True,
            undefined=undefined,
            keep_trailing_newline=True,
            finalize=_filled,
            auto_reload=False,
        )
        self.globals.clear()
        self.filters = {name: self.filters[name] for name in FILTERS}
        self.filters["join"] = jinja2.pass_eval_context(_join)
        self.filters["sum"] = _sum
        self.placeholders = dict(placeholders)

    def getattr(self, obj: Any, attribute: str) -> Any:
        _undefined(obj)
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        _undefined(obj)
        return super().getitem(obj, argument)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        if not super().is_safe_attribute(obj, attr, value):
            return False
        if isinstance(obj, LoopContext):
            return attr in LOOP_ATTRIBUTES
        if isinstance(obj, BlockReference):
            return attr == "super"
        if isinstance(obj, TemplateModule):  # {% import %}: its macros and {% set %}s
            return attr in obj.__dict__
        for kind, names in self.placeholders.items():
            if isinstance(obj, kind):
                return attr in names
        return False  # nothing of Python's own types, nor of jinja's (TemplateReference...)

    def call_binop(
        self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any
    ) -> Any:
        if operator == "*":
            _repeated(left, right)
        elif operator == "**":
            _power(left, right)
        elif operator == "%" and isinstance(left, str):
            raise SecurityError("a template formats no text with %")
        return _bounded(super().call_binop(context, operator, left, right))

    @staticmethod
    def concat(pieces: Iterable[str]) -> str:
        """What a macro, a caller or a ``{% set %}`` block writes, bounded
        (so that no nesting multiplies it past :data:`MAX_VALUE`)."""
        kept: list[str] = []
        size = 0
        for piece in pieces:
            size += len(piece)
            if size > MAX_VALUE:
                raise _too_long()
            kept.append(piece)
        return "".join(kept)

    def concatenated(self, context: jinja2.runtime.Context, parts: tuple[Any, ...]) -> Any:
        """``a ~ b ~ ...``, bounded (a Markup when autoescaping)."""
        joined = markup_join(parts) if context.eval_ctx.autoescape else str_join(parts)
        return _bounded(joined)


def _undefined(obj: Any) -> None:
    """An undefined name's error (``'cycler' is undefined``) when a
    template asks for anything of it."""
    if isinstance(obj, jinja2.Undefined):
        str(obj)  # (a StrictUndefined raises its UndefinedError)
        raise jinja2.UndefinedError("undefined")


def _filled(value: Any) -> Any:
    """A printed placeholder's value: never ``None``."""
    if value is None:
        raise LookupError("nothing fills this placeholder (it is none)")
    return value


#: What a template's mistakes raise while it renders.
TEMPLATE_ERRORS: tuple[type[BaseException], ...] = (
    jinja2.TemplateError,
    LookupError,
    AttributeError,
    TypeError,
    ValueError,
    ArithmeticError,
    RecursionError,
    MemoryError,
)


def render(environment: PageEnvironment, template: Path, context: Mapping[str, Any]) -> str:
    """``template`` (a file in ``environment``'s loader's folder) rendered
    with ``context``; any mistake of the template is an InputError naming
    its file and line."""
    loader = environment.loader
    assert isinstance(loader, FolderLoader)
    shown = display_path(template)
    try:
        compiled = environment.get_template(template.name)
        pieces: list[str] = []
        size = 0
        for piece in compiled.generate(context):
            size += len(piece)
            if size > MAX_PAGE:
                raise InputError(shown, f"the page passes {MAX_PAGE:,} characters")
            pieces.append(piece)
        return "".join(pieces)
    except jinja2.TemplateSyntaxError as error:
        where = loader.shown.get(error.filename or "", shown)
        raise InputError(where, error.message or "syntax error", line=error.lineno) from None
    except RecursionError:
        where, line = _template_line(sys.exc_info()[2], loader.shown, shown)
        what = "the template recurses (a macro that calls itself, a file that includes itself)"
        if line is None:  # while it was read
            what = "the template recurses: its expressions nest too deeply"
        raise InputError(where, what, line=line) from None
    except TEMPLATE_ERRORS as error:
        where, line = _template_line(sys.exc_info()[2], loader.shown, shown)
        if isinstance(error, Refused) and error.error is not None and line is None:
            raise error.error from None  # the template itself is not one
        raise InputError(where, _said(error), line=line) from None


def _said(error: BaseException) -> str:
    if isinstance(error, MemoryError):
        return "the template needs more memory than --memory-limit"
    text = str(error.args[0]) if error.args else type(error).__name__
    if isinstance(error, KeyError):
        return f"no {quote(text)}"
    if isinstance(error, SecurityError) and text.startswith("access to attribute"):
        return f"not a placeholder: {text}"
    return text or type(error).__name__


def _template_line(
    trace: TracebackType | None, shown: Mapping[str, str], default: str
) -> tuple[str, int | None]:
    """The template file and line the error was raised at (the innermost
    frame of a template: Jinja gives a template's frames its file's name
    and line numbers)."""
    where, line = default, None
    while trace is not None:
        name = shown.get(trace.tb_frame.f_code.co_filename)
        if name is not None:
            where, line = name, trace.tb_lineno
        trace = trace.tb_next
    return where, line
