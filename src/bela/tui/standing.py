"""Where a match stands, as the screens say it: "deal 2 of 3" in a brza 163, "to 501" otherwise.

A brza 163 is three played deals and then the higher total (docs/rules.md § 14),
not a race to 163: both teams are usually past 163 after two deals, and a line
saying "(to 163)" then tells the player nothing true. So the status line, the
round's summary and the score sheet count the deals there instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from bela.engine import QUICK_TARGET, RoundRecord
from bela.engine.rules import QUICK_DEALS
from bela.i18n import _

__all__ = ["deal_heading", "deals_played", "quick_progress", "standing_after"]


def deals_played(rounds: Iterable[RoundRecord]) -> int:
    """The deals that count in a brza 163: every round but a void one (all passed)."""
    return sum(1 for r in rounds if not r.result.redeal)


def quick_progress(deal: int) -> str:
    """One of the three deals of a brza 163, in the summary's words: "brza 163: deal 2 of 3"."""
    return _("brza 163: deal {n} of {total}").format(n=deal, total=QUICK_DEALS)


def deal_heading(deal: int) -> str:
    """The status line's head in a brza 163, short enough for 80 columns: "Deal 2 of 3"."""
    if deal <= QUICK_DEALS:
        return _("Deal {n} of {total}").format(n=deal, total=QUICK_DEALS)
    return _("Deal {n}: one more, the totals were equal").format(n=deal)


def standing_after(scores: tuple[int, int], target: int, deal: int) -> str:
    """The summary's last line: the score after a round, and what it is played to.

    ``deal`` is the deal just played (counted as ``deals_played`` does); it matters
    only in a brza 163, where "(to 163)" would be false once both teams are past it.
    """
    if target == QUICK_TARGET:
        if deal < QUICK_DEALS:
            progress = quick_progress(deal)
        elif scores[0] != scores[1]:
            progress = _("brza 163: played out, the higher total wins")
        else:
            progress = _("brza 163: equal after deal {n}, one more deal").format(n=deal)
        return _("Score: mi {mi} · vi {vi}  ({progress})").format(
            mi=scores[0], vi=scores[1], progress=progress
        )
    return _("Score: mi {mi} · vi {vi}  (to {target})").format(
        mi=scores[0], vi=scores[1], target=target
    )
