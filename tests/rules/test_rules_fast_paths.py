"""The engine's fast paths answer as its plain ones do, in whichever build runs the test.

The seeded deal is sorted two ways (``bela.engine.deal``: C builtins for the pure build, a
native loop for the compiled one); both are plain functions, so each build can run both and
they must give the same deck, the rare seeds whose first keys tie included. The round finds
belot with a cheap test first (a full suit is 0 modulo 255) and writes its result from plain
numbers (``tally_flat``); the public scorer must agree with every result it writes.
"""

from __future__ import annotations

import random
from hashlib import shake_256

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import Call, Phase, Round, Rules, Suit, deal_from_seed, score_round_detail
from bela.engine.deal import _PERSON, _ranked_cards, _ranked_packed, dealt

SEEDS = st.integers(0, (1 << 64) - 1)


def _keys(seed_bytes: bytes, block: int) -> list[int]:
    """The 32 little-endian 16-bit keys of the ``block``-th 64 bytes of the seed's stream."""
    digest = shake_256(seed_bytes).digest(64 * block + 64)[64 * block :]
    return [digest[2 * c] | digest[2 * c + 1] << 8 for c in range(32)]


def _tied_seeds(count: int) -> list[int]:
    """The first seeds whose first 32 keys hold a tie (0.8% of seeds)."""
    found = []
    seed = 0
    while len(found) < count:
        if len(set(_keys(_PERSON + seed.to_bytes(8, "little"), 0))) < 32:
            found.append(seed)
        seed += 1
    return found


def _deck_of_packed(packed: list[int]) -> list[int]:
    return [p & 31 for p in packed]


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS)
def test_both_sorts_of_the_deal_give_the_same_deck(seed: int) -> None:
    seed_bytes = _PERSON + seed.to_bytes(8, "little")
    assert _deck_of_packed(_ranked_packed(seed_bytes)) == _ranked_cards(seed_bytes)


@pytest.mark.parametrize("seed", _tied_seeds(4))
def test_a_tie_in_the_first_keys_sorts_by_the_next_ones_in_both_sorts(seed: int) -> None:
    seed_bytes = _PERSON + seed.to_bytes(8, "little")
    following = _keys(seed_bytes, 1)
    assert len(set(following)) == 32  # true of the seeds found; else a third block is read
    deck = sorted(range(32), key=following.__getitem__)
    assert _ranked_cards(seed_bytes) == deck
    assert _deck_of_packed(_ranked_packed(seed_bytes)) == deck


@settings(max_examples=200, deadline=None)
@given(seed=SEEDS, dealer=st.integers(0, 3))
def test_the_round_is_dealt_what_deal_from_seed_deals(seed: int, dealer: int) -> None:
    hands, talons = deal_from_seed(seed, dealer)
    assert dealt(seed, dealer) == (tuple(hands), tuple(talons))
    rnd = Round.from_seed(seed, dealer)
    assert rnd.deal_hands == tuple(hands)
    assert rnd.deal_talons == tuple(talons)
    assert [rnd.hand_mask(s) for s in range(4)] == hands


# Seat 0's eight cards are 7 8 9 10 of hearts and J Q K A of diamonds: bytes 0x0F and 0xF0,
# 255 in all, so its mask is 0 modulo 255 like a full suit's; it is not belot.
NOT_A_SUIT = ("7H 8H 9H 10H JD QD", "KD AD")


def test_a_hand_that_is_0_modulo_255_without_a_full_suit_is_not_belot() -> None:
    hands = [NOT_A_SUIT[0], "7S 8S 9S 10S JS QS", "JH QH KH AH 7D 8D", "7C 8C 9C 10C JC QC"]
    talons = [NOT_A_SUIT[1], "KC AC", "9D 10D", "KS AS"]  # nobody holds a suit whole
    rnd = Round.from_hands(3, hands, talons).apply(Call(Suit.HEARTS))
    assert rnd.hand_mask(0) % 255 == 0
    assert rnd.phase is Phase.PLAYING
    assert rnd.result is None


def test_belot_goes_to_the_first_in_playing_order_of_two_full_suits() -> None:
    # seats 1 and 3 hold every spade and every club; seat 0 is 0 modulo 255 without a suit
    hands = [NOT_A_SUIT[0], "7S 8S 9S 10S JS QS", "JH QH KH AH 7D 8D", "7C 8C 9C 10C JC QC"]
    talons = [NOT_A_SUIT[1], "KS AS", "9D 10D", "KC AC"]
    for dealer, first_belot in ((0, 1), (1, 3), (2, 3), (3, 1)):
        rnd = Round.from_hands(dealer, hands, talons).apply(Call(Suit.HEARTS))
        assert rnd.result is not None
        assert rnd.result.belot_seat == first_belot


@settings(max_examples=300, deadline=None)
@given(
    seed=SEEDS,
    dealer=st.integers(0, 3),
    rules=st.builds(
        Rules,
        visi=st.booleans(),
        bela_on_second=st.booleans(),
        no_zvanja=st.booleans(),
        no_bela=st.booleans(),
        bela_always_counts=st.booleans(),
        stiglja_bonus=st.sampled_from((90, 100)),
        tens_over_kings=st.booleans(),
    ),
)
def test_the_public_scorer_agrees_with_every_result_the_round_writes(
    seed: int, dealer: int, rules: Rules
) -> None:
    result = Round.from_seed(seed, dealer, rules).play_out_random(random.Random(seed))
    if result.caller is None:  # belot: nothing is scored
        return
    score = score_round_detail(
        caller=result.caller,
        card_points=result.card_points,
        zvanja=result.zvanja,
        bela=result.bela,
        tricks=result.tricks,
        visi=rules.visi,
        stiglja_bonus=rules.stiglja_bonus,
        bela_always_counts=rules.bela_always_counts,
    )
    assert (result.points, result.totals, result.fell) == (score.points, score.totals, score.fell)
    assert (result.tie, result.hanging, result.stiglja) == (score.tie, score.hanging, score.stiglja)
    assert sum(result.card_points) == 162
    assert sum(result.tricks) == 8
