"""Words the app shows: seat and team names, cards with suit symbols, and sentences.

Pure functions of engine values, kept apart from the widgets so the wording can
be tested without running the app (and reused by anything else that explains a
round in plain language).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bela import outcome_words as words
from bela.engine import Action, Call, Card, Pass, Play, RoundResult, Suit, Zvanje, ZvanjeKind
from bela.i18n import _
from bela.wording import (
    card_text,
    rank_plural,
    seat_name,
    sequence_word,
    suit_called,
    suit_name,
    suit_symbol,
    team_name,
)
from bela.wording import symbolize as _symbolize

__all__ = [
    "HUMAN",
    "SEAT_NAMES",
    "TEAM_NAMES",
    "action_text",
    "card_text",
    "explain_round",
    "hand_order",
    "sentence",
    "suit_order",
    "symbolize",
    "team_of",
    "zvanje_text",
]

HUMAN: Final = 0
"""The human's seat; the human's team (0) is "mi"."""


class _Names:
    """``SEAT_NAMES[seat]`` / ``TEAM_NAMES[team]`` in the current language (read when shown).

    Seat 1 sits to the human's right, 2 opposite (the partner), 3 to the left:
    play passes counter-clockwise, seat s + 1 after seat s.
    """

    def __init__(self, name: Callable[[int], str]) -> None:
        self._name = name

    def __getitem__(self, index: int) -> str:
        return self._name(index)


SEAT_NAMES: Final = _Names(seat_name)
TEAM_NAMES: Final = _Names(team_name)


def team_of(seat: int) -> int:
    return seat % 2


def symbolize(message: str) -> str:
    """Engine messages name cards like ``JH``; show them as ``J♥`` instead (the deck in
    use: ``bela.wording.symbolize``)."""
    return _symbolize(message)


def sentence(message: str) -> str:
    """An engine message as the app shows it: suit symbols, first letter capitalised."""
    text = symbolize(message)
    return text[:1].upper() + text[1:]


def zvanje_text(zvanje: Zvanje) -> str:
    """``sequence 9♥ 10♥ J♥ (20)`` / ``four jacks (200)`` / ``belot in hearts``."""
    if zvanje.kind is ZvanjeKind.FOUR:
        return _("four {rank} ({points})").format(
            rank=rank_plural(zvanje.top_rank), points=zvanje.points
        )
    if zvanje.kind is ZvanjeKind.BELOT:
        return _("belot in {suit}").format(suit=suit_name(zvanje.cards[0].suit))
    cards = " ".join(card_text(c) for c in zvanje.cards)
    return f"{sequence_word(zvanje.points)} {cards} ({zvanje.points})"


def action_text(action: Action) -> str:
    """How a seat's action reads in the log: ``dalje``, ``calls ♥ hearts``, ``plays Q♥``."""
    if isinstance(action, Pass):
        return _("dalje")
    if isinstance(action, Call):
        return _("calls {symbol} {suit}").format(
            symbol=suit_symbol(action.suit), suit=suit_called(action.suit)
        )
    assert isinstance(action, Play)
    if action.bela:
        return _("plays {card} and says bela!").format(card=card_text(action.card))
    return _("plays {card}").format(card=card_text(action.card))


def explain_round(
    result: RoundResult,
    written: tuple[int, int] | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """The round's outcome in a sentence or two, e.g.

    "You called hearts. We made 96 of 162, more than half: we write 96, they write 66."

    Each subject has its own message (``bela.outcome_words``). ``names``: the seats' names
    when they are not the local table's (a network seat, seen from seat 0).
    """
    written = result.points if written is None else written
    if result.redeal:
        return _("Everybody said dalje: nothing is written and the next dealer deals again.")
    if result.belot is not None:
        holder = result.belot_seat if result.belot_seat is not None else 0
        said = [words.belot_holder(holder, result.trump, names), words.belot_win(result.belot)]
        return words.sentences(said)
    if result.claim is not None:
        return words.claim(result, written)
    caller = result.caller if result.caller is not None else 0
    parts: list[str] = []
    if result.stiglja is not None:
        parts.append(words.stiglja(result.stiglja))
    if result.trump is not None:
        parts.append(words.called_by(caller, result.trump, names))
    parts.append(words.outcome(result, written))
    return words.sentences(parts)


# Display strength, strongest first, by natural rank index (7 8 9 10 J Q K A = 0..7).
_TRUMP_ORDER: Final = (4, 2, 7, 3, 6, 5, 1, 0)  # J 9 A 10 K Q 8 7
_PLAIN_ORDER: Final = (7, 3, 6, 5, 4, 2, 1, 0)  # A 10 K Q J 9 8 7
_BASE_SUITS: Final = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)  # colours alternate


def _is_red(suit: Suit) -> bool:
    return suit in (Suit.HEARTS, Suit.DIAMONDS)


def suit_order(trump: Suit | None) -> tuple[Suit, ...]:
    """Suits left to right: trump first, then alternating red and black where possible."""
    if trump is None:
        return _BASE_SUITS
    order = [trump]
    rest = [s for s in _BASE_SUITS if s != trump]
    while rest:
        want_red = not _is_red(order[-1])
        pick = next((s for s in rest if _is_red(s) == want_red), rest[0])
        order.append(pick)
        rest.remove(pick)
    return tuple(order)


def hand_order(cards: tuple[Card, ...] | list[Card], trump: Suit | None) -> tuple[Card, ...]:
    """The hand as it is held: by suit (trump first), strongest card first in each suit."""
    suits = suit_order(trump)

    def key(card: Card) -> tuple[int, int]:
        order = _TRUMP_ORDER if card.suit == trump else _PLAIN_ORDER
        return suits.index(card.suit), order.index(int(card.rank))

    return tuple(sorted(cards, key=key))
