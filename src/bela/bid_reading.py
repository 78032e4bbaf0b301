"""A bid typed on the command line: the app's keys, and nothing that means another bid.

A tester (issue #36) found the trap this closes: on the command line ``bela puzzles
--bids`` read a bare letter as the engine's suit code (``d`` diamonds, ``s`` spades),
while the app's keys are the language's (hr ``d`` is dalje, ``k`` karo; es ``c`` is
corazones, ``s`` paso), so a Croatian ``d`` called karo without a word. Every command
line that reads a bid (``bela puzzles``, ``bela play --plain``, ``bela join --plain``)
now reads it here, from the letters the app binds (``bela.keys.bid_keys``, per
language and deck), and says the same letters in its prompts and refusals.

What is read, case-insensitive:

- the app's bid letters in the language and deck in use (hr ``h k p t`` and ``d``;
  with mađarice ``s u t ž`` and ``d``);
- English's bid letters of the deck in use only where none of them clashes with the
  language's own letters in either deck (``english_letters_read``): so in English,
  Russian, Chinese and Arabic, whose letters are English's, and never in Croatian or
  Spanish (hr ``d`` is dalje, ``p`` pik, ``s`` dosta; es ``c`` is corazones, ``s`` paso).
  Taking some of English's letters and not others would be a trap of its own;
- whole words: ``dalje`` and ``pass``, each suit's name in the player's language and in
  English, in either deck's words (hr ``karo`` or ``bundeva``: the decks are the same
  cards), and either deck's suit symbols (``♥``, ``❤``);
- ``call``, ``zovem`` or ``adut`` before a suit's letter, name or symbol (``call h``).

Anything else (a letter of no bid, a word of two bids) is refused by the caller with
``refusal``, one line that lists the letters; nothing is guessed. The engine's codes are
no exception: ``call D`` is read where ``d`` is a diamonds letter (English's French deck),
not in Croatian (``d`` is dalje) nor with mađarice (bells are ``e`` in English). A
player's keymap (settings.json) remaps the app's keys alone; the command line keeps the
shipped letters, as F1 and the plain mode name them.
"""

from __future__ import annotations

from typing import Final

from bela.deck import DECKS
from bela.i18n import _, pgettext
from bela.keys import bid_keys, letters_of

__all__ = [
    "DALJE",
    "bid_letters",
    "bid_words",
    "english_letters_read",
    "letters_line",
    "read_bid",
    "refusal",
    "word_meanings",
]

DALJE: Final = 4
"""The index of dalje among the bids (after the four suits, as ``bid_keys`` orders them)."""

_CALL_WORDS: Final = frozenset({"call", "zovem", "adut"})
"""Words before a suit that say it is named as trump (``call h``, ``zovem karo``)."""

_ENGLISH: Final = "en"


def english_letters_read(language: str | None = None, deck: str | None = None) -> bool:
    """Whether English's bid letters (of ``deck``) are read in ``language`` besides its own:
    only when each of them, in either deck of ``language``, is a letter of nothing or of the
    same bid. Croatian (``d`` is dalje there, English's diamonds) and Spanish (``c`` is
    corazones, English's clubs) read their own letters alone."""
    from bela.i18n import current_language

    code = language or current_language()
    english = bid_keys(_ENGLISH, deck)
    if bid_keys(code, deck) == english:
        return True  # the language's letters are English's (ru, zh, ar)
    for one_deck in DECKS:
        table = letters_of(code, one_deck)
        own = bid_keys(code, one_deck)
        for index, key in enumerate(english):
            if key in own and own.index(key) == index:
                continue
            if key in table.values():
                return False
    return True


def bid_letters(language: str | None = None, deck: str | None = None) -> dict[str, int]:
    """Each letter read as a bid, to the bid's index (0-3 the suits in ``Suit`` order,
    ``DALJE``): the app's (``bid_keys``), and English's where ``english_letters_read``."""
    letters = {key: index for index, key in enumerate(bid_keys(language, deck))}
    if english_letters_read(language, deck):
        for index, key in enumerate(bid_keys(_ENGLISH, deck)):
            letters.setdefault(key, index)
    return letters


def bid_words() -> dict[str, int]:
    """Each whole word and symbol read as a bid in the language in use, casefolded, to the
    bid's index: dalje, the suits' names in either deck (in the language and in English)
    and their symbols. A word two bids share is left out: it names neither (a test checks
    that no language has one, ``word_meanings``)."""
    return {word: min(bids) for word, bids in word_meanings().items() if len(bids) == 1}


def word_meanings() -> dict[str, set[int]]:
    """Every word ``bid_words`` weighs, casefolded, to every bid it names."""
    from bela.wording import FRENCH_SYMBOLS, GERMAN_SYMBOLS

    named: list[tuple[str, int]] = [("dalje", DALJE), ("pass", DALJE), (_("dalje"), DALJE)]
    named.append((_("Dalje"), DALJE))  # the bid menu's word (``bela.keys.ACTIONS``)
    english = (
        ("hearts", "diamonds", "spades", "clubs"),
        ("hearts", "bells", "leaves", "acorns"),
        ("heart", "diamond", "spade", "club"),
        ("heart", "bell", "leaf", "acorn"),
    )
    for words in english:
        named += [(word, index) for index, word in enumerate(words)]
    contexts = (
        ("suit", english[0]),
        ("german suit", english[1]),
        ("german suit called", english[1]),
        ("one card of", english[2]),
        ("german one card of", english[3]),
    )
    for context, words in contexts:
        named += [(pgettext(context, word), index) for index, word in enumerate(words)]
    for symbols in (FRENCH_SYMBOLS, GERMAN_SYMBOLS):
        named += [(symbol, index) for index, symbol in enumerate(symbols)]
    meaning: dict[str, set[int]] = {}
    for word, index in named:
        meaning.setdefault(word.casefold(), set()).add(index)
    return meaning


def read_bid(text: str) -> int | None:
    """The bid ``text`` names, as its index (0-3 a suit in ``Suit`` order, ``DALJE``), or
    None when it names none or more than one: a bid letter (``bid_letters``), a word
    (``bid_words``), or ``call`` / ``zovem`` / ``adut`` and a suit's letter or word."""
    parts = text.casefold().split()
    if len(parts) == 2 and parts[0] in _CALL_WORDS:
        index = _one(parts[1])
        return index if index is not None and index != DALJE else None
    if len(parts) != 1:
        return None
    return _one(parts[0])


def _one(word: str) -> int | None:
    letters = bid_letters()
    if word in letters:
        return letters[word]
    return bid_words().get(word)


def letters_line(language: str | None = None, deck: str | None = None) -> dict[str, str]:
    """The letters a prompt shows (``{suits}`` and ``{dalje}``), the app's own."""
    keys = bid_keys(language, deck)
    return {"suits": " ".join(keys[:4]), "dalje": keys[DALJE]}


def refusal(text: str, dalje: bool = True) -> str:
    """The one line that refuses ``text`` as a bid and lists the letters that are bids
    (without dalje under pod mus, where the dealer must name trump: ``dalje`` False)."""
    from bela.engine import Suit
    from bela.foundation.untrusted import shown
    from bela.wording import suit_name

    names = ", ".join(suit_name(suit) for suit in Suit)
    if dalje:
        return _("{text} is not a bid: {suits} name trump ({names}), {dalje} says dalje").format(
            text=shown(text, 20), names=names, **letters_line()
        )
    return _("{text} is not a trump: {suits} name it ({names})").format(
        text=shown(text, 20), names=names, suits=letters_line()["suits"]
    )
