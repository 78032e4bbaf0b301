"""Drawing one card as a 5 × 3 box of styled text, or a 7 × 5 one where the window has room.

Every state a card can be in is told by shape as well as colour (a dotted border
for a card that may not be played, a heavy one for the chosen card or the trick
winner, a hatched back for a face-down card), so the table still reads under
``NO_COLOR``.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from rich.style import Style
from rich.text import Text

from bela.deck import is_german
from bela.engine import Card, Suit
from bela.wording import card_text, suit_symbol

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "LARGE_HEIGHT",
    "LARGE_WIDTH",
    "Look",
    "blank_lines",
    "card_chip",
    "card_lines",
    "card_size",
]

CARD_WIDTH: Final = 5
CARD_HEIGHT: Final = 3
LARGE_WIDTH: Final = 7
LARGE_HEIGHT: Final = 5
"""A large card (at 120 × 40 and more): the rank in two corners and the suit in the middle."""


def card_size(large: bool) -> tuple[int, int]:
    """(width, height) of a card box."""
    return (LARGE_WIDTH, LARGE_HEIGHT) if large else (CARD_WIDTH, CARD_HEIGHT)


FACE_BG: Final = "#f3efe4"
RED: Final = "#d70000"
"""A pure red: xterm-256 index 160 exactly, so 256-colour terminals (tmux) show red, not the
brown (index 130) the old ``#c0392b`` rounded to."""
BLACK: Final = "#1b1b1b"
BORDER: Final = "#8a8170"
GOLD: Final = "#d4a017"
DIM_BG: Final = "#3c3c3c"
DIM_RED: Final = "#af5f5f"  # index 131 exactly: the same muted red everywhere
DIM_BLACK: Final = "#8c8c8c"
BACK_BG: Final = "#1f3f7a"
BACK_FG: Final = "#6f8fd0"


class Look(Enum):
    """How a card is drawn."""

    FACE = "face"  # a normal face-up card
    DIM = "dim"  # face up but not playable now
    CHOSEN = "chosen"  # under the cursor, or the card that wins a finished trick
    BACK = "back"  # face down (a talon card before trump is named)
    SLOT = "slot"  # an empty place on the table where a card is awaited


_BOXES: Final = {
    Look.FACE: ("╭───╮", "│", "╰───╯"),
    Look.DIM: ("┌┄┄┄┐", "┆", "└┄┄┄┘"),
    Look.CHOSEN: ("┏━━━┓", "┃", "┗━━━┛"),
    Look.BACK: ("╭───╮", "│", "╰───╯"),
    Look.SLOT: ("┌╌╌╌┐", "╎", "└╌╌╌┘"),
}


ORANGE: Final = "#af5f00"  # xterm-256 index 130: mađarice's bells (bundeva)
GREEN: Final = "#008700"  # index 28: mađarice's leaves (list)
DIM_ORANGE: Final = "#af875f"  # index 137
DIM_GREEN: Final = "#5f875f"  # index 65


def _is_red(suit: Suit) -> bool:
    return suit in (Suit.HEARTS, Suit.DIAMONDS)


def _ink(suit: Suit, dim: bool) -> str:
    """A suit's colour on a card: red and black in the French deck; with mađarice red
    hearts, orange bells, green leaves and black acorns, as their cards are printed.
    The colour only repeats what the symbol says (``bela.wording.suit_symbol``)."""
    if is_german():
        german = (
            (RED, ORANGE, GREEN, BLACK),
            (DIM_RED, DIM_ORANGE, DIM_GREEN, DIM_BLACK),
        )
        return german[dim][int(suit)]
    if dim:
        return DIM_RED if _is_red(suit) else DIM_BLACK
    return RED if _is_red(suit) else BLACK


def card_lines(card: Card | None, look: Look, large: bool = False) -> tuple[Text, ...]:
    """The lines of a card box: three ``CARD_WIDTH`` cells wide, or five ``LARGE_WIDTH`` wide."""
    if large:
        return _large_lines(card, look)
    top, side, bottom = _BOXES[look]
    if look is Look.BACK or card is None:
        if look is Look.SLOT:
            style = Style(color="#707070")
            face = Text("   ", style=style)
        else:
            style = Style(color=BACK_FG, bgcolor=BACK_BG)
            face = Text("▚▚▚", style=style)
        middle = Text.assemble(Text(side, style=style), face, Text(side, style=style))
        return Text(top, style=style), middle, Text(bottom, style=style)
    label = card_text(card)
    if look is Look.DIM:
        bg = DIM_BG
        ink = _ink(card.suit, dim=True)
        border = Style(color=DIM_BLACK, bgcolor=bg)
        face_style = Style(color=ink, bgcolor=bg)
    else:
        bg = FACE_BG
        ink = _ink(card.suit, dim=False)
        edge = GOLD if look is Look.CHOSEN else BORDER
        border = Style(color=edge, bgcolor=bg, bold=look is Look.CHOSEN)
        face_style = Style(color=ink, bgcolor=bg, bold=True)
    middle = Text.assemble(
        Text(side, style=border), Text(f"{label:^3}", style=face_style), Text(side, style=border)
    )
    return Text(top, style=border), middle, Text(bottom, style=border)


def _large_lines(card: Card | None, look: Look) -> tuple[Text, ...]:
    """A 7 × 5 card: the same borders and colours as the small one, drawn with more room."""
    top, side, bottom = _BOXES[look]
    wide_top = top[0] + top[1] * 5 + top[-1]
    wide_bottom = bottom[0] + bottom[1] * 5 + bottom[-1]
    if look is Look.BACK or card is None:
        if look is Look.SLOT:
            style = Style(color="#707070")
            faces = ["     "] * 3
        else:
            style = Style(color=BACK_FG, bgcolor=BACK_BG)
            faces = ["▚▚▚▚▚"] * 3
        rows = [Text(wide_top, style=style)]
        rows += [Text(side + face + side, style=style) for face in faces]
        return (*rows, Text(wide_bottom, style=style))
    label = card_text(card)
    if look is Look.DIM:
        ink = _ink(card.suit, dim=True)
        border = Style(color=DIM_BLACK, bgcolor=DIM_BG)
        face_style = Style(color=ink, bgcolor=DIM_BG)
    else:
        ink = _ink(card.suit, dim=False)
        edge = GOLD if look is Look.CHOSEN else BORDER
        border = Style(color=edge, bgcolor=FACE_BG, bold=look is Look.CHOSEN)
        face_style = Style(color=ink, bgcolor=FACE_BG, bold=True)
    faces = [f"{label:<5}", f"{suit_symbol(card.suit):^5}", f"{label:>5}"]
    rows = [Text(wide_top, style=border)]
    rows += [
        Text.assemble(
            Text(side, style=border), Text(face, style=face_style), Text(side, style=border)
        )
        for face in faces
    ]
    return (*rows, Text(wide_bottom, style=border))


def blank_lines(large: bool = False) -> tuple[Text, ...]:
    """Empty space the size of a card."""
    width, height = card_size(large)
    return tuple(Text(" " * width) for _ in range(height))


def card_chip(card: Card) -> Text:
    """A card on one line (``J♥`` on the card face colour), for places too small for a box.

    The suit symbol tells the suit under ``NO_COLOR``; the colour only repeats it.
    """
    ink = _ink(card.suit, dim=False)
    return Text(card_text(card), style=Style(color=ink, bgcolor=FACE_BG, bold=True))
