"""The notice shown instead of a screen's content when the terminal is too small.

Each screen composes one; the app's breakpoints put ``-too-narrow`` or
``-too-short`` on the screen and the stylesheet then hides everything else.
"""

from __future__ import annotations

from textual.widgets import Static

from bela.i18n import _

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "TooSmall"]

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmall(Static):
    """ "Make the window larger", with the size needed."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "The window is too small for the card table.\n\n"
                "Please make it at least {width} columns × {height} rows.\n\n"
                "(Ctrl+Q quits; the match is saved.)"
            ).format(width=MIN_WIDTH, height=MIN_HEIGHT),
            classes="too-small",
        )
