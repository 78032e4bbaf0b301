"""Illegal and out-of-turn actions (issue 2): each "raise[s] a specific error with a message a
player can act on ... and the state is unchanged"."""

from __future__ import annotations

from typing import Any

import pytest
from bela_scenarios import DEAL_BELOT, DEAL_T, DEAL_W, PLAY_T_A, call, new_round, play

from bela.engine import (
    Call,
    Card,
    IllegalActionError,
    IllegalPlayError,
    OutOfTurnError,
    Pass,
    Play,
    Round,
    RoundOverError,
    Rules,
    Suit,
    WrongPhaseError,
)


def snapshot(rnd: Round) -> tuple[Any, ...]:
    return (
        rnd.actions,
        tuple(tuple(rnd.hand(s)) for s in range(4)),
        rnd.trick,
        rnd.phase,
        rnd.to_act,
        rnd.bids,
        rnd.tricks,
        rnd.card_points,
        rnd.result,
    )


def card(text: str) -> Play:
    return Play(Card.parse(text))


def test_illegal_card_message_names_the_card_and_what_is_required() -> None:
    """Brief rule 3 broken (worked example: seat 2 has no diamond and must trump): the error
    names the card tried and the trumps that are allowed."""
    rnd = play(call(new_round(0, DEAL_W), "H"), "AD")
    with pytest.raises(IllegalPlayError) as caught:
        rnd.apply(card("AS"))
    message = str(caught.value)
    assert "AS" in message
    assert "trump" in message.lower()
    assert "7H" in message and "9H" in message


def test_not_overtaking_message_names_the_card_to_beat_and_the_way_to_beat_it() -> None:
    """Brief rule 2 broken (deal T: 10D led, seat 2 holds AD and JD): the error names JD, the
    10D to beat and AD, the card that must be played."""
    rnd = play(call(new_round(0, DEAL_T), "H"), "JH 7H QH 10H | 9H 8H KH AH | 10D")
    with pytest.raises(IllegalPlayError) as caught:
        rnd.apply(card("JD"))
    message = str(caught.value)
    assert "JD" in message and "10D" in message and "AD" in message


def test_illegal_card_leaves_the_state_unchanged() -> None:
    """Issue 2: after an illegal action "the state is unchanged", and the right card still
    plays."""
    rnd = play(call(new_round(0, DEAL_W), "H"), "AD")
    before = snapshot(rnd)
    with pytest.raises(IllegalPlayError):
        rnd.apply(card("AS"))
    assert snapshot(rnd) == before
    assert play(rnd, "7H").trick == tuple(Card.parse(c) for c in ("AD", "7H"))


def test_card_not_in_hand_is_illegal() -> None:
    """A player may play only a card in their hand: seat 1 cannot play seat 0's AH."""
    rnd = call(new_round(0, DEAL_T), "H")
    with pytest.raises(IllegalPlayError) as caught:
        rnd.apply(card("AH"))
    assert "AH" in str(caught.value)


def test_out_of_turn_bid_raises_out_of_turn_error() -> None:
    """Brief: bidding starts with the first player (seat 1 when seat 0 deals): seat 2 may not
    speak first; nothing changes."""
    rnd = new_round(0, DEAL_T)
    before = snapshot(rnd)
    with pytest.raises(OutOfTurnError):
        rnd.apply(Pass(), seat=2)
    with pytest.raises(OutOfTurnError):
        rnd.apply(Call(Suit.HEARTS), seat=0)
    assert snapshot(rnd) == before


def test_out_of_turn_card_raises_out_of_turn_error() -> None:
    """Brief: the first player leads; seat 0 may not play its AH before seat 1 leads."""
    rnd = call(new_round(0, DEAL_T), "H")
    before = snapshot(rnd)
    with pytest.raises(OutOfTurnError):
        rnd.apply(card("AH"), seat=0)
    assert snapshot(rnd) == before


def test_card_during_the_trump_choice_raises_wrong_phase_error() -> None:
    """Brief: cards are played only after trump is named (seat 1 holds JH but no trump yet)."""
    rnd = new_round(0, DEAL_T)
    with pytest.raises(WrongPhaseError):
        rnd.apply(card("JH"))


def test_bid_during_play_raises_wrong_phase_error() -> None:
    """Brief: "The first suit named ends the choice": no pass or call once play has begun."""
    rnd = call(new_round(0, DEAL_T), "H")
    with pytest.raises(WrongPhaseError):
        rnd.apply(Pass())
    with pytest.raises(WrongPhaseError):
        rnd.apply(Call(Suit.SPADES))


def test_action_after_the_round_raises_round_over_error() -> None:
    """A finished round takes no more actions: ``RoundOverError``."""
    rnd = play(call(new_round(0, DEAL_T), "H"), PLAY_T_A)
    assert rnd.is_finished
    with pytest.raises(RoundOverError):
        rnd.apply(card("JH"))
    with pytest.raises(RoundOverError):
        rnd.apply(Pass())


def test_action_after_belot_raises_round_over_error() -> None:
    """Brief: after belot "the round is not played": no card may follow."""
    rnd = call(new_round(0, DEAL_BELOT), "H")
    with pytest.raises(RoundOverError):
        rnd.apply(card("JH"))


def test_action_after_four_passes_raises_round_over_error() -> None:
    """Brief, "no forced trump": after four passes the cards are redealt; that round is over."""
    rnd = call(new_round(0, DEAL_T, Rules(no_forced_trump=True)), "- - - -")
    with pytest.raises(RoundOverError):
        rnd.apply(Call(Suit.HEARTS))


def test_rule_errors_are_value_errors_of_one_family() -> None:
    """Issue 2: specific errors, all ``ValueError`` (rules errors share ``IllegalActionError``)."""
    for error in (IllegalPlayError, OutOfTurnError, WrongPhaseError, RoundOverError):
        assert issubclass(error, IllegalActionError)
        assert issubclass(error, ValueError)
