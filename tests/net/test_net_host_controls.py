"""The host's controls (issue #23): move players before the start, hand an away seat to a
bot at once, pause and resume. Only the table's leader may; everybody is told."""

from __future__ import annotations

import asyncio
import contextlib

from netplay import Player, refused, start_host, wait_for

from bela.net.protocol import Lobby, Notice, State


async def _lobby_where(player: Player, check: object) -> Lobby:
    async def loop() -> Lobby:
        while True:
            message = await player.step()
            if isinstance(message, Lobby) and check(message):  # type: ignore[operator]
                return message

    return await asyncio.wait_for(loop(), 5)


async def test_the_host_moves_players_between_seats_before_the_start() -> None:
    host = await start_host(wait=30)
    table = host.server.new_table()
    boss = Player(await host.join(table.code, "Host", lead=table.leader_key))
    ana = Player(await host.join(table.code, "Ana"))
    ivo = Player(await host.join(table.code, "Ivo"))
    try:
        assert (boss.seat, ana.seat, ivo.seat) == (0, 1, 2)
        await ana.client.send({"type": "control", "do": "move", "seat": 1, "to": 3})
        assert (await refused(ana)).code == "only_host_controls"
        # Ana and Ivo swap: Ana becomes the host's partner
        await boss.client.send({"type": "control", "do": "move", "seat": 1, "to": 2})
        lobby = await _lobby_where(ana, lambda m: m.seat == 2)
        assert [s.name for s in lobby.seats] == ["Host", "Ivo", "Ana", None]
        told = await wait_for(ivo, Notice)
        assert isinstance(told, Notice) and told.code == "moved_by_host"
        # each one's own moves and the start now go from the new seats
        await ana.client.send({"type": "sit", "seat": 3})
        lobby = await _lobby_where(ana, lambda m: m.seat == 3)
        assert [s.name for s in lobby.seats] == ["Host", "Ivo", None, "Ana"]
        await boss.client.send({"type": "start"})
        await wait_for(ana, State)
        await boss.client.send({"type": "control", "do": "move", "seat": 1, "to": 2})
        assert (await refused(boss)).code == "seats_fixed"
    finally:
        for player in (boss, ana, ivo):
            await player.client.close()
        await host.server.close()


async def test_the_host_hands_an_away_seat_to_a_bot_and_pauses_the_table() -> None:
    host = await start_host(wait=300)  # without the host, Ivo's seat would wait 5 minutes
    table = host.server.new_table()
    boss = Player(await host.join(table.code, "Host", lead=table.leader_key), seed=1)
    ivo = Player(await host.join(table.code, "Ivo"))
    try:
        await boss.client.send({"type": "start"})
        await wait_for(boss, State)
        await boss.client.send({"type": "control", "do": "bot", "seat": 1})
        assert (await refused(boss)).code == "still_connected"  # nobody present is put out
        await ivo.client.close()
        for _ in range(100):
            if table.seats[1].link is None:
                break
            await asyncio.sleep(0.01)
        await boss.client.send({"type": "control", "do": "bot", "seat": 1})
        for _ in range(100):
            if table.seats[1].bot:
                break
            await asyncio.sleep(0.01)
        assert table.seats[1].bot and table.seats[1].name == "Ivo"
        await boss.client.send({"type": "control", "do": "pause"})
        told = await wait_for(boss, Notice)
        while isinstance(told, Notice) and told.code != "paused":
            told = await wait_for(boss, Notice)
        assert table.paused
        while not boss.my_turn():
            await boss.step()
        before = table.match
        await boss.client.act(boss.states[-1].view.legal[0])
        assert (await refused(boss)).code == "table_paused"
        assert table.match is before  # nothing moved
        await boss.client.send({"type": "control", "do": "resume"})
        boss.states.append(boss.states[-1])
        await asyncio.wait_for(boss.play(stop_after=3), 10)  # play goes on
        assert not table.paused and table.match is not before
    finally:
        await boss.client.close()
        await host.server.close()


async def test_a_pause_ends_when_the_leader_who_paused_leaves() -> None:
    """Issue #33: a leader who paused and then left froze the table for good (nobody else
    may resume). The pause goes with them, and play goes on for the others."""
    host = await start_host(wait=300)
    table = host.server.new_table()
    boss = Player(await host.join(table.code, "Host", lead=table.leader_key), seed=2)
    ivo = Player(await host.join(table.code, "Ivo"), seed=3)
    try:
        await boss.client.send({"type": "start"})
        await wait_for(boss, State)
        await boss.client.send({"type": "control", "do": "pause"})
        while not table.paused:
            await boss.step()
        await boss.client.send({"type": "leave"})
        told = await wait_for(ivo, Notice)
        while isinstance(told, Notice) and told.code != "pause_ends":
            told = await wait_for(ivo, Notice)
        assert not table.paused
        before = table.match
        await asyncio.wait_for(ivo.play(stop_after=2), 20)  # the table plays on
        assert table.match is not before
    finally:
        await ivo.client.close()
        await boss.client.close()
        await host.server.close()


async def test_pause_resume_and_again_cannot_flood_the_table_talk() -> None:
    """Issue #33: ``again`` and pause / resume could put hundreds of lines in front of every
    player. They share table talk's limit: past 5 in 5 s the sender alone is refused."""
    host = await start_host(wait=300)
    table = host.server.new_table()
    boss = Player(await host.join(table.code, "Host", lead=table.leader_key), seed=4)
    ivo = Player(await host.join(table.code, "Ivo"), seed=5)
    try:
        await boss.client.send({"type": "start"})
        await wait_for(boss, State)
        for n in range(40):
            await boss.client.send({"type": "control", "do": "pause" if n % 2 == 0 else "resume"})
            await boss.client.send({"type": "again"})
        await asyncio.sleep(0.5)
        told = 0
        with contextlib.suppress(TimeoutError):
            while True:
                message = await asyncio.wait_for(ivo.step(), 0.3)
                if isinstance(message, Notice) and message.code in ("paused", "resumed"):
                    told += 1
        assert 1 <= told <= 5
        with contextlib.suppress(TimeoutError):
            while True:
                await asyncio.wait_for(boss.step(), 0.3)
        refusals = [m for m in boss.others if getattr(m, "code", None) == "slow_down"]
        assert len(refusals) >= 70
    finally:
        await ivo.client.close()
        await boss.client.close()
        await host.server.close()
