"""The notice shown instead of a screen's content when the terminal is too small.

Each screen composes one; the app's breakpoints put ``-too-narrow`` or
``-too-short`` on the screen and the stylesheet then hides everything else.
"""

from __future__ import annotations

from textual.widgets import Static

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TooSmall"]

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmall(Static):
    """ "Make the window larger", with the size needed."""

    def __init__(self) -> None:
        super().__init__(
            f"The window is too small for the card table.\n\n"
            f"Please make it at least {MIN_WIDTH} columns × {MIN_HEIGHT} rows.\n\n"
            "(Ctrl+Q quits; the match is saved.)",
            classes="too-small",
        )
