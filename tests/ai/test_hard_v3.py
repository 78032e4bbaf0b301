"""``hard-v3``: today's ``hard`` frozen (issue #38), so every change to ``hard`` is measured
against the player it replaces."""

from __future__ import annotations

import random
from dataclasses import asdict

from bela.ai.base import decision_rng
from bela.ai.hard import HARD_V2, HARD_V3, HardBot
from bela.ai.registry import BOT_KINDS, make_bot
from bela.engine import Phase, Round, round_seed


def test_hard_v3_is_in_the_registry_with_hard_v2s_reading_and_more_deals() -> None:
    assert "hard-v3" in BOT_KINDS
    bot = make_bot("hard-v3")
    assert isinstance(bot, HardBot) and bot.name == "hard-v3"
    # the budgets ``hard`` had when issue #38 began; anything else must not move
    changed = {k: v for k, v in asdict(HARD_V3).items() if asdict(HARD_V2)[k] != v}
    assert changed == {
        "solver_samples": 48,
        "decision_nodes": 960_000,
        "rollout_samples": 48,
        "bid_samples": 192,
    }


def _positions(count: int) -> list[tuple[Round, int]]:
    """Seeded positions: rounds played by ``normal`` to a random moment (bids and cards)."""
    rng = random.Random(38)
    normal = make_bot("normal")
    out: list[tuple[Round, int]] = []
    while len(out) < count:
        seed = round_seed(38, len(out))
        rnd = Round.from_seed(seed, dealer=len(out) % 4)
        stop = rng.choice([0, 1, 2, 20, 24, 26, 28, 29])  # bids, cards with 3-5 tricks left
        step = 0
        while rnd.to_act is not None and step < stop:
            seat = rnd.to_act
            rnd.push(normal.act(rnd.view(seat), decision_rng(seed, 0, step)), seat)
            step += 1
        if rnd.to_act is not None and (rnd.phase is Phase.BIDDING or len(rnd.tricks) >= 3):
            out.append((rnd, step))
    return out


def test_hard_and_hard_v3_decide_alike_today() -> None:
    """While ``hard`` is ``hard-v3`` (issue #38 shipped nothing that gained), they choose alike."""
    hard, v3 = make_bot("hard"), make_bot("hard-v3")
    for rnd, step in _positions(10):
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        assert hard.act(view, decision_rng(7, 0, step)) == v3.act(view, decision_rng(7, 0, step))
