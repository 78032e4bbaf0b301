"""Difficulty levels the app offers: the heuristic player with stronger or weaker knobs.

``normal`` is the full heuristic. ``easy`` is still a sensible player (it follows
the same value-of-a-card reasoning and never plays at random) but it only counts
the cards gone, not the voids or "could not overtake" inferences, it bids more
boldly, does not deliberately draw trumps, and plays the last tricks by
heuristics instead of exactly.
"""

from __future__ import annotations

from bela.ai.bidding import BidModel
from bela.ai.heuristic import HeuristicBot, PlayStyle

__all__ = ["EASY_BIDS", "EASY_PLAY", "make_easy", "make_normal"]

EASY_BIDS = BidModel(threshold=50.0, zvanja=0.0, bela=8.0)
EASY_PLAY = PlayStyle(memory=False, endgame_deals=0, endgame3_deals=0, draw_trumps=False)


def make_normal(name: str = "normal") -> HeuristicBot:
    """The full heuristic player."""
    return HeuristicBot(name)


def make_easy() -> HeuristicBot:
    """A weaker, still sensible player."""
    return HeuristicBot("easy", EASY_BIDS, EASY_PLAY)
