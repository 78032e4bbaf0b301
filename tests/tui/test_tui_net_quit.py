"""Closing the app at a network table (issue #23, point 9).

The host's own app mid-match asks before closing (it is the table for everyone)
and says how to resume; a player who closes the app is announced as leaving,
not as a lost connection.
"""

from __future__ import annotations

import asyncio

import pytest
from net_pilot import host, net_screen, until
from textual.widgets import Static

from bela.net.client import Client
from bela.net.protocol import Notice
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.screens.close_table import CloseTablePrompt


@pytest.mark.slow
async def test_the_hosts_app_asks_before_closing_the_table_mid_match() -> None:
    server, port = await host(wait=30)
    table = server.new_table()
    session = RemoteSession(
        "127.0.0.1", port, table.code, "host", lead=table.leader_key, keep=False
    )
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            await pilot.press("g")
            await until(pilot, lambda: net_screen(app).state is not None)
            await pilot.press("ctrl+q")
            await until(pilot, lambda: isinstance(app.screen, CloseTablePrompt))
            said = str(app.screen.query_one(".title", Static).render())
            assert "closes it for everyone" in said and "bela host" in said
            await pilot.press("n")  # keep playing: nothing changed
            await until(pilot, lambda: not isinstance(app.screen, CloseTablePrompt))
            assert table.seats[0].link is not None
            await pilot.press("ctrl+q")
            await until(pilot, lambda: isinstance(app.screen, CloseTablePrompt))
            await pilot.press("y")
        for _ in range(100):  # the app has closed: its seat is let go
            if table.seats[0].link is None:
                break
            await asyncio.sleep(0.02)
        assert table.seats[0].link is None
    finally:
        await server.close()


async def test_a_player_who_closes_the_app_is_announced_as_leaving() -> None:
    server, port = await host(wait=30)
    table = server.new_table()
    friend = await Client.connect("127.0.0.1", port, table.code, "Ivo", lead=table.leader_key)
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", keep=False)
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            await friend.send({"type": "start"})
            await until(pilot, lambda: net_screen(app).state is not None)
            await pilot.press("ctrl+q")  # not the host: no question
        notices: list[Notice] = []

        async def heard() -> None:
            while not any(n.code in ("closed_app", "lost_connection") for n in notices):
                message = await friend.receive()
                if isinstance(message, Notice):
                    notices.append(message)

        await asyncio.wait_for(heard(), 5)
        assert notices[-1].code == "closed_app" and "Ana closed the app" in notices[-1].text
        assert table.seats[1].kind() == "away"  # the seat waits for her token
        await friend.close()
    finally:
        await server.close()


async def test_a_browser_seat_at_a_full_table_is_told_so_on_the_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``bela serve --join``: each tab runs ``bela join --fresh``; at a full table the
    reason is shown on the page (an app that exits with it says it to nobody)."""
    server, port = await host(wait=30)
    table = server.new_table()
    seated = [await Client.connect("127.0.0.1", port, table.code, f"p{n}") for n in range(4)]
    monkeypatch.setattr(BelaApp, "is_web", property(lambda self: True))
    session = RemoteSession("127.0.0.1", port, table.code, "web", keep=False)
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = app.screen.query_one("#lobby", Static)
            await until(pilot, lambda: "full" in str(lobby.render()))
            assert "the table is full" in str(lobby.render())
            assert app.is_running
        for client in seated:
            await client.close()
    finally:
        await server.close()
