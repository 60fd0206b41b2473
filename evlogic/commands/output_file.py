"""The -o files of every command: written whole, or not at all.

A command writes its -o file to a temporary file beside it and renames that
into place once everything is written, so a full disk, a failed write or an
error half-way leaves the file as it was (or absent) and no temporary file
behind.  A target that is not a regular file (``/dev/stdout``, a named pipe,
``/dev/full``) is written directly: there is nothing to replace.

A temporary file still being written when the process has to leave at once
(a signal or a deadline while the command's worker thread writes, see
evlogic.limits.leave) is removed by :func:`remove_unfinished`.
"""

from __future__ import annotations

import io
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import BinaryIO, TextIO, TypeVar

from evlogic.errors import InputError

#: The temporary files of outputs being written (removed when they end).
_unfinished: set[str] = set()


def remove_unfinished() -> None:
    """Remove the temporary file of every output still being written:
    the process leaves without finishing them."""
    for temporary in list(_unfinished):
        with suppress(OSError):
            os.unlink(temporary)
        _unfinished.discard(temporary)


@contextmanager
def output_file(name: str, keep_on: tuple[type[BaseException], ...] = ()) -> Iterator[BinaryIO]:
    """The file ``name``, for writing bytes.  It takes the place of ``name``
    when the block ends; when the block raises, the target is left as it
    was, unless the exception is one of ``keep_on`` (an interrupted batch
    keeps the whole lines it wrote).  Closing or renaming that fails raises
    an OSError whose filename is ``name``."""
    target = os.path.realpath(name)  # a link is written through, not replaced
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    stream: BinaryIO
    if mode is not None and not stat.S_ISREG(mode):
        stream = _opened(name, lambda: open(name, "wb"))  # noqa: SIM115 (closed below)
        try:
            yield stream
            _named(name, stream.close)
        except BaseException:
            with suppress(OSError):
                stream.close()  # (what failed to be written fails again)
            raise
        return
    temporary, stream = _opened(name, lambda: _create_beside(target))
    try:
        if mode is not None:
            _named(name, lambda: os.chmod(stream.fileno(), stat.S_IMODE(mode)))
        yield stream
        _named(name, stream.close)
        _named(name, lambda: os.replace(temporary, target))
    except BaseException as error:
        with suppress(OSError):
            stream.close()
        kept = False
        if isinstance(error, keep_on):
            with suppress(OSError):
                os.replace(temporary, target)
                kept = True
        if not kept:
            with suppress(OSError):
                os.unlink(temporary)
        raise
    finally:
        _unfinished.discard(temporary)


@contextmanager
def open_output(name: str, keep_on: tuple[type[BaseException], ...] = ()) -> Iterator[TextIO]:
    """:func:`output_file` as UTF-8 text with ``\\n`` line ends; a write or
    flush that fails (a full disk) names ``name`` in its error."""
    with output_file(name, keep_on) as stream:
        text = _NamedOutput(stream, encoding="utf-8", newline="\n")
        text.output_name = name
        yield text  # (raising, what it has not flushed is not written)
        text.flush()
        text.detach()


class _NamedOutput(io.TextIOWrapper):
    """A text file whose write errors carry its name (the OS's do not)."""

    output_name: str

    def write(self, text: str) -> int:
        return _named(self.output_name, lambda: super(_NamedOutput, self).write(text))

    def flush(self) -> None:
        _named(self.output_name, super().flush)


def _create_beside(target: str) -> tuple[str, BinaryIO]:
    """A new file in ``target``'s folder, created with the mode a new file
    gets (0666 less the umask), and its path."""
    folder, base = os.path.split(target)
    while True:
        path = os.path.join(folder, f".{base}.{secrets.token_hex(4)}.tmp")
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        _unfinished.add(path)
        return path, os.fdopen(descriptor, "wb")


Opened = TypeVar("Opened")


def _opened(name: str, opener: Callable[[], Opened]) -> Opened:
    """``opener()``; an OSError is the InputError "NAME: cannot write: ..."."""
    try:
        return opener()
    except OSError as error:
        raise InputError(name, f"cannot write: {error.strerror}") from None


Result = TypeVar("Result")


def _named(name: str, action: Callable[[], Result]) -> Result:
    """``action()``; an OSError it raises names ``name`` (the OS's names the
    temporary file, or nothing)."""
    try:
        return action()
    except OSError as error:
        error.filename = name
        raise


def check_writable(name: str) -> None:
    """Raises the InputError :func:`output_file` would raise for ``name``
    (no folder, a folder that cannot be written, a directory), before a
    command does its work: a file beside the target is made and removed at
    once.  A target that is not a regular file is only checked for being a
    directory (opening a named pipe would wait for its reader)."""
    target = os.path.realpath(name)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise InputError(name, "cannot write: Is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        return
    temporary, stream = _opened(name, lambda: _create_beside(target))
    stream.close()
    with suppress(OSError):
        os.unlink(temporary)
