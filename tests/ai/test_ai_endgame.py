"""The exact endgame: listing and sampling the deals the memory allows, and solving them."""

from __future__ import annotations

from random import Random

import pytest
from bela_ai_views import two_tricks_left_view
from hypothesis import given
from hypothesis import strategies as st

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


@given(
    ours=st.integers(0, 1100),
    theirs=st.integers(0, 1100),
    target=st.sampled_from([501, 701, 1001]),
    pts=st.integers(0, 80),
    tricks=st.integers(0, 2),
)
def test_near_the_target_the_endgame_plays_for_the_match(
    ours: int, theirs: int, target: int, pts: int, tricks: int
) -> None:
    """With ``match_play`` a leaf is the round's value plus the match: won or lost by the
    engine's own rule (``decide_winner``) on the scores after the round; without a match
    score, or without the knob, it is the round's value alone."""
    from dataclasses import replace

    from bela.ai.normal.endgame import MATCH_WEIGHT, _leaf_function
    from bela.engine.match import decide_winner
    from bela.engine.scoring import score_round_detail

    view = two_tricks_left_view()
    mem = CardMemory.from_view(view)
    plain = _leaf_function(view, mem)(pts, tricks)
    assert _leaf_function(view, mem, match_play=True)(pts, tricks) == plain
    near = replace(view, match_context=(ours, theirs, target))
    assert _leaf_function(near, mem)(pts, tricks) == plain
    value = _leaf_function(near, mem, match_play=True)(pts, tricks)
    # the round's written points, as the leaf sees them (seat 0's team is 0)
    taken = [sum(t.points for t in view.tricks if t.winner % 2 == team) for team in (0, 1)]
    rest = 162 - taken[0] - taken[1]
    won = [sum(1 for t in view.tricks if t.winner % 2 == team) for team in (0, 1)]
    written = score_round_detail(
        caller=1,
        card_points=(taken[0] + pts, taken[1] + rest - pts),
        zvanja=(0, 0),
        bela=(0, 0),
        tricks=(won[0] + tricks, won[1] + 2 - tricks),
        visi=view.rules.visi,
        stiglja_bonus=view.rules.stiglja_bonus,
        bela_always_counts=view.rules.bela_always_counts,
    ).points
    winner = decide_winner((ours + written[0], theirs + written[1]), target)
    match = 0.0 if winner is None else MATCH_WEIGHT if winner == 0 else -MATCH_WEIGHT
    assert value == pytest.approx(plain + match)
