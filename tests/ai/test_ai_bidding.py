"""Naming trump: the hand evaluation and the call it leads to."""

from __future__ import annotations

from random import Random

import pytest

from bela.ai import make_bot
from bela.ai.normal.bidding import BidModel, best_call, call_strength, choose_bid
from bela.engine import Call, Pass, Round, SeatView, Suit, mask_of

MODEL = BidModel()
WEAK_SIX = ["7H", "8D", "9S", "QC", "8C", "JD"]  # no trump honours, no side aces


def hand(text: str) -> int:
    return mask_of(text.split())


def first_view(six: list[str], seat_order_passes: int = 0) -> SeatView:
    """The view of the seat to speak after ``seat_order_passes`` passes, holding ``six``."""
    rest = [c for c in range(32) if c not in mask_cards(six)]
    # Deal the other 26 cards in a fixed order: the bidder is seat 0, first to speak (dealer 3).
    bidder = seat_order_passes % 4
    hands: list[list[int]] = [[], [], [], []]
    hands[bidder] = list(mask_cards(six))
    others = [s for s in range(4) if s != bidder]
    for k, s in enumerate(others):
        hands[s] = rest[6 * k : 6 * k + 6]
    talon_cards = rest[18:]
    talons = [talon_cards[2 * s : 2 * s + 2] for s in range(4)]
    rnd = Round.from_hands(3, hands, talons)
    for _ in range(seat_order_passes):
        rnd = rnd.apply(Pass())
    assert rnd.to_act == bidder
    return rnd.view(bidder)


def mask_cards(six: list[str]) -> list[int]:
    m = mask_of(six)
    return [c for c in range(32) if m >> c & 1]


def test_trump_jack_and_nine_outweigh_length_without_them() -> None:
    jack_nine = hand("JH 9H 7H AS 8D 7C")
    long_small = hand("7H 8H QH KS 8D 7C")
    assert call_strength(jack_nine, Suit.HEARTS, MODEL) > call_strength(
        long_small, Suit.HEARTS, MODEL
    )


def test_side_aces_and_length_add_to_the_evaluation() -> None:
    base = call_strength(hand("JH 9H 7S 8S 8D 7C"), Suit.HEARTS, MODEL)
    with_ace = call_strength(hand("JH 9H AS 8S 8D 7C"), Suit.HEARTS, MODEL)
    longer = call_strength(hand("JH 9H 7H 8H 8D 7C"), Suit.HEARTS, MODEL)
    assert with_ace > base
    assert longer > base


def test_the_best_suit_is_the_one_holding_jack_and_nine() -> None:
    suit, _ = best_call(hand("JS 9S AS 8H 10D 7C"), MODEL)
    assert suit == Suit.SPADES


def test_a_strong_hand_names_trump_and_a_weak_one_says_dalje() -> None:
    strong = first_view(["JS", "9S", "AS", "10S", "AD", "7C"])
    assert choose_bid(strong, MODEL) == Call(Suit.SPADES)
    weak = first_view(WEAK_SIX)
    assert choose_bid(weak, MODEL) == Pass()


def test_the_forced_dealer_names_its_best_suit() -> None:
    view = first_view(["7H", "8D", "9C", "JC", "QS", "8S"], seat_order_passes=3)
    assert Pass() not in view.legal_actions
    assert choose_bid(view, MODEL) == Call(Suit.CLUBS)  # J and 9 of clubs


def test_zvanja_visible_in_the_six_cards_tip_a_borderline_hand() -> None:
    plain = ["JH", "8H", "7H", "KS", "8D", "7C"]
    with_sequence = ["JH", "8H", "7H", "KS", "QS", "JS"]  # K Q J of spades: 20
    assert choose_bid(first_view(plain), BidModel(threshold=60.0)) == Pass()
    strong_enough = choose_bid(first_view(with_sequence), BidModel(threshold=60.0))
    assert isinstance(strong_enough, Call)


@pytest.mark.parametrize("kind", ["normal", "easy", "heuristic"])
def test_every_level_passes_a_hopeless_hand_and_calls_when_forced(kind: str) -> None:
    bot = make_bot(kind)
    assert bot.act(first_view(WEAK_SIX), Random(1)) == Pass()
    forced = first_view(WEAK_SIX, seat_order_passes=3)
    assert isinstance(bot.act(forced, Random(1)), Call)
