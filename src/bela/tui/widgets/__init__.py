"""Widgets that draw the table's immutable snapshots (see ``bela.tui.model``)."""

from bela.tui.widgets.bidding import BidMenu
from bela.tui.widgets.hand import Hand
from bela.tui.widgets.score_sheet import ScoreSheet
from bela.tui.widgets.seat_badge import SeatBadge
from bela.tui.widgets.too_small import TooSmall
from bela.tui.widgets.trick import TrickView

__all__ = ["BidMenu", "Hand", "ScoreSheet", "SeatBadge", "TooSmall", "TrickView"]
