"""The JSON Schemas of evlogic's files, checked at load time.

A file's structure (which keys, what type each value, which range or
values it may take) is stated once, in ``evlogic/schemas/*.schema.json``;
:func:`validate` checks a parsed file against its schema, once per file,
and words the first problem as every loading error is worded: one line
naming the file, the line and the field (``unknown key 'neighbours' (did
you mean 'neighbors'?)``, ``must be a positive whole number between 1 and
10000000, not 0``).  A value's own ``title`` in the schema names it in the
message (``must be a state id``).  Python keeps only the checks no schema
can state: one field against another (a neighbour that is no state, a
border listed on one side only), and what YAML wrote rather than what it
means (``010``, text with a control character).

jsonschema is imported on the first file checked, and each schema is
compiled once a process.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from evlogic.errors import QUOTE_LIMIT, InputError, closest, quote, shortened
from evlogic.loading.yamlfile import Field, type_name
from evlogic.schemas import schema_path

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

#: What a value of each JSON type is called when its schema has no title.
_TYPE_WORDS = {
    "object": "a mapping",
    "array": "a list",
    "string": "text",
    "integer": "a whole number",
    "boolean": "true or false",
}

#: The order problems are reported in, as a person fixes them: a mapping's
#: keys, then the values' types, then what the values hold.
_KEY_PROBLEMS = ("additionalProperties", "required")

_NUMBERS = {2: "two", 3: "three"}


@cache
def _validator(name: str, part: str | None = None) -> Validator:
    """The compiled validator of schema ``name`` (its ``$ref``s to the other
    schemas resolved), or of its property ``part``, built once a process."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    def resource(other: str) -> Resource:
        return Resource.from_contents(json.loads(schema_path(other).read_text(encoding="utf-8")))

    registry: Registry = Registry().with_resources(
        (f"{other}.schema.json", resource(other)) for other in ("board", "game", "rules")
    )
    return Draft202012Validator(_part(_schema(name), part), registry=registry)


def _schema(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads(schema_path(name).read_text(encoding="utf-8"))
    return loaded


def _inlined(value: object) -> object:
    """A schema with each ``$ref`` to another schema file replaced by it."""
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.endswith(".schema.json"):
            inner = _schema(ref.removesuffix(".schema.json"))
            inner.pop("$schema", None)
            return _inlined(inner)
        return {key: _inlined(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_inlined(item) for item in value]
    return value


def _part(schema: dict[str, object], part: str | None) -> dict[str, object]:
    """A schema, or the schema of its property ``part``."""
    if part is None:
        return schema
    properties = schema["properties"]
    assert isinstance(properties, dict)
    inner: dict[str, object] = properties[part]
    return inner


#: The schemas (and parts) checked at load time -> their generated module.
CHECKS = {
    ("board", None): "board",
    ("game", None): "game",
    ("game", "players"): "game_players",
    ("rules", None): "rules",
}
CHECKS_DIRECTORY = Path(__file__).resolve().parent / "checks"


@cache
def _check(name: str, part: str | None = None) -> Callable[[object], object]:
    """Schema ``name`` (or its property ``part``) as a Python function that
    raises ValueError on the first problem, unworded: generated ahead of
    time by fastjsonschema (:func:`generated_check`) into
    evlogic/loading/checks/, so that a command pays neither its import nor
    its compiling (100 ms for the game schema).  A 3,000-state board is
    checked in 30 ms, where jsonschema takes 600 ms."""
    module = importlib.import_module(f"evlogic.loading.checks.{CHECKS[name, part]}")
    check: Callable[[object], object] = module.validate
    return check


def generated_check(name: str, part: str | None = None) -> str:
    """The source of the generated module that checks schema ``name`` (or
    its ``part``); ``python -m evlogic.loading.schema`` writes them all, and
    tests/test_schemas.py checks they are in step with the schemas."""
    import fastjsonschema

    code: str = fastjsonschema.compile_to_code(
        _inlined(_part(_schema(name), part)), use_default=False, detailed_exceptions=False
    )
    imported = "from fastjsonschema import JsonSchemaValueException, JsonSchemaValuesException\n"
    assert imported in code
    own = (
        "class JsonSchemaValueException(ValueError):\n    pass\n\n\n"
        "JsonSchemaValuesException = JsonSchemaValueException\n"
    )
    code = re.sub(r'^VERSION = "[^"]*"\n', "", code.replace(imported, own), flags=re.M)
    if code.count("Decimal") == 1:  # imported, never used: not worth its import
        code = code.replace("from decimal import Decimal\n", "")
    of = f"{name}.schema.json" + (f", its {part}" if part else "")
    return (
        f"# Generated from evlogic/schemas/{of} by fastjsonschema:\n"
        "# python -m evlogic.loading.schema writes it again.  Do not edit.\n"
        "# mypy: ignore-errors\n"
        "# ruff: noqa\n" + code
    )


def write_checks() -> None:
    """Write evlogic/loading/checks/*.py from the schemas."""
    for (name, part), module in CHECKS.items():
        source = generated_check(name, part)
        (CHECKS_DIRECTORY / f"{module}.py").write_text(source, encoding="utf-8")


def validate(
    top: Field, name: str, what: str, part: str | None = None, shallow: bool = False
) -> None:
    """Check ``top`` (a parsed file, or a mapping built in Python) against
    schema ``name`` (or its property ``part``: a game's ``players``);
    ``what`` names the whole of it (``a board mapping``).  The first
    problem is an InputError naming the file, line and field.  ``shallow``:
    only ``top`` itself (its type, its keys), its values checked later, in
    their turn (a game's board before its players)."""
    try:
        _check(name, part)(top.value)
    except ValueError:  # (fastjsonschema's JsonSchemaValueException): found and worded below
        pass
    else:
        return
    problems = [
        problem
        for problem in _validator(name, part).iter_errors(top.value)
        if not _read_as_written(top, problem) and not (shallow and problem.absolute_path)
    ]
    if not problems:
        return
    first = min(problems, key=lambda problem: _order(top, problem))
    raise _error(top, first, what)


def _order(top: Field, problem: ValidationError) -> tuple[int, int, int, int]:
    """Keys before values, then in file order; of one mapping's keys, an
    unknown one before a missing one."""
    kind = str(problem.validator)
    rank = _KEY_PROBLEMS.index(kind) if kind in _KEY_PROBLEMS else len(_KEY_PROBLEMS)
    line = _locate(top, problem.absolute_path).line or 0
    return (min(rank, 1), line, rank, len(problem.absolute_path))


def _read_as_written(top: Field, problem: ValidationError) -> bool:
    """A plain YAML scalar where text is wanted is text as written (``NO``
    is Norway, ``1`` an id): not a problem (Field.text reads it)."""
    if problem.validator != "type" or "string" not in _types(problem.validator_value):
        return False
    return _locate(top, problem.absolute_path).raw is not None


def _types(value: object) -> list[str]:
    return [value] if isinstance(value, str) else [str(kind) for kind in _listed(value)]


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def _locate(top: Field, path: Iterable[str | int]) -> Field:
    """The field at a JSON path of ``top``, with its line and raw text."""
    field = top
    for step in path:
        field = _child(field, step)
    return field


def _child(field: Field, step: str | int) -> Field:
    value = field.value
    if isinstance(step, int) and isinstance(value, list):
        lines = getattr(value, "item_lines", None)
        raws = getattr(value, "raw_items", None)
        return Field(
            field.source,
            f"{field.path}[{step}]",
            value[step],
            lines[step] if lines else field.line,
            raws[step] if raws else None,
        )
    assert isinstance(value, dict)
    key = str(step)
    child = value[key]
    line = getattr(value, "key_lines", {}).get(key)
    if isinstance(child, (dict, list)):
        line = getattr(child, "line", None) or line
    name = shortened(key, QUOTE_LIMIT)
    return Field(
        field.source,
        f"{field.path}.{name}" if field.path else name,
        child,
        line or field.line,
        getattr(value, "raw_values", {}).get(key),
    )


def _title(schema: object, what: str | None = None) -> str:
    """What a value of ``schema`` is called: its title, else its type's word."""
    if what is not None:
        return what
    if not isinstance(schema, Mapping):
        return "a value"
    title = schema.get("title")
    if isinstance(title, str) and not title.startswith("evlogic "):
        return title
    kinds = _types(schema.get("type"))
    if kinds:
        return _TYPE_WORDS.get(kinds[0], kinds[0])
    return "a value"


def _noun(schema: object) -> str:
    """A title as a noun (``a state mapping`` -> ``state``)."""
    words = _title(schema).split(" ")
    if words[0] in ("a", "an"):
        words = words[1:]
    if words[-1] == "mapping" and len(words) > 1:
        words = words[:-1]
    return " ".join(words)


def _error(top: Field, problem: ValidationError, what: str) -> InputError:
    field = _locate(top, problem.absolute_path)
    schema = problem.schema
    name = _title(schema, what if not problem.absolute_path else None)
    value = field.value
    kind = problem.validator
    if "propertyNames" in problem.schema_path and isinstance(problem.instance, str):
        # a key of the mapping: its line, the mapping's field
        line = getattr(value, "key_lines", {}).get(problem.instance) or field.line
        return InputError(
            field.source,
            f"must be {name}, not {quote(problem.instance)}",
            field=field.path or None,
            line=line,
        )
    if kind == "additionalProperties" and isinstance(value, dict):
        return _unknown_key(field, value, schema)
    if kind == "required":
        missing = [key for key in _listed(problem.validator_value) if key not in _dict(value)]
        return field.error(f"missing key {quote(missing[0] if missing else '')}")
    if kind == "type":
        written = ""
        if "integer" in _types(problem.validator_value) and isinstance(value, (str, int, float)):
            written = f" ({quote(field.raw or _spelled(value))})"
        return field.error(f"must be {name}, not {type_name(value)}{written}")
    if kind in ("minimum", "maximum") and isinstance(schema, Mapping):
        low, high = schema.get("minimum"), schema.get("maximum")
        shown = shortened(str(value), 40)
        return field.error(f"must be {name} between {low} and {high}, not {shown}")
    if kind in ("minProperties", "minItems") and not _length(value):
        # named as its key names them: states, players, tiers
        plural = field.path.rsplit(".", 1)[-1] or "entrie"
        return field.error(f"must list at least one {plural.removesuffix('s')}")
    if kind in ("minItems", "maxItems") and isinstance(schema, Mapping):
        count = schema.get("minItems")
        inner = _noun(schema.get("items"))
        number = _NUMBERS.get(count, str(count)) if isinstance(count, int) else "?"
        return field.error(f"must be {name} of {number} {inner}s, not {_length(value)} items")
    if kind == "uniqueItems" and isinstance(value, list):
        return _listed_twice(field, value)
    if kind == "minLength":
        return field.error(f"must be {name}, not empty")
    if kind in ("enum", "pattern"):
        written = field.raw or _spelled(value)
        choices = [str(choice) for choice in _listed(problem.validator_value)]
        return field.error(f"must be {name}, not {quote(written)}{closest(written, choices)}")

    return field.error(f"must be {name}: {problem.message}")


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _length(value: object) -> int:
    return len(value) if isinstance(value, (dict, list)) else 0


def _unknown_key(field: Field, value: dict[str, object], schema: object) -> InputError:
    """``unknown key 'x' (did you mean 'y'?)`` on the key's line."""
    properties = _dict(schema.get("properties") if isinstance(schema, Mapping) else None)
    required = _listed(schema.get("required") if isinstance(schema, Mapping) else None)
    known = [str(key) for key in required] + [key for key in properties if key not in required]
    found: list[str] = []
    for key, item in value.items():
        if key in properties:
            found.append(key)
            continue
        hint = closest(key, known) or f" (known: {', '.join(known)})"
        if item is None and found:
            # `{states: IN, WV, TN}`: commas split a {...} mapping into keys
            hint += (
                "; a key with no value: inside {...} a comma starts a new key, "
                f"so a list needs brackets ({found[-1]}: [A, B, C])"
            )
        line = getattr(value, "key_lines", {}).get(key) or field.line
        return InputError(
            field.source, f"unknown key {quote(key)}{hint}", field=field.path or None, line=line
        )
    return field.error("has an unknown key")


def _listed_twice(field: Field, value: list[object]) -> InputError:
    """``'X' is listed twice``, on the second of them."""
    seen: list[object] = []
    for index, item in enumerate(value):
        if item in seen:
            twice = _child(field, index)
            return twice.error(f"{quote(twice.raw or _spelled(item))} is listed twice")
        seen.append(item)
    return field.error("lists an item twice")


def _spelled(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


if __name__ == "__main__":
    write_checks()
