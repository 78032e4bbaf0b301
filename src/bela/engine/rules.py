"""The rule variants a game is played under, all in one place.

The defaults are the brief's standard game: the dealer must name trump after
three passes, and an exact tie is a plain pad.
"""

from __future__ import annotations

from dataclasses import dataclass

from bela.engine.guards import check_flag

__all__ = ["TARGETS", "Rules"]

TARGETS = (501, 701, 1001)


@dataclass(frozen=True, slots=True)
class Rules:
    """Variants, each off by default.

    ``no_forced_trump``: the dealer may pass too; when all four pass the round
    is void and the next dealer deals again.
    ``visi``: on an exact tie the defenders write their own total and the
    callers' total hangs, going to the team that wins the next round that
    does not tie.
    """

    no_forced_trump: bool = False
    visi: bool = False

    def __post_init__(self) -> None:
        check_flag(self.no_forced_trump, "no_forced_trump")
        check_flag(self.visi, "visi")


DEFAULT_RULES = Rules()
