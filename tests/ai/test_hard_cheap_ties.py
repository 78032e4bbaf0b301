"""``HardConfig.cheap_ties``: among cards the search values alike, the cheapest is played."""

from __future__ import annotations

import random
from dataclasses import replace

from bela.ai.hard import HARD_V3, HardBot
from bela.engine import Phase, Play, Round
from bela.engine.tricks import CARD_POINTS


def views_with_choice(count: int) -> list[Round]:
    rng = random.Random(5)
    out: list[Round] = []
    while len(out) < count:
        seed = rng.randrange(1 << 30)
        rnd = Round.from_seed(seed, dealer=seed % 4)
        for _ in range(rng.randrange(4, 30)):
            if rnd.to_act is None:
                break
            rnd.push(rng.choice(rnd.legal_actions()))
        if rnd.phase is Phase.PLAYING and rnd.to_act is not None:
            cards = {a.card for a in rnd.legal_actions() if isinstance(a, Play)}
            points = {CARD_POINTS[int(rnd.trump or 0) * 32 + c] for c in cards}
            if len(points) > 1:
                out.append(rnd)
    return out


def test_equal_values_go_to_the_card_giving_away_least() -> None:
    cheap = HardBot("cheap", replace(HARD_V3, cheap_ties=True))
    old = HardBot("old", HARD_V3)
    differed = 0
    for rnd in views_with_choice(30):
        assert rnd.to_act is not None and rnd.trump is not None
        view = rnd.view(rnd.to_act)
        cards = sorted({a.card for a in view.legal_actions if isinstance(a, Play)})
        flat = dict.fromkeys((int(c) for c in cards), 0.0)  # every card valued alike
        chosen = cheap._pick(view, cards, dict(flat), dict(flat), 1, "solver").action
        assert isinstance(chosen, Play)
        trump = int(rnd.trump)
        fewest = min(CARD_POINTS[trump * 32 + c] for c in cards)
        assert CARD_POINTS[trump * 32 + chosen.card] == fewest
        if chosen != old._pick(view, cards, dict(flat), dict(flat), 1, "solver").action:
            differed += 1
        # a real difference in value still decides
        best = cards[-1]
        valued = {**flat, int(best): 1.0}
        assert cheap._pick(view, cards, valued, dict(flat), 1, "solver").action.card == best
    assert differed > 0  # the old tie-break (lowest card index) often gives more away
