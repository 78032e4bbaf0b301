"""Keys typed before something was on screen must not answer it.

A player who presses Enter twice quickly means "play this card", not "and
close whatever comes next": the second press was typed before the round
summary or the bela question existed. Textual stamps every key with the time it
was read (``Message.time``); ``FreshModal`` drops keys stamped before the
dialog appeared, so a dialog is only ever answered by a key pressed while it
was there to be read.
"""

from __future__ import annotations

import math
from typing import TypeVar

from textual import events
from textual._time import get_time
from textual.screen import ModalScreen

__all__ = ["FreshModal", "event_clock"]

T = TypeVar("T")


def event_clock() -> float:
    """Now, on the clock Textual stamps its events with (``Message.time``).

    Textual picks that clock per platform (monotonic, or perf_counter on Windows),
    so times to compare with ``event.time`` must come from here, not from ``time``.
    """
    return get_time()


class FreshModal(ModalScreen[T]):
    """A dialog that ignores keys typed before it was shown."""

    _shown_at: float = math.inf
    """When the dialog was last shown; keys typed earlier are dropped."""

    def on_screen_resume(self) -> None:
        self._shown_at = event_clock()

    def on_key(self, event: events.Key) -> None:
        if event.time < self._shown_at:
            event.stop()
            event.prevent_default()
