"""The one sampler of guessed deals (``bela.ai.guessing``): it respects the view and the bidding.

Every guessed deal must fit every hard fact of the seat's view, and a player who named
trump without having to must hold at least ``MIN_CALLER_TRUMPS`` trumps in it: the
judge, the explanation, the coach and the hard bot all draw from it, so a guess in which
the caller held one trump would teach a player against a deal that cannot happen.
"""

from __future__ import annotations

from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.ai import make_bot
from bela.ai.guessing import (
    MIN_CALLER_TRUMPS,
    GuessSampler,
    caller_holds_trumps,
    guess_bidding_deals,
    guess_play_deals,
    voluntary_caller,
)
from bela.ai.hard import HARD, HardBot
from bela.engine import Call, Pass, Phase, Round, Suit
from bela.engine.rules import DEFAULT_RULES
from bela.lab.puzzle_judge import judge
from bela.search.sampling import NO_EVIDENCE, DealSampler, Hands, knowledge_of


def _played_to(seed: int, steps: int, phase: Phase) -> Round | None:
    """The deal of ``seed`` played by normal bots for ``steps`` actions while in ``phase``."""
    rnd = Round.from_seed(seed, seed % 4, DEFAULT_RULES)
    bot = make_bot("normal")
    rng = Random(seed)
    done = 0
    while rnd.to_act is not None:
        if rnd.phase is phase and done >= steps:
            return rnd
        if rnd.phase is phase:
            done += 1
        rnd.push(bot.act(rnd.view(rnd.to_act), rng))
    return None


def _trumps(rnd: Round, seat: int) -> int:
    assert rnd.trump is not None
    view = rnd.view(seat)
    eight = set(view.hand)
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            if (t.leader + i) % 4 == seat:
                eight.add(c)
    for i, c in enumerate(view.trick):
        assert view.trick_leader is not None
        if (view.trick_leader + i) % 4 == seat:
            eight.add(c)
    return sum(1 for c in eight if c.suit == rnd.trump)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), steps=st.integers(0, 27), draw=st.integers(0, 2**32))
def test_every_guess_fits_the_view_and_gives_a_voluntary_caller_trumps(
    seed: int, steps: int, draw: int
) -> None:
    rnd = _played_to(seed, steps, Phase.PLAYING)
    if rnd is None:
        return
    seat = rnd.to_act
    assert seat is not None
    view = rnd.view(seat)
    sampler = GuessSampler.of_view(view)
    caller = voluntary_caller(view.bids)
    truth_fits = caller is None or _trumps(rnd, caller) >= MIN_CALLER_TRUMPS
    for hands in guess_play_deals(view, Random(draw), 12):
        assert sampler.knowledge.consistent(hands)
        assert hands[seat] == sampler.knowledge.own_hand
        if truth_fits:  # a deal that fits exists (the true one): every guess fits too
            assert caller_holds_trumps(sampler.knowledge, hands)


def test_a_voluntary_caller_is_never_guessed_short_of_trumps_though_a_uniform_guess_is() -> None:
    # a moment early in the play, the caller a seat other than the one to act
    found = 0
    for seed in range(200):
        rnd = _played_to(seed, 1, Phase.PLAYING)
        if rnd is None or rnd.to_act is None:
            continue
        view = rnd.view(rnd.to_act)
        caller = voluntary_caller(view.bids)
        if caller is None or caller == view.seat:
            continue
        knowledge = knowledge_of(view)
        uniform = DealSampler(knowledge, NO_EVIDENCE)
        rng = Random(seed)
        short = [h for h in (uniform.sample(rng) for _ in range(300))]
        if all(caller_holds_trumps(knowledge, h) for h in short):
            continue  # the caller's trumps are already known: nothing to tell apart
        guessed = guess_play_deals(view, Random(seed), 300)
        assert all(caller_holds_trumps(knowledge, h) for h in guessed)
        found += 1
        if found == 3:
            break
    assert found == 3


def test_a_dealer_who_had_to_call_is_no_voluntary_caller() -> None:
    bids = ((1, Pass()), (2, Pass()), (3, Pass()), (0, Call(Suit.HEARTS)))
    assert voluntary_caller(bids) is None
    assert voluntary_caller(((1, Pass()), (2, Call(Suit.CLUBS)))) == 2
    assert voluntary_caller(((1, Pass()),)) is None


def test_the_hard_bot_and_the_card_judge_draw_the_same_guesses() -> None:
    """One sampler: the judge's deals are the sampler's own, drawn from the same seed."""
    rnd = _played_to(11, 20, Phase.PLAYING)
    assert rnd is not None and rnd.to_act is not None
    view = rnd.view(rnd.to_act)
    sampler = GuessSampler(knowledge_of(view), HARD.reading, HARD.evidence)
    ours = [sampler.sample(Random(5)) for _ in range(3)]
    assert ours == [GuessSampler.of_view(view).sample(Random(5)) for _ in range(3)]
    assert HardBot("hard", HARD).decide(view, Random(1)).samples > 0
    verdict = judge(rnd, Random(3), 8, early_stop=False)
    assert verdict.typical is not None
    assert caller_holds_trumps(knowledge_of(view), verdict.typical) or (
        _trumps(rnd, voluntary_caller(view.bids) or 0) < MIN_CALLER_TRUMPS
    )


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 100_000), steps=st.integers(0, 3), draw=st.integers(0, 2**32))
def test_guessed_bidding_deals_hold_the_seats_cards_and_every_card_once(
    seed: int, steps: int, draw: int
) -> None:
    rnd = _played_to(seed, steps, Phase.BIDDING)
    if rnd is None:
        return
    view = rnd.view(rnd.to_act or 0)
    own = sum(1 << int(c) for c in view.hand)
    for hands, talons in guess_bidding_deals(view, Random(draw), 6):
        assert hands[view.seat] == own
        every = [h for h in hands] + [t for t in talons]
        assert sum(h.bit_count() for h in every) == 32
        union = 0
        for h in every:
            assert not union & h
            union |= h
        assert all(h.bit_count() == 6 for h in hands)


def test_the_coachs_review_and_bid_judge_guess_through_the_one_sampler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The round review and the coach's cards (the hard bot from the player's view) and the
    coach's bids (the hard bot's bid search) all draw their guesses here."""
    import bela.ai.guessing as guessing
    from bela.lab.card_review import judge_card
    from bela.lab.coach_bids import judge_bid

    drawn: list[str] = []
    sample = guessing.GuessSampler.sample
    bidding = guessing.guess_bidding_deals

    def counted_sample(self: guessing.GuessSampler, rng: Random) -> Hands:
        drawn.append("play")
        return sample(self, rng)

    def counted_bidding(*args: Any, **kwargs: Any) -> Any:
        drawn.append("bid")
        return bidding(*args, **kwargs)

    monkeypatch.setattr(guessing.GuessSampler, "sample", counted_sample)
    monkeypatch.setattr("bela.ai.hard.guess_bidding_deals", counted_bidding)
    rnd = _played_to(11, 12, Phase.PLAYING)
    assert rnd is not None and rnd.to_act is not None
    judge_card(rnd, rnd.to_act, Random(2))
    assert "play" in drawn
    first = Round.from_seed(11, 3, DEFAULT_RULES)
    for _ in range(3):  # pod mus: the dealer's suit is always searched
        first.push(Pass())
    view = first.view(first.to_act or 0)
    judge_bid(view, view.legal_actions[0], Random(3), 8)
    assert "bid" in drawn
