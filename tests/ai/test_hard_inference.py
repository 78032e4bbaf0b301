"""Reading the bids (``bela.ai.inference``): guessed deals shift the way the bids say.

Scenario tests on hands a player would judge at a glance, and on the sampled
deals themselves: the guesses must still respect every hard fact of the view
(a shown void above all) while the soft evidence of the bids moves the hands
of passers towards weak ones and the caller's towards the named suit.
"""

from __future__ import annotations

import random

from bela_ai_views import rebuild

from bela.ai.hard import HardBot, HardConfig
from bela.ai.inference import BidReading, bid_likelihood, bidding_weight, play_weight
from bela.ai.normal.bidding import BidModel, call_strength
from bela.engine import Call, Card, Pass, Play, Round, Suit
from bela.search.sampling import DealSampler, Hands, bidding_deals, knowledge_of

READING = BidReading()


def mask(text: str) -> int:
    out = 0
    for word in text.split():
        out |= 1 << Card.parse(word)
    return out


STRONG = mask("JH 9H AH 10H AS AD")  # a hand everyone calls hearts with
WEAK = mask("7S 8S 7D 8C 9C QD")  # nothing to call with


def test_a_pass_is_likely_with_a_weak_hand_and_unlikely_with_a_strong_one() -> None:
    weak = bid_likelihood(WEAK, Pass(), False, READING)
    strong = bid_likelihood(STRONG, Pass(), False, READING)
    assert weak > 0.85
    assert strong < 0.1
    assert strong >= READING.floor  # never ruled out


def test_a_call_is_likely_in_the_hands_best_suit_only() -> None:
    hearts = bid_likelihood(STRONG, Call(Suit.HEARTS), False, READING)
    spades = bid_likelihood(STRONG, Call(Suit.SPADES), False, READING)
    assert hearts > 0.9
    assert spades < hearts / 4
    # a forced dealer names a suit whatever the hand is worth: only the choice of suit tells
    assert bid_likelihood(WEAK, Call(Suit.CLUBS), True, READING) > bid_likelihood(
        WEAK, Call(Suit.CLUBS), False, READING
    )


def test_the_pass_likelihood_falls_as_the_hand_grows() -> None:
    model = BidModel()
    texts = ("7S 8S 7D 8C 9C QD", "JH 7H 7D 8C 9C QD", "JH 9H 7D 8C AC QD", "JH 9H AH 10H AS AD")
    hands = sorted(
        (mask(t) for t in texts), key=lambda h: max(call_strength(h, s, model) for s in range(4))
    )
    strengths = [max(call_strength(h, s, model) for s in range(4)) for h in hands]
    assert len(set(strengths)) == 4
    chances = [bid_likelihood(h, Pass(), False, READING) for h in hands]
    assert chances == sorted(chances, reverse=True)
    assert chances[0] > chances[-1] + 0.5


def test_guesses_of_a_passers_hand_are_weaker_with_the_reading() -> None:
    """Three passes: the dealer's guesses give the passers weaker hands than a blind deal."""
    rnd = Round.from_seed(42, dealer=3)
    for _ in range(3):
        rnd.push(Pass())
    view = rnd.view(3)
    model = BidModel()

    def mean_best(weighted: bool) -> float:
        weight = (lambda h: bidding_weight(3, view.bids, h, READING)) if weighted else None
        deals = bidding_deals(view, random.Random(4), 300, weight=weight)
        total = 0.0
        for hands, _ in deals:
            for s in (0, 1, 2):
                total += max(call_strength(hands[s], x, model) for x in range(4))
        return total / (3 * len(deals))

    blind = mean_best(False)
    read = mean_best(True)
    assert read < blind - 2.0


def test_a_caller_is_guessed_to_hold_the_top_trumps() -> None:
    """Seat 1 names hearts: seat 3's guesses give it the trump jack and nine more often."""
    rnd = Round.from_hands(
        0,
        ["AS 10S KS JS 9C 10C", "JH 9H AH 8D KD 7S", "7H 8H 9D 10D QD AD", "KH QH 10H 8S 9S QS"],
        ["7D JD", "7C 8C", "QC JC", "KC AC"],
    )
    rnd.push(Call(Suit.HEARTS))  # seat 1 speaks first (dealer 0) and names hearts
    view = rnd.view(3)
    assert view.caller == 1
    knowledge = knowledge_of(view)
    blind = DealSampler(knowledge, weight=lambda h, r: 1.0)
    read = DealSampler(knowledge, weight=lambda h, r: play_weight(knowledge, h, r, READING))
    jack_nine = mask("JH 9H")

    def caller_top_trumps(sampler: DealSampler) -> float:
        rng = random.Random(6)
        return sum((sampler.sample(rng)[1] & jack_nine).bit_count() for _ in range(300)) / 300

    assert caller_top_trumps(read) > caller_top_trumps(blind) + 0.2


def test_a_shown_void_is_never_broken_by_the_reading() -> None:
    # Trump hearts, named by seat 1. Seat 1 leads AS; seat 2 has no spade and trumps with 7H.
    rnd = Round.from_hands(
        0,
        ["JH 9H AH 10H KD QD", "AS 10S KS JS 9C 10C", "7H 8H 9D 10D JD AD", "KH QH 7S 8S 9S QS"],
        ["7C 8C", "7D 8D", "QC JC", "KC AC"],
    )
    rnd.push(Call(Suit.HEARTS))
    rnd.push(Play(Card.parse("AS")))
    rnd.push(Play(Card.parse("7H")))
    view = rnd.view(3)
    knowledge = knowledge_of(view)
    sampler = DealSampler(knowledge, weight=lambda h, r: play_weight(knowledge, h, r, READING))
    spades = 0xFF << 16
    rng = random.Random(1)
    for _ in range(100):
        hands: Hands = sampler.sample(rng)
        assert hands[2] & spades == 0
        assert rebuild(rnd, 3, hands).view(3) == view


SMALL_READ = HardConfig(
    solver_samples=4,
    rollout_samples=1,
    bid_samples=2,
    bid_margin=100.0,
    reading=READING,
    rollout_bids=BidModel(threshold=48.0),
)


def test_the_reading_bot_bids_and_plays_legally_and_reproducibly() -> None:
    for seed in range(3):
        rnd = Round.from_seed(seed, dealer=seed % 4)
        while rnd.to_act is not None:
            view = rnd.view(rnd.to_act)
            action = HardBot("hard", SMALL_READ).act(view, random.Random(seed))
            assert action in view.legal_actions
            assert HardBot("hard", SMALL_READ).act(view, random.Random(seed)) == action
            rnd.push(action)
        assert rnd.result is not None
