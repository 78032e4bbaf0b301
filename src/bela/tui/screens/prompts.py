"""Small dialogs over the table: announcing bela, saying dosta, and reviewing the last trick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from bela.engine import Card, CompletedTrick
from bela.i18n import N_, _
from bela.tui.model import TrickModel, trick_cards
from bela.tui.screens.fresh import FreshModal
from bela.tui.text import SEAT_NAMES, card_text
from bela.tui.widgets import TooSmall
from bela.tui.widgets.trick import trick_text
from bela.wording import padded

__all__ = ["BelaPrompt", "DostaPrompt", "LastTrickScreen"]


class BelaPrompt(FreshModal[bool | None]):
    """Asked when the human plays the card that carries bela (the first of the trump
    king and queen by default, the second under the old house rule).

    Only a key pressed while the question is on show answers it.

    Dismissed with True (announce), False (play without announcing) or None
    (changed their mind: the card is not played).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", N_("Bela!")),
        Binding("n", "answer(False)", N_("No")),
        Binding("escape", "answer(None)", N_("Back")),
    ]

    def __init__(self, card: Card, *, second: bool = False) -> None:
        """``second``: the match announces bela with the second card (an old house rule)."""
        super().__init__()
        self.card = card
        self.second = second

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="bela", classes="dialog"):
            if self.second:
                text = _(
                    "You play {card}, the second of the trump king and queen.\n"
                    "Announce bela for 20 points?"
                )
            else:
                text = _(
                    "You play {card}, the first of the trump king and queen.\n"
                    "Announce bela for 20 points?"
                )
            yield Static(text.format(card=card_text(self.card)), classes="title")
            with Horizontal(classes="buttons"):
                yield Button(_("Bela! (y)"), id="yes", variant="primary")
                yield Button(_("No (n)"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool | None) -> None:
        self.dismiss(answer)


class DostaPrompt(FreshModal[bool]):
    """Asked before "dosta" counts: a claim ends the match either way, so one key never does.

    ``points`` is what we have counted so far (score, tricks, zvanja, bela); when it
    is short of ``target`` the question says that the claim would lose the match.
    Dismissed with True (say it) or False (play on). Only a key pressed while the
    question is on show answers it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(True)", N_("Dosta!")),
        Binding("escape", "answer(False)", N_("Back")),
    ]

    def __init__(self, points: int, target: int) -> None:
        super().__init__()
        self.points = points
        self.target = target

    def question(self) -> str:
        """The one question asked, in the player's words (we: the player's team)."""
        if self.points >= self.target:
            return _("Say dosta? We have {points}. Enter: yes, Esc: no").format(points=self.points)
        return _(
            "Say dosta? We have only {points} of {target}: a wrong dosta loses the match.\n"
            "Enter: say it all the same, Esc: no"
        ).format(points=self.points, target=self.target)

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="dosta", classes="dialog"):
            yield Static(self.question(), classes="title")
            with Horizontal(classes="buttons"):
                yield Button(_("Dosta! (Enter)"), id="yes", variant="primary")
                yield Button(_("No (Esc)"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class LastTrickScreen(ModalScreen[None]):
    """The most recent finished trick: who played what, who took it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,space,l", "close", N_("Close"))]

    def __init__(
        self,
        trick: CompletedTrick,
        number: int,
        *,
        clockwise: bool = False,
        names: Sequence[str] | None = None,
    ) -> None:
        """``clockwise``: the seats drawn as at a table playing clockwise (a house rule).
        ``names``: the seats' names at a network table (seat 0 is the player's)."""
        super().__init__()
        self.trick = trick
        self.number = number
        self.clockwise = clockwise
        self.names = names

    def _seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat] if self.names is None else self.names[seat]

    def compose(self) -> ComposeResult:
        trick = self.trick
        cards = trick_cards(trick.leader, trick.cards)
        led = _("led")
        blank = " " * cell_len(led)
        played = "\n".join(
            f"{led if i == 0 else blank} {padded(self._seat_name(seat), 6)} {card_text(card)}"
            for i, (seat, card) in enumerate(cards)
        )
        winner = self._seat_name(trick.winner)
        yield TooSmall()
        with Vertical(id="last-trick", classes="dialog"):
            yield Static(_("Trick {n}").format(n=self.number), classes="title")
            with Horizontal(id="last-trick-body"):
                cross = trick_text(TrickModel(cards, winner=trick.winner), clockwise=self.clockwise)
                yield Static(cross, id="last-cross")
                yield Static(Text(played), id="last-list")  # names are plain text, never markup
            yield Static(
                Text(
                    _("{name} took it: {points} points.  (Esc to close)").format(
                        name=winner, points=trick.points
                    )
                )
            )

    def on_click(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
