"""Asked when the host's own app is closed mid-match: it is the table, for everyone."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from bela.i18n import N_, _
from bela.tui.screens.fresh import FreshModal
from bela.tui.widgets import TooSmall

__all__ = ["CloseTablePrompt"]


class CloseTablePrompt(FreshModal[bool]):
    """Close the table? The host's app holds the table: closing it ends the evening for
    every player, so the host is asked, and told how to go on later (the match is saved,
    ``bela host`` resumes it and the players' apps sit down again by themselves).
    Ctrl+Q again also closes (the app's own key)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Close")),
        Binding("n,escape", "answer(False)", N_("Keep playing")),
    ]

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="close-table", classes="dialog"):
            yield Static(
                _(
                    "You host this table: closing the app closes it for everyone.\n"
                    "The match is saved. Run 'bela host' again to resume it: your friends' "
                    "apps sit down again by themselves within two minutes.\n"
                    "Close the table now?"
                ),
                classes="title",
            )
            with Horizontal(classes="buttons"):
                yield Button(_("Close (y)"), id="yes", variant="error")
                yield Button(_("Keep playing (n)"), id="no", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
