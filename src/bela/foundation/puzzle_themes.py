"""The names of the puzzle themes, in the order menus list them.

The lab reads a moment's themes (``bela.lab.puzzle_themes``), the archive checks a pack's
(``bela.archive.puzzle_pack``) and the command line offers them (``bela puzzles --theme``).
The layers keep the lab and the archive apart, and the command line builds its parser
without loading either, so the names live here, below all three, and nowhere else.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ROLES", "THEMES"]

ROLES: Final = ("lead", "second", "third", "fourth")
"""The seat's place in the trick, the first four themes."""

THEMES: Final = (
    *ROLES,
    "count-to-pad",
    "stiglja",
    "draw-trumps",
    "drive-out-ace",
    "unblock",
    "partner-void",
    "overtrump",
    "namazati",
    "save-ten",
    "bela",
    "last-trick",
    "last-tricks",
    "call",
    "pass",
    "pod-mus",
    "yours",
)
"""Every theme, in the order menus list them: the place in the trick, the ideas (what the
answer is for: the count, štiglja, trumps, an ace, the partner, points, bela), the late
tricks, the bids, and ``yours``: a moment of the player's own
match that the round review found costly (``bela.lab.own_puzzles``)."""
