"""Widgets that draw the table's immutable snapshots (see ``bela.tui.model``).

Every screen imports ``TooSmall`` from here, the start screen too, so the table's
widgets (and the table model and engine views they draw) are imported when
first named rather than with the package (PEP 562): the start screen is drawn
without them (issue #12).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bela.foundation.lazy import lazy_names
from bela.tui.widgets.too_small import TooSmall

if TYPE_CHECKING:
    from bela.tui.widgets.bidding import BidMenu
    from bela.tui.widgets.hand import Hand
    from bela.tui.widgets.score_sheet import ScoreSheet
    from bela.tui.widgets.seat_badge import SeatBadge
    from bela.tui.widgets.trick import TrickView

__all__ = ["BidMenu", "Hand", "ScoreSheet", "SeatBadge", "TooSmall", "TrickView"]

_LAZY = {
    "BidMenu": "bidding",
    "Hand": "hand",
    "ScoreSheet": "score_sheet",
    "SeatBadge": "seat_badge",
    "TrickView": "trick",
}


__getattr__ = lazy_names(__name__, _LAZY, globals())
"""The table's widgets, each imported when first named."""
