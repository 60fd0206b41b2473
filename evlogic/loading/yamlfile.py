"""Strict YAML reading, and a cursor that validates values and names them.

PyYAML alone forgets where a value came from and quietly keeps the last of
two duplicate keys.  Here every mapping and list remembers the line of each
entry and the text of each plain scalar as written, duplicate keys are
errors, and :class:`Field` turns "not what we expected" into an
:class:`~evlogic.errors.InputError` naming file, line and field.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, ClassVar

import yaml

from evlogic.errors import QUOTE_LIMIT, InputError, quote, shortened
from evlogic.errors import closest as closest  # (re-exported: the loaders import it here)

if TYPE_CHECKING:  # libyaml's loader when built with it: the same interface
    _BaseLoader = yaml.SafeLoader
else:
    _BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: The largest YAML file (game, board, rule set) evlogic reads.
MAX_FILE_BYTES = 64 * 1024 * 1024

#: A whole number as a person writes it: decimal digits, no leading zero.
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")

#: Longer whole numbers are not read at all (no limit of evlogic is near).
MAX_DIGITS = 30

#: Values YAML aliases (``*name``, ``<<: *name``) may repeat in one file,
#: beyond as many as the file writes out: repeating a value costs nothing to
#: write and everything to read (a 10 KB board whose states share three
#: neighbour lists is the complete tripartite board of 21,675 borders).
MIN_REPEATED_VALUES = 10_000

_TAG = "tag:yaml.org,2002:"
#: What a plain scalar may be taken as; anything else (a date, ``=``) is text.
_IMPLICIT = {_TAG + name for name in ("bool", "null", "int", "float", "merge")}


class LineMap(dict[str, object]):
    """A mapping with text keys that remembers the line of each key and the
    raw text of each plain scalar value."""

    line: int | None = None
    key_lines: dict[str, int]
    raw_values: dict[str, str | None]


class LineList(list[object]):
    """A list that remembers the line and raw text of each item."""

    line: int | None = None
    item_lines: list[int]
    raw_items: list[str | None]


@dataclass(frozen=True)
class Unreadable:
    """A value YAML wrote but evlogic does not read: an explicit tag other
    than text, number, true/false, null, mapping or list (``!!timestamp``,
    ``!!binary``, ``!!python/...``), or a tagged value that is not what its
    tag says (``!!int abc``).  Never an exception while loading: the field
    that holds it says what it should have been (see :class:`Field`)."""

    tag: str
    text: str  # the value as written ("" for a mapping or list)
    reason: str
    plain: bool = False  # a plain scalar with no tag of its own: text as written

    def describe(self) -> str:
        tag = self.tag.replace(_TAG, "!!")
        written = f" {quote(self.text)}" if self.text else ""
        return f"{tag}{written} ({self.reason})"


def _raw(node: yaml.Node) -> str | None:
    """The text of a plain scalar as written (``NO`` stays ``NO``)."""
    if isinstance(node, yaml.ScalarNode) and not node.style:  # libyaml: "" for plain
        return str(node.value)
    return None


#: The first character of a plain scalar -> (tag, pattern) pairs to try.
_Resolvers = dict[str | None, list[tuple[str, re.Pattern[str]]]]


class _StrictLoader(_BaseLoader):
    # Plain scalars are text, numbers, true/false or null: never a date.
    # (misc: types-PyYAML declares it an instance variable; PyYAML keeps it,
    # and add_implicit_resolver writes it, on the class)
    yaml_implicit_resolvers: ClassVar[_Resolvers] = {  # type: ignore[misc]
        first: [(tag, pattern) for tag, pattern in resolvers if tag in _IMPLICIT]
        for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
    }
    yaml_constructors: ClassVar[dict[str | None, Callable[..., object]]] = {}

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        # Only a document with an anchor (&name) and an alias (*name) can
        # reach a value twice: any other has no repeats to check.
        self._may_repeat = not isinstance(stream, str) or ("&" in stream and "*" in stream)

    def get_single_data(self) -> object:
        node = self.get_single_node()
        if node is None:
            return None
        if self._may_repeat:
            check_repeats(node)
        return self.construct_document(node)

    def construct_line_map(self, node: yaml.Node) -> LineMap | Unreadable:
        if not isinstance(node, yaml.MappingNode):
            return _unreadable(node, "not a mapping")
        written = {id(key) for key, _ in node.value}  # not brought in by a `<<` merge
        self.flatten_mapping(node)
        seen_written: set[str] = set()
        result = LineMap()
        result.line = node.start_mark.line + 1
        result.key_lines = {}
        result.raw_values = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            line = key_node.start_mark.line + 1
            if id(key_node) in written:  # a merged key may be overridden, once
                if key in seen_written:
                    raise _DuplicateKey(key, result.key_lines[key], line)
                seen_written.add(key)
            result[key] = self.construct_object(value_node, deep=True)
            result.key_lines[key] = line
            result.raw_values[key] = _raw(value_node)
        return result

    def _key(self, node: yaml.Node) -> str:
        """Keys are text as written: ``NO``, ``on`` and ``1`` are three ids."""
        if not isinstance(node, yaml.ScalarNode):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be plain text", node.start_mark
            )
        return str(node.value)

    def construct_line_list(self, node: yaml.Node) -> LineList | Unreadable:
        if not isinstance(node, yaml.SequenceNode):
            return _unreadable(node, "not a list")
        result = LineList(self.construct_object(child, deep=True) for child in node.value)
        result.line = node.start_mark.line + 1
        result.item_lines = [child.start_mark.line + 1 for child in node.value]
        result.raw_items = [_raw(child) for child in node.value]
        return result

    def construct_checked_scalar(self, node: yaml.Node) -> object:
        """Text, a number, true/false or null; whatever cannot be one of them
        (``!!int abc``, a 5,000-digit number, ``!!str [a]``) is Unreadable."""
        if not isinstance(node, yaml.ScalarNode):
            return _unreadable(node, "not a single value")
        if node.tag == _TAG + "int" and sum(c.isdigit() for c in node.value) > MAX_DIGITS:
            return self._too_long(node)  # (Python would refuse to read 4,300 digits)
        try:
            value = _SCALARS[node.tag](self, node)
        except Exception:  # whatever PyYAML raises for a value it cannot build
            return _unreadable(node, f"not a valid {node.tag.replace(_TAG, '')}")
        if isinstance(value, int) and abs(value) >= 10**MAX_DIGITS:  # 0x...
            return self._too_long(node)
        return value

    def _too_long(self, node: yaml.ScalarNode) -> Unreadable:
        """A number with too many digits, as the field that holds it words it."""
        return Unreadable(
            node.tag,
            node.value,
            f"a number of more than {MAX_DIGITS} digits",
            plain=_raw(node) is not None and self._implicit_tag(node.value) == node.tag,
        )

    def _implicit_tag(self, value: str) -> object:
        """The tag ``value`` would have as a plain scalar."""
        # (no-untyped-call: types-PyYAML leaves resolve unannotated)
        return self.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]

    def construct_unsupported(self, node: yaml.Node) -> Unreadable:
        return _unreadable(node, "a YAML type evlogic does not read")


def _unreadable(node: yaml.Node, reason: str) -> Unreadable:
    text = node.value if isinstance(node, yaml.ScalarNode) else ""
    return Unreadable(str(node.tag), str(text), reason)


_SCALARS = {
    _TAG + "str": yaml.constructor.SafeConstructor.construct_yaml_str,
    _TAG + "int": yaml.constructor.SafeConstructor.construct_yaml_int,
    _TAG + "float": yaml.constructor.SafeConstructor.construct_yaml_float,
    _TAG + "bool": yaml.constructor.SafeConstructor.construct_yaml_bool,
    _TAG + "null": yaml.constructor.SafeConstructor.construct_yaml_null,
}
_StrictLoader.add_constructor(_TAG + "map", _StrictLoader.construct_line_map)
_StrictLoader.add_constructor(_TAG + "seq", _StrictLoader.construct_line_list)
for _tag in _SCALARS:
    _StrictLoader.add_constructor(_tag, _StrictLoader.construct_checked_scalar)
_StrictLoader.add_constructor(None, _StrictLoader.construct_unsupported)


class _SelfReference(Exception):
    def __init__(self, line: int, merge: bool) -> None:
        self.line, self.merge = line, merge


class _TooManyRepeats(Exception):
    def __init__(self, repeated: int, written: int, line: int, field: str) -> None:
        self.repeated, self.written, self.line, self.field = repeated, written, line, field


def check_repeats(root: yaml.Node) -> None:
    """The document as its aliases expand it holds at most
    ``max(MIN_REPEATED_VALUES, written)`` values more than it writes out
    (``written``: its distinct values), and no alias refers to a value it
    is inside (:class:`_TooManyRepeats`, :class:`_SelfReference`)."""
    sizes: dict[int, int] = {}  # node -> values in it, as aliases expand it
    uses: dict[int, int] = {}  # node -> how often it is reached
    nodes: dict[int, yaml.Node] = {}
    parents: dict[int, tuple[int, str]] = {}  # node -> where it is first reached
    inside: set[int] = set()

    def size(node: yaml.Node, parent: int, label: str, merge: yaml.Node | None = None) -> int:
        key = id(node)
        uses[key] = uses.get(key, 0) + 1
        if key in sizes:
            return sizes[key]
        if key in inside:
            where = merge if merge is not None else node
            raise _SelfReference(where.start_mark.line + 1, merge is not None)
        inside.add(key)
        parents[key] = (parent, label)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child, key, f"[{n}]") for n, child in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                merging = key_node if key_node.tag == _TAG + "merge" else None
                name = shortened(str(key_node.value), QUOTE_LIMIT)
                total += size(key_node, key, "") + size(value_node, key, name, merging)
        inside.discard(key)
        sizes[key], nodes[key] = total, node
        return total

    expanded = size(root, 0, "")
    written = len(sizes)
    if expanded - written > max(MIN_REPEATED_VALUES, written):
        most = max(sizes, key=lambda key: (uses[key] - 1) * sizes[key])
        labels = []
        step = most
        while step in parents and step != id(root):
            step, label = parents[step]
            labels.append(label)
        field = ""
        for label in reversed([label for label in labels if label]):
            field += label if label.startswith("[") or not field else f".{label}"
        line = nodes[most].start_mark.line + 1
        raise _TooManyRepeats(expanded - written, written, line, field)


class _DuplicateKey(Exception):
    def __init__(self, key: object, first: int, line: int) -> None:
        self.key, self.first, self.line = key, first, line


def parse_yaml(text: str, source: str) -> object:
    """Parse YAML text strictly; errors name ``source`` and the line."""
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except _DuplicateKey as dup:
        raise InputError(
            source,
            f"duplicate key {quote(dup.key)} (first on line {dup.first})",
            line=dup.line,
        ) from None
    except _SelfReference as loop:
        what = (
            "a merge key '<<' names the mapping it is in: a mapping cannot merge itself"
            if loop.merge
            else "an alias names a value it is inside: YAML that holds itself cannot be read"
        )
        raise InputError(source, what, line=loop.line) from None
    except _TooManyRepeats as many:
        raise InputError(
            source,
            f"YAML aliases (*name) repeat {many.repeated:,} values, most of them this one's; "
            f"a file may repeat {MIN_REPEATED_VALUES:,}, or as many as it writes out "
            f"({many.written:,}): write the repeated values out in full",
            field=many.field or None,
            line=many.line,
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        line = mark.line + 1 if mark is not None else None
        hint = _syntax_hint(text, problem, line)
        raise InputError(source, f"YAML syntax error: {problem}{hint}", line=line) from None
    except yaml.YAMLError as exc:
        raise InputError(source, f"YAML error: {exc}") from None
    except RecursionError:
        raise InputError(source, "YAML nests too deeply") from None


# pyyaml's words for the usual slips, and what a person most likely did.
_INDENTATION = (
    " (check the indentation: the keys of one mapping line up, and a list's "
    "items start with '- ' one level in)"
)
_SYNTAX_HINTS = {
    "mapping values are not allowed": (
        " (a value with ': ' in it needs quotes, or the line is indented too far)"
    ),
    "did not find expected '-' indicator": _INDENTATION,
    "did not find expected key": _INDENTATION,
    "expected <block end>": _INDENTATION,
    "did not find expected ',' or ']'": " (a [ list is not closed with ])",
    "did not find expected ',' or '}'": " (a { mapping is not closed with })",
    "found unexpected end of stream": " (a quote is not closed)",
}


def _syntax_hint(text: str, problem: str, line: int | None) -> str:
    """The likely cause of a YAML syntax error, to add to pyyaml's words."""
    lines = text.splitlines()
    upto = lines[:line] if line is not None else lines
    marked = [n for n, row in enumerate(upto, start=1) if "\ufeff" in row[n == 1 :]]
    if marked:
        return (
            f" (a byte-order mark, U+FEFF, on line {marked[0]}: only the start of a file "
            "may hold one, and files joined together keep each one's; remove it)"
        )
    if any("\t" in row[: len(row) - len(row.lstrip())] for row in upto):
        return " (a tab in the indentation: YAML indents with spaces only)"
    for words, hint in _SYNTAX_HINTS.items():
        if problem.startswith(words):
            return hint
    return ""


def read_yaml(path: Path, source: str | None = None) -> Field:
    """Read a YAML file into a top-level :class:`Field`."""
    name = source or str(path)
    return yaml_document(utf8_text(read_file(path, name), name), name)


def read_file(path: Path, source: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a file, at most ``limit`` of them (more is an InputError).

    A regular file, a pipe (``<(cmd)``) or a character device (``/dev/stdin``)
    is read, and reading stops at the limit (``/dev/zero`` ends there); a
    directory, a socket or a block device is refused."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise InputError(source, "no such file") from None
    except ValueError:  # a NUL byte in the path
        raise InputError(source, "no such file (the name has a NUL byte)") from None
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise InputError(source, "is a directory, not a file")
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise InputError(source, "is not a regular file")
    try:
        with path.open("rb") as stream:
            return read_stream(stream, source, limit)
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None


def read_stream(stream: BinaryIO, source: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """Everything a binary stream holds, up to ``limit`` bytes (more is an InputError)."""
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(source, f"larger than {_size(limit)}, the most evlogic reads")
    return data


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit} bytes"


def missing(path: Path) -> str:
    """Why a path named as a file is none: ``not found``, or there but ``is
    not a regular file`` (a directory, a device)."""
    return "is not a regular file" if path.exists() else "not found"


def utf8_text(data: bytes, source: str) -> str:
    """Bytes read from a file or standard input, as text; not UTF-8 is an InputError."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(source, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def yaml_document(text: str, source: str) -> Field:
    """Parse YAML text into a top-level :class:`Field`."""
    value = parse_yaml(text, source)
    if value is None:
        raise InputError(source, "file is empty")
    return Field(source, "", value, getattr(value, "line", None), None)


def is_unicode(text: str) -> bool:
    """Text UTF-8 can hold: no lone surrogates (which a JSON escape can make)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _spelled(value: str | int | float) -> str:
    """A scalar as JSON and YAML spell it (``true``, not Python's ``True``),
    for values read from JSON, whose text as written is not kept."""
    if isinstance(value, str):
        return value
    import json  # only for a message, as difflib above

    return json.dumps(value)


def type_name(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Unreadable):
        return value.describe()
    return type(value).__name__


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be an id or a name, or None: it may not hold a
    control character (a newline, a tab, NUL, ...), a line or paragraph
    separator, a lone surrogate (which a JSON escape can make) or U+FFFE or
    U+FFFF; XML (diagrams) and one-line output could not hold them."""
    if text.isprintable():  # the usual case, checked fast
        return None
    import unicodedata  # only for text that is not printable

    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            return f"a lone surrogate ({repr(char)[1:-1]})"
        if category in ("Zl", "Zp"):
            return f"a line break ({repr(char)[1:-1]})"
        if category == "Cc" or char in "\ufffe\uffff":
            return f"a control character ({repr(char)[1:-1]})"
    return None


@dataclass(frozen=True)
class Field:
    """A value read from a file, with where it came from.

    ``path`` names the field the way a user would look for it
    (``players[1].states[2]``); ``raw`` is the plain scalar as written, so
    ids and names are taken literally (``NO`` is Norway, not false).
    """

    source: str
    path: str
    value: object
    line: int | None
    raw: str | None

    def error(self, message: str) -> InputError:
        return InputError(self.source, message, field=self.path or None, line=self.line)

    def _child(self, name: str, value: object, line: int | None, raw: str | None) -> Field:
        if line is None:
            line = self.line
        return Field(self.source, name, value, line, raw)

    # --- containers -------------------------------------------------------

    def entries(self, what: str = "a mapping") -> Iterator[tuple[Field, Field]]:
        """(key, value) fields of a mapping, in file order."""
        if not isinstance(self.value, dict):
            raise self.error(f"must be {what}, not {type_name(self.value)}")
        key_lines = getattr(self.value, "key_lines", {})
        raw_values = getattr(self.value, "raw_values", {})
        for key, value in self.value.items():
            line = key_lines.get(key)
            key_field = self._child(self.path, key, line, None)
            name = shortened(str(key), QUOTE_LIMIT)
            child_path = f"{self.path}.{name}" if self.path else name
            value_line = getattr(value, "line", None) if isinstance(value, (dict, list)) else None
            yield key_field, self._child(child_path, value, value_line or line, raw_values.get(key))

    def members(self) -> dict[str, Field]:
        """The fields of a mapping its schema has checked already (keys
        known, required ones there): key -> value field."""
        return {str(key.value): value for key, value in self.entries()}

    def fields(
        self, required: Iterable[str], optional: Iterable[str] = (), what: str = "a mapping"
    ) -> dict[str, Field]:
        """The named fields of a mapping; missing and unknown keys are errors."""
        required, optional = list(required), list(optional)
        known = required + optional
        found: dict[str, Field] = {}
        for key_field, value_field in self.entries(what):
            key = key_field.value
            if key not in known:
                hint = closest(str(key), known) or f" (known: {', '.join(known)})"
                if value_field.value is None and found:
                    # `{states: IN, WV, TN}`: commas split a {...} mapping into keys
                    previous = list(found)[-1]
                    hint += (
                        "; a key with no value: inside {...} a comma starts a new key, "
                        f"so a list needs brackets ({previous}: [A, B, C])"
                    )
                raise key_field.error(f"unknown key {quote(key)}{hint}")
            found[key] = value_field
        for key in required:
            if key not in found:
                raise self.error(f"missing key {quote(key)}")
        return found

    def items(self, what: str = "a list") -> list[Field]:
        """The item fields of a list."""
        if not isinstance(self.value, list):
            raise self.error(f"must be {what}, not {type_name(self.value)}")
        lines = getattr(self.value, "item_lines", None)
        raws = getattr(self.value, "raw_items", None)
        return [
            self._child(
                f"{self.path}[{index}]",
                item,
                lines[index] if lines else None,
                raws[index] if raws else None,
            )
            for index, item in enumerate(self.value)
        ]

    # --- scalars ----------------------------------------------------------

    def text(self, what: str = "text") -> str:
        """Non-empty text, taken as written: ``NO``, ``1`` and ``on`` stay text."""
        if isinstance(self.value, str):
            text = self.value
        elif self.raw is not None and isinstance(self.value, (bool, int, float)):
            text = self.raw
        elif isinstance(self.value, Unreadable) and self.value.plain:
            text = self.value.text
        else:
            raise self.error(f"must be {what}, not {type_name(self.value)}")
        problem = text_problem(text)
        if problem is not None:
            raise self.error(f"must be {what}, not text with {problem}: {quote(text)}")
        if not text.strip():
            raise self.error(f"must be {what}, not {'empty' if not text else 'blank'}")
        return text

    def integer(self, minimum: int, maximum: int, what: str = "a whole number") -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            written = ""
            if isinstance(value, (str, int, float)):
                written = f" ({quote(self.raw or _spelled(value))})"
            raise self.error(f"must be {what}, not {type_name(value)}{written}")
        if self.raw is not None and not _DECIMAL.fullmatch(self.raw):
            # YAML 1.1 reads 010 as 8, 0x10 as 16, 1:30 as 90: never what was meant
            raise self.error(
                f"must be {what} written in decimal digits, not {quote(self.raw)} "
                f"(YAML would read it as {shortened(str(value), 40)})"
            )
        if not minimum <= value <= maximum:
            shown = shortened(str(value), 40)
            raise self.error(f"must be {what} between {minimum} and {maximum}, not {shown}")
        return value

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"must be true or false, not {type_name(self.value)}")
        return self.value
