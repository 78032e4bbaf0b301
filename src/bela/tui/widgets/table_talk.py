"""The table talk: a log of what was said and done, always showing its newest line.

``RichLog`` wraps each entry once, at the width it has when the entry is
written, and keeps only the wrapped lines. Lines written while the table was
hidden (a window too small) were wrapped at ten columns and stayed broken after
the window grew again; lines never followed a change of width. ``TableTalk``
keeps the entries themselves and writes them all again whenever its width
changes, then scrolls to the end once the new layout is known, so the newest
entry is always in view.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.widgets import RichLog

__all__ = ["TableTalk"]


class TableTalk(RichLog):
    """A ``RichLog`` of plain-text entries (never markup) that re-wraps on resize."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id, classes=classes, wrap=True, markup=False, auto_scroll=True, min_width=10
        )
        self.entries: list[Text] = []
        """Everything said so far, unwrapped, oldest first."""
        self._wrapped_at = 0

    def say(self, entry: str | Text) -> None:
        """Add one entry (a plain string is shown as it is, never parsed as markup)."""
        text = entry.copy() if isinstance(entry, Text) else Text(entry)
        self.entries.append(text)
        width = self.scrollable_content_region.width
        if width <= 0:
            self._wrapped_at = 0  # hidden: all is written again when it is shown (``on_resize``)
            return
        if width != self._wrapped_at:
            self._rewrap(width)
        else:
            self.write(text, scroll_end=False)
        self.scroll_end(animate=False, immediate=False, x_axis=False)

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width <= 0:
            self._wrapped_at = 0
        elif width != self._wrapped_at:
            self._rewrap(width)
        self.scroll_end(animate=False, immediate=False, x_axis=False)

    def _rewrap(self, width: int) -> None:
        """Write every entry again at ``width`` (the old lines were wrapped for another)."""
        self._wrapped_at = width
        self.clear()
        for entry in self.entries:
            self.write(entry, scroll_end=False)
