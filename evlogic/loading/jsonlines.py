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

#: The longest line read (a game or a report is a few kilobytes); a longer
#: one is an error in its place, and is never held in memory whole.
MAX_LINE_CHARS = 1024 * 1024

#: A line longer than this is not even skipped: reading stops there.
MAX_SKIP_CHARS = 64 * MAX_LINE_CHARS


class LongLine(str):
    """Stands for a line longer than :data:`MAX_LINE_CHARS` (its text is dropped)."""

    ended = False  # True: longer than MAX_SKIP_CHARS, and nothing after it is read


class EndlessLine(LongLine):
    """A line longer than :data:`MAX_SKIP_CHARS`: the last one read."""

    ended = True


@contextmanager
def open_input(name: str) -> Iterator[TextIO]:
    r"""A file, or standard input for ``-``, as UTF-8 text with bad bytes
    kept, split into lines at ``\n`` only (a lone ``\r`` inside a line is
    JSON whitespace, not the end of a line: universal newlines would split
    the line and shift every later line's number); a file is closed
    afterwards, standard input is left open."""
    if name == "-":
        if sys.stdin is None:
            raise InputError("<stdin>", "standard input is closed")
        if isinstance(sys.stdin, io.TextIOWrapper):  # not when a caller replaced it
            sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape", newline="\n")
        yield sys.stdin
        return
    path = Path(name)
    if not path.is_file():
        exists = path.exists()
        raise InputError(name, "not a regular file" if exists else "no such file")
    with path.open(encoding="utf-8", errors="surrogateescape", newline="\n") as stream:
        yield stream


def numbered(lines: Iterable[str]) -> Iterator[Line]:
    """Non-blank lines with their numbers (from 1, blank lines counted); a
    byte-order mark before the first line is dropped.  Lazy.  A stream is
    read a bounded line at a time: a line longer than :data:`MAX_LINE_CHARS`
    comes as a :class:`LongLine`, which :func:`utf8_line` refuses."""
    for number, text in enumerate(_bounded(lines), start=1):
        if isinstance(text, LongLine):
            yield number, text
            continue
        if number == 1:
            text = text.removeprefix("\ufeff")
        if text.strip():
            yield number, text


def _bounded(lines: Iterable[str]) -> Iterator[str]:
    """The lines of a stream (or any iterable of lines), none held longer
    than :data:`MAX_LINE_CHARS`; reading stops after an endless line."""
    readline = getattr(lines, "readline", None)
    if readline is None:
        for text in lines:
            yield LongLine() if len(text.rstrip("\n")) > MAX_LINE_CHARS else text
        return
    while text := readline(MAX_LINE_CHARS + 1):
        if len(text) <= MAX_LINE_CHARS or text.endswith("\n"):
            yield text
            continue
        skipped = len(text)
        while text and not text.endswith("\n"):  # skip the rest of it, up to a point
            if skipped > MAX_SKIP_CHARS:
                yield EndlessLine()
                return
            text = readline(MAX_LINE_CHARS)
            skipped += len(text)
        yield LongLine()


def utf8_line(text: str, source: str, number: int) -> str:
    """The line, unless it held bytes that are not UTF-8 or was too long:
    then an InputError."""
    if isinstance(text, LongLine):
        if text.ended:
            limit = f"{MAX_SKIP_CHARS // 2**20} MiB"
            raise InputError(source, f"line longer than {limit}: stopped reading", line=number)
        limit = f"{MAX_LINE_CHARS // 2**20} MiB"
        raise InputError(source, f"line longer than {limit}, the most evlogic reads", line=number)
    if text.isascii():  # most lines: nothing to encode
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InputError(
            source, f"not UTF-8 text (a bad byte at column {error.start + 1})", line=number
        ) from None
    return text
