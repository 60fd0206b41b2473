"""Strict YAML reading, and a cursor that validates values and names them.

PyYAML alone forgets where a value came from and quietly keeps the last of
two duplicate keys.  Here every mapping and list remembers the line of each
entry and the text of each plain scalar as written, duplicate keys are
errors, and :class:`Field` turns "not what we expected" into an
:class:`~evlogic.errors.InputError` naming file, line and field.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

from evlogic.errors import InputError

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class LineMap(dict):
    """A mapping with text keys that remembers the line of each key and the
    raw text of each plain scalar value."""

    line: int | None = None
    key_lines: dict[str, int]
    raw_values: dict[str, str | None]


class LineList(list):
    """A list that remembers the line and raw text of each item."""

    line: int | None = None
    item_lines: list[int]
    raw_items: list[str | None]


def _raw(node: yaml.Node) -> str | None:
    """The text of a plain scalar as written (``NO`` stays ``NO``)."""
    if isinstance(node, yaml.ScalarNode) and not node.style:  # libyaml: "" for plain
        return str(node.value)
    return None


class _StrictLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    def construct_line_map(self, node: yaml.MappingNode) -> LineMap:
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

    def construct_line_list(self, node: yaml.SequenceNode) -> LineList:
        result = LineList(self.construct_object(child, deep=True) for child in node.value)
        result.line = node.start_mark.line + 1
        result.item_lines = [child.start_mark.line + 1 for child in node.value]
        result.raw_items = [_raw(child) for child in node.value]
        return result


_StrictLoader.add_constructor("tag:yaml.org,2002:map", _StrictLoader.construct_line_map)
_StrictLoader.add_constructor("tag:yaml.org,2002:seq", _StrictLoader.construct_line_list)


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
            f"duplicate key {dup.key!r} (first on line {dup.first})",
            line=dup.line,
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        line = mark.line + 1 if mark is not None else None
        raise InputError(source, f"YAML syntax error: {problem}", line=line) from None
    except yaml.YAMLError as exc:
        raise InputError(source, f"YAML error: {exc}") from None
    except RecursionError:
        raise InputError(source, "YAML nests too deeply") from None


def read_yaml(path: Path, source: str | None = None) -> Field:
    """Read a YAML file into a top-level :class:`Field`."""
    name = source or str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(name, "no such file") from None
    except IsADirectoryError:
        raise InputError(name, "is a directory, not a file") from None
    except OSError as exc:
        raise InputError(name, f"cannot read: {exc.strerror}") from None
    return yaml_document(utf8_text(data, name), name)


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


def closest(word: str, choices: Iterable[str]) -> str:
    """A ``(did you mean 'X'?)`` suffix, or ``""`` when nothing is close."""
    by_folded: dict[str, str] = {}
    for choice in choices:
        by_folded.setdefault(choice.casefold(), choice)
    matches = difflib.get_close_matches(word.casefold(), list(by_folded), n=1, cutoff=0.6)
    return f" (did you mean {by_folded[matches[0]]!r}?)" if matches else ""


def _type_name(value: object) -> str:
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
    return type(value).__name__


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
            raise self.error(f"must be {what}, not {_type_name(self.value)}")
        key_lines = getattr(self.value, "key_lines", {})
        raw_values = getattr(self.value, "raw_values", {})
        for key, value in self.value.items():
            line = key_lines.get(key)
            key_field = self._child(self.path, key, line, None)
            name = str(key)
            child_path = f"{self.path}.{name}" if self.path else name
            value_line = getattr(value, "line", None) if isinstance(value, (dict, list)) else None
            yield key_field, self._child(child_path, value, value_line or line, raw_values.get(key))

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
                raise key_field.error(f"unknown key {key!r}{hint}")
            found[key] = value_field
        for key in required:
            if key not in found:
                raise self.error(f"missing key {key!r}")
        return found

    def items(self, what: str = "a list") -> list[Field]:
        """The item fields of a list."""
        if not isinstance(self.value, list):
            raise self.error(f"must be {what}, not {_type_name(self.value)}")
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
        else:
            raise self.error(f"must be {what}, not {_type_name(self.value)}")
        if not text.strip():
            raise self.error(f"must be {what}, not empty")
        if not is_unicode(text):
            raise self.error(f"must be {what}, not text with a lone surrogate (like \\udcff)")
        return text

    def integer(self, minimum: int, maximum: int, what: str = "a whole number") -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"must be {what}, not {_type_name(value)} ({self.raw or value!r})")
        if not minimum <= value <= maximum:
            raise self.error(f"must be {what} between {minimum} and {maximum}, not {value}")
        return value

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"must be true or false, not {_type_name(self.value)}")
        return self.value
