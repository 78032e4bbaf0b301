"""The card notation: rank then suit letter, ``7H 8H 9H 10H JH QH KH AH``."""

from __future__ import annotations

import pytest

from bela.engine import Card, CardParseError, Suit

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]
SUIT_LETTERS = ["H", "D", "S", "C"]
ALL_TEXT = [rank + suit for suit in SUIT_LETTERS for rank in RANKS]


def test_notation_round_trips_for_all_32_cards() -> None:
    """Brief: "Notation used everywhere in this project: rank then suit letter, 7H 8H 9H 10H JH
    QH KH AH" over the 32 cards 7..A in H D S C."""
    parsed = [Card.parse(text) for text in ALL_TEXT]
    assert [str(card) for card in parsed] == ALL_TEXT
    assert len(set(parsed)) == 32
    for card in parsed:
        assert Card.parse(str(card)) == card


def test_card_knows_its_rank_and_suit() -> None:
    """Brief: 32 cards, 7 8 9 10 J Q K A in hearts, diamonds, spades, clubs (H D S C)."""
    for suit_index, suit in enumerate(SUIT_LETTERS):
        for rank_index, rank in enumerate(RANKS):
            card = Card.parse(rank + suit)
            assert card.suit is Suit(suit_index)
            assert str(card.suit) == suit
            assert str(card.rank) == rank
            assert card.rank == rank_index


def test_parse_accepts_lowercase() -> None:
    """Issue 2: "input may also be lowercase"; the card is the same as in upper case."""
    for text in ALL_TEXT:
        assert Card.parse(text.lower()) == Card.parse(text)


def test_parse_accepts_t_for_ten() -> None:
    """Issue 2: input may "use "T" for ten" (any case); it still prints as 10."""
    for suit in SUIT_LETTERS:
        assert Card.parse("T" + suit) == Card.parse("10" + suit)
        assert Card.parse("t" + suit.lower()) == Card.parse("10" + suit)
        assert str(Card.parse("T" + suit)) == "10" + suit


@pytest.mark.parametrize("text", ["11H", "1H", "6S", "XH", "10X", "QQ", "H10", "10", "", "J H7"])
def test_malformed_card_raises_card_parse_error_naming_the_text(text: str) -> None:
    """Issue 2: "A malformed card raises a specific ValueError subclass with a message naming
    the bad text"."""
    with pytest.raises(CardParseError) as caught:
        Card.parse(text)
    assert isinstance(caught.value, ValueError)
    assert repr(text) in str(caught.value) or (text and text in str(caught.value))


def test_suit_parse_and_str_round_trip() -> None:
    """Brief: suits H D S C; ``Suit.parse("H")`` and ``str(suit) == "H"`` (any case accepted)."""
    expected = [Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS]
    for letter, suit in zip(SUIT_LETTERS, expected, strict=True):
        assert Suit.parse(letter) is suit
        assert Suit.parse(letter.lower()) is suit
        assert str(suit) == letter


@pytest.mark.parametrize("text", ["X", "", "HD", "7"])
def test_malformed_suit_raises_card_parse_error_naming_the_text(text: str) -> None:
    """A suit that is not H, D, S or C is bad text, reported with the text given."""
    with pytest.raises(CardParseError) as caught:
        Suit.parse(text)
    assert repr(text) in str(caught.value)


def test_suit_symbols_are_for_display() -> None:
    """Brief: "Symbols (♥ ♦ ♠ ♣) are for display"."""
    symbols = [suit.symbol for suit in (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)]
    assert symbols == ["♥", "♦", "♠", "♣"]
