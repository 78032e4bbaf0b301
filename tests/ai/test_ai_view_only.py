"""Bots see only their seat's view: hidden cards cannot change a decision.

Two rounds that differ only in cards a seat cannot see (a swap of unplayed
cards between two other players) give that seat the same view, and so every
bot the same decision. Hypothesis looks for any deal and moment where that
fails. A bot that peeked (at the round, or at anything but the view) would
be caught whenever the swap changed what it would do.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bela.ai import BOT_KINDS, decision_rng, make_bot
from bela.ai.base import Bot
from bela.ai.hard import HardBot
from bela.engine import Round, cards_in
from bela.engine.deal import deal_from_seed

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
KINDS = list(BOT_KINDS)


def bot_for(kind: str) -> Bot:
    """The bot of that name; a searching one with its own configuration but small budgets.

    ``hard`` and ``hard-v1`` search for up to a second a move with their own budgets; what
    they read from the view (the bids, the play, the zvanja) does not depend on the budgets.
    """
    bot = make_bot(kind)
    if isinstance(bot, HardBot):
        small = replace(bot.config, solver_samples=4, rollout_samples=1, bid_samples=2)
        return HardBot(kind, small)
    return bot


def play_to(rnd: Round, steps: int, seed: int) -> Round:
    """``rnd`` after ``steps`` actions chosen by the normal bot (or fewer if it ends)."""
    bot = make_bot("normal")
    for step in range(steps):
        if rnd.to_act is None:
            break
        rnd = rnd.apply(bot.act(rnd.view(rnd.to_act), decision_rng(seed, 0, step)))
    return rnd


def unplayed(rnd: Round, seat: int, card: int) -> bool:
    """Whether ``card``, dealt to ``seat`` (hand or talon), has not been played yet."""
    if rnd.trump is None:
        return True  # bidding: nothing played, talons not even taken up
    return bool(rnd.hand_mask(seat) >> card & 1)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, steps=st.integers(min_value=0, max_value=34), pick=st.randoms())
def test_swapping_hidden_cards_changes_neither_view_nor_decision(
    seed: int, steps: int, pick: Random
) -> None:
    hands, talons = deal_from_seed(seed, 3)
    original = Round(3, hands, talons)
    rnd = play_to(original, steps, seed)
    seat = rnd.to_act
    assume(seat is not None)
    assert seat is not None
    # Swap one card still unplayed between two seats other than the one to act.
    a, b = pick.sample([s for s in range(4) if s != seat], 2)
    unplayed_a = [c for c in cards_in(hands[a] | talons[a]) if unplayed(rnd, a, c)]
    unplayed_b = [c for c in cards_in(hands[b] | talons[b]) if unplayed(rnd, b, c)]
    assume(unplayed_a and unplayed_b)
    ca, cb = pick.choice(unplayed_a), pick.choice(unplayed_b)
    new_hands, new_talons = list(hands), list(talons)
    for parts in (new_hands, new_talons):
        for s, card, other in ((a, ca, cb), (b, cb, ca)):
            if parts[s] >> card & 1:
                parts[s] ^= (1 << card) | (1 << other)
    twin = Round(3, new_hands, new_talons)
    # The same actions must still be legal for the twin (a swap can break a shown void).
    for action in rnd.actions:
        assume(twin.is_legal(action))
        twin = twin.apply(action)
    view, twin_view = rnd.view(seat), twin.view(seat)
    # Zvanja shown to the table may differ when the swap changes a declaration.
    assume(view == twin_view)
    for kind in KINDS:
        bot = bot_for(kind)
        rng_a, rng_b = decision_rng(seed, 0, steps), decision_rng(seed, 0, steps)
        assert bot.act(view, rng_a) == bot.act(twin_view, rng_b), kind
    assert (twin.deal_hands, twin.deal_talons) != (original.deal_hands, original.deal_talons)
