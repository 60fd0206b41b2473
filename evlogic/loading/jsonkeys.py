"""JSON text read with every object's keys different.

``json.loads`` keeps the last of two equal keys, so a line or request with a
second ``"players"`` (or a player with a second ``"home"``) would be scored
on the last one, silently.  :func:`loads` refuses such text, naming the key
and the object that repeats it.

It stays nearly as fast as ``json.loads`` (batch reads every line through
it): in JSON a colon outside a string only ever separates a key from its
value, so the text holds at most ``text.count(":")`` keys, and at least as
many as the parsed objects kept.  When the count equals the keys of the top
object and of the players (a lower bound of the keys kept), no key was
dropped; otherwise (a colon in a name, an inline board or rule set, a key
given twice) the text is read again, object by object.
"""

from __future__ import annotations

import json

from evlogic.errors import QUOTE_LIMIT, shortened


class DuplicateKey(Exception):
    """A JSON object gave ``key`` twice; ``field`` is where that object is
    (``players[0]``; empty for the top object)."""

    def __init__(self, key: str, field: str) -> None:
        super().__init__(key, field)
        self.key = key
        self.field = field


#: What a JSON decode error says of a byte-order mark where JSON has none
#: (Python's own words, "decode using utf-8-sig", name its API).
BYTE_ORDER_MARK = (
    "a byte-order mark (U+FEFF) where JSON may not hold one "
    "(files joined together keep each one's mark): remove it"
)


def loads(text: str) -> object:
    """``json.loads(text)``, or :class:`DuplicateKey` when an object gives a
    key twice (``json``'s own errors as ``json.loads`` raises them, a
    byte-order mark where the error is in words of :data:`BYTE_ORDER_MARK`)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        if text[error.pos : error.pos + 1] != "\ufeff":
            raise
        raise json.JSONDecodeError(BYTE_ORDER_MARK, error.doc, error.pos) from None
    if type(value) is dict:
        kept = len(value)
        players = value.get("players")
        if type(players) is list:
            for player in players:
                if type(player) is dict:
                    kept += len(player)
        if text.count(":") == kept:
            return value
    elif ":" not in text:
        return value
    repeated = _first_repeated(json.loads(text, object_pairs_hook=_marking), "")
    if repeated is not None:
        raise DuplicateKey(*repeated)
    return value


class _Repeated(dict[str, object]):
    """An object that gave ``repeated`` twice (its last value kept)."""

    repeated: str


def _marking(pairs: list[tuple[str, object]]) -> dict[str, object]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    seen: set[str] = set()
    marked = _Repeated(value)
    for key, _ in pairs:
        if key in seen:
            marked.repeated = key
            break
        seen.add(key)
    return marked


def _first_repeated(value: object, field: str) -> tuple[str, str] | None:
    """(key, field) of the first object, outermost first, that repeats a key."""
    if isinstance(value, _Repeated):
        return value.repeated, field
    if isinstance(value, dict):
        children = ((_child(field, key), item) for key, item in value.items())
    elif isinstance(value, list):
        children = ((f"{field}[{index}]", item) for index, item in enumerate(value))
    else:
        return None
    for child_field, item in children:
        found = _first_repeated(item, child_field)
        if found is not None:
            return found
    return None


def _child(field: str, key: str) -> str:
    name = shortened(key, QUOTE_LIMIT)
    return f"{field}.{name}" if field else name
