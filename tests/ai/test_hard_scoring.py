"""Each guessed deal is scored as the round will really be written (issue #38).

The hard bot values a card on a guessed deal by what the round would write: the card margin
of the rest turned into written points with the caller's "more than half" test (the pad), the
zvanja shown, bela (announced, or to be announced by whoever holds the trump K and Q) and a
štiglja, under the house rules. Here that scoring (``Scorer`` from the seat's view alone,
with the true deal as the guess) is checked against the engine's own result: from random
positions the round is played to its end (random legal cards, or the double-dummy best card,
bela announced whenever it may be), and what the scorer says for the margin that was really
played must be exactly the written points the round produced, our team minus theirs.
"""

from __future__ import annotations

import random

import pytest

from bela.ai.hard import Scorer
from bela.engine import Phase, Play, Round, Rules
from bela.search.sampling import knowledge_of
from bela.search.solver import Position, Solver, remaining_points

RULES = [
    Rules(),
    Rules(visi=True),
    Rules(bela_on_second=True),
    Rules(bela_always_counts=True),
    Rules(stiglja_bonus=100),
    Rules(no_zvanja=True),
    Rules(no_bela=True),
]


def position(seed: int, rules: Rules) -> Round | None:
    """A seeded round after random bids and a random number of random cards."""
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, dealer=seed % 4, rules=rules)
    while rnd.phase is Phase.BIDDING:
        rnd.push(rng.choice(rnd.legal_actions()))
    for _ in range(rng.randrange(0, 31)):
        if rnd.phase is not Phase.PLAYING:
            return None
        rnd.push(rng.choice([a for a in rnd.legal_actions() if isinstance(a, Play)]))
    return rnd if rnd.phase is Phase.PLAYING and rnd.to_act is not None else None


def finish(rnd: Round, rng: random.Random, best: bool) -> None:
    """Play the round out: random cards, or the solver's best card for the side to move."""
    while rnd.phase is Phase.PLAYING:
        if best:
            result = Solver(int(rnd.trump or 0)).solve(Position.from_round(rnd))
            card = int(rng.choice(result.best_cards))
        else:
            card = int(rng.choice([a.card for a in rnd.legal_actions() if isinstance(a, Play)]))
        rnd.push_card(card, rnd.can_announce_bela(card))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: ",".join(r.changed()) or "default")
def test_a_guessed_deal_is_scored_as_the_round_writes_it(rules: Rules) -> None:
    checked = pads = sweeps = 0
    for seed in range(300):
        rnd = position(seed, rules)
        if rnd is None:
            continue
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        knowledge = knowledge_of(view)
        scorer = Scorer(view, knowledge)
        hands = (rnd.hand_mask(0), rnd.hand_mask(1), rnd.hand_mask(2), rnd.hand_mask(3))
        pos = Position.from_view(view, hands)
        rest = remaining_points(pos)
        before = rnd.card_points
        finish(rnd, random.Random(seed), best=seed % 2 == 0 and len(rnd.tricks) >= 3)
        result = rnd.result
        assert result is not None
        margin = (result.card_points[0] - before[0]) - (result.card_points[1] - before[1])
        if result.stiglja is not None:  # the solver's margin counts a sweep's 90
            margin += 90 if result.stiglja == 0 else -90
            sweeps += 1
        team = seat % 2
        written = scorer.written(margin, rest, scorer.bela(hands))
        assert written == result.points[team] - result.points[1 - team], (seed, result)
        pads += result.fell
        checked += 1
    assert checked >= 100 and pads >= 10 and sweeps >= 1
