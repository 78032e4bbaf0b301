"""Checks for the values that enter the engine's public API (internal).

The public entry points (constructors, ``apply``, ``view``, ``legal_plays`` …)
check what they are handed and raise the engine's typed errors; the hot paths
behind them (``push_card``, ``legal_mask``, ``play_out_random``'s loop) trust
their arguments. A caller's common case (a plain int in range) costs one type
test and one chained compare, written inline at the call site; these functions
are the slow path that accepts other int-likes or says what is wrong.

So the public entry points annotate what they check as ``object``, not ``int`` or ``Rules``:
compiled by mypyc, a parameter annotated ``int`` is checked at the call, before the body runs,
and raises mypyc's ``TypeError`` for ``"7"`` (and takes ``True`` as 1), where the pure build
raises the engine's own error with a message. Typed ``object``, both builds run the same checks
and give the same errors (tests/rules/test_rules_api_guards.py runs on both). The inline fast
path is written ``type(x) is int and 0 <= x <= 3``, which mypy narrows and mypyc compiles to a
type test and two compares.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import index
from typing import Any, Final

from bela.engine.errors import InvalidValueError, SeatError, shown

__all__ = ["as_int", "check_flag", "check_int", "check_mask", "check_seat", "check_sequence"]

_MASK_MAX: Final = (1 << 32) - 1


def check_int(
    value: object,
    what: str,
    low: int,
    high: int | None = None,
    error: type[InvalidValueError] = InvalidValueError,
) -> int:
    """``value`` as an int in ``low..high``; bools, floats and text are refused.

    Int-likes that are not ``bool`` (``IntEnum`` members, numpy integers) are
    taken at their integer value.
    """
    number = as_int(value)
    if number is None or number < low or (high is not None and number > high):
        allowed = f"{low}..{high}" if high is not None else f"{low} or more"
        raise error(f"{what} is a whole number {allowed}, not {shown(value)}")
    return number


def check_seat(
    value: object, what: str = "seat", error: type[InvalidValueError] = SeatError
) -> int:
    """``value`` as a seat 0..3 (``SeatError`` otherwise, or ``error``)."""
    if value.__class__ is int and 0 <= value <= 3:
        return value
    number = as_int(value)
    if number is None or not 0 <= number <= 3:
        raise error(f"{what} {shown(value)} is not a seat: seats are 0, 1, 2 and 3")
    return number


def check_flag(value: object, what: str) -> bool:
    """``value`` if it is ``True`` or ``False``; 0, 1, "yes" and None are refused."""
    if value is True or value is False:
        return value
    raise InvalidValueError(f"{what} is True or False, not {shown(value)}")


def check_sequence(value: object, what: str) -> list[Any]:
    """The items of an iterable as a list (``InvalidValueError`` if it is not one)."""
    if isinstance(value, Iterable) and not isinstance(value, (str, bytes, bytearray)):
        return list(value)
    raise InvalidValueError(f"{what} are given as a list, not {shown(value)}")


def check_mask(mask: object, what: str = "a card mask") -> int:
    """``mask`` if it is a set of cards as a 32-bit mask (an int 0..2**32-1)."""
    if mask.__class__ is int and 0 <= mask <= _MASK_MAX:
        return mask
    number = as_int(mask)
    if number is None or not 0 <= number <= _MASK_MAX:
        raise InvalidValueError(
            f"{what} is an int 0..2**32-1 (bit c set for card c), not {shown(mask)}"
        )
    return number


def as_int(value: object) -> int | None:
    """The integer value of a non-bool int-like (``IntEnum`` members, numpy ints), or None."""
    if isinstance(value, bool):
        return None
    try:
        return index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
