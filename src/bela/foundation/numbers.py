"""Numbers read from files: the one place a number from outside is believed.

Every file bela reads (the settings, the puzzle pack, the puzzle journal, the coach's
cache, the records) is JSON a player may have edited, and JSON numbers are not
Python's friends: ``10**400`` is a valid JSON integer that ``math.isfinite`` and
``float()`` reject with ``OverflowError`` (an exception no "is it valid?" check
expects), ``1e400`` reads as ``inf``, ``NaN`` and ``Infinity`` are accepted by
``json.loads`` although JSON has neither, ``true`` is an ``int`` to ``isinstance``,
and 100,000 nested brackets end the parser in ``RecursionError``. Each reader used
to guard against some of these; here they are all guarded once:

- ``load_json`` parses text into plain data and raises only ``ValueError`` (nesting
  too deep for the parser included);
- ``number_in`` and ``whole_in`` take a parsed value and give back a float or an int
  within bounds, or None: never an exception, whatever the value is.

Comparing a Python ``int`` with a ``float`` is exact and never overflows, so a huge
integer is simply out of bounds.
"""

from __future__ import annotations

import json
import math

__all__ = ["load_json", "number_in", "whole_in"]


def load_json(data: str | bytes) -> object:
    """The JSON value of ``data`` (UTF-8 if bytes); ``ValueError`` with a short reason for
    anything else: not JSON, not UTF-8, an integer of more digits than Python converts
    (4,300), nesting deeper than the parser goes (``RecursionError`` inside ``json``).

    ``NaN``, ``Infinity`` and ``1e400`` (read as infinity) are let through as floats, so
    that the one reading the field can say which field is wrong: ``number_in`` refuses them.
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("it is not UTF-8 text") from None
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("it nests too deep") from None


def number_in(value: object, low: float, high: float) -> float | None:
    """``value`` as a float if it is a number (an int or a float, not a bool) from ``low``
    to ``high``; None otherwise: a string, NaN, an infinity, an integer too large for a
    float, anything at all (this never raises)."""
    if value.__class__ is float:
        assert isinstance(value, float)
        return value if math.isfinite(value) and low <= value <= high else None
    if value.__class__ is int:
        assert isinstance(value, int)
        return float(value) if low <= value <= high else None
    return None


def whole_in(value: object, low: int, high: int) -> int | None:
    """``value`` if it is an int (not a bool, not a float such as ``3.0``) from ``low`` to
    ``high``; None otherwise (this never raises)."""
    if value.__class__ is int:
        assert isinstance(value, int)
        return value if low <= value <= high else None
    return None
