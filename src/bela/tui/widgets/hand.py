"""The human's hand along the bottom of the table.

Draws a ``HandModel``: the chosen card raised by a line, cards that may not be
played dimmed with a dotted border, talon cards face down until trump is named,
and a number under each card (the key that plays it). A click on a card posts
``Hand.CardClicked``; the table screen decides what that means.
"""

from __future__ import annotations

from typing import Final

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from bela.engine import Card
from bela.i18n import _
from bela.tui.model import HandModel
from bela.tui.widgets.cards import (
    CARD_WIDTH,
    LARGE_HEIGHT,
    LARGE_WIDTH,
    Look,
    blank_lines,
    card_lines,
)

__all__ = ["Hand"]

GAP: Final = 1
WIDE_GAP: Final = 3
STEP: Final = CARD_WIDTH + GAP


def large_hand_fits(width: int, height: int) -> bool:
    """Whether eight large cards, their raised line and their numbers fit ``width`` × ``height``."""
    return width >= 8 * (LARGE_WIDTH + GAP) - GAP and height >= LARGE_HEIGHT + 2


def _centred(text: str, width: int) -> str:
    """``text`` centred in ``width`` terminal cells (a Chinese character is two), cut to
    them only if it is longer (a test keeps every language's words under a card shorter)."""
    while cell_len(text) > width:
        text = text[:-1]
    room = width - cell_len(text)
    return " " * (room // 2) + text + " " * (room - room // 2)


class Hand(Widget):
    """Up to eight cards side by side; line 0 is room for the raised card.

    The cards are large (7 × 5) when the widget is given the room for them (the
    table's layout does at 120 × 40 and more), else small (5 × 3)."""

    model: reactive[HandModel] = reactive(HandModel)

    class CardClicked(Message):
        """A card (by position in the hand) was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    @property
    def large(self) -> bool:
        size = self.content_size
        return large_hand_fits(size.width, size.height)

    @property
    def gap(self) -> int:
        """Cells between two cards: one, and ``WIDE_GAP`` when the widget is given the room
        for eight large cards so spread (the table's layout does at 160 × 50 and more)."""
        if self.large and self.content_size.width >= 8 * LARGE_WIDTH + 7 * WIDE_GAP:
            return WIDE_GAP
        return GAP

    def render(self) -> Text:
        model = self.model
        large = self.large
        width = LARGE_WIDTH if large else CARD_WIDTH
        slots: list[tuple[Card | None, Look, bool, str, str]] = []
        for i, card in enumerate(model.cards):
            chosen = model.cursor == i
            if chosen:
                look = Look.CHOSEN
            elif model.legal is not None and card not in model.legal:
                look = Look.DIM
            else:
                look = Look.FACE
            # a card taken up from the talon says "new" in the free line beside its box
            # (above it, or below it when raised), whole: glued to the number under it
            # ("1nova▲") it was cut to "1nova" at 80 x 24 (issue #35)
            fresh = _("new") if card in model.fresh else ""
            slots.append((card, look, chosen, str(i + 1), fresh))
        for _slot in range(model.face_down):
            slots.append((None, Look.BACK, False, _("talon"), ""))
        box_height = LARGE_HEIGHT if large else 3
        rows = [Text() for _ in range(box_height + 2)]
        gap = self.gap
        for n, (face, look, raised, label, fresh) in enumerate(slots):
            if n:
                for row in rows:
                    row.append(" " * gap)
            box = card_lines(face, look, large)
            blank = blank_lines(large)[0]
            if fresh:
                blank = Text(_centred(fresh, width), style="bold")
            column = [*box, blank] if raised else [blank, *box]
            for row, part in zip(rows, column, strict=False):
                row.append_text(part)
            marker = "▲" if raised else ""
            rows[-1].append(_centred(label + marker, width), style="bold")
        return Text("\n").join(rows)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        width = LARGE_WIDTH if self.large else CARD_WIDTH
        index, within = divmod(offset.x, width + self.gap)
        if within < width and index < len(self.model.cards):
            self.post_message(self.CardClicked(index))
