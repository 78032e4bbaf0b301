"""Šutim at a network seat, from the app (issue #23): with "declare my zvanja for me" off,
the app asks at the seat's turn in the first trick, as the local table does, and Esc keeps
the zvanja back: the host's round has the seat silent, and the table talk says so.

Seed 8 deals seat 0 (first to speak) a declaration.
"""

from __future__ import annotations

from net_pilot import host, net_screen, until

from bela.engine import Rules
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.screens.prompts import DeclarePrompt
from bela.tui.widgets.table_talk import TableTalk


async def test_a_network_seat_keeps_its_zvanja_back_when_asked() -> None:
    server, port = await host(wait=5)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True, always_declare=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            table.start(8, Rules())
            await until(pilot, screen.my_turn)
            await pilot.press("h")  # hearts: seat 0 speaks first, and then leads
            await until(pilot, lambda: isinstance(app.screen, DeclarePrompt))
            assert table.match is not None and table.match.current is not None
            assert table.match.current.silent_seats == ()  # only asked so far
            await pilot.press("escape")  # keep them back
            await until(
                pilot,
                lambda: (
                    table.match is not None
                    and table.match.current is not None
                    and table.match.current.silent_seats == (0,)
                ),
            )
            log = screen.query_one("#log", TableTalk)
            await until(pilot, lambda: any("šutim" in e.plain for e in log.entries))
            assert app.screen is screen  # no zvanja moment: nothing counts now
            assert screen.my_turn()  # and the card is still to play
    finally:
        await server.close()


async def test_a_network_seat_declares_when_asked_and_nothing_is_sent() -> None:
    server, port = await host(wait=5)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True, always_declare=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            table.start(8, Rules())
            await until(pilot, screen.my_turn)
            await pilot.press("h")
            await until(pilot, lambda: isinstance(app.screen, DeclarePrompt))
            await pilot.press("enter")  # declare: the zvanja moment follows
            await until(pilot, lambda: not isinstance(app.screen, DeclarePrompt))
            assert table.match is not None and table.match.current is not None
            assert table.match.current.silent_seats == ()
            assert table.match.current.zvanja_team == 0
    finally:
        await server.close()
