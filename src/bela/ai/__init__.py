"""Computer players. A bot sees only a seat's view (``Round.view``), never the round.

``make_bot(kind)`` builds one by name; ``BOT_KINDS`` lists the names: ``normal``
(the heuristic player, also called ``heuristic``), ``easy`` and ``random``.
``bela.lab.arena`` pits two of them against each other on duplicate deals.

Importing this package loads no bot, nor the engine: the app's start screen
and the command line only need ``BOT_KINDS``, so the players (the hard bot's
solver above all) are imported when ``make_bot`` first builds one, and the
other names when first used (PEP 562; issue #12: the start screen comes up fast).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bela.ai.registry import BOT_KINDS, make_bot
from bela.foundation.lazy import lazy_names

if TYPE_CHECKING:
    from bela.ai.base import Bot, decision_rng
    from bela.ai.normal.heuristic import HeuristicBot
    from bela.ai.normal.judgement import PlayStyle
    from bela.ai.random_bot import RandomBot

__all__ = ["BOT_KINDS", "Bot", "HeuristicBot", "PlayStyle", "RandomBot", "decision_rng", "make_bot"]


_LAZY = {
    "Bot": "base",
    "decision_rng": "base",
    "HeuristicBot": "normal.heuristic",
    "PlayStyle": "normal.judgement",
    "RandomBot": "random_bot",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())
"""A name other than ``BOT_KINDS`` and ``make_bot``, imported on first use and kept here."""
