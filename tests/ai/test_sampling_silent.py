"""The hard bot's guesses after a player kept zvanja back ("šutim", issue #22).

A silent player may hold a stronger declaration than the table saw: the true deal must
stay possible for every other seat, and the guesses must replay to the same view.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import Phase, Round, Silent
from bela.search.sampling import knowledge_of, sample_deals

# Seat 0 holds four queens (100), seat 1 the run 7S..JS (100): the four wins unless kept back.
Z2 = (
    "QH QD QS QC 7H 9H KD AC",
    "7S 8S 9S 10S JS 8H 10H 7D",
    "JH KH 8D 10D AD KS 7C 9C",
    "AH 9D JD AS 8C 10C JC KC",
)


def _z2_silent() -> Round:
    from bela.engine import Call, Card, Play, Suit

    hands = [h.split() for h in Z2]
    rnd = Round.from_hands(0, [h[:6] for h in hands], [h[6:] for h in hands])
    rnd = rnd.apply(Call(Suit.parse("H")))
    for card in ("8H", "JH", "AH"):
        rnd = rnd.apply(Play(Card.parse(card)))
    return rnd.apply(Silent())


def test_the_true_deal_stays_possible_after_the_best_hand_kept_quiet() -> None:
    rnd = _z2_silent()
    truth = tuple(rnd.hand_mask(s) for s in range(4))
    for seat in (1, 2, 3):
        knowledge = knowledge_of(rnd.view(seat))
        assert knowledge.consistent(truth), seat


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_after_silence_every_seat_can_still_hold_the_truth(seed: int) -> None:
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, seed % 4)
    while rnd.phase is Phase.BIDDING:
        rnd = rnd.apply(rng.choice(rnd.legal_actions()))
    while rnd.phase is Phase.PLAYING and not rnd.tricks:
        if rnd.can_stay_silent():
            rnd = rnd.apply(Silent())
        else:
            rnd = rnd.apply(rng.choice(rnd.legal_actions()))
    if rnd.phase is not Phase.PLAYING:
        return
    truth = tuple(rnd.hand_mask(s) for s in range(4))
    for seat in range(4):
        view = rnd.view(seat)
        assert knowledge_of(view).consistent(truth)
        for hands in sample_deals(view, rng, 2):
            assert knowledge_of(view).consistent(hands)
