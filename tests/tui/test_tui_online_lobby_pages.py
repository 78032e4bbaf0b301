"""The app's lobby at the public server (issue #39): a new table's choices (target, house
rules, private, invitations), an invitation shown and accepted with a key, the leaderboard,
the weekly league, a player's page, renaming and muting, against a server in this process."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from net_pilot import until
from textual.widgets import Input, Select, Static

from bela.net.client import Client
from bela.net.identity import Pins
from bela.net.lobby_protocol import TableList
from bela.net.online_client import Online, take_seat
from bela.net.online_server import OnlineServer, online_options
from bela.net.phrases import render
from bela.net.protocol import Closing, Refused
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.screens.online_lobby import OnlineLobby, OnlineLobbyScreen
from bela.tui.screens.online_pages import LobbyPage, NamePrompt, NewTableDialog, invite_names


def lobby_for(
    port: int, name: str, key: Ed25519PrivateKey, pins: Pins, hold: float = 0.0
) -> OnlineLobby:
    """What ``bela online HOST`` hands the app: each request on a connection of its own
    (held open ``hold`` seconds after signing in, as a slow line would)."""

    async def listing() -> tuple[object, ...]:
        found = await ask({"type": "tables"}, ("tables",))
        assert isinstance(found, TableList)
        return found.tables

    async def ask(request: dict[str, object], kinds: tuple[str, ...]) -> Any:
        online = await Online.connect("127.0.0.1", port, name, key, pins)
        try:
            await asyncio.sleep(hold)
            await online.send(request)
            while True:
                message = await online.receive()
                if isinstance(message, Refused | Closing):
                    raise ConnectionError(render(message.reason, message.code, message.args))
                if message.type in kinds:
                    return message
        finally:
            await online.close()

    def seat(request: dict[str, object]) -> RemoteSession:
        session = RemoteSession("127.0.0.1", port, "", name, keep=False)

        async def opener(again: bool) -> Client:
            return await take_seat("127.0.0.1", port, name, key, pins, None if again else request)

        session.opener = opener
        return session

    return OnlineLobby(f"127.0.0.1:{port}", listing, seat, ask)  # type: ignore[arg-type]


def seated(app: BelaApp) -> bool:
    from bela.tui.screens.net_table import NetTableScreen

    return isinstance(app.screen, NetTableScreen) and app.screen.lobby is not None


def page_text(app: BelaApp) -> str:
    screen = app.screen
    assert isinstance(screen, LobbyPage)
    return "\n".join(screen.lines)


async def start() -> tuple[OnlineServer, int]:
    from tempfile import mkdtemp

    server = OnlineServer(
        Path(mkdtemp()) / "server",
        online_options(difficulty="random", target=501, bot_delay=0.0),
        say=lambda _line: None,
    )
    _, port = await server.start("127.0.0.1", 0)
    return server, port


async def test_a_new_table_with_its_choices_and_an_invitation_from_the_app(
    tmp_path: Path,
) -> None:
    server, port = await start()
    pins = Pins(tmp_path / "client")
    ivo = await Online.connect("127.0.0.1", port, "Ivo", Ed25519PrivateKey.generate(), pins)
    app = BelaApp(online_lobby=lobby_for(port, "Ana", Ed25519PrivateKey.generate(), pins))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            assert isinstance(app.screen, OnlineLobbyScreen)
            await pilot.pause(0.2)
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, NewTableDialog))
            dialog = app.screen
            dialog.query_one("#target", Select).value = 501
            await pilot.click("#private")
            await pilot.click("#rule-dosta")
            dialog.query_one("#invite", Input).value = "Ivo, Nobody, Eva, Mate"
            await pilot.click("#create")
            await pilot.pause()
            problem = str(dialog.query_one("#new-table-problem", Static).content)
            assert "at most three" in problem  # bad input: said, nothing sent
            assert not server.meta
            dialog.query_one("#invite", Input).value = "Ivo"
            await pilot.pause(0.3)  # a button takes no second press while it shows the first
            await pilot.click("#create")
            await until(pilot, lambda: seated(app))
            (meta,) = server.meta.values()
            assert not meta.public and meta.rated_wanted and meta.table.target == 501
            assert meta.rules.dosta and meta.table.seats[0].name == "Ana"
            assert [i.by_name for i in server.invitations.pending] == ["Ana"]
    finally:
        await ivo.close()
        await server.close()


async def test_an_invitation_is_shown_in_the_lobby_and_a_seats_the_invitee(
    tmp_path: Path,
) -> None:
    server, port = await start()
    pins = Pins(tmp_path / "client")
    key = Ed25519PrivateKey.generate()
    first = await Online.connect("127.0.0.1", port, "Ana", key, pins)  # Ana's account
    await first.close()
    ivo = await Online.connect("127.0.0.1", port, "Ivo", Ed25519PrivateKey.generate(), pins)
    await ivo.send({"type": "create", "target": 701, "private": True, "invite": ["Ana"]})
    app = BelaApp(online_lobby=lobby_for(port, "Ana", key, pins))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, OnlineLobbyScreen)
            await until(pilot, lambda: len(screen.invites) == 1)
            shown = str(screen.query_one("#invites", Static).content)
            assert "Ivo invites you to a private rated table to 701; seated: Ivo" in shown
            assert screen.tables == ()  # a private table is never listed
            await pilot.press("a")
            await until(pilot, lambda: seated(app))
            (meta,) = server.meta.values()
            assert [s.name for s in meta.table.seats[:2]] == ["Ivo", "Ana"]
    finally:
        await ivo.close()
        await server.close()


async def test_leaders_league_a_players_page_renaming_and_muting_in_the_app(
    tmp_path: Path,
) -> None:
    server, port = await start()
    pins = Pins(tmp_path / "client")
    ivo = await Online.connect("127.0.0.1", port, "Ivo", Ed25519PrivateKey.generate(), pins)
    app = BelaApp(online_lobby=lobby_for(port, "Ana", Ed25519PrivateKey.generate(), pins))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            lobby = app.screen
            assert isinstance(lobby, OnlineLobbyScreen)
            await pilot.pause(0.2)
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LobbyPage))
            assert "Nobody has played a rated match yet." in page_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is lobby)
            await pilot.press("g")
            await until(pilot, lambda: isinstance(app.screen, LobbyPage))
            assert "division 5 of 5" in page_text(app)
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is lobby)
            await pilot.press("p")
            await until(pilot, lambda: isinstance(app.screen, NamePrompt))
            await pilot.press(*"ivo", "enter")
            await until(pilot, lambda: isinstance(app.screen, LobbyPage))
            assert page_text(app).startswith("Ivo: 1500? ± 350, 0 rated matches")
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is lobby)
            await pilot.press("m")
            await until(pilot, lambda: isinstance(app.screen, NamePrompt))
            await pilot.press(*"Ivo", "enter")
            problem = lobby.query_one("#lobby-said", Static)
            await until(pilot, lambda: "You will not see what Ivo says" in str(problem.content))
            lobby.action_refresh()  # the list read again ("no tables yet") leaves it in sight
            listed = lobby.query_one("#lobby-problem", Static)
            await until(pilot, lambda: "No tables yet" in str(listed.content))
            assert "You will not see what Ivo says" in str(problem.content)
            ana, ivan = server.accounts.by_name("Ana"), server.accounts.by_name("Ivo")
            assert ana is not None and ivan is not None
            assert server.accounts.muted(ana.id) == {ivan.id}
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NamePrompt))
            await pilot.press(*"IVO", "enter")  # taken: the reason, nothing changed
            await until(pilot, lambda: "taken" in str(problem.content))
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NamePrompt))
            await pilot.press(*"Anica", "enter")
            await until(pilot, lambda: "You are Anica now." in str(problem.content))
            assert server.accounts.by_name("anica") is not None
            await pilot.press("a")  # no invitation: said so
            await until(pilot, lambda: "No invitation" in str(problem.content))
    finally:
        await ivo.close()
        await server.close()


def test_invite_names_are_a_few_names_separated_by_commas() -> None:
    assert invite_names(" Ivo ,, Eva  Marić ") == ["Ivo", "Eva Marić"]
    assert invite_names("") == []
    for bad in ("a,b,c,d", "x" * 25):
        try:
            invite_names(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


async def test_a_key_pressed_while_the_list_is_read_waits_for_it(tmp_path: Path) -> None:
    """Each request signs in with the player's key and a second sign-in of one account ends
    the first: the lobby asks one thing at a time, so the leaderboard asked for while the
    list is being read neither cuts that reading off nor is cut off."""
    server, port = await start()
    pins = Pins(tmp_path / "client")
    lobby = lobby_for(port, "Ana", Ed25519PrivateKey.generate(), pins, hold=0.5)
    app = BelaApp(online_lobby=lobby)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.screen
            assert isinstance(screen, OnlineLobbyScreen)
            await pilot.pause(0.1)  # the list is being read
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LobbyPage))
            assert "Nobody has played a rated match yet." in page_text(app)
            problem = str(screen.query_one("#lobby-problem", Static).content)
            said = str(screen.query_one("#lobby-said", Static).content)
            assert "✗" not in problem and "✗" not in said
            assert "No tables yet" in problem
    finally:
        await server.close()


async def test_plus_at_the_table_invites_a_player_by_name(tmp_path: Path) -> None:
    """Seated at the public server before the start, + asks for a name and invites that
    account to the table; the answer is said in the table talk."""
    from bela.tui.widgets.table_talk import TableTalk

    server, port = await start()
    pins = Pins(tmp_path / "client")
    ivo = await Online.connect("127.0.0.1", port, "Ivo", Ed25519PrivateKey.generate(), pins)
    app = BelaApp(online_lobby=lobby_for(port, "Ana", Ed25519PrivateKey.generate(), pins))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            lobby = app.screen
            assert isinstance(lobby, OnlineLobbyScreen)
            await pilot.pause(0.2)
            lobby._go({"type": "create", "target": 501})
            await until(pilot, lambda: seated(app))
            await pilot.press("plus")
            await until(pilot, lambda: isinstance(app.screen, NamePrompt))
            await pilot.press(*"ivo", "enter")
            await until(pilot, lambda: bool(server.invitations.pending))
            (invitation,) = server.invitations.pending
            ivan = server.accounts.by_name("Ivo")
            assert ivan is not None and invitation.by_name == "Ana" and invitation.to == ivan.id
            talk = app.screen.query_one("#log", TableTalk)
            await until(pilot, lambda: "Ivo is invited to this table." in talk_text(talk))
    finally:
        await ivo.close()
        await server.close()


def talk_text(talk: Any) -> str:
    return "\n".join(entry.plain for entry in talk.entries)
