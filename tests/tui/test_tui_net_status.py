"""The status line at 80x24 (found trying it in tmux): the dealer is named by name alone.

"Dijeljenje 1 od 3 · dijeli Mara (nije tu) · mi 0 · vi 0" ran past the status line's
width, and its last word pushed the trump line out of sight. The badges and the talk say
who is away or played by a bot; the status line's head says who deals.
"""

from __future__ import annotations

import pytest
from net_pilot import host, net_screen, until

from bela.engine import Rules
from bela.net.client import Client
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession


@pytest.mark.parametrize("language", ["en", "hr"])
async def test_the_status_names_an_away_dealer_in_two_lines_at_80_by_24(language: str) -> None:
    server, port = await host(target=163, wait=30)
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True, language=language)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            others = [
                await Client.connect("127.0.0.1", port, table.code, name)
                for name in ("Ivo", "Mara", "Aleksandra")  # seat 4 deals the first round
            ]
            table.start(3, Rules())
            screen = net_screen(app)
            await until(pilot, lambda: screen.state is not None)
            await others[2].close()  # the dealer's line drops: away
            await until(
                pilot, lambda: screen.state is not None and screen.state.seats[3].kind == "away"
            )
            status = screen.query_one("#status")
            lines = str(status.render()).splitlines()
            assert "Aleksandra ·" in lines[0], lines
            assert status.virtual_size.height <= 2 and status.region.height == 2
            wrapped = status.get_content_height(status.size, status.size, status.size.width)
            assert wrapped == 2, lines
            for other in others[:2]:
                await other.close()
    finally:
        await server.close()
