"""The human's hand along the bottom of the table.

Draws a ``HandModel``: the chosen card raised by a line, cards that may not be
played dimmed with a dotted border, talon cards face down until trump is named,
and a number under each card (the key that plays it). A click on a card posts
``Hand.CardClicked``; the table screen decides what that means.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from bela.engine import Card
from bela.i18n import _
from bela.tui.model import HandModel
from bela.tui.widgets.cards import CARD_WIDTH, Look, blank_lines, card_lines

__all__ = ["Hand"]

GAP: Final = 1
STEP: Final = CARD_WIDTH + GAP


class Hand(Widget):
    """Up to eight cards side by side; line 0 is room for the raised card."""

    model: reactive[HandModel] = reactive(HandModel)

    class CardClicked(Message):
        """A card (by position in the hand) was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def render(self) -> Text:
        model = self.model
        slots: list[tuple[Card | None, Look, bool, str]] = []
        for i, card in enumerate(model.cards):
            chosen = model.cursor == i
            if chosen:
                look = Look.CHOSEN
            elif model.legal is not None and card not in model.legal:
                look = Look.DIM
            else:
                look = Look.FACE
            label = str(i + 1)
            if card in model.fresh:
                label += _("new")
            slots.append((card, look, chosen, label))
        for _slot in range(model.face_down):
            slots.append((None, Look.BACK, False, _("talon")))
        rows = [Text(), Text(), Text(), Text(), Text()]
        for n, (face, look, raised, label) in enumerate(slots):
            if n:
                for row in rows:
                    row.append(" " * GAP)
            box = card_lines(face, look)
            column = [*box, blank_lines()[0]] if raised else [blank_lines()[0], *box]
            for row, part in zip(rows, column, strict=False):
                row.append_text(part)
            marker = "▲" if raised else ""
            rows[4].append(f"{(label + marker)[:CARD_WIDTH]:^{CARD_WIDTH}}", style="bold")
        return Text("\n").join(rows)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index, within = divmod(offset.x, STEP)
        if within < CARD_WIDTH and index < len(self.model.cards):
            self.post_message(self.CardClicked(index))
