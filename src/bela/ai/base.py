"""The one interface every computer player implements.

A bot is handed a ``SeatView`` (what its seat may know) and an RNG, and returns
one of ``view.legal_actions``. The RNG is derived from the match seed and the
position in the match (``decision_rng``), not kept inside the bot, so a match
resumed from a save, or replayed from its seed, makes the same decisions.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from bela.engine import Action, Play, SeatView
from bela.engine.deal import round_seed

__all__ = ["Bot", "decision_rng", "play_action"]


class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: SeatView, rng: Random) -> Action:
        """One of ``view.legal_actions`` (the view's seat is the one to act)."""
        ...


def decision_rng(match_seed: int, round_index: int, step: int) -> Random:
    """The RNG for the ``step``-th action (0-based) of round ``round_index`` of a match."""
    return Random(round_seed(round_seed(match_seed, round_index), step))


def play_action(view: SeatView, card: int) -> Action:
    """The legal action that plays ``card``, announcing bela when it may (20 points for nothing)."""
    plain: Action | None = None
    for action in view.legal_actions:
        if isinstance(action, Play) and action.card == card:
            if action.bela:
                return action
            plain = action
    if plain is None:  # pragma: no cover - a bot only picks among its legal cards
        raise AssertionError(f"chose {card}, which is not a legal play")
    return plain
