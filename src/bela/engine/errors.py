"""Errors a player can act on: each names what was wrong and what is allowed.

python-chess style: a distinct ``ValueError`` subclass per kind of mistake, so a
caller can tell "that is not a card" (``CardParseError``) from "the rules forbid
that card" (``IllegalPlayError``) from "it is not your turn" (``OutOfTurnError``).
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "IllegalBelaError",
    "IllegalBidError",
    "IllegalPlayError",
    "OutOfTurnError",
    "RoundOverError",
    "WrongPhaseError",
]


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the state it was applied to is unchanged."""


class OutOfTurnError(IllegalActionError):
    """A seat acted when it was another seat's turn."""


class WrongPhaseError(IllegalActionError):
    """A bid during play, or a card during the trump choice."""


class RoundOverError(WrongPhaseError):
    """An action after the round has finished."""


class IllegalBidError(IllegalActionError):
    """A pass the dealer may not make, or a malformed bid."""


class IllegalPlayError(IllegalActionError):
    """A card that is not in the hand or breaks the follow / overtake / trump rules."""


class IllegalBelaError(IllegalActionError):
    """Bela announced with a card that is not the second of the trump king and queen."""
