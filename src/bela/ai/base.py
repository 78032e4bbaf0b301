"""The one interface every computer player implements.

A bot is handed a ``SeatView`` (what its seat may know) and an RNG, and returns
one of ``view.legal_actions``. The RNG is derived from the match seed and the
position in the match (``decision_rng``), not kept inside the bot, so a match
resumed from a save, or replayed from its seed, makes the same decisions.
"""

from __future__ import annotations

from random import Random
from typing import Protocol

from bela.engine import BELA_POINTS, Action, Claim, Play, SeatView
from bela.engine.deal import round_seed

__all__ = ["Bot", "claim_action", "counted_points", "decision_rng", "play_action"]


class Bot(Protocol):
    """A computer player."""

    name: str

    def act(self, view: SeatView, rng: Random) -> Action:
        """One of ``view.legal_actions`` (the view's seat is the one to act)."""
        ...


def decision_rng(match_seed: int, round_index: int, step: int) -> Random:
    """The RNG for the ``step``-th action (0-based) of round ``round_index`` of a match."""
    return Random(round_seed(round_seed(match_seed, round_index), step))


def counted_points(view: SeatView, team: int) -> int | None:
    """What ``team`` has counted so far for a "dosta" claim, from the view alone; None
    when no claim can be made in this round.

    Everything a claim is checked against is public: the score before the round,
    the tricks' points, the zvanja of the team that won them (shown to the table)
    and the bela announced. So a bot says "dosta" exactly when it is right.
    """
    if view.claim_context is None:
        return None
    total = view.claim_context[team]
    total += sum(t.points for t in view.tricks if t.winner % 2 == team)
    if view.zvanja_team == team:
        total += sum(z.points for _, zs in view.shown_zvanja for z in zs)
    total += sum(BELA_POINTS for s in view.bela_announced if s % 2 == team)
    return total


def claim_action(view: SeatView) -> Claim | None:
    """``Claim()`` when it is among the legal actions and the claim holds, else None."""
    claim = Claim()
    if claim not in view.legal_actions or view.claim_context is None:
        return None
    counted = counted_points(view, view.seat % 2)
    return claim if counted is not None and counted >= view.claim_context[2] else None


def play_action(view: SeatView, card: int) -> Action:
    """The legal action that plays ``card``, announcing bela when it may (20 points for nothing).

    Under either bela rule: with the first card (``Rules()``) an announcement tells the
    table where the other card is, but a silent first card would lose the 20 for good.
    """
    plain: Action | None = None
    for action in view.legal_actions:
        if isinstance(action, Play) and action.card == card:
            if action.bela:
                return action
            plain = action
    if plain is None:  # pragma: no cover - a bot only picks among its legal cards
        raise AssertionError(f"chose {card}, which is not a legal play")
    return plain
