"""Cards, suits and ranks, and the bitmask tables the hot path runs on.

A card is an int 0..31: ``suit * 8 + rank``, with ranks in natural order
(7 8 9 10 J Q K A = 0..7) and suits H D S C = 0..3. A set of cards (a hand, a
suit) is a 32-bit mask with bit ``card`` set. ``Card`` is an ``int`` subclass
so the friendly objects handed to players are the very ints the tables use.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

__all__ = [
    "ALL_CARDS_MASK",
    "RANK_MASK",
    "SUIT_MASK",
    "Card",
    "CardParseError",
    "Rank",
    "Suit",
    "cards_in",
    "mask_of",
    "parse_cards",
    "to_card",
    "to_suit",
]


class CardParseError(ValueError):
    """Text that does not name a card or a suit (bad syntax, not a rules violation)."""


class Suit(IntEnum):
    """The four suits, in the order H D S C (German suits map to them)."""

    HEARTS = 0
    DIAMONDS = 1
    SPADES = 2
    CLUBS = 3

    def __str__(self) -> str:
        return _SUIT_LETTERS[self]

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def noun(self) -> str:
        """The plural English name ("hearts"), for messages."""
        return self.name.lower()

    @property
    def singular(self) -> str:
        """The singular English name ("heart"), for messages."""
        return self.name.lower()[:-1]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse a suit letter (``H D S C``, any case) or symbol (``♥ ♦ ♠ ♣``)."""
        if not isinstance(text, str):
            raise CardParseError(f"a suit is written as H, D, S or C, not {text!r}")
        key = text.strip().upper()
        suit = _SUIT_BY_TEXT.get(key)
        if suit is None:
            raise CardParseError(f"{text!r} is not a suit: use H, D, S or C")
        return suit


_SUIT_LETTERS: Final = ("H", "D", "S", "C")
_SUIT_SYMBOLS: Final = ("♥", "♦", "♠", "♣")
_SUIT_BY_TEXT: Final = {
    **{letter: Suit(i) for i, letter in enumerate(_SUIT_LETTERS)},
    **{symbol: Suit(i) for i, symbol in enumerate(_SUIT_SYMBOLS)},
    "HEARTS": Suit.HEARTS,
    "DIAMONDS": Suit.DIAMONDS,
    "SPADES": Suit.SPADES,
    "CLUBS": Suit.CLUBS,
}


class Rank(IntEnum):
    """Ranks in natural (sequence) order; trick strength is a separate table."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7

    def __str__(self) -> str:
        return _RANK_TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``7 8 9 10 J Q K A`` (``T`` for ten; any case)."""
        rank = _RANK_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if rank is None:
            raise CardParseError(f"{text!r} is not a rank: use 7, 8, 9, 10, J, Q, K or A")
        return rank


_RANK_TEXT: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_BY_TEXT: Final = {text: Rank(i) for i, text in enumerate(_RANK_TEXT)} | {"T": Rank.TEN}


class Card(int):
    """One of the 32 cards; an int 0..31 (``suit * 8 + rank``).

    ``Card.parse("10H")`` and ``str(card) == "10H"`` round-trip; ``repr`` is code
    you can paste. There are exactly 32 instances, so ``Card(5) is Card(5)``.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        try:
            return _CARDS[value]
        except (IndexError, TypeError):
            raise CardParseError(f"a card index is 0..31, not {value!r}") from None

    @classmethod
    def _make(cls, value: int) -> Card:
        return int.__new__(cls, value)

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        return _CARDS[int(suit) * 8 + int(rank)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"10H"``, ``"th"``, ``"QS"``, ``"A♠"``; raise ``CardParseError`` otherwise."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"a card is written like 10H or QS, not {text!r}")
        stripped = text.strip()
        card = _CARD_BY_TEXT.get(stripped.upper())
        if card is None:
            raise CardParseError(
                f"{text!r} is not a card: write rank then suit, like 10H, QS or 7C "
                "(ranks 7 8 9 10 J Q K A, T for ten; suits H D S C)"
            )
        return card

    @property
    def suit(self) -> Suit:
        return _SUITS[self >> 3]

    @property
    def rank(self) -> Rank:
        return _RANKS[self & 7]

    @property
    def mask(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return _CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({_CARD_TEXT[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_CARD_TEXT[self], spec)


_SUITS: Final = tuple(Suit)
_RANKS: Final = tuple(Rank)
_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(32))
_CARD_TEXT: Final = tuple(_RANK_TEXT[i & 7] + _SUIT_LETTERS[i >> 3] for i in range(32))
_CARD_BY_TEXT: Final[dict[str, Card]] = {}
for _i in range(32):
    for _rank_text in (_RANK_TEXT[_i & 7], "T" if _i & 7 == Rank.TEN else None):
        if _rank_text is None:
            continue
        for _suit_text in (_SUIT_LETTERS[_i >> 3], _SUIT_SYMBOLS[_i >> 3]):
            _CARD_BY_TEXT[_rank_text + _suit_text] = _CARDS[_i]

ALL_CARDS_MASK: Final = (1 << 32) - 1
SUIT_MASK: Final = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASK: Final = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))

# Each byte value's set bits, precomputed so turning a mask into cards costs four lookups.
_BYTE_BITS: Final = tuple(tuple(b for b in range(8) if v >> b & 1) for v in range(256))
SUIT_BYTE_CARDS: Final = tuple(
    tuple(tuple(_CARDS[s * 8 + b] for b in _BYTE_BITS[v]) for v in range(256)) for s in range(4)
)


def cards_in(mask: int) -> list[Card]:
    """The cards of a mask, in index order (suit H D S C, then rank 7..A)."""
    return [
        *SUIT_BYTE_CARDS[0][mask & 0xFF],
        *SUIT_BYTE_CARDS[1][(mask >> 8) & 0xFF],
        *SUIT_BYTE_CARDS[2][(mask >> 16) & 0xFF],
        *SUIT_BYTE_CARDS[3][(mask >> 24) & 0xFF],
    ]


def iter_cards(mask: int) -> Iterator[Card]:
    """Iterate the cards of a mask, lowest index first."""
    while mask:
        low = mask & -mask
        yield _CARDS[low.bit_length() - 1]
        mask ^= low


def mask_of(cards: Iterable[Card | str | int] | str) -> int:
    """The mask of some cards, given as ``Card``, text or index; duplicates are an error.

    A single string is split on whitespace and commas: ``mask_of("JH 9H AH")``.
    """
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    mask = 0
    for item in cards:
        card = Card.parse(item) if isinstance(item, str) else Card(item)
        bit = 1 << card
        if mask & bit:
            raise ValueError(f"{card} is given twice")
        mask |= bit
    return mask


def to_card(item: Card | str | int) -> Card:
    """Coerce text or an index to a ``Card``."""
    return Card.parse(item) if isinstance(item, str) else Card(item)


def parse_cards(cards: Iterable[Card | str | int] | str) -> list[Card]:
    """Coerce cards (or one whitespace-separated string of them) to a list of ``Card``."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return [to_card(c) for c in cards]


def to_suit(suit: Suit | str | int) -> Suit:
    """Coerce a suit letter, symbol or index to a ``Suit``."""
    if isinstance(suit, str):
        return Suit.parse(suit)
    try:
        return Suit(suit)
    except ValueError:
        raise CardParseError(f"a suit index is 0..3, not {suit!r}") from None
