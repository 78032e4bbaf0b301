"""Computer players. A bot sees only a seat's view (``Round.view``), never the round.

``make_bot(kind)`` builds one by name; ``BOT_KINDS`` lists the names: ``normal``
(the heuristic player, also called ``heuristic``), ``easy`` and ``random``.
``bela.ai.arena`` pits two of them against each other on duplicate deals.

Importing this package loads no bot: the app's start screen and the command
line only need ``BOT_KINDS``, so the players (the hard bot's solver above all)
are imported when ``make_bot`` first builds one, and ``HeuristicBot`` and
``PlayStyle`` when first named (issue #12: the start screen comes up fast).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bela.ai.base import Bot, decision_rng
from bela.ai.random_bot import RandomBot
from bela.ai.registry import BOT_KINDS, make_bot

if TYPE_CHECKING:
    from bela.ai.heuristic import HeuristicBot
    from bela.ai.judgement import PlayStyle

__all__ = ["BOT_KINDS", "Bot", "HeuristicBot", "PlayStyle", "RandomBot", "decision_rng", "make_bot"]


def __getattr__(name: str) -> object:
    """``HeuristicBot`` and ``PlayStyle``, imported on first use (PEP 562)."""
    if name == "HeuristicBot":
        from bela.ai.heuristic import HeuristicBot

        return HeuristicBot
    if name == "PlayStyle":
        from bela.ai.judgement import PlayStyle

        return PlayStyle
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
