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
from bela.i18n import N_, _, ngettext
from bela.keys import letter
from bela.table_text import SEAT_NAMES
from bela.tui.model import sheet_model
from bela.tui.widgets import TooSmall
from bela.tui.widgets.score_sheet import sheet_text
from bela.wording import is_you, ours

__all__ = ["MatchEndScreen", "winner_text"]


def winner_text(match: Match) -> str:
    """Who won the finished match, by how much and how (belot, dosta, the target reached).

    One whole sentence per winner and way, in the past tense (the match is over): "You
    and Marko won ..." or "Ivo and Ana won ..." are separate messages, never a head put
    into a shared tail, so each language words the opponents as the opponents (in
    Croatian "Ivo i Ana su pobijedili", never the "vi" of the score sheet's column).
    """
    if ours(match.winner if match.winner is not None else 0):
        return _we_won(match)
    return _they_won(match)


def _played_deals(match: Match) -> int:
    return sum(1 for played in match.rounds if not played.result.redeal)


def _we_won(match: Match) -> str:
    partner = SEAT_NAMES[2]
    mi, vi = match.scores
    if match.belot:
        seat = match.rounds[-1].result.belot_seat
        if seat is None:
            return _("You and {partner} won: belot, all eight cards of a suit!").format(
                partner=partner
            )
        if is_you(seat):
            return _("You and {partner} won: you held belot, all eight cards of a suit!").format(
                partner=partner
            )
        return _("You and {partner} won: {partner} held belot, all eight cards of a suit!").format(
            partner=partner
        )
    values = {"partner": partner, "first": mi, "second": vi}
    last = match.rounds[-1].result if match.rounds else None
    if last is not None and last.claim is not None:
        if last.claim_ok:
            return _("You and {partner} won {first} to {second} (our right dosta).").format(
                **values
            )
        return _("You and {partner} won {first} to {second} (their wrong dosta).").format(**values)
    if match.target == QUICK_TARGET:
        deals = _played_deals(match)
        return ngettext(
            "You and {partner} won {first} to {second} (brza 163: the higher total after "
            "{n} deal).",
            "You and {partner} won {first} to {second} (brza 163: the higher total after "
            "{n} deals).",
            deals,
        ).format(n=deals, **values)
    return _("You and {partner} won {first} to {second} (we reached {target}).").format(
        target=match.target, **values
    )


def _they_won(match: Match) -> str:
    right, left = SEAT_NAMES[1], SEAT_NAMES[3]
    mi, vi = match.scores
    if match.belot:
        seat = match.rounds[-1].result.belot_seat
        if seat is None:
            return _("{right} and {left} won: belot, all eight cards of a suit!").format(
                right=right, left=left
            )
        return _("{right} and {left} won: {name} held belot, all eight cards of a suit!").format(
            right=right, left=left, name=SEAT_NAMES[seat]
        )
    values = {"right": right, "left": left, "first": vi, "second": mi}
    last = match.rounds[-1].result if match.rounds else None
    if last is not None and last.claim is not None:
        if last.claim_ok:
            return _("{right} and {left} won {first} to {second} (their right dosta).").format(
                **values
            )
        return _("{right} and {left} won {first} to {second} (our wrong dosta).").format(**values)
    if match.target == QUICK_TARGET:
        deals = _played_deals(match)
        return ngettext(
            "{right} and {left} won {first} to {second} (brza 163: the higher total after "
            "{n} deal).",
            "{right} and {left} won {first} to {second} (brza 163: the higher total after "
            "{n} deals).",
            deals,
        ).format(n=deals, **values)
    return _("{right} and {left} won {first} to {second} (they reached {target}).").format(
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
