"""Reading the play (issue #26): guessed deals weighed by how the policy would have played them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bela.ai.hard import (
    HARD,
    HARD_V2,
    PLAY_READING,
    PURE_SHARE,
    HardBot,
    default_hard,
    scaled,
    systematic_resample,
)
from bela.ai.normal.heuristic import HeuristicBot, choose_card
from bela.ai.normal.judgement import CONVENTIONS
from bela.ai.play_reading import PlayReading, play_likelihood, rebuild_round
from bela.engine import Phase, Play, Round
from bela.search.sampling import DealSampler, knowledge_of

READING = PlayReading(fit=0.9, power=1.0, tricks=5, style=CONVENTIONS)


def policy_round(seed: int, cards_played: int) -> Round:
    """A seeded round bid and played by the reading's own policy, stopped after some cards."""
    bot = HeuristicBot("policy", HARD.bid_model, CONVENTIONS)
    rnd = Round.from_seed(seed, dealer=seed % 4)
    played = 0
    while rnd.to_act is not None and (rnd.phase is Phase.BIDDING or played < cards_played):
        action = bot.act(rnd.view(rnd.to_act), random.Random(0))
        rnd.push(action)
        played += isinstance(action, Play)
    return rnd


def true_hands(rnd: Round) -> tuple[int, int, int, int]:
    return (rnd.hand_mask(0), rnd.hand_mask(1), rnd.hand_mask(2), rnd.hand_mask(3))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards_played=st.integers(1, 27))
def test_a_deal_played_by_the_policy_itself_explains_every_read_card(
    seed: int, cards_played: int
) -> None:
    rnd = policy_round(seed, cards_played)
    if rnd.phase is not Phase.PLAYING or rnd.to_act is None:
        return
    view = rnd.view(rnd.to_act)
    knowledge = knowledge_of(view)
    # count, by replaying the real round, the read plays: another seat's, within the first
    # ``tricks`` tricks, with a choice of more than one card
    replay = Round.from_seed(seed, dealer=seed % 4)
    for _, bid in view.bids:
        replay.push(bid)
    history = [int(c) for t in view.tricks for c in t.cards] + [int(c) for c in view.trick]
    read = 0
    for card in history:
        actor = replay.to_act
        reads = actor != view.seat and len(replay.tricks) < READING.tricks
        if reads and replay.legal_mask().bit_count() > 1:
            assert choose_card(replay.view(actor), CONVENTIONS) == card  # the policy's own
            read += 1
        replay.push_card(card, replay.can_announce_bela(card))
    weight = play_likelihood(view, knowledge, true_hands(rnd), READING)
    rebuilt = rebuild_round(view, knowledge, true_hands(rnd))
    assert weight == pytest.approx(READING.fit**read)
    assert rebuilt.view(view.seat).hand == view.hand


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards_played=st.integers(4, 24))
def test_the_memo_changes_no_weight(seed: int, cards_played: int) -> None:
    rnd = policy_round(seed, cards_played)
    if rnd.phase is not Phase.PLAYING or rnd.to_act is None:
        return
    view = rnd.view(rnd.to_act)
    knowledge = knowledge_of(view)
    sampler = DealSampler(knowledge)
    rng = random.Random(seed)
    deals = [sampler.sample(rng) for _ in range(12)] * 2  # repeats: the memo answers them
    memo: dict[tuple[int, int, int], bool] = {}
    with_memo = [play_likelihood(view, knowledge, h, READING, memo) for h in deals]
    without = [play_likelihood(view, knowledge, h, READING) for h in deals]
    assert with_memo == without
    assert memo  # it was used
    # the weights differ between deals when the play says something (not all equal by mistake)
    assert all(0.0 < w <= 1.0 for w in without)


def test_a_deal_that_contradicts_the_policy_weighs_less() -> None:
    # On policy-played rounds, deals guessed uniformly explain the play no better on average
    # than the true deal, which the policy played itself.
    lower = 0
    cases = 0
    for seed in range(40):
        rnd = policy_round(seed, 14)
        if rnd.phase is not Phase.PLAYING or rnd.to_act is None:
            continue
        view = rnd.view(rnd.to_act)
        knowledge = knowledge_of(view)
        true_w = play_likelihood(view, knowledge, true_hands(rnd), READING)
        sampler = DealSampler(knowledge)
        rng = random.Random(seed)
        guessed = [play_likelihood(view, knowledge, sampler.sample(rng), READING) for _ in range(8)]
        cases += 1
        lower += sum(guessed) / len(guessed) < true_w
    assert cases >= 30
    assert lower >= cases * 0.8


def test_rebuild_round_shows_every_card_of_the_history_in_order() -> None:
    rnd = policy_round(5, 19)
    view = rnd.view(rnd.to_act)
    seen: list[tuple[int | None, int]] = []
    rebuilt = rebuild_round(
        view, knowledge_of(view), true_hands(rnd), lambda r, c: seen.append((r.to_act, c))
    )
    assert [c for _, c in seen] == [int(c) for t in view.tricks for c in t.cards] + [
        int(c) for c in view.trick
    ]
    assert len(seen) == 19
    assert rebuilt.view(view.seat) == view


@settings(max_examples=200)
@given(
    weights=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=60),
    n=st.integers(1, 50),
    seed=st.integers(0, 2**32),
)
@example(weights=[0.0, 5e-324], n=1, seed=1)  # the point underflowed to 0.0 and took deal 0
@example(weights=[5e-324, 5e-324], n=4, seed=0)  # every point 0.0: deal 0 four times
def test_systematic_resampling_takes_each_deal_about_its_share(
    weights: list[float], n: int, seed: int
) -> None:
    picked = systematic_resample(weights, n, random.Random(seed))
    total = sum(weights)
    if total <= 0.0:
        assert picked == list(range(min(n, len(weights))))
        return
    assert len(picked) == n
    assert picked == sorted(picked)
    for i, w in enumerate(weights):
        share = n * w / total
        assert share - 1 - 1e-9 <= picked.count(i) <= share + 1 + 1e-9
        if w == 0.0:
            assert i not in picked or total == 0.0


def test_the_bot_searches_deals_that_fit_the_view_and_repeats_itself() -> None:
    config = replace(HARD, rollout_samples=2, solver_samples=4, play_reading=PLAY_READING)
    bot = HardBot("hard", config)
    for seed in (3, 8):
        rnd = policy_round(seed, 9)
        view = rnd.view(rnd.to_act)
        knowledge = knowledge_of(view)
        sampler = DealSampler(knowledge)
        deals = list(bot._deals(view, random.Random(seed), sampler, 6))
        assert len(deals) == 6
        assert all(knowledge.consistent(h) for h in deals)
        assert deals == list(bot._deals(view, random.Random(seed), sampler, 6))
        first = bot.decide(view, random.Random(seed))
        assert first.action in view.legal_actions
        assert first == bot.decide(view, random.Random(seed))


def test_hard_v2_is_frozen_and_hard_spends_more() -> None:
    from bela.ai.registry import make_bot

    old = make_bot("hard-v2")
    assert isinstance(old, HardBot) and old.config == HARD_V2 and old.name == "hard-v2"
    assert HARD_V2.play_reading is None
    assert HARD.bid_samples >= 192 and HARD.bid_samples > HARD_V2.bid_samples
    assert HARD.rollout_samples > HARD_V2.rollout_samples
    assert HARD.solver_samples > HARD_V2.solver_samples


def test_the_pure_build_searches_a_share_of_the_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    from bela.foundation import native

    monkeypatch.setattr(native, "build", lambda: native.Build("absent"))
    pure = default_hard()
    assert pure == scaled(HARD, PURE_SHARE)
    assert pure.bid_samples == round(HARD.bid_samples * PURE_SHARE)
    assert pure.rollout_samples < HARD.rollout_samples
    monkeypatch.setattr(native, "build", lambda: native.Build(""))
    assert default_hard() == HARD
