"""Seeds deal the same cards everywhere, and only whole numbers 0..2**128-1 are seeds.

The pinned values below were taken once from the engine (deal.py's SHAKE-256
key sort) and written out by hand: they are a regression pin, not an
independent derivation. If one of them changes, every saved game and every
seeded test in the project deals different cards, so a change here must be a
deliberate decision, never a side effect.
"""

from __future__ import annotations

import pytest

from bela.engine import Card, Match, Round, check_seed, round_seed

MAX_SEED = 2**128 - 1

PINNED_HANDS = {
    0: "8H 9H QH 10D QD QC",
    1: "10H JD 8S KS 8C KC",
    2: "7H JH AH 7D 8D AD",
    3: "KH KD 9S QS 10C JC",
}
PINNED_TALONS = {0: "7S AC", 1: "10S JS", 2: "9D 9C", 3: "AS 7C"}


def test_seed_2026_dealer_3_deals_the_pinned_cards() -> None:
    """Regression pin: ``Round.from_seed(2026, dealer=3)``, copied once from the engine."""
    rnd = Round.from_seed(2026, dealer=3)
    for seat in range(4):
        assert " ".join(str(c) for c in rnd.hand(seat)) == PINNED_HANDS[seat]
        assert " ".join(str(c) for c in rnd.talon(seat)) == PINNED_TALONS[seat]


def test_pinned_deal_is_a_whole_deck() -> None:
    """The pin itself is sane: 32 different cards, 6 + 2 per seat."""
    cards = [
        Card.parse(t) for s in range(4) for t in (PINNED_HANDS[s] + " " + PINNED_TALONS[s]).split()
    ]
    assert sorted(cards) == list(range(32))


def test_the_same_seed_deals_the_same_cards_for_every_dealer() -> None:
    """The shuffle depends on the seed only; the dealer decides who gets which packet."""
    for dealer in range(4):
        rnd = Round.from_seed(2026, dealer=dealer)
        for seat in range(4):
            pinned_seat = (seat - dealer + 3) % 4  # the same packet, counted from the first player
            assert " ".join(map(str, rnd.hand(seat))) == PINNED_HANDS[pinned_seat]
            assert " ".join(map(str, rnd.talon(seat))) == PINNED_TALONS[pinned_seat]


def test_round_seed_is_pinned() -> None:
    """Regression pin: the first round of match seed 1, copied once from the engine."""
    assert round_seed(1, 0) == 6791897765849424158


def test_a_match_deals_its_rounds_from_round_seed() -> None:
    match = Match.new(1)
    assert match.current is not None
    expected = Round.from_seed(round_seed(1, 0), dealer=3)
    assert match.current.dealer == 3
    assert [match.current.hand(s) for s in range(4)] == [expected.hand(s) for s in range(4)]
    assert [match.current.talon(s) for s in range(4)] == [expected.talon(s) for s in range(4)]


@pytest.mark.parametrize("seed", [0, 1, 2026, MAX_SEED])
def test_seeds_at_both_ends_of_the_range_are_accepted(seed: int) -> None:
    assert check_seed(seed) == seed
    assert Round.from_seed(seed).seed == seed
    assert Match.new(seed).seed == seed
    assert 0 <= round_seed(seed, 0) <= MAX_SEED


BAD_SEEDS: list[object] = [-1, MAX_SEED + 1, 2**130, 1.5, 3.0, "7", None, True, b"1"]


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_a_seed_outside_the_range_or_not_an_int_is_refused(seed: object) -> None:
    message = r"a seed is a whole number from 0 to 340282366920938463463374607431768211455"
    with pytest.raises(ValueError, match=message):
        check_seed(seed)
    with pytest.raises(ValueError, match=message):
        Round.from_seed(seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        Match.new(seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        round_seed(seed, 0)  # type: ignore[arg-type]
