"""Šutim at a network seat (issue #23): the host says when a seat may keep its zvanja back,
takes the ``šutim`` action by the engine's rules, and tells every seat (and watcher)
who did; a watcher is never told that a seat could (it would say that seat holds zvanja).

Seed 8 deals seat 0, first to speak, a declaration, and nobody else one.
"""

from __future__ import annotations

import asyncio

from netplay import Player, start_host, wait_for

from bela.engine import Rules
from bela.net.client import Client
from bela.net.protocol import State

SEED = 8


async def _state(player: Player, check: object) -> State:
    async def loop() -> State:
        while True:
            message = await player.step()
            if isinstance(message, State) and check(message):  # type: ignore[operator]
                return message

    return await asyncio.wait_for(loop(), 10)


async def test_a_network_seat_says_sutim_and_every_seat_learns_it() -> None:
    host = await start_host(target=501, wait=5)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"))
    mara = Player(await Client.connect(host.host, host.port, table.code, "Mara", watch=True))
    try:
        table.start(SEED, Rules())
        first = await wait_for(ana, State)
        assert isinstance(first, State) and first.view.to_act == 0
        assert not first.view.may_stay_silent  # bidding: not yet
        await ana.client.act("call H")
        asked = await _state(ana, lambda s: s.view.phase == "playing")
        assert asked.view.may_stay_silent and asked.view.own_zvanja
        assert asked.view.shown_zvanja  # declared unless kept back
        await ana.client.act("šutim")
        after = await _state(ana, lambda s: s.seq > asked.seq)
        assert after.view.silent == (0,) and not after.view.may_stay_silent
        assert after.view.to_act == 0 and after.view.shown_zvanja == ()  # nothing counts now
        assert table.match is not None and table.match.current is not None
        assert table.match.current.silent_seats == (0,)
        await ana.client.act("šutim")  # once a round
        seen = await _state(mara, lambda s: s.seq == after.seq)
        assert seen.view.silent == (0,)
        await ana.client.act(after.view.legal[0])  # and the card follows as usual
        played = await _state(ana, lambda s: s.seq > after.seq)
        assert len(played.view.trick) >= 1
        watched = [s for s in mara.states if s.winner is None]
        assert watched and not any(s.view.may_stay_silent for s in watched)
    finally:
        await mara.client.close()
        await ana.client.close()
        await host.server.close()
