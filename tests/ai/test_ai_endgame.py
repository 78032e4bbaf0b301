"""The exact endgame: listing and sampling the deals the memory allows, and solving them."""

from __future__ import annotations

from random import Random

from bela_ai_views import two_tricks_left_view

from bela.ai.normal.endgame import consistent_deals, endgame_choice, sampled_deals
from bela.engine import Card
from bela.search.memory import CardMemory


def memory() -> CardMemory:
    view = two_tricks_left_view()
    return CardMemory.from_view(view)


def test_every_listed_deal_respects_the_memory_and_the_hand_sizes() -> None:
    mem = memory()
    deals = consistent_deals(mem, 1000)
    assert deals is not None and deals
    for hands in deals:
        assert hands[0] == mem.hand
        for s in (1, 2, 3):
            assert hands[s].bit_count() == 2
            assert hands[s] & ~mem.possible[s] == 0
        assert hands[1] | hands[2] | hands[3] == mem.unseen
    # Six unseen cards in three hands of two: at most 90 deals; seat 3's voids cut that.
    assert len(deals) < 90
    assert len({tuple(h) for h in deals}) == len(deals)
    assert consistent_deals(mem, 2) is None


def test_sampled_deals_are_among_the_listed_ones_and_repeat_with_the_seed() -> None:
    mem = memory()
    listed = {tuple(h) for h in consistent_deals(mem, 1000) or []}
    first = sampled_deals(mem, Random(4), 25)
    assert len(first) == 25
    assert all(tuple(h) in listed for h in first)
    assert first == sampled_deals(mem, Random(4), 25)


def test_the_endgame_choice_draws_the_last_trump_before_cashing_the_ace() -> None:
    view = two_tricks_left_view()
    mem = CardMemory.from_view(view)
    legal = mem.hand
    assert endgame_choice(view, mem, legal, 100) == Card.parse("JH")
    # Sampling a few of the deals gives the same answer here: it is right in every deal.
    assert endgame_choice(view, mem, legal, 100, Random(1), 3) == Card.parse("JH")
    assert endgame_choice(view, mem, legal, 2) is None, "too many deals to list"
