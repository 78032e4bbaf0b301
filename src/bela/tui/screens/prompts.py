"""Small dialogs over the table: announcing bela, declaring zvanja, saying dosta, and
reviewing the last trick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from bela.engine import Card, CompletedTrick, Zvanje
from bela.i18n import N_, _, ngettext
from bela.keys import letter
from bela.table_text import SEAT_NAMES, card_text, zvanje_text
from bela.tui.model import TrickModel, trick_cards
from bela.tui.screens.fresh import FreshModal
from bela.tui.widgets import TooSmall
from bela.tui.widgets.trick import trick_text
from bela.wording import is_you, padded

__all__ = [
    "NO_BELA_KEY",
    "BelaPrompt",
    "DeclarePrompt",
    "DostaPrompt",
    "LastTrickScreen",
    "short_of_dosta",
]

NO_BELA_KEY: Final = "0"
"""The key that plays the card without announcing bela: no card is numbered 0 and no
language's table gives it a meaning, so the question takes no key that means something else
(issue #35: in Croatian it took d, which is dalje, and n, a new match). Enter announces."""


class BelaPrompt(FreshModal[bool | None]):
    """Asked when the human plays the card that carries bela (the first of the trump
    king and queen by default, the second under the old house rule).

    Enter announces it (the 20 points are the team's: the choice a player makes almost
    always), ``0`` plays the card without announcing (``NO_BELA_KEY``), Esc takes the card
    back. No letter answers it: every letter means something at the table in some
    language. Only a key pressed while the question is on show answers it.

    Dismissed with True (announce), False (play without announcing) or None
    (changed their mind: the card is not played).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(True)", N_("Bela!")),
        Binding(NO_BELA_KEY, "answer(False)", N_("No bela")),
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
                yield Button(_("Bela! ({key})").format(key="Enter"), id="yes", variant="primary")
                yield Button(_("No bela ({key})").format(key=NO_BELA_KEY), id="no")
                yield Button(_("Back (Esc)"), id="back")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        answers = {"yes": True, "no": False}
        self.dismiss(answers.get(event.button.id or ""))

    def action_answer(self, answer: bool | None) -> None:
        self.dismiss(answer)


class DeclarePrompt(FreshModal[bool]):
    """Asked at the human's turn in the first trick when they hold zvanja and the setting
    "declare my zvanja for me" is off: declare them, or keep them back ("šutim").

    Kept back, they score nothing and take no part in the comparison, as at a real
    table where a player who says nothing forfeits them. Enter declares, Esc keeps
    them back; only a key pressed while the question is on show answers it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(True)", N_("Declare")),
        Binding("escape", "answer(False)", N_("Keep back")),
    ]

    def __init__(self, zvanja: Sequence[Zvanje]) -> None:
        super().__init__()
        self.zvanja = tuple(zvanja)

    def compose(self) -> ComposeResult:
        own = ", ".join(zvanje_text(z) for z in self.zvanja)
        yield TooSmall()
        with Vertical(id="declare", classes="dialog"):
            yield Static(Text(_("Your zvanja: {own}").format(own=own)), classes="title")
            yield Static(
                _(
                    "Declare them? Kept back (šutim), they score nothing and the table "
                    "learns nothing of them."
                )
            )
            with Horizontal(classes="buttons"):
                yield Button(_("Declare (Enter)"), id="yes", variant="primary")
                yield Button(_("Keep back (Esc)"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def short_of_dosta(points: int, target: int) -> str:
    """What the dosta key says short of the target: how many points we still miss. A claim
    then always loses the match, so it is not asked (the local and the network table)."""
    missing = target - points
    return ngettext(
        "Not dosta yet: we have {points} of {target}, {missing} point short.",
        "Not dosta yet: we have {points} of {target}, {missing} points short.",
        missing,
    ).format(points=points, target=target, missing=missing)


class DostaPrompt(FreshModal[bool]):
    """Asked before "dosta" counts, once we have counted the target: a claim ends the match.

    ``points`` is what we have counted so far (score, tricks, zvanja, bela), at least
    ``target`` (short of it the table only says how many are missing). Enter and Esc
    play on: Enter is the key of every card, so a stray one never ends the match; the
    dosta key again (``letter("dosta")``) or the button says it. Dismissed with True
    (say it) or False (play on). Only a key pressed while the question is on show
    answers it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "answer(False)", N_("Play on")),
        Binding("escape", "answer(False)", N_("Back")),
    ]
    """The dosta letter of the player's language is read in ``on_key``."""

    def __init__(self, points: int, target: int) -> None:
        super().__init__()
        self.points = points
        self.target = target

    def question(self) -> str:
        """The one question asked, in the player's words (we: the player's team)."""
        return _(
            "Say dosta? We have {points} of {target}.\n{key}: dosta, Enter or Esc: play on"
        ).format(points=self.points, target=self.target, key=letter("dosta"))

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="dosta", classes="dialog"):
            yield Static(self.question(), classes="title")
            with Horizontal(classes="buttons"):
                yield Button(_("Play on (Enter)"), id="no", variant="primary")
                yield Button(_("Dosta! ({key})").format(key=letter("dosta")), id="yes")

    def on_key(self, event: events.Key) -> None:
        """The dosta letter says it (a key typed before the question: ``FreshModal``)."""
        if event.time < self._shown_at:
            event.stop()
            event.prevent_default()
            return
        if (event.character or "").lower() == letter("dosta"):
            event.stop()
            event.prevent_default()
            self.dismiss(True)

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
            points = trick.points
            if is_you(trick.winner):
                taken = ngettext(
                    "You took it: {points} point.  (Esc to close)",
                    "You took it: {points} points.  (Esc to close)",
                    points,
                )
            else:
                taken = ngettext(
                    "Taken by {name}: {points} point.  (Esc to close)",
                    "Taken by {name}: {points} points.  (Esc to close)",
                    points,
                )
            yield Static(Text(taken.format(name=winner, points=points)))

    def on_click(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
