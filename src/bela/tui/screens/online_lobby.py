"""The public server's lobby in the app (``bela online HOST`` in a terminal, and the SSH door).

The public tables are listed one a line: the table, its target, rated or not, waiting
or playing, and each seat with its player's rating (``?``: provisional) and
reliability. Enter (or the line's number) sits at the table under the cursor, ``w``
watches it, ``q`` asks for a quick match (bots after 60 s), ``c`` opens a new table's
choices (target, house rules, private, rated, whom to invite), ``r`` reads the list
again (it is read again by itself every 20 s). The invitations waiting for the player are
shown above the tables: ``a`` accepts
the newest (sits at its table), ``x`` declines it. ``l`` shows the leaderboard, ``g``
the weekly league, ``p`` a player's page; ``n`` renames the account, ``m`` mutes a
player (``u`` unmutes). A browser's guest page that may keep an account
(``bela server --web-port`` over HTTPS) says so above the tables, and its ``n`` picks the
name the new account takes. The seat the lobby gives opens as the network table
(``NetTableScreen``), as for ``bela join``.

Every name comes from the network: shown as plain text, never markup, cut short.
"""

from __future__ import annotations

import asyncio
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
    from bela.net.lobby_protocol import InviteInfo, SeatEntry, TableInfo
    from bela.tui.remote import RemoteSession

__all__ = ["AUTO_REFRESH", "OnlineLobby", "OnlineLobbyScreen", "seat_words", "table_row"]

AUTO_REFRESH = 20.0
"""Seconds between readings of the list and the invitations (each one sign-in and two
requests): an invitation appears without the player asking."""


@dataclass(frozen=True, slots=True)
class OnlineLobby:
    """What the lobby screen needs: the public tables now, and a seat for a request."""

    where: str
    listing: Callable[[], Awaitable[tuple[TableInfo, ...]]]
    """The public tables (signs in, asks, hangs up); ``ConnectionError`` says why not."""
    seat: Callable[[dict[str, object]], RemoteSession]
    """The session that sits down with this lobby request (a quick match, a table ...)."""
    ask: Callable[[dict[str, object], tuple[str, ...]], Awaitable[Any]] | None = None
    """Signs in, sends a lobby request and returns the answer of one of those types (a
    ``bela.net.lobby_protocol`` message); ``ConnectionError`` says why not (a refusal's
    reason in the player's language). None: only the tables and the seats."""
    account: Callable[[str], Awaitable[str]] | None = None
    """A guest becomes an account with this name (a browser's page: its home keeps the
    key) and returns the account's name; ``ConnectionError`` says why not. None: no way."""
    note: str = ""
    """A line above the tables (a browser's guest: whether and how it may be an account)."""


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
        Binding("a", "answer(True)", N_("Accept")),
        Binding("x", "answer(False)", N_("Decline"), show=False),
        Binding("l", "leaders", N_("Leaders")),
        Binding("g", "league", N_("League")),
        Binding("p", "player", N_("Player")),
        Binding("n", "rename", N_("Rename"), show=False),
        Binding("m", "mute(True)", N_("Mute"), show=False),
        Binding("u", "mute(False)", N_("Unmute"), show=False),
        *(Binding(str(k), f"pick({k})", N_("Sit down"), show=False) for k in range(1, 10)),
    ]

    def __init__(self, lobby: OnlineLobby) -> None:
        super().__init__()
        self.lobby = lobby
        self.tables: tuple[TableInfo, ...] = ()
        self.invites: tuple[InviteInfo, ...] = ()
        self.chosen = False
        self.account = lobby.account
        self._line = asyncio.Lock()
        """One request at a time: each signs in with the player's key, and a second
        sign-in of one account ends the first (so a key pressed while the list is being
        read would cut that reading off, or be cut off)."""

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
            if self.lobby.ask is not None:
                yield Static(
                    _(
                        "l the leaderboard, g the weekly league, p a player's page, "
                        "n renames you, m mutes a player and u unmutes."
                    )
                )
            yield Static(Text(self.lobby.note), id="lobby-note")
            yield Static(id="invites")
            yield OptionList(id="tables")
            yield Static(id="lobby-problem")
            yield Static(id="lobby-said")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables", OptionList).focus()
        self.action_refresh()
        if self.lobby.ask is not None:  # an invitation shows without pressing r
            self.set_interval(AUTO_REFRESH, self._reread)

    def _reread(self) -> None:
        if not self.chosen and self.app.screen is self:  # not under a dialog, not leaving
            self.action_refresh()

    @work(exclusive=True, group="online-lobby")
    async def action_refresh(self) -> None:
        problem = self.query_one("#lobby-problem", Static)
        try:
            async with self._line:
                tables = await self.lobby.listing()
        except (ConnectionError, OSError, TimeoutError) as exc:
            problem.update(Text(f"✗ {oneline(exc, 300)}"))
            return
        options = self.query_one("#tables", OptionList)
        chosen = self._highlighted()
        self.tables = tables
        options.clear_options()
        options.add_options([Option(table_row(n, t), id=t.id) for n, t in enumerate(tables, 1)])
        # a table always under the cursor (Enter and w act on it without an arrow first),
        # and the one the player moved to stays so when the list is read again
        ids = [t.id for t in tables]
        if tables:
            options.highlighted = (
                ids.index(chosen.id) if chosen is not None and chosen.id in ids else 0
            )
        problem.update(
            Text(_("No tables yet: c creates one, q asks for a quick match.")) if not tables else ""
        )
        await self._read_invites()

    async def _read_invites(self) -> None:
        """The invitations waiting (a guest has none: the server refuses, nothing shown)."""
        if self.lobby.ask is None:
            return
        try:
            async with self._line:
                found = await self.lobby.ask({"type": "invites"}, ("invites",))
        except (ConnectionError, OSError, TimeoutError):
            found = None
        from bela.net.lobby_text import invite_line

        self.invites = tuple(found.invites) if found is not None else ()
        lines = [invite_line(invite) for invite in self.invites]
        if lines:
            lines.append(_("a accepts the newest invitation (sits at its table), x declines it."))
        self.query_one("#invites", Static).update(Text("\n".join(lines)))

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
        if self.lobby.ask is None:  # a lobby that only seats: a public table to 1001
            self._go({"type": "create", "target": 1001})
            return
        from bela.tui.screens.online_pages import NewTableDialog

        def chosen(request: dict[str, Any] | None) -> None:
            if request is not None:
                self._go(request)

        self.app.push_screen(NewTableDialog(), chosen)

    def action_answer(self, accept: bool) -> None:
        if not self.invites:
            self._problem(_("No invitation is waiting for you."))
            return
        name = self.invites[0].name
        if accept:
            self._go({"type": "answer", "name": name, "accept": True})
        else:
            self._decline(name)

    @work(exclusive=True, group="online-lobby-ask")
    async def _decline(self, name: str) -> None:
        if await self._ask({"type": "answer", "name": name, "accept": False}, ("declined",)):
            self.action_refresh()

    async def _ask(self, request: dict[str, object], kinds: tuple[str, ...]) -> Any:
        """The server's answer, or None (the reason shown under the list)."""
        if self.lobby.ask is None:
            return None
        try:
            async with self._line:
                return await self.lobby.ask(request, kinds)
        except (ConnectionError, OSError, TimeoutError) as exc:
            self._problem(f"✗ {oneline(exc, 300)}")
            return None

    def _problem(self, text: str) -> None:
        """What a request came to (its own line: the list's reading does not cover it)."""
        self.query_one("#lobby-said", Static).update(Text(text))

    @work(exclusive=True, group="online-lobby-ask")
    async def action_leaders(self) -> None:
        from bela.net.lobby_text import leader_lines
        from bela.tui.screens.online_pages import LobbyPage

        board = await self._ask({"type": "leaders"}, ("leaders",))
        if board is not None:
            self.app.push_screen(LobbyPage(_("The leaderboard"), leader_lines(board)))

    @work(exclusive=True, group="online-lobby-ask")
    async def action_league(self) -> None:
        from bela.net.lobby_text import league_lines
        from bela.tui.screens.online_pages import LobbyPage

        table = await self._ask({"type": "league"}, ("league",))
        if table is not None:
            self.app.push_screen(LobbyPage(_("The weekly league"), league_lines(table)))

    def action_player(self) -> None:
        self._with_name(_("Whose page? (a player's name)"), self._player)

    @work(exclusive=True, group="online-lobby-ask")
    async def _player(self, name: str) -> None:
        from bela.net.lobby_text import player_lines
        from bela.tui.screens.online_pages import LobbyPage

        page = await self._ask({"type": "player", "name": name}, ("player",))
        if page is not None:
            title = _("{name}'s page").format(name=oneline(page.name, 24))
            self.app.push_screen(LobbyPage(title, player_lines(page)))

    def action_rename(self) -> None:
        if self.account is not None:  # a browser's guest: the name makes the account
            self._with_name(_("Your name? This browser will keep your account."), self._become)
            return
        self._with_name(_("Your new name?"), self._rename)

    @work(exclusive=True, group="online-lobby-ask")
    async def _become(self, name: str) -> None:
        if self.account is None:
            return
        try:
            async with self._line:
                named = await self.account(name)
        except (ConnectionError, OSError, TimeoutError) as exc:
            self._problem(f"✗ {oneline(exc, 300)}")
            return
        self.account = None
        self.query_one("#lobby-note", Static).update("")
        self._problem(
            _("You are {name} now: this browser keeps your account.").format(
                name=oneline(named, 24)
            )
        )
        self.action_refresh()

    @work(exclusive=True, group="online-lobby-ask")
    async def _rename(self, name: str) -> None:
        done = await self._ask({"type": "rename", "name": name}, ("renamed",))
        if done is not None:
            self._problem(_("You are {name} now.").format(name=oneline(done.name, 24)))

    def action_mute(self, on: bool) -> None:
        question = (
            _("Whose table talk should you no longer see?")
            if on
            else _("Whose table talk should you see again?")
        )
        self._with_name(question, lambda name: self._mute(name, on))

    @work(exclusive=True, group="online-lobby-ask")
    async def _mute(self, name: str, on: bool) -> None:
        done = await self._ask({"type": "mute", "name": name, "on": on}, ("muted",))
        if done is not None:
            said = (
                _("You will not see what {name} says at the table.")
                if on
                else _("You see what {name} says at the table again.")
            )
            self._problem(said.format(name=oneline(done.name, 24)))

    def _with_name(self, question: str, then: Callable[[str], object]) -> None:
        if self.lobby.ask is None:
            return
        from bela.tui.screens.online_pages import NamePrompt

        def answered(name: str | None) -> None:
            if name:
                then(name)

        self.app.push_screen(NamePrompt(question), answered)

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
