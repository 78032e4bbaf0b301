"""The lobby at 80x24 (found trying it in tmux): the centre holds the title and the four
seats whole, in every language; the keys are said on the message line below.

Before, each seat took two rows ("[3] seat 3 · team A:" and the name) and the list ran
past the centre's eight rows: seat 4 and "g: start the match" were drawn over by the
player's own badge.
"""

from __future__ import annotations

import pytest
from net_pilot import host, net_screen, until

from bela.net.client import Client
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession


@pytest.mark.parametrize("language", ["en", "hr", "es", "ru", "zh", "ar"])
async def test_the_lobby_fits_the_centre_at_80_by_24(language: str) -> None:
    server, port = await host()
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Vesna", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True, language=language)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            ivo = await Client.connect("127.0.0.1", port, table.code, "Ivo")
            mara = await Client.connect("127.0.0.1", port, table.code, "Mara")
            screen = net_screen(app)
            await until(pilot, lambda: "Mara" in str(screen.query_one("#lobby").render()))
            await pilot.pause(0.1)
            lobby, centre = screen.query_one("#lobby"), screen.query_one("#centre")
            assert centre.region.contains_region(lobby.region), (lobby.region, centre.region)
            assert lobby.virtual_size.height <= lobby.region.height
            drawn = str(lobby.render())
            for key, name in (("[1]", "Vesna"), ("[2]", "Ivo"), ("[3]", "Mara"), ("[4]", "")):
                assert key in drawn and name in drawn
            assert "1-4" in str(screen.query_one("#message").render())
            await ivo.close()
            await mara.close()
    finally:
        await server.close()


async def test_a_long_wide_name_keeps_the_lobby_whole_at_80_by_24() -> None:
    """Issue #33: a 24-character CJK name (48 cells) broke the 80x24 lobby: its line wrapped
    and pushed the seats below out of the centre. A line too wide ends in an ellipsis."""
    server, port = await host()
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Vesna", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True)
    wide = "龍" * 24
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            guest = await Client.connect("127.0.0.1", port, table.code, wide)
            ivo = await Client.connect("127.0.0.1", port, table.code, "Ivo")
            screen = net_screen(app)
            await until(pilot, lambda: "Ivo" in str(screen.query_one("#lobby").render()))
            await pilot.pause(0.1)
            lobby, centre = screen.query_one("#lobby"), screen.query_one("#centre")
            assert centre.region.contains_region(lobby.region)
            assert lobby.virtual_size.height <= 5  # the title and four seats, one row each
            assert lobby.virtual_size.height <= lobby.region.height
            await guest.close()
            await ivo.close()
    finally:
        await server.close()
