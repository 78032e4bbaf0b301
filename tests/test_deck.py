"""The mađarice deck (issue #35): the same 32 cards named and drawn as German-suited cards.

Only what a person reads changes: every card's face is distinct and free of French suit
symbols in every language, each suit is told apart by its symbol (not by colour), the
suits' letters clash with no other key, and records keep their codes.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from bela.deck import FRENCH, GERMAN, set_deck
from bela.engine import Card, Rank, Suit
from bela.engine.match import Match
from bela.engine.rules import Rules
from bela.i18n import LANGUAGES, set_language
from bela.keys import ACTIONS, GERMAN_SUIT_LETTERS, KEYS, MOMENTS, letters_of
from bela.wording import (
    FRENCH_SYMBOLS,
    card_text,
    rank_plural,
    suit_called,
    suit_name,
    suit_singular,
    suit_symbol,
    symbolize,
)

SUIT_ACTIONS = ("hearts", "diamonds", "spades", "clubs")


@given(language=st.sampled_from(LANGUAGES), index=st.integers(0, 31))
def test_every_madjarice_card_is_drawn_without_a_french_suit_in_one_box(
    language: str, index: int
) -> None:
    set_language(language)
    set_deck(GERMAN)
    text = card_text(Card(index))
    assert not set(text) & set((*FRENCH_SYMBOLS, "♡", "♢", "♤", "♧")), text
    assert cell_len(text) <= 3  # a card's face is three cells wide (widgets.cards)
    assert text.endswith(suit_symbol(Card(index).suit))
    assert cell_len(suit_symbol(Card(index).suit)) == 1


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_32_madjarice_cards_and_the_4_suits_are_told_apart_in_every_language(
    language: str,
) -> None:
    set_language(language)
    set_deck(GERMAN)
    faces = [card_text(Card(i)) for i in range(32)]
    assert len(set(faces)) == 32, faces
    symbols = [suit_symbol(suit) for suit in Suit]
    assert len(set(symbols)) == 4 and not set(symbols) & set(FRENCH_SYMBOLS)
    for words in (suit_name, suit_singular, suit_called):
        names = [words(suit) for suit in Suit]
        assert len(set(names)) == 4, (language, names)
    set_deck(FRENCH)
    french = [suit_name(suit) for suit in Suit]
    set_deck(GERMAN)
    # bells, leaves and acorns are not diamonds, spades and clubs in any language
    assert all(suit_name(s) != french[s] for s in (Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS))


def test_croatian_madjarice_names_are_the_tables() -> None:
    set_language("hr")
    set_deck(GERMAN)
    assert [suit_name(s) for s in Suit] == ["srce", "bundeva", "list", "žir"]
    assert suit_called(Suit.DIAMONDS) == "bundevu"  # "Zoveš bundevu."
    assert [card_text(Card.parse(c)) for c in ("JH", "QD", "KS", "AC", "10H")] == [
        "D❤",
        "B◉",
        "K❦",
        "A♁",
        "10❤",
    ]
    assert rank_plural(Rank.QUEEN) == "babe"  # četiri babe
    assert symbolize("QD is not in your hand") == "B◉ is not in your hand"


def test_english_madjarice_are_hearts_bells_leaves_acorns_with_unter_and_ober() -> None:
    set_deck(GERMAN)
    assert [suit_name(s) for s in Suit] == ["hearts", "bells", "leaves", "acorns"]
    assert card_text(Card.parse("JD")) == "U◉" and card_text(Card.parse("QC")) == "O♁"


def test_the_french_deck_is_drawn_as_before() -> None:
    set_language("hr")
    assert [card_text(Card.parse(c)) for c in ("JH", "QD", "10S", "AC")] == [
        "J♥",
        "Q♦",
        "10♠",
        "A♣",
    ]
    assert [suit_name(s) for s in Suit] == ["herc", "karo", "pik", "tref"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_madjarice_letter_does_two_things_in_any_moment(language: str) -> None:
    """The suits' letters follow the German names (hr s u t ž) and clash with nothing."""
    assert set(GERMAN_SUIT_LETTERS) == set(LANGUAGES)
    table = letters_of(language, GERMAN)
    assert set(table) == set(ACTIONS)
    for moment in MOMENTS:
        acting = [a for a, spec in ACTIONS.items() if moment in spec.moments]
        keys = [table[a] for a in acting]
        clashes = {k for k in keys if keys.count(k) > 1}
        assert not clashes, f"{language}, {moment}: {clashes} do two things"
    assert len({table[a] for a in SUIT_ACTIONS}) == 4


def test_croatian_madjarice_letters_are_in_the_names_and_the_help() -> None:
    set_language("hr")
    table = letters_of("hr", GERMAN)
    letters = [table[a] for a in SUIT_ACTIONS]
    assert letters == ["s", "u", "t", "ž"]
    set_deck(GERMAN)
    for letter, suit in zip(letters, Suit, strict=True):
        assert letter in suit_name(suit)
    row = next(key for key in KEYS if key.letters == SUIT_ACTIONS)
    assert row.keys_shown() == "s u t ž"
    assert "bundevu" in row.says() and "herc" not in row.says()


def _record_text() -> str:
    match = Match.new(seed=11, target=501, rules=Rules())
    while not match.rounds:
        assert match.current is not None
        match = match.apply(match.current.legal_actions()[0])
    from bela.archive.records import dumps, record_from_match

    return dumps(record_from_match(match, "normal"))


def test_a_record_is_the_same_whatever_the_deck() -> None:
    set_language("hr")
    french = _record_text()
    set_deck(GERMAN)
    german = _record_text()
    assert german == french
    assert not set(german) & set("❤◉❦♁")


def test_every_madjarice_letter_is_in_the_key_table() -> None:
    """F1 and the README list every key bound: with mađarice, the suits' own letters."""
    set_deck(GERMAN)
    for code in LANGUAGES:
        listed = {name for key in KEYS for name in key.key_names(code)}
        wanted = {letters_of(code)[action] for action in SUIT_ACTIONS}
        assert wanted <= listed, (code, wanted - listed)


def test_the_house_rules_name_the_cards_of_the_deck_in_use() -> None:
    """Issue #35, read in F2 at 80x24 with mađarice: the house rules said "adutski K i Q" and
    "četiri kralja i dame", cards of the French deck; they name the deck's cards."""
    from bela.settings import RULE_CHOICES, rule_label

    set_language("hr")
    labels = {c.field: c for c in RULE_CHOICES}
    assert rule_label(labels["bela_on_second"]) == "Bela se zove s drugom od adutskih K i Q"
    assert rule_label(labels["tens_over_kings"]) == (
        "Četiri desetke jače su od četiri kralja i dame"
    )
    set_deck(GERMAN)
    assert rule_label(labels["bela_on_second"]) == "Bela se zove s drugom od adutskih K i B"
    assert rule_label(labels["no_bela"]) == "Bez bele (adutski K i B ne nose ništa)"
    assert rule_label(labels["tens_over_kings"]) == (
        "Četiri desetke jače su od četiri kralja i babe"
    )
    for language in LANGUAGES:  # every label formats, and no French Q is left with mađarice
        set_language(language)
        for choice in RULE_CHOICES:
            assert "{" not in rule_label(choice) and " Q" not in rule_label(choice)
