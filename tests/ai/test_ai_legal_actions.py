"""Every bot, in every position hypothesis finds, returns one of the legal actions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.ai import BOT_KINDS, decision_rng, make_bot
from bela.engine import Round, Rules

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
# "hard" (and "hard-v3", the same player frozen) search for up to a second a move; their own
# tests cover them with small budgets.
KINDS = [k for k in BOT_KINDS if k not in ("hard", "hard-v3")]
LINEUPS = st.lists(st.sampled_from(KINDS), min_size=4, max_size=4)
RULES = st.builds(Rules, no_forced_trump=st.booleans(), visi=st.booleans())


@settings(max_examples=80, deadline=None)
@given(seed=SEEDS, dealer=st.integers(0, 3), lineup=LINEUPS, rules=RULES)
@pytest.mark.slow
def test_bots_always_choose_a_legal_action(
    seed: int, dealer: int, lineup: list[str], rules: Rules
) -> None:
    bots = [make_bot(kind) for kind in lineup]
    rnd = Round.from_seed(seed, dealer, rules)
    step = 0
    while rnd.to_act is not None:
        seat = rnd.to_act
        view = rnd.view(seat)
        action = bots[seat].act(view, decision_rng(seed, 0, step))
        assert action in view.legal_actions, (lineup[seat], action)
        rnd.push(action, seat)
        step += 1
    assert rnd.result is not None
    if rnd.result.belot is None and not rnd.result.redeal:
        assert sum(rnd.result.card_points) == 162
