"""The full score sheet ("blok") of a match, full-screen and scrollable (issue #13).

The table's side panel keeps only the latest rounds ("… N earlier"); this
screen never drops a row: every finished round has its line with pad, štiglja,
belot and the other marks, both columns summed, and the target in the title.
It is the same sheet as ``bela replay FILE --sheet`` (``replay_text.render_sheet``),
so the app and the command line can never disagree about a match.

Opened with ``b`` at the table (and on the screens above it) and from the
match end screen; ``b``, Escape or ``q`` closes it.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from bela.engine import Match
from bela.i18n import N_, _
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer

__all__ = ["SheetScreen"]


class SheetScreen(Screen[None]):
    """Every round's line of ``match``; scroll with ↑ ↓, PgUp PgDn, Home End."""

    DEFAULT_CSS = """
    SheetScreen #full-sheet {
        height: 1fr;
        padding: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,b,q", "close", N_("Close")),
        Binding("end", "end", N_("Last round"), show=False),
        Binding("home", "home", N_("First round"), show=False),
    ]

    def __init__(self, match: Match, difficulty: str) -> None:
        super().__init__()
        self.match = match
        self.difficulty = difficulty

    def compose(self) -> ComposeResult:
        from bela.archive.replay_text import render_sheet

        yield TooSmall()
        with VerticalScroll(id="full-sheet"):
            # rich renderables built from Text: nothing in a record is read as markup
            yield Static(render_sheet(self.match, self.difficulty), id="full-sheet-table")
            if not self.match.rounds:
                yield Static(_("No round finished yet."), markup=False)
        yield Footer()

    def on_mount(self) -> None:
        scroll = self.query_one("#full-sheet", VerticalScroll)
        scroll.focus()
        # the latest rounds are the ones a player at the table wants: start at the bottom
        self.call_after_refresh(scroll.scroll_end, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_end(self) -> None:
        self.query_one("#full-sheet", VerticalScroll).scroll_end(animate=False)

    def action_home(self) -> None:
        self.query_one("#full-sheet", VerticalScroll).scroll_home(animate=False)
