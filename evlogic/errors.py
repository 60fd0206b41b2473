"""The one error type users see: bad input, reported on one line."""

from __future__ import annotations


class InputError(Exception):
    """Bad input, located as precisely as the input allows.

    Rendered as ``FILE: line N: FIELD: MESSAGE``; the CLI prefixes
    ``evlogic: error:`` and exits with status 2.
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

    def __reduce__(self) -> tuple:
        """Picklable (batch workers send errors back to the main process)."""
        return _rebuild, (self.source, self.message, self.field, self.line)

    def __str__(self) -> str:
        parts = [self.source]
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)


def _rebuild(source: str, message: str, field: str | None, line: int | None) -> InputError:
    return InputError(source, message, field=field, line=line)
