"""Cards, suits and ranks, and the bitmask tables the hot path runs on.

A card is an int 0..31: ``suit * 8 + rank``, with ranks in natural order
(7 8 9 10 J Q K A = 0..7) and suits H D S C = 0..3. A set of cards (a hand, a
suit) is a 32-bit mask with bit ``card`` set. ``Card`` is an ``int`` subclass
so the friendly objects handed to players are the very ints the tables use.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import EnumType, IntEnum
from typing import Any, Final

from mypy_extensions import mypyc_attr

from bela.engine.errors import CardParseError, InvalidValueError, shown
from bela.engine.guards import as_int, check_mask

__all__ = [
    "ALL_CARDS_MASK",
    "CARDS",
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


@mypyc_attr(native_class=False)  # mypyc compiles no subclass of a builtin type
class _ByIndex(EnumType):
    """``Suit(x)`` and ``Rank(x)`` take a member or its int index, nothing else.

    The plain enum lookup also finds ``Suit(True)`` and ``Suit(1.0)`` (equal to 1),
    and fails with an untyped ``ValueError`` for anything else, or for an int too
    long to print; here those are the engine's ``CardParseError``.
    """

    def __call__(cls, value: object, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:  # the functional API, Enum("Name", ...): not a lookup
            return super().__call__(value, *args, **kwargs)
        number = as_int(value)
        member = None if number is None else cls._value2member_map_.get(number)
        if member is None:
            enum: Any = cls
            return enum._missing_(value)  # raises the typed error
        return member


class Suit(IntEnum, metaclass=_ByIndex):
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
    def parse(cls, text: object) -> Suit:
        """Parse a suit letter (``H D S C``, any case) or symbol (``♥ ♦ ♠ ♣``)."""
        if not isinstance(text, str):
            raise CardParseError(f"a suit is written as H, D, S or C, not {shown(text)}")
        suit = _SUIT_BY_TEXT.get(text.strip().upper())
        if suit is None:
            raise CardParseError(f"{shown(text)} is not a suit: use H, D, S or C")
        return suit

    @classmethod
    def _missing_(cls, value: object) -> Suit:
        # ``Suit(5)``, ``Suit(None)``: the engine's typed error instead of a plain ValueError
        raise CardParseError(
            f"suit index {shown(value)} is not a suit: a suit index is 0..3 "
            "(Suit.parse reads H, D, S, C)"
        )


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


class Rank(IntEnum, metaclass=_ByIndex):
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
    def parse(cls, text: object) -> Rank:
        """Parse ``7 8 9 10 J Q K A`` (``T`` for ten; any case)."""
        rank = None
        if isinstance(text, str):
            rank = _RANK_BY_TEXT.get(text.strip().upper())
        if rank is None:
            raise CardParseError(f"{shown(text)} is not a rank: use 7, 8, 9, 10, J, Q, K or A")
        return rank

    @classmethod
    def _missing_(cls, value: object) -> Rank:
        raise CardParseError(
            f"rank index {shown(value)} is not a rank: a rank index is 0..7, 7 up to A "
            "(Rank.parse reads 7 8 9 10 J Q K A)"
        )


_RANK_TEXT: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_BY_TEXT: Final = {text: Rank(i) for i, text in enumerate(_RANK_TEXT)} | {"T": Rank.TEN}


@mypyc_attr(native_class=False)  # an int subclass: a plain Python class when compiled
class Card(int):
    """One of the 32 cards; an int 0..31 (``suit * 8 + rank``).

    ``Card.parse("10H")`` and ``str(card) == "10H"`` round-trip; ``repr`` is code
    you can paste. There are exactly 32 instances, so ``Card(5) is Card(5)``.
    """

    __slots__ = ()

    def __new__(cls, value: object) -> Card:
        if type(value) is int and 0 <= value <= 31:
            return _CARDS[value]
        card = _card_or_none(value)
        if card is None:
            raise CardParseError(
                f"card index {shown(value)} is not a card: a card index is 0..31 "
                "(use Card.parse for text like 'QH')"
            )
        return card

    @classmethod
    def _make(cls, value: int) -> Card:
        return int.__new__(cls, value)

    @classmethod
    def of(cls, rank: object, suit: object) -> Card:
        """The card of a rank (0..7, 7 up to A) and a suit (0..3, H D S C)."""
        r, s = as_int(rank), as_int(suit)
        if r is None or not 0 <= r <= 7:
            raise CardParseError(f"rank {shown(rank)} is not a rank: ranks are 0..7 (7 up to A)")
        if s is None or not 0 <= s <= 3:
            raise CardParseError(f"suit {shown(suit)} is not a suit: suits are 0..3 (H D S C)")
        return _CARDS[s * 8 + r]

    @classmethod
    def parse(cls, text: object) -> Card:
        """Parse ``"10H"``, ``"th"``, ``"QS"``, ``"A♠"``; raise ``CardParseError`` otherwise."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardParseError(f"a card is written like 10H or QS, not {shown(text)}")
        card = _CARD_BY_TEXT.get(text.strip().upper())
        if card is None:
            raise CardParseError(
                f"{shown(text)} is not a card: write rank then suit, like 10H, QS or 7C "
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
CARDS: Final = _CARDS
"""The 32 cards by index: ``CARDS[c]`` is ``Card(c)`` for a trusted index, without the check."""
_CARD_TEXT: Final = tuple(_RANK_TEXT[i & 7] + _SUIT_LETTERS[i >> 3] for i in range(32))
_CARD_BY_TEXT: Final[dict[str, Card]] = {}
for _i in range(32):
    for _rank_text in (_RANK_TEXT[_i & 7], "T" if _i & 7 == Rank.TEN else None):
        if _rank_text is None:
            continue
        for _suit_text in (_SUIT_LETTERS[_i >> 3], _SUIT_SYMBOLS[_i >> 3]):
            _CARD_BY_TEXT[_rank_text + _suit_text] = _CARDS[_i]


def _card_or_none(value: object) -> Card | None:
    """The card with index ``value`` (any non-bool int-like), or None."""
    number = as_int(value)
    return _CARDS[number] if number is not None and 0 <= number <= 31 else None


ALL_CARDS_MASK: Final = (1 << 32) - 1
SUIT_MASK: Final = tuple(0xFF << (8 * s) for s in range(4))
RANK_MASK: Final = tuple(sum(1 << (s * 8 + r) for s in range(4)) for r in range(8))

# Each byte value's set bits, precomputed so turning a mask into cards costs four lookups.
_BYTE_BITS: Final = tuple(tuple(b for b in range(8) if v >> b & 1) for v in range(256))
SUIT_BYTE_CARDS: Final = tuple(
    tuple(tuple(_CARDS[s * 8 + b] for b in _BYTE_BITS[v]) for v in range(256)) for s in range(4)
)


def cards_in(mask: object) -> list[Card]:
    """The cards of a mask (an int 0..2**32-1), in index order (suit H D S C, then rank 7..A)."""
    if type(mask) is not int or not 0 <= mask <= ALL_CARDS_MASK:
        mask = check_mask(mask)
    return [
        *SUIT_BYTE_CARDS[0][mask & 0xFF],
        *SUIT_BYTE_CARDS[1][(mask >> 8) & 0xFF],
        *SUIT_BYTE_CARDS[2][(mask >> 16) & 0xFF],
        *SUIT_BYTE_CARDS[3][(mask >> 24) & 0xFF],
    ]


def mask_cards(mask: int) -> list[Card]:
    """``cards_in`` for a mask the engine holds (trusted, not checked)."""
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


def mask_of(cards: object) -> int:
    """The mask of some cards, given as ``Card``, text or index; duplicates are an error.

    A single string is split on whitespace and commas: ``mask_of("JH 9H AH")``.
    """
    mask = 0
    for card in parse_cards(cards):
        bit = 1 << card
        if mask & bit:
            raise InvalidValueError(f"{card} is given twice")
        mask |= bit
    return mask


def to_card(item: object) -> Card:
    """Coerce text or an index to a ``Card`` (``CardParseError`` if it names none)."""
    if type(item) is Card:
        return item
    if isinstance(item, str):
        return Card.parse(item)
    card = _card_or_none(item)
    if card is None:
        raise CardParseError(f"card {shown(item)} is not a card: cards are 0..31 or text like 'QH'")
    return card


def parse_cards(cards: object) -> list[Card]:
    """Coerce cards (``Card``, text or index; or one whitespace-separated string of them) to a
    list of ``Card``."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    elif isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Iterable):
        raise InvalidValueError(
            f"cards are given as a list or as text like 'JH 9H AH', not {shown(cards)}"
        )
    return [to_card(c) for c in cards]


def to_suit(suit: object) -> Suit:
    """Coerce a suit letter, symbol or index 0..3 to a ``Suit`` (else ``CardParseError``)."""
    if type(suit) is Suit:
        return suit
    if isinstance(suit, str):
        return Suit.parse(suit)
    number = as_int(suit)
    if number is None or not 0 <= number <= 3:
        raise CardParseError(f"suit {shown(suit)} is not a suit: suits are 0..3 or H, D, S, C")
    return _SUITS[number]
