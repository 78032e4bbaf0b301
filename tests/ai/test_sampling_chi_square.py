"""The guessed-deal sampler is exactly uniform over the deals the seat cannot rule out (issue #38).

Before any weighting by the bids, every deal consistent with the seat's view must be drawn
equally often: a bias there would tilt every decision of the hard bot the same way. Small
late positions are enumerated exhaustively (every split of the unseen cards among the other
three players, each kept when replaying it through the engine gives back the seat's view
exactly), the sampler draws 200 deals per possible deal with a fixed seed, and a chi-square
test of the counts against the uniform distribution must not reject at p = 0.0001. The same
test applied to a plausible but biased sampler (the most constrained unseen card first, each to
a seat drawn uniformly among those that may hold it and have room) rejects it on every one of
the positions, so the test can fail.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable

from bela_ai_views import rebuild
from test_sampling import mid_round_views

from bela.engine import Round, SeatView, cards_in
from bela.search.sampling import BidEvidence, DealSampler, Knowledge, knowledge_of

Hands = tuple[int, int, int, int]
PER_DEAL = 200
Z_CRITICAL = 3.719  # one-sided normal quantile for p = 0.0001


def possible_deals(rnd: Round, view: SeatView) -> set[Hands]:
    """Every deal of the unseen cards that replays to the seat's view (not the sampler's test)."""
    k = knowledge_of(view)
    others = [s for s in range(4) if s != view.seat]
    unseen = cards_in(k.unseen)
    out: set[Hands] = set()
    first, second = others[0], others[1]
    for a in itertools.combinations(unseen, k.need[first]):
        left = [c for c in unseen if c not in a]
        for b in itertools.combinations(left, k.need[second]):
            hands = [0, 0, 0, 0]
            hands[view.seat] = k.own_hand
            for c in a:
                hands[first] |= 1 << c
            for c in b:
                hands[second] |= 1 << c
            for c in left:
                if c not in b:
                    hands[others[2]] |= 1 << c
            deal = (hands[0], hands[1], hands[2], hands[3])
            try:
                ok = rebuild(rnd, view.seat, deal).view(view.seat) == view
            except ValueError:
                ok = False
            if ok:
                out.add(deal)
    return out


def chi_square_rejects(counts: Counter[Hands], possible: set[Hands], draws: int) -> bool:
    """Whether counts over ``possible`` reject uniformity at p = 0.0001 (Wilson-Hilferty)."""
    assert set(counts) <= possible, "a deal the view rules out was drawn"
    cells = len(possible)
    expected = draws / cells
    stat = sum((counts[d] - expected) ** 2 / expected for d in possible)
    df = cells - 1
    critical = df * (1 - 2 / (9 * df) + Z_CRITICAL * math.sqrt(2 / (9 * df))) ** 3
    return stat > critical


def positions(count: int) -> list[tuple[Round, SeatView, set[Hands]]]:
    """Small late positions where what the seat knows rules some splits out (the hard case)."""
    out = []
    for rnd, view in mid_round_views(600, seed=38):
        k = knowledge_of(view)
        if not 6 <= k.unseen.bit_count() <= 9:
            continue
        bites = any(k.allowed[s] != k.unseen for s in range(4) if s != view.seat and k.need[s])
        if not bites:
            continue
        possible = possible_deals(rnd, view)
        if 12 <= len(possible) <= 250:
            out.append((rnd, view, possible))
        if len(out) == count:
            break
    assert len(out) == count
    return out


def draw_counts(draw: Callable[[random.Random], Hands], cells: int, seed: int) -> Counter[Hands]:
    rng = random.Random(seed)
    return Counter(draw(rng) for _ in range(PER_DEAL * cells))


def card_by_card(k: Knowledge) -> Callable[[random.Random], Hands]:
    """A biased sampler: the most constrained card first, each to a uniformly drawn seat that
    may hold it and has room (a dead end or a deal the zvanja rule out is drawn again)."""

    def draw(rng: random.Random) -> Hands:
        while True:
            hands = [0, 0, 0, 0]
            hands[k.seat] = k.own_hand
            room = list(k.need)
            cards = sorted(cards_in(k.unseen), key=lambda c: _holders(k, c))
            stuck = False
            for c in cards:
                seats = [s for s in range(4) if room[s] and k.allowed[s] >> c & 1]
                if not seats:
                    stuck = True
                    break
                s = rng.choice(seats)
                hands[s] |= 1 << c
                room[s] -= 1
            deal = (hands[0], hands[1], hands[2], hands[3])
            if not stuck and k.consistent(deal):
                return deal

    return draw


def _holders(k: Knowledge, card: int) -> int:
    return sum(1 for s in range(4) if k.allowed[s] >> card & 1)


CASES = positions(3)


def test_the_sampler_is_uniform_over_every_deal_the_view_allows() -> None:
    for n, (_, view, possible) in enumerate(CASES):
        sampler = DealSampler(knowledge_of(view), BidEvidence(1.0, 1.0, 1.0))
        counts = draw_counts(sampler.sample, len(possible), seed=n)
        assert set(counts) == possible, "some possible deal was never drawn"
        assert not chi_square_rejects(counts, possible, PER_DEAL * len(possible)), n


def test_the_chi_square_test_catches_a_biased_sampler() -> None:
    rejected = 0
    for n, (_, view, possible) in enumerate(CASES):
        biased = card_by_card(knowledge_of(view))
        counts = draw_counts(biased, len(possible), seed=n)
        rejected += chi_square_rejects(counts, possible, PER_DEAL * len(possible))
    assert rejected == len(CASES)
