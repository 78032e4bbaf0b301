"""The baseline: a uniformly random legal action."""

from __future__ import annotations

from random import Random

from bela.engine import Action, SeatView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def act(self, view: SeatView, rng: Random) -> Action:
        return view.legal_actions[int(rng.random() * len(view.legal_actions))]
