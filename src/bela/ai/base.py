"""The one interface every computer player implements.

A bot is handed a ``SeatView`` (what its seat may know) and an RNG, and returns
one of ``view.legal_actions``. The RNG is derived from the match seed and the
position in the match (``decision_rng``), not kept inside the bot, so a match
resumed from a save, or replayed from its seed, makes the same decisions.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from bela.engine import Action, SeatView
from bela.engine.deal import round_seed

__all__ = ["Bot", "decision_rng"]


class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: SeatView, rng: Random) -> Action:
        """One of ``view.legal_actions`` (the view's seat is the one to act)."""
        ...


def decision_rng(match_seed: int, round_index: int, step: int) -> Random:
    """The RNG for the ``step``-th action (0-based) of round ``round_index`` of a match."""
    return Random(round_seed(round_seed(match_seed, round_index), step))
