"""The heuristic player's card play on constructed positions, one rule of thumb each."""

from __future__ import annotations

from random import Random

import pytest
from bela_ai_views import position_view, two_tricks_left_view

from bela.ai import make_bot
from bela.ai.normal.heuristic import HeuristicBot
from bela.ai.normal.judgement import PlayStyle
from bela.engine import Card, Play, SeatView, card_points

# Six tricks that leave seat 0 with JH AS, seat 1 with 9H KD, seat 2 with 7D 8D and
# seat 3 with QC KC (trump hearts, dealer 0). Seat 3 has shown no spades and no trumps.


def play(view: SeatView, kind: str = "normal") -> Play:
    action = make_bot(kind).act(view, Random(0))
    assert isinstance(action, Play)
    assert action in view.legal_actions
    return action


@pytest.mark.parametrize("kind", ["normal-v1", "easy"])
def test_partner_surely_winning_gets_the_ace_or_ten(kind: str) -> None:
    # Trump hearts. Partner (seat 2) led the JH, the master trump; seat 3 followed.
    # Seat 0 has no hearts: nobody can beat the jack, so it adds its points.
    # (normal loads the king and spares AD 10D for tricks of their own: test_ai_conventions.)
    view = position_view(
        seat=0,
        hand="AD 10D 7D 8D 7C 8C 9C KC",
        trump="H",
        caller=2,
        dealer=1,
        leader=2,
        trick="JH 7H",
    )
    card = play(view, kind).card
    assert card_points(card, "H") >= 10, f"fed {card}"


def test_partner_winning_with_the_last_trick_to_come_gets_the_ace() -> None:
    # Trick 7 of 8: partner (seat 2) led the JH, the last trump; seat 0 holds AS 7D.
    # Feeding the ace now banks 11; keeping it would hand it to the diamond winner later.
    view = position_view(
        seat=0,
        hand="AS 7D",
        trump="H",
        caller=1,
        dealer=0,
        tricks=[
            (1, "KH 10H 8H AH"),
            (0, "AC 10C 8C 9C"),
            (0, "AD 10D QD JD"),
            (0, "10S QS 9S JS"),
            (0, "KS 7H 7S 8S"),
            (1, "JC 9H 7C QH"),
        ],
        leader=2,
        trick="JH 9D",
        other_hands=["", "KD QC", "8D", "KC"],
    )
    assert play(view).card == Card.parse("AS")


def test_no_points_thrown_into_a_trick_the_opponents_surely_take() -> None:
    # Opponent seat 1 led the JH (master trump); seat 0 has no hearts: it throws its 7.
    view = position_view(
        seat=2,
        hand="AD 10D 7D 8D 7C 8C 9C KC",
        trump="H",
        caller=1,
        dealer=0,
        leader=1,
        trick="JH",
    )
    card = play(view).card
    assert card_points(card, "H") == 0, f"threw {card}"


def test_wins_with_the_lowest_trump_when_any_trump_takes_the_trick() -> None:
    # Seat 0 is last to a spade trick it cannot follow; any trump wins it.
    view = position_view(
        seat=0,
        hand="7H 9H JH AD 7D 8D 7C 8C",
        trump="H",
        caller=0,
        dealer=0,
        leader=1,
        trick="7S 8S KS",
    )
    assert play(view).card == Card.parse("7H")


def test_the_calling_side_draws_trumps_with_the_master_trump() -> None:
    view = position_view(
        seat=1,
        hand="JH 8H 7H AD 10D 7C 8C 9S",
        trump="H",
        caller=1,
        dealer=0,
    )
    assert play(view).card == Card.parse("JH")


def test_bela_is_announced_with_the_second_of_trump_king_and_queen() -> None:
    # Seat 0 led QH earlier (trick 1); now a heart is led and its only heart is KH.
    view = position_view(
        seat=0,
        hand="KH AS 10S 7D 8D 7C 8C",
        trump="H",
        caller=0,
        dealer=3,
        tricks=[(0, "QH 7H 8H 9H")],
        leader=1,
        trick="JH 10H AH",
    )
    action = play(view)
    assert action == Play(Card.parse("KH"), True)


def test_the_last_two_tricks_are_played_exactly_drawing_the_last_trump_first() -> None:
    # Seat 0 holds JH AS and leads. All spades but the ace are gone, so whoever holds
    # the 9H would trump the ace: leading the jack first takes both tricks.
    view = two_tricks_left_view()
    assert play(view).card == Card.parse("JH")
    # The same choice is made by the exact search alone, with no trump-drawing rule.
    exact_only = HeuristicBot(style=PlayStyle(draw_trumps=False))
    action = exact_only.act(view, Random(0))
    assert isinstance(action, Play) and action.card == Card.parse("JH")
