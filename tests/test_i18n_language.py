"""Which language bela speaks (issue #15), and the words it builds from the engine's data."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bela.ai.hard import Decision, explain
from bela.ai.reasons import numbers
from bela.engine import Call, Card, IllegalPlayError, Pass, Play, Round, Suit
from bela.engine.tricks import ILLEGAL_CODES, Illegal
from bela.i18n import (
    LANGUAGES,
    _,
    current_language,
    english,
    environment_language,
    is_rtl,
    language_of,
    ngettext,
    set_language,
)
from bela.wording import action_error, illegal_text, points, suit_name, symbolize


@pytest.mark.parametrize(
    ("value", "lang"),
    [
        ("hr", "hr"),
        ("HR", "hr"),
        ("hr_HR", "hr"),
        ("hr-HR", "hr"),
        ("hr_HR.UTF-8", "hr"),
        ("ru_RU.utf8@euro", "ru"),
        ("zh_CN.UTF-8", "zh"),
        ("zh_TW", "zh"),
        ("ar_EG.UTF-8", "ar"),
        ("es_AR", "es"),
        ("en_GB", "en"),
        ("C", None),
        ("POSIX", None),
        ("C.UTF-8", None),
        ("de_DE.UTF-8", None),
        ("", None),
        (None, None),
    ],
)
def test_a_locale_name_means_a_shipped_language_or_none(value: str | None, lang: str) -> None:
    assert language_of(value) == lang


def test_the_environment_is_read_in_gettexts_order() -> None:
    assert environment_language({}) is None
    assert environment_language({"LANG": "hr_HR.UTF-8"}) == "hr"
    assert environment_language({"LC_MESSAGES": "ru_RU.UTF-8", "LANG": "hr_HR.UTF-8"}) == "ru"
    assert environment_language({"LC_ALL": "es_ES.UTF-8", "LC_MESSAGES": "ru_RU"}) == "es"
    # LANGUAGE is a list of preferences: the first shipped one wins
    assert environment_language({"LANGUAGE": "de:zh_CN:hr", "LANG": "hr_HR.UTF-8"}) == "zh"
    # nothing shipped in LANGUAGE: the next variable decides
    assert environment_language({"LANGUAGE": "de:fr", "LANG": "ar_SA.UTF-8"}) == "ar"
    # a set LC_ALL hides LANG, even when LC_ALL names no shipped language
    assert environment_language({"LC_ALL": "C", "LANG": "hr_HR.UTF-8"}) is None


def test_the_flag_beats_the_setting_beats_the_environment() -> None:
    env = {"LANG": "ru_RU.UTF-8"}
    assert set_language("hr", "es", env) == "hr"
    assert set_language(None, "es", env) == "es"
    assert set_language(None, "", env) == "ru"
    assert set_language(None, None, {}) == "en"
    assert set_language("klingon", None, env) == "ru"  # not shipped: the next source decides
    assert current_language() == "ru"


def test_words_follow_the_language_chosen_and_english_comes_back() -> None:
    set_language("hr")
    assert suit_name(Suit.HEARTS) == "herc"
    assert _("Hint") == "Savjet"
    with english():
        assert suit_name(Suit.HEARTS) == "hearts"
    assert suit_name(Suit.HEARTS) == "herc"
    set_language("en")
    assert suit_name(Suit.HEARTS) == "hearts"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "hr",
            {1: "1 bod", 2: "2 boda", 5: "5 bodova", 11: "11 bodova", 21: "21 bod", 24: "24 boda"},
        ),
        ("ru", {1: "1 очко", 3: "3 очка", 5: "5 очков", 12: "12 очков", 22: "22 очка"}),
        ("en", {1: "1 point", 2: "2 points"}),
    ],
)
def test_plural_forms_follow_the_language(lang: str, expected: dict[int, str]) -> None:
    set_language(lang)
    assert {n: points(n) for n in expected} == expected


def test_arabic_is_the_one_language_written_right_to_left() -> None:
    assert [lang for lang in LANGUAGES if is_rtl(lang)] == ["ar"]


def test_ngettext_without_a_catalog_is_english() -> None:
    assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 card"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", ILLEGAL_CODES)
def test_every_illegal_reason_is_worded_in_every_language(lang: str, code: str) -> None:
    """The engine's data, not its English, is what the app words (any code, any language)."""
    set_language(lang)
    reason = Illegal(
        code, Card.parse("QH"), Suit.SPADES, Suit.HEARTS, Card.parse("KS"), (Card.parse("AS"),)
    )
    text = illegal_text(reason)
    assert "Q♥" in text
    if code != "not_in_hand":
        assert "A♠" in text


@given(st.integers(min_value=0, max_value=2**32 - 1), st.data())
def test_a_refused_card_carries_its_reason_and_the_english_wording_is_the_engines(
    seed: int, data: st.DataObject
) -> None:
    """Any refused card of a dealt round: the exception holds the reason as data, and the
    app's English sentence built from that data is the engine's own message."""
    set_language("en")
    rnd = Round.from_seed(seed)
    while rnd.trump is None:
        rnd = rnd.apply(data.draw(st.sampled_from(rnd.legal_actions())))
    for _card in range(data.draw(st.integers(0, 3))):  # some cards on the trick
        rnd = rnd.apply(data.draw(st.sampled_from(rnd.legal_actions())))
    seat = rnd.to_act
    assert seat is not None
    legal = {a.card for a in rnd.legal_actions() if isinstance(a, Play)}
    refused = [Card(c) for c in range(32) if Card(c) not in legal]
    card = data.draw(st.sampled_from(refused))
    with pytest.raises(IllegalPlayError) as caught:
        rnd.apply(Play(card))
    reason = caught.value.reason
    assert reason is not None and reason.card == card
    assert reason.code in ILLEGAL_CODES
    assert (reason.code == "not_in_hand") == (card not in rnd.hand(seat))
    assert set(reason.legal) == (legal if reason.code != "not_in_hand" else set())
    assert action_error(caught.value) == symbolize(sentence_case(str(caught.value)))


QUEEN, KING, SEVEN = (Play(Card.parse(c)) for c in ("QS", "KS", "7S"))


def sentence_case(text: str) -> str:
    return text[:1].upper() + text[1:]


@pytest.mark.parametrize(
    "decision",
    [
        Decision(QUEEN, "solver", 20, {KING: 5.0, QUEEN: 5.0, SEVEN: -3.0}),
        Decision(QUEEN, "solver", 20, {SEVEN: -3.0, QUEEN: 5.0}),
        Decision(QUEEN, "only"),
        Decision(QUEEN, "heuristic"),
        Decision(Call(Suit.SPADES), "bid-eval", 16, {Call(Suit.SPADES): 12.0, Pass(): -4.0}),
    ],
)
def test_the_hints_numbers_read_as_the_bots_english_and_translate(decision: Decision) -> None:
    """The app's numbers (``reasons.numbers``) are ``hard.explain``'s words in English,
    and in Croatian keep every number and card."""
    set_language("en")
    assert numbers(decision) == explain(decision)
    set_language("hr")
    croatian = numbers(decision)
    assert croatian != explain(decision)
    for figure in ("+5", "+12", "-4", "8", "QS", "KS", "7S", "20", "16"):
        if figure in explain(decision):
            assert figure in croatian, (figure, croatian)
