"""The round just played beside the same deal with a bot in the player's seat.

"Would the computer have done better with my cards?": the round summary and the
history's step-through open this dialog. The bot (``hard``) and the other seats'
bots replay the deal in a thread worker (the hard bot thinks for a second or two
a round), so the dialog opens at once and fills in when the retake is done.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from bela.engine import Match
from bela.i18n import N_, _
from bela.lab.bot_in_seat import DEFAULT_SEAT_BOT, SeatSwap, swap_round
from bela.tui.widgets import TooSmall
from bela.wording import at_table

__all__ = ["BotSeatScreen"]


class BotSeatScreen(ModalScreen[None]):
    """Round ``index`` of ``match`` against its retake; Escape or Enter goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter", "close", N_("Back"))]

    def __init__(
        self,
        match: Match,
        index: int,
        level: str,
        seat: int = 0,
        players: Sequence[str] | None = None,
    ) -> None:
        """``level``: the match's bots, who keep the other seats; ``seat``: the player's;
        ``players``: a network table's names by seat (shown as plain text)."""
        super().__init__()
        self.match = match
        self.index = index
        self.level = level
        self.seat = seat
        self.players = players
        self.swap: SeatSwap | None = None

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="bot-seat-dialog", classes="dialog"):
            title = _("Round {n}: the bot in your seat").format(n=self.index + 1)
            yield Static(Text(title, style="bold"))
            with VerticalScroll(id="bot-seat-body"):
                yield Static(
                    _("The bot is playing your cards in the same deal…"), id="bot-seat-text"
                )
            yield Button(_("Back (Esc)"), id="bot-seat-back", variant="primary")

    def on_mount(self) -> None:
        self._retake()

    @work(thread=True, exclusive=True, group="bot-seat")
    def _retake(self) -> None:
        swap = swap_round(self.match, self.index, self.seat, self.level, DEFAULT_SEAT_BOT)
        self.app.call_from_thread(self._show, swap)

    def _show(self, swap: SeatSwap) -> None:
        from bela.archive.retake_text import retake_view

        self.swap = swap
        names = None if self.players is None else tuple(self.players)
        with at_table(names, self.seat if names is not None else None):
            view = retake_view(swap.index, swap.seat, swap.played, swap.retaken)
        self.query_one("#bot-seat-text", Static).update(view)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "bot-seat")
