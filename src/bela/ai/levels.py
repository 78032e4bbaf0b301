"""Difficulty levels the app offers.

``normal`` is the full heuristic player (``heuristic.py``): card memory with
inferences, fitted lead weights, exact play of the last tricks. ``easy`` is
the rule-of-thumb player of ``easy.py``: sensible (it counts the cards gone,
wins cheaply, feeds a partner who surely wins the trick, leads masters) but it
infers nothing, plans nothing and bids by a plain count. ``hard`` (the search
player) lives in ``hard.py``.
"""

from __future__ import annotations

from dataclasses import replace

from bela.ai.easy import EasyBot
from bela.ai.normal.bidding import BidModel
from bela.ai.normal.heuristic import HeuristicBot
from bela.ai.normal.judgement import CONVENTIONS, PlayStyle

__all__ = ["make_easy", "make_normal", "make_normal_v1"]


def make_normal(name: str = "normal") -> HeuristicBot:
    """The full heuristic player, bidding with the model fitted to search (``bid_weights.json``).

    It plays by the table's conventions that paid or cost nothing (``CONVENTIONS``), and
    near the end of a match its exact endgame plays to win the match (``match_play``).
    """
    style = replace(CONVENTIONS, match_play=True)
    return HeuristicBot(name, BidModel(learned=True, match_aware=True), style)


def make_normal_v1() -> HeuristicBot:
    """``normal`` as it was before issue #14: threshold bidding and the play of that time.

    Built from the defaults of ``BidModel`` and ``PlayStyle``, which stay the old behaviour;
    the new ``normal`` switches its improvements on explicitly in ``make_normal``.
    """
    return HeuristicBot("normal-v1", BidModel(), PlayStyle())


def make_easy() -> EasyBot:
    """The rule-of-thumb player."""
    return EasyBot()
