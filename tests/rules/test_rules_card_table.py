"""Every row of the brief's order/points table, and the 152 + 10 = 162 per deal."""

from __future__ import annotations

import pytest

from bela.engine import Card, Suit, card_points, trick_winner

TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]  # high to low
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]  # high to low
SUITS = [Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS]


@pytest.mark.parametrize("rank", list(TRUMP_POINTS))
@pytest.mark.parametrize("trump", SUITS)
def test_trump_card_points(trump: Suit, rank: str) -> None:
    """Brief, points in trump: "J 20, 9 14, A 11, 10 10, K 4, Q 3, 8 0, 7 0"."""
    assert card_points(Card.parse(rank + str(trump)), trump) == TRUMP_POINTS[rank]


@pytest.mark.parametrize("rank", list(PLAIN_POINTS))
@pytest.mark.parametrize("trump", SUITS)
def test_plain_card_points(trump: Suit, rank: str) -> None:
    """Brief, points in the other suits: "A 11, 10 10, K 4, Q 3, J 2, 9 0, 8 0, 7 0"."""
    for suit in SUITS:
        if suit is not trump:
            assert card_points(Card.parse(rank + str(suit)), trump) == PLAIN_POINTS[rank]


@pytest.mark.parametrize("trump", SUITS)
def test_card_points_total_152(trump: Suit) -> None:
    """Brief: "Card points total 152" (62 in trump + 3 x 30 in the other suits)."""
    assert sum(TRUMP_POINTS.values()) + 3 * sum(PLAIN_POINTS.values()) == 152
    assert sum(card_points(Card(i), trump) for i in range(32)) == 152


@pytest.mark.parametrize("trump", SUITS)
def test_trump_order_j_9_a_10_k_q_8_7(trump: Suit) -> None:
    """Brief: trump order (high to low) "J 9 A 10 K Q 8 7": of any two trumps on a trick the
    one higher in that order wins, whichever was played first."""
    for hi_index, high in enumerate(TRUMP_ORDER):
        for low in TRUMP_ORDER[hi_index + 1 :]:
            hi_card, lo_card = Card.parse(high + str(trump)), Card.parse(low + str(trump))
            assert trick_winner([hi_card, lo_card], trump) == 0, f"{hi_card} over {lo_card}"
            assert trick_winner([lo_card, hi_card], trump) == 1, f"{hi_card} over {lo_card}"


@pytest.mark.parametrize("trump", SUITS)
def test_plain_order_a_10_k_q_j_9_8_7(trump: Suit) -> None:
    """Brief: order in the other suits (high to low) "A 10 K Q J 9 8 7"."""
    for suit in SUITS:
        if suit is trump:
            continue
        for hi_index, high in enumerate(PLAIN_ORDER):
            for low in PLAIN_ORDER[hi_index + 1 :]:
                hi_card, lo_card = Card.parse(high + str(suit)), Card.parse(low + str(suit))
                assert trick_winner([hi_card, lo_card], trump) == 0, f"{hi_card} over {lo_card}"
                assert trick_winner([lo_card, hi_card], trump) == 1, f"{hi_card} over {lo_card}"


def test_order_differs_between_trump_and_plain_suit() -> None:
    """Brief: the 9 and J rank top in trump (J 9 A ...) but low in a plain suit (... J 9 8 7)."""
    assert trick_winner(["AH", "9H"], Suit.HEARTS) == 1
    assert trick_winner(["AH", "9H"], Suit.SPADES) == 0
    assert trick_winner(["10D", "JD"], Suit.DIAMONDS) == 1
    assert trick_winner(["10D", "JD"], Suit.CLUBS) == 0
