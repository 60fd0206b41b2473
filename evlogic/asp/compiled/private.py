"""clingo's private interface, in one place: ``clingo._internal``.

The compiled encoding moves many symbols across clingo's Python API, which
costs about a microsecond a symbol; two things go through clingo's C API
instead, by the cffi handles that ``clingo._internal`` exposes:

* :func:`shown_text`: a model's shown atoms as the text of one tuple, made
  in clingo (no Python object a symbol);
* :func:`atoms`: atoms of numbers made from one C array of their handles
  (``Function`` costs about 6 us for 12 numbers, this about 0.8 us).

Neither is part of clingo's public interface, so each falls back to the
public API (``Model.symbols``, ``Function``) when this clingo does not expose
what it needs, with the same result (tests/test_compiled.py forces the
fallback and compares).  Nothing else in evlogic touches ``clingo._internal``.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable
from functools import cache, partial
from typing import Any

import clingo
from clingo import Function, Number, Symbol, Tuple_

from evlogic.asp.facts import number_symbol
from evlogic.asp.solver import SolverError

Flat = list[int]  # rows of numbers, one after another


def interface() -> tuple[Any, Any] | None:
    """clingo's cffi ``(_ffi, _lib)``, or None when this clingo has none."""
    try:
        from clingo._internal import _ffi, _lib  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return None
    return _ffi, _lib


def shown_text(model: clingo.Model) -> str:
    """The model's shown atoms as the string of one tuple, made in clingo
    (no Python object a symbol), or through the Python API when this clingo
    does not expose what that needs."""
    text = _raw_shown_text(model)
    return str(Tuple_(model.symbols(shown=True))) if text is None else text


def _raw_shown_text(model: clingo.Model) -> str | None:
    found = interface()
    if found is None:
        return None
    _ffi, _lib = found
    try:
        rep = model._rep
        shown = _lib.clingo_show_type_shown
    except AttributeError:
        return None
    size = _ffi.new("size_t*")
    if not _lib.clingo_model_symbols_size(rep, shown, size):
        return None
    count = size[0]
    symbols = _ffi.new("clingo_symbol_t[]", max(count, 1))
    tuple_ = _ffi.new("clingo_symbol_t*")
    if not (
        _lib.clingo_model_symbols(rep, shown, symbols, count)
        and _lib.clingo_symbol_create_function(b"", symbols, count, True, tuple_)
    ):
        return None
    # Printing is most of the cost, and asking the size prints once more: a
    # buffer big enough for every shown atom is tried first (clingo fails,
    # and is asked the size, only if it is not).
    chars = _ffi.new("char[]", _SHOWN_CHARS * count + 3)
    if not _lib.clingo_symbol_to_string(tuple_[0], chars, len(chars)):
        if not _lib.clingo_symbol_to_string_size(tuple_[0], size):
            return None
        chars = _ffi.new("char[]", size[0])
        if not _lib.clingo_symbol_to_string(tuple_[0], chars, size[0]):
            return None
    text: str = _ffi.string(chars).decode()
    return text


#: Characters a shown atom of rules/batch/output.lp takes at most, comma
#: included, with room to spare: twelve numbers of up to twelve characters
#: (figures/10, the longest, has ten).
_SHOWN_CHARS = len("face_upto(),") + 12 * 12


@cache
def atoms(name: str) -> Callable[[Flat, int], list[Symbol]]:
    """The maker of the atoms ``name(values...)`` (``""``: tuples) from
    rows of ``width`` numbers, given one after another, as clingo symbols;
    made once a name (tests clear the cache to force the fallback)."""
    return _fast_atoms(name) or partial(_slow_atoms, name)


def _fast_atoms(name: str) -> Callable[[Flat, int], list[Symbol]] | None:
    """:func:`atoms` for ``name`` through clingo's C API: the numbers'
    handles, kept in a list, go into one C array a call, and each atom is
    made from its place in it; None when this clingo does not expose what
    it needs (then Function is used)."""
    found = interface()
    if found is None:
        return None
    _ffi, _lib = found
    try:
        create = _lib.clingo_symbol_create_function
        out = _ffi.new("clingo_symbol_t*")
        handles: list[int] = [Number(value)._rep for value in range(1024)]
    except AttributeError:
        return None
    encoded = name.encode()
    tag = _number_tag()

    def fast(values: Flat, width: int) -> list[Symbol]:
        if not values:
            return []
        if min(values) < 0:
            return _slow_atoms(name, values, width)
        top = max(values)
        if tag is not None and top < 1 << 31:
            # each handle is the number in its low half and the tag in its
            # high half: the halves are laid out by array.array in C
            numbers = array("I", bytes(8 * len(values)))
            numbers[0::2] = array("I", values)
            numbers[1::2] = array("I", [tag]) * len(values)
        else:
            if top >= len(handles):
                handles.extend(Number(value)._rep for value in range(len(handles), 2 * top + 1))
            # array.array converts the handles in C (cffi's own list
            # conversion costs about four times as much)
            numbers = array("Q", list(map(handles.__getitem__, values)))
        first = _ffi.from_buffer("clingo_symbol_t[]", numbers)
        made = []
        for start in range(0, len(values), width):
            if not create(encoded, first + start, width, True, out):
                raise SolverError("clingo: cannot make an input atom")
            # (no-untyped-call: clingo leaves Symbol.__init__ unannotated)
            made.append(Symbol(out[0]))  # type: ignore[no-untyped-call]
        return made

    return fast


def _number_tag() -> int | None:
    """The high 32 bits of every handle of a number 0 <= n < 2^31 in this
    clingo, whose low 32 bits are n (clingo 5.8 on a little-endian machine),
    or None when that is not so (then the handles are looked up)."""
    tag: int = Number(0)._rep >> 32
    samples = (1, 7, 255, 256, 65_535, 1 << 20, (1 << 31) - 1)
    if sys.byteorder != "little" or any(Number(n)._rep != tag << 32 | n for n in samples):
        return None
    return tag


def _slow_atoms(name: str, values: Flat, width: int) -> list[Symbol]:
    """:func:`atoms` by the public API: ``Function`` an atom."""
    return [
        Function(name, [number_symbol(value) for value in values[start : start + width]])
        for start in range(0, len(values), width)
    ]
