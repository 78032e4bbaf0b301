"""The trump choice, shown in the middle of the table when it is the human's turn to speak.

A short menu: the four suits and "dalje", each with its key; the dealer's
forced call shows "dalje" struck out. Clicking a line posts ``BidMenu.Chosen``.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from bela.tui.model import BidModel

__all__ = ["BidMenu"]


class BidMenu(Widget):
    """Draws a ``BidModel``: the prompt (one line, or two for the forced dealer), then options."""

    model: reactive[BidModel | None] = reactive(None)

    class Chosen(Message):
        """An option (by index) was clicked."""

        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def render(self) -> Text:
        model = self.model
        if model is None:
            return Text()
        lines = [Text(model.prompt, style="bold")]
        for i, (key, label, enabled) in enumerate(model.options):
            pointer = "▶ " if i == model.cursor else "  "
            if enabled:
                style = "bold reverse" if i == model.cursor else ""
                lines.append(Text.assemble(pointer, (f"[{key}] {label}", style)))
            else:
                lines.append(Text.assemble(pointer, (f"[{key}] {label}", "dim strike")))
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        model = self.model
        if offset is None or model is None:
            return
        index = offset.y - len(model.prompt.splitlines())  # the prompt may take two lines
        if 0 <= index < len(model.options):
            self.post_message(self.Chosen(index))
