"""The public server's lobby in the app (``bela online HOST`` in a terminal, and the SSH door).

The public tables are listed one a line: the table, its target, rated or not, waiting
or playing, and each seat with its player's rating (``?``: provisional) and
reliability. Enter (or the line's number) sits at the table under the cursor, ``w``
watches it, ``q`` asks for a quick match (bots after 60 s), ``c`` creates a public
table, ``r`` reads the list again. The seat the lobby gives opens as the network table
(``NetTableScreen``), as for ``bela join``.

Every name comes from the network: shown as plain text, never markup, cut short.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from bela.foundation.untrusted import oneline
from bela.i18n import N_, _
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer

if TYPE_CHECKING:
    from bela.net.lobby_protocol import SeatEntry, TableInfo
    from bela.tui.remote import RemoteSession

__all__ = ["OnlineLobby", "OnlineLobbyScreen", "seat_words", "table_row"]


@dataclass(frozen=True, slots=True)
class OnlineLobby:
    """What the lobby screen needs: the public tables now, and a seat for a request."""

    where: str
    listing: Callable[[], Awaitable[tuple[TableInfo, ...]]]
    """The public tables (signs in, asks, hangs up); ``ConnectionError`` says why not."""
    seat: Callable[[dict[str, object]], RemoteSession]
    """The session that sits down with this lobby request (a quick match, a table ...)."""


def seat_words(seat: SeatEntry) -> str:
    """A seat as the list shows it: the name and standing, or what the seat is."""
    if seat.name is None:
        return _("open") if seat.kind == "open" else _("bot")
    name = oneline(seat.name, 24)
    if seat.rating is None:
        return name
    rating = f"{seat.rating}?" if seat.provisional else str(seat.rating)
    if seat.reliability is not None:
        rating += f" {round(seat.reliability * 100)}%"
    return f"{name} ({rating})"


def table_row(number: int, table: TableInfo) -> Text:
    line = _("{number}. {table} · to {target} · {rated} · {state} · {seats}").format(
        number=number,
        table=oneline(table.id, 20),
        target=table.target,
        rated=_("rated") if table.rated else _("unrated"),
        state=_("playing") if table.started else _("waiting"),
        seats=", ".join(seat_words(seat) for seat in table.seats),
    )
    return Text(line)  # players' names: never markup


class OnlineLobbyScreen(Screen[None]):
    """The public tables, and the ways to a seat."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quick", N_("Quick match")),
        Binding("c", "create", N_("New table")),
        Binding("w", "watch", N_("Watch")),
        Binding("r", "refresh", N_("Refresh")),
        *(Binding(str(k), f"pick({k})", N_("Sit down"), show=False) for k in range(1, 10)),
    ]

    def __init__(self, lobby: OnlineLobby) -> None:
        super().__init__()
        self.lobby = lobby
        self.tables: tuple[TableInfo, ...] = ()
        self.chosen = False

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="online-lobby", classes="dialog"):
            yield Static(
                Text(_("Tables at {where}").format(where=oneline(self.lobby.where, 80))),
                classes="title",
            )
            yield Static(
                _(
                    "Enter or its number sits at a table, w watches it, q asks for a quick "
                    "match, c creates a table, r reads the list again."
                )
            )
            yield OptionList(id="tables")
            yield Static(id="lobby-problem")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables", OptionList).focus()
        self.action_refresh()

    @work(exclusive=True, group="online-lobby")
    async def action_refresh(self) -> None:
        problem = self.query_one("#lobby-problem", Static)
        try:
            tables = await self.lobby.listing()
        except (ConnectionError, OSError, TimeoutError) as exc:
            problem.update(Text(f"✗ {oneline(exc, 300)}"))
            return
        self.tables = tables
        options = self.query_one("#tables", OptionList)
        options.clear_options()
        options.add_options([Option(table_row(n, t), id=t.id) for n, t in enumerate(tables, 1)])
        problem.update(
            Text(_("No tables yet: c creates one, q asks for a quick match.")) if not tables else ""
        )

    def _highlighted(self) -> TableInfo | None:
        index = self.query_one("#tables", OptionList).highlighted
        if index is None or not 0 <= index < len(self.tables):
            return None
        return self.tables[index]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self._go({"type": "join", "table": event.option.id})

    def action_pick(self, number: int) -> None:
        if 1 <= number <= len(self.tables):
            self._go({"type": "join", "table": self.tables[number - 1].id})

    def action_watch(self) -> None:
        table = self._highlighted()
        if table is not None:
            self._go({"type": "watch", "table": table.id})

    def action_quick(self) -> None:
        self._go({"type": "quick", "target": 1001, "wait": 60})

    def action_create(self) -> None:
        self._go({"type": "create", "target": 1001})

    def _go(self, request: dict[str, Any]) -> None:
        if self.chosen:
            return  # the seat is opening
        self.chosen = True
        session = self.lobby.seat(request)
        from bela.tui.app import BelaApp
        from bela.tui.screens.net_table import NetTableScreen

        app = self.app
        if isinstance(app, BelaApp):
            app.remote = session  # the app is that seat now (Ctrl+Q asks mid-match)
        app.switch_screen(NetTableScreen(session))
