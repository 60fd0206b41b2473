"""The one error type users see: bad input, reported on one line."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: The longest piece of user text (an id, a key, a name) an error quotes.
QUOTE_LIMIT = 60

#: The longest source, field or message an error prints (a safety net: every
#: message quotes user text through :func:`quote`).
PART_LIMIT = 300


def escaped(text: str) -> str:
    """``text`` with every character that is not printable (newlines, tabs,
    NUL and other control characters, line and paragraph separators, lone
    surrogates) written as its Python escape, so that it stays on one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def shortened(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, marked with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """User text as an error quotes it: in quotes, escaped, at most ``limit``
    characters of it (then an ellipsis and the full length); anything else
    as Python writes it, cut to ``limit``."""
    if not isinstance(value, str):  # a number, say: as Python writes it
        return escaped(shortened(repr(value), limit))
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}\u2026 ({len(value)} characters)"


class InputError(Exception):
    """Bad input, located as precisely as the input allows.

    Rendered as ``FILE: line N: FIELD: MESSAGE``; the CLI prefixes
    ``evlogic: error:`` and exits with status 2.  The rendering is always one
    line: every part is escaped (no control character gets through, not even
    from a file name) and cut to a bounded length.
    """

    def __init__(
        self,
        source: str,
        message: str,
        *,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        self.source = source
        self.message = message
        self.field = field
        self.line = line
        super().__init__(str(self))

    def __reduce__(self) -> tuple[Any, ...]:
        """Picklable (batch workers send errors back to the main process)."""
        return _rebuild, (self.source, self.message, self.field, self.line)

    def __str__(self) -> str:
        parts = [self.source]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(shortened(escaped(str(part)), PART_LIMIT) for part in parts)


def _rebuild(source: str, message: str, field: str | None, line: int | None) -> InputError:
    return InputError(source, message, field=field, line=line)


def closest(word: str, choices: Iterable[str]) -> str:
    """A ``(did you mean 'X'?)`` suffix, or ``""`` when nothing is close."""
    import difflib  # only for a message: a command that reads good input never loads it

    by_folded: dict[str, str] = {}
    for choice in choices:
        by_folded.setdefault(choice.casefold(), choice)
    matches = difflib.get_close_matches(word.casefold(), list(by_folded), n=1, cutoff=0.6)
    return f" (did you mean {quote(by_folded[matches[0]])}?)" if matches else ""


def one_edit_away(word: str, choices: Iterable[str]) -> list[str]:
    """The choices one edit from ``word``, case aside (a character changed,
    added or dropped, or two neighbours swapped), in their order: what
    :func:`closest` misses in a short id (``KT`` for ``KY``); none for a
    word of one character, which every short choice is one edit from."""
    folded = word.casefold()
    if len(folded) < 2:
        return []
    return [choice for choice in choices if _one_edit(folded, choice.casefold())]


def _one_edit(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        differ = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(differ) == 1 or (
            len(differ) == 2
            and differ[1] == differ[0] + 1
            and a[differ[0]] == b[differ[1]]
            and a[differ[1]] == b[differ[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
