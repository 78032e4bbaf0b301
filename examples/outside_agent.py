"""An agent written outside bela, for ``bela arena`` (docs/bots.md, "An outside agent").

``make_agent`` is what the arena calls: ``PYTHONPATH=examples bela arena
outside_agent:make_agent random --deals 200``. The agent is handed only a seat's view
(``bela.engine.SeatView``) and an RNG, and returns one of ``view.legal_actions``; this one
names trump on its longest suit when it holds the jack of it, and otherwise plays its legal
card worth the most points (any card, when points are equal).
"""

from __future__ import annotations

from random import Random

from bela.engine import Action, Call, Pass, Play, Rank, SeatView, card_points


class GreedyAgent:
    name = "greedy (outside)"

    def act(self, view: SeatView, rng: Random) -> Action:
        legal = view.legal_actions
        calls = [a for a in legal if isinstance(a, Call)]
        if calls:
            by_suit = {a.suit: sum(1 for c in view.hand if c.suit == a.suit) for a in calls}
            best = max(calls, key=lambda a: by_suit[a.suit])
            holds_jack = any(c.suit == best.suit and c.rank is Rank.JACK for c in view.hand)
            if holds_jack or Pass() not in legal:
                return best
            return Pass()
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        trump = view.trump if view.trump is not None else 0
        top = max(card_points(a.card, trump) for a in plays)
        return rng.choice([a for a in plays if card_points(a.card, trump) == top])


def make_agent() -> GreedyAgent:
    return GreedyAgent()
