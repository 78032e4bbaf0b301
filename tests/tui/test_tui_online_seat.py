"""``bela online`` hands the seat the lobby gave to the app's network table (issue #39):
the app opens at a private table with its code to give friends, starts it, and after a
lost line signs in again and is seated again by the server, hand and all."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from net_pilot import net_screen, until

from bela.net.client import Client
from bela.net.identity import Pins
from bela.net.lobby_protocol import Created
from bela.net.online_client import take_seat
from bela.net.online_server import OnlineServer, online_options
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.widgets.table_talk import TableTalk


@pytest.mark.slow
async def test_the_app_sits_at_the_seat_the_lobby_gives_and_comes_back(tmp_path: Path) -> None:
    server = OnlineServer(
        tmp_path / "server",
        online_options(difficulty="random", target=501, bot_delay=0.05),
        say=lambda _line: None,
    )
    _, port = await server.start("127.0.0.1", 0)
    key = Ed25519PrivateKey.generate()
    pins = Pins(tmp_path / "client")
    session = RemoteSession("127.0.0.1", port, "", "Ana", keep=False)
    codes: list[str] = []

    async def opener(again: bool) -> Client:
        def created(message: Created) -> None:
            if message.code is not None:
                codes.append(message.code)
                session.code = message.code
                session.invite = (f"bela online 127.0.0.1:{port} --code {message.code}",)

        request = None if again else {"type": "create", "target": 501, "private": True}
        return await take_seat("127.0.0.1", port, "Ana", key, pins, request, created)

    session.opener = opener
    app = BelaApp(remote=session)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            log = app.screen.query_one("#log", TableTalk)
            assert codes and any(codes[0] in entry.plain for entry in log.entries)
            await pilot.press("g")  # the creator starts it: bots in the empty seats
            await until(pilot, lambda: net_screen(app).state is not None)
            table = next(iter(server.meta.values())).table
            assert table.started and session.seat == 0
            assert session.client is not None
            session.client.writer.transport.abort()  # the line drops
            await until(
                pilot,
                lambda: table.seats[0].link is not None and table.seats[0].kind() == "human",
            )
            await until(pilot, lambda: any("is back" in e.plain for e in log.entries))
            assert session.seat == 0 and len(server.online) == 1
    finally:
        await server.close()


@pytest.mark.slow
async def test_no_hint_and_no_analysis_at_a_rated_match(tmp_path: Path) -> None:
    """Four accounts in a quick match: a rated one. The app offers no hint until it ends."""
    from bela.net.online_client import Online

    server = OnlineServer(
        tmp_path / "server",
        online_options(difficulty="random", target=501, bot_delay=0.0),
        say=lambda _line: None,
    )
    _, port = await server.start("127.0.0.1", 0)
    pins = Pins(tmp_path / "client")
    others = []
    for name in ("Ivo", "Eva", "Mate"):
        online = await Online.connect("127.0.0.1", port, name, Ed25519PrivateKey.generate(), pins)
        await online.send({"type": "quick", "target": 501, "wait": 600})
        others.append(online)
    key = Ed25519PrivateKey.generate()
    session = RemoteSession("127.0.0.1", port, "", "Ana", keep=False)

    async def opener(again: bool) -> Client:
        request = None if again else {"type": "quick", "target": 501, "wait": 600}
        return await take_seat("127.0.0.1", port, "Ana", key, pins, request)

    session.opener = opener
    app = BelaApp(remote=session)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).state is not None)
            await until(pilot, lambda: net_screen(app).rated)
            screen = net_screen(app)
            assert screen.check_action("hint", ()) is False
            assert screen.check_action("last_trick", ()) is True
            log = app.screen.query_one("#log", TableTalk)
            assert any("The match is rated" in entry.plain for entry in log.entries)
    finally:
        for online in others:
            await online.close()
        await server.close()


async def test_the_lobby_screen_lists_the_tables_and_sits_down(tmp_path: Path) -> None:
    """``bela online HOST`` in a terminal: the app opens on the public tables; a number
    sits at that table, as the network table screen."""
    from bela.net.lobby_protocol import TableList
    from bela.net.online_client import Online
    from bela.tui.screens.online_lobby import OnlineLobby, OnlineLobbyScreen

    server = OnlineServer(
        tmp_path / "server",
        online_options(difficulty="random", target=501, bot_delay=0.0),
        say=lambda _line: None,
    )
    _, port = await server.start("127.0.0.1", 0)
    pins = Pins(tmp_path / "client")
    ivo = await Online.connect("127.0.0.1", port, "Ivo", Ed25519PrivateKey.generate(), pins)
    await ivo.send({"type": "create", "target": 501})
    key = Ed25519PrivateKey.generate()

    async def listing() -> tuple[object, ...]:
        online = await Online.connect("127.0.0.1", port, "Ana", key, pins)
        await online.send({"type": "tables"})
        while not isinstance(found := await online.receive(), TableList):
            pass
        await online.close()
        return found.tables

    def seat(request: dict[str, object]) -> RemoteSession:
        session = RemoteSession("127.0.0.1", port, "", "Ana", keep=False)

        async def opener(again: bool) -> Client:
            return await take_seat("127.0.0.1", port, "Ana", key, pins, None if again else request)

        session.opener = opener
        return session

    app = BelaApp(online_lobby=OnlineLobby(f"127.0.0.1:{port}", listing, seat))  # type: ignore[arg-type]
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            assert isinstance(app.screen, OnlineLobbyScreen)
            await until(pilot, lambda: len(app.screen.tables) == 1)  # type: ignore[attr-defined]
            shown = str(app.screen.query_one("#tables").render_line(0).text)
            assert "Ivo (1500?)" in shown and "open" in shown
            await pilot.press("1")
            await until(pilot, lambda: net_screen(app).lobby is not None)
            table = next(iter(server.meta.values())).table
            assert [s.name for s in table.seats[:2]] == ["Ivo", "Ana"]
    finally:
        await ivo.close()
        await server.close()


@pytest.mark.slow
async def test_a_rated_table_does_not_offer_what_it_refuses(tmp_path: Path) -> None:
    """Found in the issue #39 acceptance run: the creator of a rated table was told "Host's
    keys: z pauses ..., x and a seat 1-4 hands an away player's seat to a bot", and each
    player, when somebody watched, "w: choose a watcher who may see your hand": a rated
    match refuses all three (docs/server.md, fair play)."""
    from bela.net.online_client import Online

    server = OnlineServer(
        tmp_path / "server",
        online_options(difficulty="random", target=501, bot_delay=0.0),
        say=lambda _line: None,
    )
    _, port = await server.start("127.0.0.1", 0)
    pins = Pins(tmp_path / "client")
    key = Ed25519PrivateKey.generate()
    session = RemoteSession("127.0.0.1", port, "", "Ana", keep=False)
    created: list[str] = []

    async def opener(again: bool) -> Client:
        def made(message: Created) -> None:
            created.append(message.table)

        request = None if again else {"type": "create", "target": 501}
        return await take_seat("127.0.0.1", port, "Ana", key, pins, request, made)

    session.opener = opener
    app = BelaApp(remote=session)
    others = []
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: bool(created) and net_screen(app).lobby is not None)
            for name in ("Ivo", "Eva", "Mate"):
                online = await Online.connect(
                    "127.0.0.1", port, name, Ed25519PrivateKey.generate(), pins
                )
                await online.send({"type": "join", "table": created[0]})
                others.append(online)
            table = next(iter(server.meta.values())).table
            await until(pilot, lambda: all(s.name is not None for s in table.seats))
            await pilot.press("g")
            await until(pilot, lambda: net_screen(app).state is not None and net_screen(app).rated)
            guest = await Online.connect("127.0.0.1", port, "Gost", None, pins)
            await guest.send({"type": "watch", "table": created[0]})
            others.append(guest)
            log = app.screen.query_one("#log", TableTalk)
            await until(pilot, lambda: any("is watching" in e.plain for e in log.entries))
            said = "\n".join(e.plain for e in log.entries)
            assert "The match is rated" in said
            assert "Host's keys" not in said and "choose a watcher" not in said
    finally:
        for online in others:
            await online.close()
        await server.close()


def test_closing_the_table_after_the_match_at_the_public_server_gives_the_seat_up() -> None:
    """Found by the acceptance run: after a match, a player who quit and started ``bela
    online`` again within the minute was sent back to the finished table, not the lobby."""
    from bela.tui.screens.net_table import closing

    async def opener(again: bool) -> Client:
        raise AssertionError("not called")

    public = RemoteSession("127.0.0.1", 4713, "", "Ana", keep=False)
    public.opener = opener
    friends = RemoteSession("127.0.0.1", 4713, "CODE", "Ana", keep=False)
    watcher = RemoteSession("127.0.0.1", 4713, "", "Ana", keep=False, watch=True)
    watcher.opener = opener
    assert closing(public, over=True) == (True, False)  # leave: back to the lobby next time
    assert closing(public, over=False) == (False, True)  # mid-match the seat waits
    assert closing(friends, over=True) == (False, False)  # kept for još jednu
    assert closing(friends, over=False) == (False, True)
    assert closing(watcher, over=True) == (False, False)  # no seat to give up
