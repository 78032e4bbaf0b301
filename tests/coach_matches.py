"""Matches whose bidding the coach must judge one way: found by a small search over seeds.

The fitted bid model (``learned_values``) finds the hands: one it predicts far
better called than passed (a dalje there must be a slip), one it predicts a little
worse called (searched by the coach, and rightly passed), and a pod mus whose suits
differ by a lot. The coach judges them by the hard bot's search, not by the model,
so the tests check the search's verdict, not the model's.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bela.ai.normal.bidding import learned_values, load_bid_weights
from bela.engine import Action, Match, Pass, SeatView, Suit

SEAT = 0
"""The player's seat, as a local match archives it."""


def bidding_turn(seed: int, dealer: int = 3, target: int = 163) -> tuple[Match, SeatView]:
    """The match of ``seed`` dealt first by ``dealer`` (3, as a match is, or the player's
    0 for a pod mus) with every bid before the player's a dalje, and the player's view
    there (the player always gets to speak: nobody called before)."""
    match = Match.new(seed, target=target, first_dealer=dealer)
    assert match.current is not None
    while match.current.to_act != SEAT:
        match = match.apply(Pass())
        assert match.current is not None
    return match, match.current.view(SEAT)


def find_seed(wanted: Callable[[SeatView, list[float]], bool], dealer: int = 3) -> int:
    """The first seed whose player's hand, at their turn to bid, is ``wanted``
    (given the view and the model's value of naming each suit)."""
    weights = load_bid_weights()
    for seed in range(2_000):
        _match, view = bidding_turn(seed, dealer)
        if wanted(view, learned_values(view, weights)):
            return seed
    raise AssertionError("no such hand in 2,000 deals")


def must_call(view: SeatView, values: list[float]) -> bool:
    """A hand the model predicts over 100 written points better called than passed."""
    return Pass() in view.legal_actions and max(values) > 100


def close_pass(view: SeatView, values: list[float]) -> bool:
    """A hand the model puts a little below dalje: the coach searches it (``SURE_PASS``)."""
    return Pass() in view.legal_actions and -35 < max(values) < -20


def sure_pass(view: SeatView, values: list[float]) -> bool:
    """A hand the model puts far below dalje: the coach does not search it."""
    return Pass() in view.legal_actions and max(values) < -60


def lopsided_pod_mus(view: SeatView, values: list[float]) -> bool:
    """The dealer forced to name a suit, one suit predicted 100 points better than another."""
    return Pass() not in view.legal_actions and max(values) - min(values) > 100


def model_suits(seed: int, dealer: int = 3) -> list[Suit]:
    """The player's suits at their bidding turn, the model's best first."""
    _match, view = bidding_turn(seed, dealer)
    values = learned_values(view, load_bid_weights())
    return sorted(Suit, key=lambda suit: -values[int(suit)])


def played_bid(
    seed: int, bid: Action, rounds: int = 1, dealer: int = 3, target: int = 163
) -> Match:
    """The match of ``seed`` where the player makes ``bid`` at their turn (everyone before
    said dalje) and everything else is played at random, for ``rounds`` rounds (or to
    the match's end when it comes first)."""
    rng = random.Random(seed)
    match, _view = bidding_turn(seed, dealer, target)
    match = match.apply(bid)
    while match.current is not None and len(match.rounds) < rounds:
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match
