"""Typing a card in the deck in use (issue #35): what the table shows is what the player types.

With mađarice a player sees ``D❤`` and names the suits by their own keys (hr ``s u t ž``),
so the puzzles' prompt and the plain mode read those forms too (``bela.wording.read_card``)
and show their examples in the deck in use; the engine's codes (``10H``) stay readable.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bela.deck import DECKS, FRENCH, GERMAN, set_deck
from bela.engine import Card, Suit
from bela.i18n import LANGUAGES, set_language
from bela.wording import card_text, read_card, read_suit, typed_card


@given(
    language=st.sampled_from(LANGUAGES),
    deck=st.sampled_from(DECKS),
    index=st.integers(0, 31),
    upper=st.booleans(),
)
def test_every_face_and_typed_code_reads_back_as_its_card(
    language: str, deck: str, index: int, upper: bool
) -> None:
    set_language(language)
    set_deck(deck)
    card = Card(index)
    for text in (card_text(card), typed_card(card)):
        text = text.upper() if upper else text.lower()
        assert read_card(text) == card, (language, deck, text)
        assert read_card(f"  {text} ") == card


@given(language=st.sampled_from(LANGUAGES), deck=st.sampled_from(DECKS), text=st.text(max_size=6))
def test_whatever_is_typed_is_a_card_or_none(language: str, deck: str, text: str) -> None:
    set_language(language)
    set_deck(deck)
    card = read_card(text)
    assert card is None or isinstance(card, Card)


@given(language=st.sampled_from(LANGUAGES), index=st.integers(0, 31))
def test_the_french_decks_codes_and_faces_are_read_under_madjarice_where_unambiguous(
    language: str, index: int
) -> None:
    """A face copied from a French screen (``10♥``) names the same card under mađarice."""
    set_language(language)
    card = Card(index)
    set_deck(FRENCH)
    face = card_text(card)
    set_deck(GERMAN)
    assert read_card(face) == card


def test_croatian_madjarice_are_typed_as_they_are_named() -> None:
    set_language("hr")
    set_deck(GERMAN)
    assert read_card("D❤") == Card.parse("JH")
    assert read_card("Ds") == Card.parse("JH")  # dečko srce
    assert read_card("bu") == Card.parse("QD")  # baba bundeva
    assert read_card("Kt") == Card.parse("KS")  # kralj list
    assert read_card("AŽ") == Card.parse("AC")  # as žir
    assert read_card("10s") == Card.parse("10H")  # s is srce here, not the engine's spades
    assert read_card("10H") == Card.parse("10H")  # the engine's code still reads
    assert read_suit("ž") is Suit.CLUBS and read_suit("◉") is Suit.DIAMONDS
    assert typed_card(Card.parse("QS")) == "Bt"
    assert read_card("Dx") is None and read_card("s") is None and read_card("") is None


def test_the_french_deck_reads_as_before() -> None:
    set_language("hr")
    assert read_card("10S") == Card.parse("10S")
    assert read_card("qs") == Card.parse("QS")
    assert read_card("th") == Card.parse("10H")
    assert typed_card(Card.parse("10H")) == "10H"
    assert read_card("D❤") is None  # no dečko in the French deck
