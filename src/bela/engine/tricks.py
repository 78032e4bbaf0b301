"""Trick play: card points, which cards beat which, legal plays and the trick winner.

Everything reduces to three facts about the trick so far: the suit led, the
card currently winning, and the trump. The card currently winning is also the
card a player must beat (the highest trump once the trick is trumped, else the
highest card of the suit led), so legality is a handful of mask operations on
``BEATS``, a table built once at import time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from bela.engine.cards import SUIT_MASK, Card, Suit, cards_in, parse_cards, to_card, to_suit
from bela.engine.errors import InvalidValueError
from bela.engine.guards import check_mask

__all__ = [
    "BEATS",
    "CARD_POINTS",
    "ILLEGAL_CODES",
    "Illegal",
    "card_points",
    "english_reason",
    "explain_illegal",
    "illegal_reason",
    "legal_mask",
    "legal_plays",
    "trick_winner",
]

# Points by natural rank index (7 8 9 10 J Q K A).
_TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
_PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)
# Strength by natural rank index; higher wins. Trump: J 9 A 10 K Q 8 7. Plain: A 10 K Q J 9 8 7.
TRUMP_STRENGTH: Final = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_STRENGTH: Final = (0, 1, 2, 6, 3, 4, 5, 7)

# CARD_POINTS[trump * 32 + card]
CARD_POINTS: Final[tuple[int, ...]] = tuple(
    (_TRUMP_POINTS if (c >> 3) == t else _PLAIN_POINTS)[c & 7] for t in range(4) for c in range(32)
)


def _beats(trump: int, card: int) -> int:
    """Mask of the cards that would take the trick from ``card`` if it is winning."""
    suit, rank = card >> 3, card & 7
    if suit == trump:
        strength = TRUMP_STRENGTH[rank]
        return sum(1 << (suit * 8 + r) for r in range(8) if TRUMP_STRENGTH[r] > strength)
    strength = PLAIN_STRENGTH[rank]
    higher = sum(1 << (suit * 8 + r) for r in range(8) if PLAIN_STRENGTH[r] > strength)
    return higher | SUIT_MASK[trump]


# BEATS[trump * 32 + winning_card]
BEATS: Final[tuple[int, ...]] = tuple(_beats(t, c) for t in range(4) for c in range(32))


def card_points(card: object, trump: object) -> int:
    """The points of ``card`` (a ``Card``, text or index) with ``trump`` (a ``Suit``, letter or
    index): J 20, 9 14 in trump; J 2, 9 0 otherwise."""
    return CARD_POINTS[to_suit(trump) * 32 + to_card(card)]


def winning_index(trick: Sequence[int], trump: int) -> int:
    """Index of the winning card of a non-empty trick given as ints (internal, fast)."""
    base = trump * 32
    best = 0
    win = trick[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if BEATS[base + win] >> card & 1:
            best, win = i, card
    return best


def trick_winner(trick: object, trump: object) -> int:
    """Index into ``trick`` (cards in play order) of the card that wins it so far."""
    cards = parse_cards(trick)
    if not cards:
        raise InvalidValueError("an empty trick has no winner")
    if len(cards) > 4:
        raise InvalidValueError(f"a trick has at most 4 cards, not {len(cards)}")
    distinct_mask(cards, "the trick")
    return winning_index(cards, to_suit(trump))


def distinct_mask(cards: Sequence[Card], where: str) -> int:
    """The mask of ``cards``; ``InvalidValueError`` if a card is given twice."""
    mask = 0
    for card in cards:
        bit = 1 << card
        if mask & bit:
            raise InvalidValueError(f"{card} is given twice in {where}")
        mask |= bit
    return mask


def _check_position(hand: Sequence[Card], trick: Sequence[Card]) -> int:
    """The mask of a hand, checked with the cards already played to the trick: at most 8
    cards in hand and 0..3 on the table, none twice in either.

    (A card both in the hand and on the table is not refused: the answer about the
    other cards is still right, and older tests write positions that way.)
    """
    if len(hand) > 8:
        raise InvalidValueError(f"a hand holds at most 8 cards, not {len(hand)}")
    if len(trick) > 3:
        raise InvalidValueError(
            f"a trick in progress has 0..3 cards already played, not {len(trick)}: "
            "after the fourth card the trick is complete"
        )
    distinct_mask(trick, "the trick")
    return distinct_mask(hand, "the hand")


def legal_mask(hand: int, led: int, win: int, trump: int) -> int:
    """The legal plays as a mask, given the suit led and the card winning the trick.

    Pass ``led = -1`` when leading (anything goes). This is the hot-path form of
    ``legal_plays``: its arguments are trusted, not checked.
    """
    if led < 0:
        return hand
    follow = hand & SUIT_MASK[led]
    if follow:
        if led != trump and (win >> 3) == trump:
            return follow  # the trick is trumped: any card of the suit led
        return (follow & BEATS[trump * 32 + win]) or follow
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        return (trumps & BEATS[trump * 32 + win]) or trumps
    return hand


def _trick_state(trick: Sequence[int], trump: int) -> tuple[int, int]:
    if not trick:
        return -1, -1
    return trick[0] >> 3, trick[winning_index(trick, trump)]


def legal_plays(hand: object, trick: object, trump: object) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (cards already played, in order).

    The result keeps the hand's order. Cards are ``Card``, text or indices 0..31;
    a hand of more than 8 cards, a trick of 4 or more, or a card given twice in
    either is an ``InvalidValueError``.
    """
    hand_cards = parse_cards(hand)
    trick_cards = parse_cards(trick)
    t = to_suit(trump)
    hand_mask = _check_position(hand_cards, trick_cards)
    led, win = _trick_state(trick_cards, t)
    legal = legal_mask(hand_mask, led, win, t)
    return [c for c in hand_cards if legal >> c & 1]


def _names(mask: int) -> str:
    cards = [str(Card(c)) for c in range(32) if mask >> c & 1]
    if len(cards) <= 1:
        return "".join(cards)
    return ", ".join(cards[:-1]) + " or " + cards[-1]


class Illegal(NamedTuple):
    """Why a card may not be played, as data: a code and the cards and suits it names.

    The engine words it in English (``explain_illegal``, its exceptions); the app
    and the command line word it in the player's language from these fields
    (``bela.wording``), so the engine stays free of language.

    ``code`` is one of ``ILLEGAL_CODES``: ``not_in_hand``; ``beat_trump`` (must beat
    ``win`` with a higher trump); ``beat_led`` (must beat ``win`` with a higher card
    of ``led``); ``follow`` (must follow ``led``); ``overtrump`` (no ``led``, must
    overtrump ``win``); ``trump`` (no ``led``, must play a trump). ``legal`` lists
    the cards that are allowed.
    """

    code: str
    card: Card
    led: Suit | None = None
    trump: Suit | None = None
    win: Card | None = None
    legal: tuple[Card, ...] = ()


ILLEGAL_CODES: Final = ("not_in_hand", "beat_trump", "beat_led", "follow", "overtrump", "trump")


def explain_illegal(hand: object, trick: object, trump: object, card: object) -> str | None:
    """Why ``card`` may not be played (a sentence a player can act on), or None if it may.

    ``hand`` is a mask of the cards held; ``trick`` the 0..3 cards already played.
    """
    hand_mask = check_mask(hand, "the hand")
    trick_cards = parse_cards(trick)
    _check_position(cards_in(hand_mask), trick_cards)
    return explain_illegal_unchecked(hand_mask, trick_cards, to_suit(trump), to_card(card))


def illegal_reason(hand: int, trick: Sequence[int], trump: int, card: int) -> Illegal | None:
    """Why ``card`` may not be played, as data (``Illegal``), or None if it may.

    Arguments as ``explain_illegal_unchecked``: already checked by the caller.
    """
    if not hand >> card & 1:
        return Illegal("not_in_hand", Card(card))
    led, win = _trick_state(trick, trump)
    legal = legal_mask(hand, led, win, trump)
    if legal >> card & 1:
        return None
    allowed = tuple(Card(c) for c in range(32) if legal >> c & 1)
    led_suit, trump_suit, win_card = Suit(led), Suit(trump), Card(win)
    follow = hand & SUIT_MASK[led]
    if follow:
        if legal != follow:
            code = "beat_trump" if led == trump else "beat_led"
            return Illegal(code, Card(card), led_suit, trump_suit, win_card, allowed)
        return Illegal("follow", Card(card), led_suit, trump_suit, win_card, allowed)
    trumps = hand & SUIT_MASK[trump]
    if (win >> 3) == trump and legal != trumps:
        return Illegal("overtrump", Card(card), led_suit, trump_suit, win_card, allowed)
    return Illegal("trump", Card(card), led_suit, trump_suit, win_card, allowed)


def explain_illegal_unchecked(hand: int, trick: Sequence[int], trump: int, card: int) -> str | None:
    """``explain_illegal`` for arguments the engine has already checked (``Round.apply``)."""
    reason = illegal_reason(hand, trick, trump, card)
    return None if reason is None else english_reason(reason)


def english_reason(reason: Illegal) -> str:
    """The engine's own (English) sentence for ``reason``: the text of its exceptions."""
    name = str(reason.card)
    if reason.code == "not_in_hand":
        return f"{name} is not in your hand"
    assert reason.led is not None and reason.trump is not None
    legal = _names(sum(1 << int(c) for c in reason.legal))
    led, trump, win = reason.led, reason.trump, reason.win
    if reason.code == "beat_trump":
        return f"{name} is not allowed: you must beat {win} with a higher trump ({legal})"
    if reason.code == "beat_led":
        return f"{name} is not allowed: you must beat {win} with a higher {led.singular} ({legal})"
    if reason.code == "follow":
        return f"{name} is not allowed: you must follow {led.noun} ({legal})"
    if reason.code == "overtrump":
        return (
            f"{name} is not allowed: you have no {led.noun}, so you must overtrump "
            f"{win} with a higher {trump.singular} ({legal})"
        )
    return f"{name} is not allowed: you have no {led.noun}, so you must play a trump ({legal})"
