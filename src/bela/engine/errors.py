"""Errors a player can act on: each names what was wrong and what is allowed.

python-chess style: a distinct ``ValueError`` subclass per kind of mistake, so a
caller can tell "that is not a card" (``CardParseError``) from "the rules forbid
that card" (``IllegalPlayError``) from "it is not your turn" (``OutOfTurnError``).

Everything the engine raises on purpose is a ``BelaError``: either an
``InvalidValueError`` (a value the API cannot take at all: not a card, not a
seat, not a seed, a malformed deal) or an ``IllegalActionError`` (an action the
rules do not allow now). ``MalformedActionError`` is both: an "action" that is
not a well-formed ``Pass``, ``Call`` or ``Play``, or a seat outside 0..3 given
with one. Messages are one line and quote outside values cut short (``shown``).
"""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bela.engine.tricks import Illegal

__all__ = [
    "BelaError",
    "CardParseError",
    "IllegalActionError",
    "IllegalBelaError",
    "IllegalBidError",
    "IllegalClaimError",
    "IllegalPlayError",
    "InvalidValueError",
    "MalformedActionError",
    "OutOfTurnError",
    "RoundOverError",
    "SeatError",
    "WrongPhaseError",
    "shown",
]


class BelaError(ValueError):
    """Every error the engine raises on purpose; its message is one short line."""


class InvalidValueError(BelaError):
    """A value the engine cannot take at all (the caller's mistake, not a rules violation)."""


class CardParseError(InvalidValueError):
    """A value that does not name a card or a suit: bad text, or an index out of range."""


class SeatError(InvalidValueError):
    """A seat (or dealer, or first player) that is not one of the ints 0..3."""


class IllegalActionError(BelaError):
    """An action the rules do not allow now; the state it was applied to is unchanged."""


class MalformedActionError(IllegalActionError, InvalidValueError):
    """Not a well-formed ``Pass``, ``Call`` or ``Play``, or a seat outside 0..3 given with one."""


class OutOfTurnError(IllegalActionError):
    """A seat acted when it was another seat's turn."""


class WrongPhaseError(IllegalActionError):
    """A bid during play, or a card during the trump choice."""


class RoundOverError(WrongPhaseError):
    """An action after the round has finished."""


class IllegalBidError(IllegalActionError):
    """A pass the dealer may not make, or a malformed bid."""


class IllegalPlayError(IllegalActionError):
    """A card that is not in the hand or breaks the follow / overtake / trump rules.

    ``reason`` is the same as data (``bela.engine.tricks.Illegal``: a code and
    cards) when the engine found it, for the layers above to word in the
    player's language; the message is the engine's English.
    """

    def __init__(self, message: str, reason: Illegal | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class IllegalBelaError(IllegalActionError):
    """Bela announced with a card that cannot carry it (see ``Rules.bela_on_second``)."""


class IllegalClaimError(IllegalActionError):
    """A "dosta" the rules forbid: not "na dosta", or not just after winning a trick."""


SHOWN_LIMIT: Final = 40
"""The most characters of an outside value that a message quotes."""


def shown(value: object) -> str:
    """``repr(value)`` for a message: one line, at most ``SHOWN_LIMIT`` characters.

    Cheap whatever the value: long strings and containers are cut before they are
    quoted (``reprlib``), an int too long to print is described by its size, a
    failing or multi-line ``__repr__`` cannot break the message. (The engine's own
    copy of ``bela.foundation.untrusted.shown``: the engine imports nothing outside itself.)
    """
    if isinstance(value, int) and not -(10**30) < value < 10**30:
        return f"<a {value.bit_length()}-bit int>"
    if isinstance(value, (str, bytes)) and len(value) > SHOWN_LIMIT:
        value = value[: SHOWN_LIMIT + 1]  # a str subclass would otherwise be repr'd whole
    try:
        text = _REPR.repr(value)
    except Exception:  # a broken __repr__ is the caller's; the message must still be made
        return f"<a {type(value).__name__} object>"
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: SHOWN_LIMIT * 2])
    if len(text) > SHOWN_LIMIT:
        text = text[: SHOWN_LIMIT - 1] + "…"
    return text


_REPR: Final = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = SHOWN_LIMIT
_REPR.maxlevel = 2
