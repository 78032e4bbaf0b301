"""The table's clock (issue #23): off unless the host sets it; then a connected player who
does not act is warned, and a bot plays that one turn for them (the seat stays theirs)."""

from __future__ import annotations

import asyncio
import json

from netplay import Player, start_host, wait_for

from bela.archive.records import loads
from bela.net.protocol import Lobby, Notice, Over, State


async def test_a_player_who_does_not_act_is_warned_then_a_bot_plays_that_turn() -> None:
    host = await start_host(target=163, clock=0.3, wait=30)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=1)
    try:
        lobby = await wait_for(ana, Lobby)
        assert isinstance(lobby, Lobby) and lobby.clock == 0.3  # the lobby says so
        await ana.client.send({"type": "start"})
        heard: list[str] = []

        async def until_played_for() -> None:
            while True:
                message = await ana.step()
                if isinstance(message, Notice) and message.code:
                    heard.append(message.code)
                    if message.code == "clock_played":
                        return

        await asyncio.wait_for(until_played_for(), 20)  # Ana never acts
        assert heard.index("clock_warning") < heard.index("clock_played")
        assert not table.seats[0].bot and table.seats[0].link is not None  # still hers
        assert table.bot_played and {seat for _, seat in table.bot_played} == {0}
        # she plays on herself, and the match ends with the turn noted in its record
        await asyncio.wait_for(ana.play(), 60)
        assert isinstance(ana.over, Over)
        record = loads(json.dumps(ana.over.record))
        assert record.bot_rounds is not None and (0, 0) in record.bot_rounds
    finally:
        await ana.client.close()
        await host.server.close()


async def test_no_clock_by_default_nobody_is_rushed() -> None:
    host = await start_host(target=163, wait=30)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=2)
    try:
        lobby = await wait_for(ana, Lobby)
        assert isinstance(lobby, Lobby) and lobby.clock is None
        await ana.client.send({"type": "start"})

        async def my_turn() -> None:
            while not ana.my_turn():
                await ana.step()

        await asyncio.wait_for(my_turn(), 10)
        assert table.clock_handles == [] and table.clock_turn is None  # no clock runs
        state = ana.states[-1]
        assert isinstance(state, State) and state.view.to_act == 0
    finally:
        await ana.client.close()
        await host.server.close()


async def test_a_drop_and_a_return_do_not_buy_a_fresh_clock() -> None:
    """Issue #33: dropping and sitting down again started the turn's clock afresh, so a
    player could hold a turn for ever (42 s and more at a 4 s clock). The clock runs on:
    while away nothing is played for them (the host's wait covers a dropped seat); back
    after their time ran out, the turn is played for them at once, not a whole clock later."""
    host = await start_host(target=163, clock=2.0, wait=30)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=3)
    try:
        await ana.client.send({"type": "start"})

        async def my_turn(player: Player) -> None:
            while not player.my_turn():
                await player.step()

        await asyncio.wait_for(my_turn(ana), 10)
        seq = table.seq
        assert ana.client.welcome is not None
        token = ana.client.welcome.token
        await ana.client.close()
        while table.seats[0].link is not None:  # the host sees the drop at once
            await asyncio.sleep(0.01)
        await asyncio.sleep(2.2)  # past the clock: the seat is away, nothing was played
        assert table.seq == seq and table.seats[0].link is None and not table.seats[0].bot
        back = Player(await host.join(table.code, "Ana", token=token), seed=4)

        async def played_for() -> None:
            while True:
                message = await back.step()
                if isinstance(message, Notice) and message.code == "clock_played":
                    return

        # a fresh clock would play it 2 s from now; the clock that ran on, at once
        await asyncio.wait_for(played_for(), 1.2)
        assert table.seq > seq
        await back.client.close()
    finally:
        await host.server.close()
