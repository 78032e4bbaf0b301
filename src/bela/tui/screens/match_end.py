"""The end of the match: who won, the whole sheet, and what next (new match or quit).

``b`` (or the Blok button) opens the full score sheet with every round's marks
(``screens.sheet``), the same as at the table.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from bela.engine import Match
from bela.engine.rules import QUICK_TARGET
from bela.i18n import N_, _
from bela.keys import letter
from bela.table_text import SEAT_NAMES
from bela.tui.model import sheet_model
from bela.tui.widgets import TooSmall
from bela.tui.widgets.score_sheet import sheet_text
from bela.wording import is_you, ours

__all__ = ["MatchEndScreen", "winner_text"]


def winner_text(match: Match) -> str:
    """ "Mi win 523 to 410!" and how (belot, or the target reached)."""
    winner = match.winner if match.winner is not None else 0
    mi, vi = match.scores
    we = ours(winner)
    if we:
        head = _("You and {partner} win").format(partner=SEAT_NAMES[2])
    else:
        head = _("{right} and {left} win").format(right=SEAT_NAMES[1], left=SEAT_NAMES[3])
    if match.belot:
        seat = match.rounds[-1].result.belot_seat
        if seat is None:
            return _("{head}: belot, all eight cards of a suit!").format(head=head)
        if is_you(seat):
            return _("{head}: you held belot, all eight cards of a suit!").format(head=head)
        return _("{head}: {name} held belot, all eight cards of a suit!").format(
            head=head, name=SEAT_NAMES[seat]
        )
    first, second = (mi, vi) if we else (vi, mi)
    values = {"head": head, "first": first, "second": second}
    last = match.rounds[-1].result if match.rounds else None
    if last is not None and last.claim is not None:
        if last.claim_ok:
            return _("{head} {first} to {second} (a right dosta).").format(**values)
        return _("{head} {first} to {second} (the other side's wrong dosta).").format(**values)
    if match.target == QUICK_TARGET:
        return _("{head} {first} to {second} (brza 163: the higher total after the deals).").format(
            **values
        )
    if we:
        return _("{head} {first} to {second} (we reached {target}).").format(
            target=match.target, **values
        )
    return _("{head} {first} to {second} (they reached {target}).").format(
        target=match.target, **values
    )


class MatchEndScreen(ModalScreen[str]):
    """Dismissed with "new" or "quit"."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "choose('new')", N_("New match")),
        Binding("q,escape", "choose('quit')", N_("Quit")),
        Binding("b", "sheet", N_("Blok")),
        # a modal screen hides the app's keys: the ones a player wants after a match
        Binding("f3", "app.history", N_("History"), show=False),
        Binding("f4", "app.statistics", N_("Statistics"), show=False),
        Binding("f1", "app.help", N_("Help"), show=False),
        Binding("f2", "app.settings", N_("Settings"), show=False),
    ]

    def __init__(self, match: Match) -> None:
        super().__init__()
        self.match = match

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="match-end", classes="dialog"):
            yield Static(winner_text(self.match), classes="title", id="winner")
            with VerticalScroll(id="final-sheet"):
                yield Static(sheet_text(sheet_model(self.match)))
            with Horizontal(classes="buttons"):
                yield Button(_("New match (n)"), id="new", variant="primary")
                yield Button(_("Blok (b)"), id="blok")
                yield Button(_("Quit (q)"), id="quit")

    def on_mount(self) -> None:
        """The settings' letter (``o``) as at the table: the next match is chosen here."""
        self._bindings.bind(letter("settings"), "app.settings", N_("Settings"), show=False)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "blok":
            self.action_sheet()
            return
        self.dismiss("new" if event.button.id == "new" else "quit")

    def action_sheet(self) -> None:
        """The full score sheet ("blok"), every round with its marks."""
        from bela.tui.screens.sheet import SheetScreen
        from bela.tui.screens.table import TableScreen

        tables = [s for s in self.app.screen_stack if isinstance(s, TableScreen)]
        difficulty = tables[-1].difficulty if tables else ""
        self.app.push_screen(SheetScreen(self.match, difficulty))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
