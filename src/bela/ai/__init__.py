"""Computer players. A bot sees only a seat's view (``Round.view``), never the round.

``make_bot(kind)`` builds one by name; ``BOT_KINDS`` lists the names: ``normal``
(the heuristic player, also called ``heuristic``), ``easy`` and ``random``.
``bela.ai.arena`` pits two of them against each other on duplicate deals.
"""

from bela.ai.base import Bot, decision_rng
from bela.ai.heuristic import HeuristicBot
from bela.ai.judgement import PlayStyle
from bela.ai.random_bot import RandomBot
from bela.ai.registry import BOT_KINDS, make_bot

__all__ = ["BOT_KINDS", "Bot", "HeuristicBot", "PlayStyle", "RandomBot", "decision_rng", "make_bot"]
