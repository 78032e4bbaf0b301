"""The zvanja moment: at the first trick the table says its declarations, in turn.

Shown over the table once trump is named, when anybody has something to
declare. The bots wait while it is up; any key pressed while it shows (or a
click) carries on, and that key does nothing else: it cannot play a card. The
human's own words are said for them.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from bela.i18n import _
from bela.tui.screens.fresh import FreshModal
from bela.tui.widgets import TooSmall
from bela.tui.widgets.zvanja import laid_heading, laid_text, talk_text
from bela.tui.zvanja_talk import ZvanjaTalk

__all__ = ["ZvanjaScreen"]


class ZvanjaScreen(FreshModal[None]):
    """The exchange, then the winning team's cards face up with their points."""

    DEFAULT_CSS = """
    #zvanja-said, #zvanja-laid {
        height: auto;
    }
    #zvanja-heading {
        margin-top: 1;
    }
    #zvanja-key {
        margin: 1 0 0 0;
        color: $text-muted;
    }
    """

    def __init__(self, talk: ZvanjaTalk) -> None:
        super().__init__()
        self.talk = talk

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="zvanja-moment", classes="dialog"):
            yield Static(Text("Zvanja", style="bold"), classes="title")
            yield Static(talk_text(self.talk), id="zvanja-said")
            yield Static(Text(laid_heading(self.talk), style="bold"), id="zvanja-heading")
            yield Static(laid_text(self.talk, compact=False), id="zvanja-laid")
            yield Static(_("Any key: play on"), id="zvanja-key")

    def on_key(self, event: events.Key) -> None:
        """Any key carries on, and goes no further (it must not reach the table).

        A key typed before the moment appeared (the second of a quick double
        Enter) is swallowed without closing it, so the player sees the zvanja.
        """
        event.stop()
        event.prevent_default()
        if event.time >= self._shown_at:
            self._close()

    def on_click(self) -> None:
        self._close()

    def _close(self) -> None:
        if self.is_current:  # a second key before the screen is gone does nothing
            self.dismiss(None)
