"""What the records of a network match say (issue #23): who played it, and when a bot stood in.

A player who leaves mid-match is played by a bot for the rest: the record that
every seat is sent at the end names the rounds (and seat) a bot played for a
person, and only those (the bots of empty seats are bots all along, named so).
"""

from __future__ import annotations

import asyncio
import json

from netplay import Player, start_host

from bela.archive.records import loads
from bela.net.protocol import Over


async def test_the_record_says_in_which_rounds_a_bot_played_a_persons_seat() -> None:
    host = await start_host(target=501)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=1)
    ivo = Player(await host.join(table.code, "Ivo"), seed=2)
    await ana.client.send({"type": "start"})
    try:
        playing = asyncio.create_task(ana.play())
        await asyncio.wait_for(ivo.play(stop_after=12), 20)  # Ivo plays a while, then leaves
        await ivo.client.send({"type": "leave"})
        await asyncio.wait_for(playing, 30)
        over = ana.over
        assert isinstance(over, Over)
        record = loads(json.dumps(over.record))
        assert record.players == ("Ana", "Ivo", "bot 3", "bot 4")
        assert record.bot_rounds is not None
        seats = {seat for _, seat in record.bot_rounds}
        assert seats == {ivo.seat}  # Ivo's seat, never the bots' own seats
        rounds = {index for index, _ in record.bot_rounds}
        finished = {entry.index for entry in record.rounds}
        left_in = max(s.round for s in ivo.states)
        first = min(rounds)  # the round he left in (or the next, if he left at its very end)
        assert first in (left_in, left_in + 1)
        assert rounds == {i for i in finished if i >= first}  # from then to the end
    finally:
        await ana.client.close()
        await ivo.client.close()
        await host.server.close()


async def test_a_match_nobody_left_has_no_bot_rounds() -> None:
    host = await start_host(target=163)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=3)
    await ana.client.send({"type": "start"})
    try:
        await asyncio.wait_for(ana.play(), 30)
        assert isinstance(ana.over, Over)
        record = loads(json.dumps(ana.over.record))
        assert record.bot_rounds is None
        # the host's record says it was a network match: the names do not (issue #35)
        assert record.kind == "network" and record.is_network
    finally:
        await ana.client.close()
        await host.server.close()


async def test_a_restarted_host_still_knows_the_rounds_a_bot_played_for_a_person() -> None:
    """The rounds a bot stood in for a person travel in the table's snapshot: the host
    restarted from its save archives them in the record like a host that never stopped."""
    from netplay import Host

    from bela.archive.storage import matches_dir, read_record
    from bela.net.saves import TableSaver, load_tables
    from bela.net.server import Server

    host = await start_host(target=501)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=7)
    ivo = Player(await host.join(table.code, "Ivo"), seed=8)
    await ana.client.send({"type": "start"})
    playing = asyncio.create_task(ana.play())
    await asyncio.wait_for(ivo.play(stop_after=4), 20)
    await ivo.client.send({"type": "leave"})  # a bot plays Ivo's seat from now on
    for _ in range(2000):  # until a round has begun since (its snapshot holds the mark)
        rounds = {i for i, _ in table.bot_played}
        if table.match is not None and rounds and table.match.next_index > min(rounds):
            break
        await asyncio.sleep(0.005)
    playing.cancel()
    await asyncio.gather(playing, return_exceptions=True)
    marked = set(table.bot_played)
    token = ana.client.welcome.token if ana.client.welcome else ""
    await ana.client.close()
    await host.server.close()
    assert marked and {seat for _, seat in marked} == {ivo.seat}

    server = Server(host.server.options, TableSaver())
    [(save, match)] = load_tables()[0]
    resumed = server.resume_table(save, match)
    assert resumed.bot_played >= {m for m in marked if m[0] < match.next_index}
    address = await server.listen("127.0.0.1", 0)
    try:
        back = Player(await Host(server, *address).join(table.code, "Ana", token=token), seed=9)
        await asyncio.wait_for(back.play(), 60)
    finally:
        await server.close()
    [path] = list(matches_dir().glob("*.json"))
    record = read_record(path)
    assert record.bot_rounds is not None
    assert {m for m in marked if m[0] < match.next_index} <= set(record.bot_rounds)
