"""Inviting friends (issue #23): the lobby as a guest and as the host sees it.

Only the one who starts the match sees "g Start"; the keys 1-4 and the seat
numbers the lobby shows are the same numbers; a seat move is announced; a player
whose line drops is sent the recent table talk again, and sees each line once.
"""

from __future__ import annotations

import asyncio

import pytest
from net_pilot import host, net_screen, until

from bela.net.client import Client
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.widgets.table_talk import TableTalk


def _footer(app: BelaApp) -> str:
    """The keys the footer offers now (those the screen hides are not among them)."""
    return " ".join(
        str(active.binding.description) for active in app.screen.active_bindings.values()
    )


@pytest.mark.slow
async def test_only_the_host_sees_g_start() -> None:
    server, port = await host()
    table = server.new_table()
    leader = await Client.connect("127.0.0.1", port, table.code, "Host", lead=table.leader_key)
    guest = BelaApp(remote=RemoteSession("127.0.0.1", port, table.code, "Ana"))
    try:
        async with guest.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(guest).lobby is not None)
            await pilot.pause(0.05)
            assert "Start" not in _footer(guest)
            said = str(guest.screen.query_one("#message").render())  # the keys, under the seats
            assert "The host starts the match." in said
            await pilot.press("g")  # a guest's g does nothing at all
            await pilot.pause(0.1)
            assert table.match is None
        await leader.close()
        host_session = RemoteSession("127.0.0.1", port, table.code, "Host2", lead=table.leader_key)
        app = BelaApp(remote=host_session)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None and net_screen(app).leader)
            await pilot.pause(0.05)
            assert "Start" in _footer(app)
    finally:
        await server.close()


@pytest.mark.slow
async def test_keys_one_to_four_are_the_seats_the_lobby_numbers_and_a_move_is_announced() -> None:
    server, port = await host()
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session)
    other: Client | None = None
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            other = await Client.connect("127.0.0.1", port, table.code, "Ivo")  # seat 2
            await pilot.press("3")
            await until(pilot, lambda: session.seat == 2)
            await until(pilot, lambda: "Ana (you)" in str(app.screen.query_one("#lobby").render()))
            lobby = str(app.screen.query_one("#lobby").render())
            line = next(row for row in lobby.splitlines() if "Ana (you)" in row)
            assert line.startswith("[3] mi: ")  # key 3 is seat 3, Ana's team as she sees it
            assert "1+3 and 2+4" in str(app.screen.query_one("#message").render())
            log = app.screen.query_one("#log", TableTalk)
            await until(pilot, lambda: any("Ana moves to seat 3." in e.plain for e in log.entries))
            assert any("Ivo sits down at seat 2." in e.plain for e in log.entries)
    finally:
        if other is not None:
            await other.close()
        await server.close()


async def test_a_player_back_after_a_drop_hears_the_recent_talk_once() -> None:
    server, port = await host()
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    other = await Client.connect("127.0.0.1", port, table.code, "Ivo")
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            await pilot.press("g")
            await until(pilot, lambda: net_screen(app).state is not None)
            await other.chat("before the drop")
            log = app.screen.query_one("#log", TableTalk)
            await until(pilot, lambda: any("before the drop" in e.plain for e in log.entries))
            assert session.client is not None and session.seat is not None
            me = session.seat
            before = table.seats[me].link
            back = asyncio.Event()
            sit_down_again = session.connect

            async def held_back() -> None:  # the app sits down again only once told to
                await back.wait()
                await sit_down_again()

            session.connect = held_back  # type: ignore[method-assign]
            session.client.writer.transport.abort()  # the line drops
            await until(pilot, lambda: table.seats[me].link is None, tries=100)
            await other.chat("while you were away")
            back.set()
            await until(pilot, lambda: table.seats[me].link not in (None, before), tries=1500)
            await until(pilot, lambda: any("while you were away" in e.plain for e in log.entries))
            await pilot.pause(0.1)
            said = [e.plain for e in log.entries if e.plain.startswith("Ivo: ")]
            assert said == ["Ivo: before the drop", "Ivo: while you were away"]
    finally:
        await other.close()
        await server.close()


async def test_the_lobby_says_whether_the_table_has_a_clock() -> None:
    from bela.cli.net import HostOptions
    from bela.cli.options import parse
    from bela.net.saves import TableSaver
    from bela.net.server import Server, ServerOptions

    options = parse(["host", "--clock", "30"])
    assert isinstance(options, HostOptions) and options.clock == 30
    assert parse(["host"]).clock == 0  # type: ignore[union-attr]
    for clock, said in ((30.0, True), (0.0, False)):
        server = Server(ServerOptions(difficulty="random", clock=clock), TableSaver())
        _, port = await server.listen("127.0.0.1", 0)
        table = server.new_table()
        app = BelaApp(remote=RemoteSession("127.0.0.1", port, table.code, "Ana"))
        try:
            async with app.run_test(size=(120, 40)) as pilot:
                await until(pilot, lambda app=app: net_screen(app).lobby is not None)
                lobby = " ".join(str(app.screen.query_one("#lobby").render()).split())
                assert ("bots · 30 s a turn" in lobby) is said and ("s a turn" in lobby) is said
        finally:
            await server.close()
