"""One person, one seat (issue #23, point 2).

Once the match has started nobody new sits down, not in a bot's seat either
(a second connection with the code would get that seat's hand); before the
start a newcomer takes an open seat. A token given up with ``leave`` is dead:
it seats nobody again, not even after the host restarts from its save.
"""

from __future__ import annotations

import asyncio

import pytest
from netplay import Player, start_host, wait_for

from bela.net.client import JoinError
from bela.net.protocol import Notice, State
from bela.net.saves import load_tables


async def test_a_token_given_up_with_leave_is_dead_even_after_a_restart() -> None:
    host = await start_host(wait=30)
    table = host.server.new_table()
    try:
        ana = Player(await host.join(table.code, "Ana", lead=table.leader_key), seed=1)
        ivo = Player(await host.join(table.code, "Ivo"), seed=2)
        await ana.client.send({"type": "start"})
        await wait_for(ivo, State)
        token = ivo.client.welcome.token if ivo.client.welcome else ""
        await ivo.client.send({"type": "leave"})
        told = await wait_for(ana, Notice)
        while isinstance(told, Notice) and told.code != "bot_plays_for":
            told = await wait_for(ana, Notice)
        with pytest.raises(JoinError, match="token"):
            await host.join(table.code, "Ivo", token=token)
        await asyncio.sleep(0.2)  # the seat's new save (no token) is written at once
    finally:
        await host.server.close()
    saves, problems = load_tables()
    assert not problems
    ((save, _match),) = saves
    assert save.names[1] == "Ivo" and save.tokens[1] is None and save.bots[1]
    again = await start_host(wait=30)
    try:
        again.server.resume_table(save, _match)
        with pytest.raises(JoinError, match="token"):
            await again.join(table.code, "Ivo", token=token)
    finally:
        await again.server.close()


async def test_nobody_new_sits_down_once_started_but_anyone_before() -> None:
    host = await start_host(wait=30)
    table = host.server.new_table()
    try:
        ana = Player(await host.join(table.code, "Ana", lead=table.leader_key), seed=1)
        early = await host.join(table.code, "Ivo")  # before the start: an open seat
        assert early.welcome is not None and early.welcome.seat == 1
        await ana.client.send({"type": "start"})
        state = await wait_for(ana, State)
        assert isinstance(state, State)
        assert [s.kind for s in state.seats] == ["human", "human", "bot", "bot"]
        for name in ("Mallory", "Eve"):  # a second connection of a player, or anyone
            with pytest.raises(JoinError, match="match has started"):
                await host.join(table.code, name)
        assert [s.bot for s in table.seats] == [False, False, True, True]
        await early.close()
    finally:
        await host.server.close()
