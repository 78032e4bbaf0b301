"""The sampler deals only what the table could hold, from the seat's view alone.

The check of a guessed deal is independent of the sampler: the guess is put
back into the engine (the seat's own six cards and talon as they were, the
other players' eight cards split anyhow into six and a talon), the round's
actions are replayed with full validation, and the seat's view must come out
exactly the same. A guess that breaks a void, a "could not overtake", a shown
zvanje or the zvanja comparison fails the replay or changes the view.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from bela_ai_views import rebuild

from bela.engine import Call, Card, Pass, Phase, Play, Round, SeatView, Suit, cards_in
from bela.search.sampling import (
    BidEvidence,
    DealSampler,
    bidding_deals,
    knowledge_of,
    sample_deals,
)

Hands = tuple[int, int, int, int]


def random_round(seed: int, cards_played: int) -> Round:
    """A seeded deal, random bids, then ``cards_played`` random legal cards (or fewer)."""
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, dealer=seed % 4)
    while rnd.phase is Phase.BIDDING:
        rnd.push(rng.choice(rnd.legal_actions()))
    for _ in range(cards_played):
        if rnd.phase is not Phase.PLAYING:
            break
        rnd.push(rng.choice(rnd.legal_actions()))
    return rnd


def mid_round_views(count: int, seed: int = 0) -> list[tuple[Round, SeatView]]:
    """Views of random seats at random moments of random rounds (play phase only)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        n = rng.randrange(0, 30)
        rnd = random_round(rng.randrange(1 << 30), n)
        if rnd.phase is not Phase.PLAYING:
            continue
        seat = rnd.to_act if rng.random() < 0.5 else rng.randrange(4)
        assert seat is not None
        out.append((rnd, rnd.view(seat)))
    return out


def test_every_sample_replays_to_the_same_view() -> None:
    rng = random.Random(7)
    for rnd, view in mid_round_views(150):
        for hands in sample_deals(view, rng, 4):
            assert rebuild(rnd, view.seat, hands).view(view.seat) == view
            assert knowledge_of(view).consistent(hands)


def test_samples_without_bid_evidence_also_fit() -> None:
    rng = random.Random(8)
    flat = BidEvidence(1.0, 1.0, 1.0)
    for rnd, view in mid_round_views(60, seed=1):
        for hands in sample_deals(view, rng, 3, flat):
            assert rebuild(rnd, view.seat, hands).view(view.seat) == view


def test_the_true_deal_is_always_possible() -> None:
    for rnd, view in mid_round_views(200, seed=2):
        truth = (rnd.hand_mask(0), rnd.hand_mask(1), rnd.hand_mask(2), rnd.hand_mask(3))
        k = knowledge_of(view)
        assert k.consistent(truth)
        for s in range(4):
            if s != view.seat:
                assert truth[s] & ~k.allowed[s] == 0
                assert k.required[s] & ~truth[s] == 0


def bid_hearts(rnd: Round) -> None:
    """Three passes, then the dealer (seat 0) is forced to name hearts."""
    for _ in range(3):
        rnd.push(Pass())
    rnd.push(Call(Suit.HEARTS))


def test_a_void_shown_in_play_is_respected() -> None:
    # Trump hearts. Seat 1 leads AS; seat 2 has no spade and trumps with 7H.
    rnd = Round.from_hands(
        0,
        ["JH 9H AH 10H KD QD", "AS 10S KS JS 9C 10C", "7H 8H 9D 10D JD AD", "KH QH 7S 8S 9S QS"],
        ["7C 8C", "7D 8D", "QC JC", "KC AC"],
    )
    bid_hearts(rnd)
    rnd.push(Play(Card.parse("AS")))
    rnd.push(Play(Card.parse("7H")))
    view = rnd.view(3)
    k = knowledge_of(view)
    spades = 0xFF << 16
    assert k.allowed[2] & spades == 0
    assert k.allowed[0] & spades
    for hands in sample_deals(view, random.Random(1), 50):
        assert hands[2] & spades == 0


def test_could_not_overtake_is_respected() -> None:
    # Trump hearts, seat 1 leads KS, seat 2 follows 7S: seat 2 holds no AS or 10S.
    rnd = Round.from_hands(
        0,
        ["JH 9H AH 10H KD QD", "KS QS JS 9S 9C 10C", "7S 7H 8H 9D 10D JD", "KH QH 8S 7C 8C QC"],
        ["AS 10S", "7D 8D", "AD JC", "KC AC"],
    )
    bid_hearts(rnd)
    rnd.push(Play(Card.parse("KS")))
    rnd.push(Play(Card.parse("7S")))
    view = rnd.view(1)
    k = knowledge_of(view)
    assert not k.allowed[2] >> Card.parse("AS") & 1
    assert not k.allowed[2] >> Card.parse("10S") & 1
    assert k.allowed[2] >> Card.parse("8S") & 1  # a lower spade is still possible
    assert k.allowed[0] >> Card.parse("AS") & 1
    for hands in sample_deals(view, random.Random(2), 50):
        assert not hands[2] & (1 << Card.parse("AS") | 1 << Card.parse("10S"))


def test_sampling_is_exactly_uniform_on_a_small_case() -> None:
    """Late in a round every possible deal is enumerable: each must come up equally often."""
    rnd, view = next(
        (r, v)
        for r, v in mid_round_views(400, seed=3)
        if 4 <= knowledge_of(v).unseen.bit_count() <= 7
    )
    k = knowledge_of(view)
    others = [s for s in range(4) if s != view.seat]
    unseen = cards_in(k.unseen)
    possible = set()
    for perm in itertools.permutations(unseen):
        hands = [0, 0, 0, 0]
        hands[view.seat] = k.own_hand
        at = 0
        for s in others:
            for c in perm[at : at + k.need[s]]:
                hands[s] |= 1 << c
            at += k.need[s]
        deal = (hands[0], hands[1], hands[2], hands[3])
        if deal in possible:
            continue
        try:
            ok = rebuild(rnd, view.seat, deal).view(view.seat) == view
        except ValueError:
            ok = False
        if ok:
            possible.add(deal)
    sampler = DealSampler(k, BidEvidence(1.0, 1.0, 1.0))
    rng = random.Random(11)
    draws = 300 * len(possible)
    counts = Counter(sampler.sample(rng) for _ in range(draws))
    assert set(counts) == possible
    for deal in possible:
        assert 200 <= counts[deal] <= 400, (deal, counts[deal])


def test_samples_depend_on_the_view_only() -> None:
    """Two rounds that differ only in cards the seat cannot see give the same samples."""
    rng = random.Random(5)
    for rnd, view in mid_round_views(30, seed=4):
        other = rebuild(rnd, view.seat, sample_deals(view, rng, 1)[0])
        assert other.view(view.seat) == view
        a = sample_deals(view, random.Random(99), 5)
        b = sample_deals(other.view(view.seat), random.Random(99), 5)
        assert a == b


def test_bidding_deals_keep_the_own_hand_and_deal_everything() -> None:
    rnd = Round.from_seed(42, dealer=1)
    rnd.push(Pass())
    view = rnd.view(rnd.to_act or 0)
    own = sum(1 << c for c in view.hand)
    for hands, talons in bidding_deals(view, random.Random(3), 20):
        assert hands[view.seat] == own
        assert all(h.bit_count() == 6 for h in hands)
        assert all(t.bit_count() == 2 for t in talons)
        everything = 0
        for part in (*hands, *talons):
            assert everything & part == 0
            everything |= part
        assert everything == (1 << 32) - 1


def test_a_passer_rarely_gets_jack_and_nine() -> None:
    rnd = Round.from_seed(42, dealer=1)
    rnd.push(Pass())
    passer = 2
    view = rnd.view(3)

    def share(evidence: BidEvidence) -> float:
        deals = bidding_deals(view, random.Random(3), 400, evidence)
        hits = 0
        for hands, _ in deals:
            h = hands[passer]
            hits += any((h >> (8 * s)) & 0b10100 == 0b10100 for s in range(4))
        return hits / len(deals)

    assert share(BidEvidence(pass_jack_nine=0.2)) < share(BidEvidence(1.0, 1.0, 1.0)) - 0.03


def test_a_view_outside_play_is_refused() -> None:
    rnd = Round.from_seed(1)
    with pytest.raises(ValueError, match="play phase"):
        knowledge_of(rnd.view(0))
