"""A seat's badge: name, team, cards left, dealer, what it said, and whether it is to act.

The turn is shown by a ``▶`` before the name as well as by the border colour
(the ``-to-act`` class), so it reads without colour too.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from bela.tui.model import SeatModel

__all__ = ["SeatBadge"]


class SeatBadge(Widget):
    """Draws a ``SeatModel`` on three lines, or on one when the badge is one line tall."""

    model: reactive[SeatModel | None] = reactive(None)

    def watch_model(self, model: SeatModel | None) -> None:
        self.set_class(model is not None and model.to_act, "-to-act")

    def render(self) -> Text:
        model = self.model
        if model is None:
            return Text()
        name = Text.assemble(
            ("▶ " if model.to_act else "  ", "bold"),
            (model.name, "bold"),
            (" (dealer)" if model.dealer else "", "italic"),
        )
        cards = "card" if model.cards_left == 1 else "cards"
        info = Text(f"{model.team} · {model.cards_left} {cards}")
        note = Text(model.note, style="bold")
        if self.content_size.height <= 1:
            parts = [name, Text(" · "), info]
            if model.note:
                parts += [Text(" · "), note]
            return Text.assemble(*parts)
        return Text("\n").join([name, Text("  ") + info, Text("  ") + note])
