"""Which cards a person sees: the French deck (♥ ♦ ♠ ♣; J Q K A) or mađarice.

Most Croatian players learned Bela with *mađarice*, the German-suited cards:
srce, bundeva, list, žir; dečko, baba, kralj, as (issue #35). The two decks are
the same 32 cards under other names, mapped suit for suit and rank for rank
(hearts = srce, diamonds = bundeva/bells, spades = list/leaves, clubs = žir/acorns;
J = dečko/Unter, Q = baba/Ober), so only what a person reads changes: records,
the engine and the network protocol keep their codes (``JH``, ``H``).

The choice is one value for the whole process, like the language: the app sets
it from the settings (F2) and the command line from ``--deck`` or the settings,
and ``bela.wording`` (the one place cards and suits are worded and drawn) and
``bela.keys`` (the suit keys follow the suits' names) read it.
"""

from __future__ import annotations

from typing import Final

__all__ = ["DECKS", "FRENCH", "GERMAN", "current_deck", "is_german", "set_deck"]

FRENCH: Final = "french"
GERMAN: Final = "german"
DECKS: Final = (FRENCH, GERMAN)
"""The decks by their codes (settings.json's ``deck``, ``--deck``); French is the default."""

_DECK: list[str] = [FRENCH]


def set_deck(deck: str | None) -> None:
    """Show the cards of ``deck`` from now on; None (or a code not in ``DECKS``) is French."""
    _DECK[0] = deck if deck in DECKS else FRENCH


def current_deck() -> str:
    """The deck in use: ``FRENCH`` or ``GERMAN``."""
    return _DECK[0]


def is_german() -> bool:
    """Whether the cards are shown as mađarice (German suits)."""
    return _DECK[0] == GERMAN
