"""The host's controls from the host's app (issue #23): m and two seat keys move players
before the start, z pauses and resumes the match; a guest is offered none of them."""

from __future__ import annotations

import pytest
from net_pilot import host, net_screen, until

from bela.net.client import Client
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.widgets.table_talk import TableTalk


def _keys(app: BelaApp) -> set[str]:
    return {str(a.binding.description) for a in app.screen.active_bindings.values()}


@pytest.mark.slow
async def test_the_host_moves_players_and_pauses_from_the_app() -> None:
    server, port = await host(wait=30)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Host", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True)
    guests: list[Client] = []
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = net_screen(app)
            await until(pilot, lambda: screen.lobby is not None and screen.leader)
            guests.append(await Client.connect("127.0.0.1", port, table.code, "Ana"))
            guests.append(await Client.connect("127.0.0.1", port, table.code, "Ivo"))
            await until(pilot, lambda: [s.name for s in table.seats][:3] == ["Host", "Ana", "Ivo"])
            assert "Move players" in _keys(app) and "Pause" not in _keys(app)
            await pilot.press("m", "2", "4")  # Ana from seat 2 to seat 4 (open)
            await until(pilot, lambda: table.seats[3].name == "Ana")
            assert table.seats[1].name is None and session.seat == 0
            await until(pilot, lambda: "Ana (you)" not in str(screen.query_one("#lobby").render()))
            await pilot.press("g")
            await until(pilot, lambda: screen.state is not None)
            assert "Pause" in _keys(app) and "Move players" not in _keys(app)
            log = screen.query_one("#log", TableTalk)  # the keys kept out of the footer
            assert any("Host's keys: z pauses" in e.plain for e in log.entries)
            await pilot.press("z")
            await until(pilot, lambda: table.paused)
            await pilot.press("z")
            await until(pilot, lambda: not table.paused)
    finally:
        for guest in guests:
            await guest.close()
        await server.close()


@pytest.mark.slow
async def test_a_guest_is_offered_no_host_control() -> None:
    server, port = await host(wait=30)
    table = server.new_table()
    leader = await Client.connect("127.0.0.1", port, table.code, "Host", lead=table.leader_key)
    app = BelaApp(remote=RemoteSession("127.0.0.1", port, table.code, "Ana"))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            assert not _keys(app) & {"Move players", "Seat to a bot", "Pause", "Start"}
            await pilot.press("m", "1")  # m does nothing here; 1 is a move to a taken seat
            await pilot.pause(0.1)
            assert [s.name for s in table.seats][:2] == ["Host", "Ana"]
    finally:
        await leader.close()
        await server.close()
