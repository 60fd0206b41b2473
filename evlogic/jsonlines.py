"""Reading JSON Lines input (batch games, batch reports): streams that never
stop on a bad byte, line numbers, a byte-order mark tolerated.

A line that is not UTF-8 is that line's error, not the end of the run: the
text is decoded with bad bytes kept as surrogates, and :func:`utf8_line`
finds them when the line is read.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from evlogic.errors import InputError

Line = tuple[int, str]  # (line number, text)


@contextmanager
def open_input(name: str) -> Iterator[TextIO]:
    """A file, or standard input for ``-``, as UTF-8 text with bad bytes
    kept; a file is closed afterwards, standard input is left open."""
    if name == "-":
        if isinstance(sys.stdin, io.TextIOWrapper):  # not when a caller replaced it
            sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
        yield sys.stdin
        return
    path = Path(name)
    if not path.is_file():
        raise InputError(name, "no such file")
    with path.open(encoding="utf-8", errors="surrogateescape") as stream:
        yield stream


def numbered(lines: Iterable[str]) -> Iterator[Line]:
    """Non-blank lines with their numbers (from 1, blank lines counted); a
    byte-order mark before the first line is dropped.  Lazy."""
    for number, text in enumerate(lines, start=1):
        if number == 1:
            text = text.removeprefix("\ufeff")
        if text.strip():
            yield number, text


def utf8_line(text: str, source: str, number: int) -> str:
    """The line, unless it held bytes that are not UTF-8: then an InputError."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InputError(
            source, f"not UTF-8 text (a bad byte at column {error.start + 1})", line=number
        ) from None
    return text
