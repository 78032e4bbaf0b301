"""``w`` at a network seat: the player picks, by name, the watcher who may see their hand.

The host used to show the hand to "the newest watcher", and a stranger could arrange to be
that (issue #33). Now the player reads the list of who watches (names unique at the table,
unlike every seated name) and chooses; Esc chooses nobody. The names are another person's
text: shown as text, never markup.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

from bela.foundation.untrusted import as_text
from bela.i18n import N_, _
from bela.tui.screens.fresh import FreshModal

__all__ = ["WatcherChoiceScreen"]


class WatcherChoiceScreen(FreshModal[str | None]):
    """Dismissed with the chosen watcher's name, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", N_("Back"))]

    def __init__(self, names: tuple[str, ...]) -> None:
        super().__init__()
        self.names = names

    def compose(self) -> ComposeResult:
        options = [Option(as_text(name, 24), id=str(i)) for i, name in enumerate(self.names)]
        with Vertical(classes="dialog"):
            yield Static(_("Who may see your hand?"), classes="title")
            yield OptionList(*options, id="watchers")
            yield Static(_("Enter: show them your hand. Esc: nobody."), classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#watchers", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.names[int(event.option.id or 0)])

    def action_close(self) -> None:
        self.dismiss(None)
