"""Još jednu (issue #23): another match at the same table once everybody connected asks.

Two players finish a quick match; one asks (the other is told who is waited
for), then the other: a new match starts at once with the same seats, the deal
passed on to the seat after the last dealer and a new seed; every ``State``
then carries the series (matches won by each team), and the second ``Over``
counts both matches. The host archives each match on its own.
"""

from __future__ import annotations

import asyncio
import json

from netplay import Player, refused, start_host, wait_for

from bela.archive.records import loads
from bela.archive.storage import matches_dir
from bela.net.protocol import Notice, Over, State


async def _until_state(player: Player, check: object, timeout: float = 10.0) -> State:
    async def loop() -> State:
        while True:
            message = await player.step()
            if isinstance(message, State) and check(message):  # type: ignore[operator]
                return message

    return await asyncio.wait_for(loop(), timeout)


async def test_another_match_starts_when_everybody_asks_and_the_series_is_kept() -> None:
    host = await start_host(target=163)
    table = host.server.new_table()
    ana = Player(await host.join(table.code, "Ana"), seed=1)
    ivo = Player(await host.join(table.code, "Ivo"), seed=2)
    try:
        await ana.client.send({"type": "again"})  # not over yet: refused, nothing changes
        assert (await refused(ana)).code == "not_over_yet"
        await ana.client.send({"type": "start"})
        await asyncio.wait_for(asyncio.gather(ana.play(), ivo.play()), 60)
        first = ana.over
        assert isinstance(first, Over) and isinstance(ivo.over, Over)
        assert first.series is not None and sum(first.series) == 1
        assert first.series[first.winner] == 1
        record = loads(json.dumps(first.record))
        last_dealer = record.rounds[-1].dealer
        await ana.client.send({"type": "again"})
        told = await wait_for(ivo, Notice)
        assert isinstance(told, Notice) and told.code == "wants_again"
        assert told.args is not None and told.args["names"] == "Ivo"
        assert table.match is not None and table.match.is_over  # waiting for Ivo
        await ivo.client.send({"type": "again"})
        fresh = await _until_state(ana, lambda s: s.winner is None and s.seq > 0)
        assert fresh.round == 0 and fresh.sheet == () and fresh.scores == (0, 0)
        assert fresh.view.dealer == (last_dealer + 1) % 4  # the deal passes on
        assert fresh.series == first.series
        assert [s.name for s in fresh.seats] == ["Ana", "Ivo", None, None]
        assert table.match is not None and table.match.seed != record.seed
        ana.over = ivo.over = None
        ana.states.append(fresh)
        await asyncio.wait_for(asyncio.gather(ana.play(), ivo.play()), 60)
        second = ana.over
        assert isinstance(second, Over) and second.series is not None
        assert sum(second.series) == 2
        assert second.series[second.winner] == first.series[second.winner] + 1
        assert len(list(matches_dir().glob("*.json"))) == 2  # each match archived
        assert second.record["seed"] != first.record["seed"]
    finally:
        await ana.client.close()
        await ivo.client.close()
        await host.server.close()
