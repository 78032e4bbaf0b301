"""The trick in the middle of the table: each seat's card on its side.

The human's card is at the bottom, the partner's at the top, the opponents' left
(seat 3) and right (seat 1). While a finished trick is still shown, the winning
card gets a heavy border; the seat whose card is awaited gets an empty outline.
"""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from bela.engine import Card
from bela.tui.model import TrickModel
from bela.tui.widgets.cards import CARD_HEIGHT, CARD_WIDTH, Look, card_lines

__all__ = ["TrickView", "trick_text"]

WIDTH: Final = 3 * CARD_WIDTH + 4
HEIGHT: Final = 2 * CARD_HEIGHT + 1
# (column, top row) of each seat's card: 0 bottom, 1 right, 2 top, 3 left.
_PLACES: Final = {
    0: (CARD_WIDTH + 2, CARD_HEIGHT + 1),
    1: (2 * CARD_WIDTH + 4, CARD_HEIGHT - 1),
    2: (CARD_WIDTH + 2, 0),
    3: (0, CARD_HEIGHT - 1),
}


def trick_text(model: TrickModel) -> Text:
    """The cross of cards as one block of text (also used by the last-trick screen)."""
    grid: list[list[Text]] = [[] for _ in range(HEIGHT)]
    cells: dict[int, tuple[Card | None, Look]] = {}
    for seat, played in model.cards:
        cells[seat] = (played, Look.CHOSEN if model.winner == seat else Look.FACE)
    if model.waiting is not None and model.waiting not in cells:
        cells[model.waiting] = (None, Look.SLOT)
    # Paint row by row, left to right, so overlapping rows stay in column order.
    pieces: list[tuple[int, int, Text]] = []
    for seat, (card, look) in cells.items():
        col, top = _PLACES[seat]
        for k, line in enumerate(card_lines(card, look)):
            pieces.append((top + k, col, line))
    for row in range(HEIGHT):
        x = 0
        for _, col, line in sorted((p for p in pieces if p[0] == row), key=lambda p: p[1]):
            grid[row].append(Text(" " * (col - x)))
            grid[row].append(line)
            x = col + CARD_WIDTH
        grid[row].append(Text(" " * (WIDTH - x)))
    return Text("\n").join(Text.assemble(*parts) for parts in grid)


class TrickView(Widget):
    """Draws a ``TrickModel``."""

    model: reactive[TrickModel] = reactive(TrickModel)

    def render(self) -> Text:
        return trick_text(self.model)
