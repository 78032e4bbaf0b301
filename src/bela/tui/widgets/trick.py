"""The trick in the middle of the table: each seat's card on its side.

The human's card is at the bottom, the partner's at the top, the opponents' left
(seat 3) and right (seat 1); with play going clockwise (the house rule
``Rules.clockwise``) the opponents change sides (``place_of``). While a finished
trick is still shown, the winning card gets a heavy border; the seat whose card
is awaited gets an empty outline. A seat that announces bela has "bela!" beside
its card for as long as that card is on the table. When a finished trick makes
way for the next, its cards slide to the winner's place (``GATHER_SECONDS``; any
key skips it, and reduced motion or ``TEXTUAL_ANIMATIONS`` below "full" turns it
off).
"""

from __future__ import annotations

from typing import Final

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from bela.engine import Card
from bela.i18n import _
from bela.tui.model import TrickModel
from bela.tui.widgets.cards import CARD_HEIGHT, CARD_WIDTH, GOLD, Look, card_lines, card_size

__all__ = [
    "GATHER_SECONDS",
    "TrickView",
    "gather_text",
    "large_trick_fits",
    "place_of",
    "trick_text",
]

WIDTH: Final = 3 * CARD_WIDTH + 4
HEIGHT: Final = 2 * CARD_HEIGHT + 1
GATHER_SECONDS: Final = 0.35
"""How long a finished trick takes to slide to its winner: short enough never to hold play up."""
_CALLOUT_STYLE: Final = Style(color=GOLD, bold=True)

Spot = dict[int, tuple[int, int]]


def _geometry(large: bool) -> tuple[int, int, Spot, Spot]:
    """The cross's width and height, each place's card (column, top row), and each place's
    "bela!" callout (column, row, in the free corner beside the card); 0 bottom, 1 right,
    2 top, 3 left. Small cards make the 19 × 7 cross, large ones 25 × 11."""
    cw, ch = card_size(large)
    width, height = 3 * cw + 4, 2 * ch + 1
    places = {0: (cw + 2, ch + 1), 1: (2 * cw + 4, ch - 1), 2: (cw + 2, 0), 3: (0, ch - 1)}
    callouts = {
        0: (2 * cw + 3, height - 2),
        1: (2 * cw + 4, ch - 2),
        2: (2 * cw + 3, 0),
        3: (0, ch - 2),
    }
    return width, height, places, callouts


def large_trick_fits(width: int, height: int) -> bool:
    """Whether the cross of large cards fits ``width`` × ``height``."""
    cross_width, cross_height, _places, _callouts = _geometry(True)
    return width >= cross_width and height >= cross_height


def place_of(seat: int, clockwise: bool = False) -> int:
    """Where ``seat`` sits on the screen: 0 bottom, 1 right, 2 top, 3 left.

    Play goes from each seat to the next (0, 1, 2, 3). Drawn counter-clockwise
    (the Croatian way, the default) the next player sits on the right; clockwise,
    on the left. Only the picture changes: seats and rules stay as they are.
    """
    return (-seat) % 4 if clockwise else seat


Piece = tuple[int, int, Text]
"""(row, column, one line of text) to paint; later pieces cover earlier ones."""


def _paint(pieces: list[Piece], width: int = WIDTH, height: int = HEIGHT) -> Text:
    """Paint pieces on a ``width`` × ``height`` grid, cell by cell, and return it as text."""
    cells: list[list[tuple[str, Style | str]]] = [[(" ", "")] * width for _ in range(height)]
    for row, col, line in pieces:
        if not 0 <= row < height:
            continue
        styles: list[Style | str] = [line.style] * len(line.plain)
        for span in line.spans:
            for i in range(span.start, min(span.end, len(styles))):
                styles[i] = span.style
        for i, char in enumerate(line.plain):
            if 0 <= col + i < width:
                cells[row][col + i] = (char, styles[i])
    rows = [Text.assemble(*[(char, style) for char, style in row]) for row in cells]
    return Text("\n").join(rows)


def _card_pieces(
    seat_col_row: tuple[int, int], card: Card | None, look: Look, large: bool = False
) -> list[Piece]:
    col, top = seat_col_row
    return [(top + k, col, line) for k, line in enumerate(card_lines(card, look, large))]


def trick_text(
    model: TrickModel, callout: int | None = None, clockwise: bool = False, large: bool = False
) -> Text:
    """The cross of cards as one block of text (also used by the last-trick screen).

    ``callout`` is the seat whose "bela!" is shown beside its card; ``clockwise``
    draws the seats the other way round (``place_of``); ``large``: 7 × 5 cards.
    """
    width, height, places, callouts = _geometry(large)
    cells: dict[int, tuple[Card | None, Look]] = {}
    for seat, played in model.cards:
        cells[seat] = (played, Look.CHOSEN if model.winner == seat else Look.FACE)
    if model.waiting is not None and model.waiting not in cells:
        cells[model.waiting] = (None, Look.SLOT)
    pieces: list[Piece] = []
    for seat, (card, look) in cells.items():
        pieces += _card_pieces(places[place_of(seat, clockwise)], card, look, large)
    if callout is not None:
        col, row = callouts[place_of(callout, clockwise)]
        pieces.append((row, col, Text(_("bela!"), style=_CALLOUT_STYLE)))
    return _paint(pieces, width, height)


def gather_text(
    model: TrickModel, progress: float, clockwise: bool = False, large: bool = False
) -> Text:
    """A finished trick ``progress`` (0..1) of the way to its winner's place.

    The cards turn face down halfway, as a winner turns the trick over, and the
    winner's own card is drawn last, on top of the pile.
    """
    width, height, places, _callouts = _geometry(large)
    winner = model.winner if model.winner is not None else 0
    to_col, to_row = places[place_of(winner, clockwise)]
    look = Look.FACE if progress < 0.5 else Look.BACK
    pieces: list[Piece] = []
    for seat, card in sorted(model.cards, key=lambda sc: sc[0] == winner):
        col, row = places[place_of(seat, clockwise)]
        at = (round(col + (to_col - col) * progress), round(row + (to_row - row) * progress))
        pieces += _card_pieces(at, card, look, large)
    return _paint(pieces, width, height)


class TrickView(Widget):
    """Draws a ``TrickModel``, and gathers a finished trick to its winner when it goes."""

    model: reactive[TrickModel] = reactive(TrickModel)
    callout: reactive[int | None] = reactive(None)
    gather: reactive[float] = reactive(1.0)
    """How far the trick being gathered has gone (1.0: nothing is being gathered)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.gathering: TrickModel | None = None
        """The finished trick sliding away, drawn instead of ``model`` until it is gone."""
        self.motion = False
        """Whether to animate at all (the table sets it from the app's settings)."""
        self.clockwise = False
        """Whether the seats are drawn clockwise (the table sets it from the match's rules)."""

    def watch_model(self, old: TrickModel, new: TrickModel) -> None:
        """A finished trick (one with a winner) making way for the next is gathered."""
        if not self.motion or old.winner is None or new.winner is not None or len(old.cards) < 4:
            return
        self.gathering = old
        self.gather = 0.0
        self.animate(
            "gather", 1.0, duration=GATHER_SECONDS, level="full", on_complete=self._gathered
        )

    def _gathered(self) -> None:
        self.gathering = None
        self.refresh()

    async def skip_gather(self) -> bool:
        """Finish the gathering at once; False if nothing was being gathered."""
        if self.gathering is None:
            return False
        await self.stop_animation("gather", complete=True)
        self._gathered()
        return True

    def render(self) -> Text:
        size = self.content_size
        large = large_trick_fits(size.width, size.height)  # the layout gives the room at 120 × 40
        if self.gathering is not None and self.gather < 1.0:
            return gather_text(self.gathering, self.gather, self.clockwise, large)
        return trick_text(self.model, self.callout, self.clockwise, large)
