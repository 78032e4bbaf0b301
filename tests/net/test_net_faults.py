"""Faults: players cut off mid-trick, garbage on the wire, the host restarted mid-match.

Three tables play at once. Players' connections are cut without a goodbye in
the middle of tricks and come back with their tokens; a stranger sends garbage
and oversized frames; then the host is shut down and a new one started on the
same data directory, which resumes every table from its save; the players
reconnect and finish. Every table must end with a complete record in the
archive that replays, holds the seat names, and begins with everything played
before the restart: nothing lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

import pytest
from netplay import Host, Player, start_host

from bela.archive.records import match_from_record, record_from_match
from bela.archive.storage import matches_dir, read_record
from bela.net.saves import TableSaver, load_tables
from bela.net.server import Server
from bela.net.table import Table


def _lead(table: Table, k: int) -> str | None:
    return table.leader_key if k == 0 else None


async def _garbage(host: Host) -> None:
    """A stranger: junk, an oversized frame, a wrong code; each closed, nobody else harmed."""
    for frame in (b"\x00\x01\x02\n", b"{" * 5000 + b"\n", b'{"type":"hello"}\n'):
        with contextlib.suppress(OSError):
            reader, writer = await asyncio.open_connection(host.host, host.port)
            writer.write(frame)
            await asyncio.wait_for(reader.read(), 2)
            writer.close()


async def _cut_and_return(
    host: Host, players: list[Player], code: str, name: str, seed: int
) -> None:
    """Play a few actions, cut the line mid-trick (no goodbye), come back with the token,
    play on (the new connection takes the old one's place in ``players``)."""
    player = players[-1]
    await player.play(stop_after=3)
    welcome = player.client.welcome
    assert welcome is not None
    player.client.writer.transport.abort()
    await asyncio.sleep(0.05)
    client = await host.join(code, name, token=welcome.token)
    assert client.welcome is not None and client.welcome.seat == welcome.seat
    players[-1] = Player(client, seed=seed)
    await players[-1].play()


@pytest.mark.slow
async def test_every_table_ends_with_a_complete_record_through_faults(data_dir: Path) -> None:
    host = await start_host(wait=0.3)
    tables = []
    for n in range(3):
        table = host.server.new_table()
        players = [
            Player(await host.join(table.code, f"t{n}p{k}", lead=_lead(table, k)), seed=10 * n + k)
            for k in range(2 + n % 3)
        ]
        await players[0].client.send({"type": "start"})
        tables.append((table, players))
    await _garbage(host)
    # everyone plays; one player per table is cut off mid-trick and comes back
    runs: list[asyncio.Task[None]] = []
    for n, (table, players) in enumerate(tables):
        runs += [asyncio.create_task(p.play()) for p in players[:-1]]
        name = f"t{n}p{len(players) - 1}"
        runs.append(asyncio.create_task(_cut_and_return(host, players, table.code, name, 99 + n)))

    # the host goes down mid-match, once every table is well into it
    async def progressed() -> None:
        while any(t.seq < 40 for t, _ in tables):
            await asyncio.sleep(0.005)

    await asyncio.wait_for(progressed(), 10)
    for run in runs:
        run.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    before = {t.table_id: record_from_match(t.match, t.difficulty) for t, _ in tables if t.match}
    tokens = {
        t.table_id: [(p.client.welcome.token, p.seat) for p in ps if p.client.welcome]
        for t, ps in tables
    }
    await host.server.close()
    unfinished = [t for t, _ in tables if t.match is not None and not t.match.is_over]
    assert unfinished, "the restart must come mid-match for at least one table"

    # a new host on the same data directory resumes every unfinished table
    server = Server(host.server.options, TableSaver())
    saved, problems = load_tables()
    assert not problems
    assert {s.table_id for s, _ in saved} == {t.table_id for t in unfinished}
    for save, match in saved:
        server.resume_table(save, match)
    address = await server.listen("127.0.0.1", 0)
    again = Host(server, *address)
    try:
        finals = []
        for table in unfinished:
            for k, (token, seat) in enumerate(tokens[table.table_id]):
                client = await again.join(table.code, f"back{k}", token=token)
                assert client.welcome is not None and client.welcome.seat == seat
                finals.append(Player(client, seed=500 + k))
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in finals)), 30)
    finally:
        await server.close()

    paths = sorted(matches_dir().glob("*.json"))
    assert len(paths) == len(tables), "one archived record per table, no more"
    archived = {}
    for path in paths:
        record = read_record(path)
        assert record.players is not None
        archived[record.players[0]] = record
    assert len(archived) == len(tables)
    for n, (table, players) in enumerate(tables):
        record = archived[f"t{n}p0"]
        assert record.players is not None
        assert record.players[: len(players)] == tuple(f"t{n}p{k}" for k in range(len(players)))
        match = match_from_record(record)  # replays, and checks every stored result
        assert match.is_over and record.is_finished
        earlier = before.get(table.table_id)
        if earlier is not None:  # nothing played before the restart was lost
            for old, new in zip(earlier.rounds, record.rounds, strict=False):
                assert new.actions[: len(old.actions)] == old.actions
    assert not list((data_dir / "tables").glob("*.json")), "finished tables leave no save"
    for player in finals:
        assert player.over is not None
        sent = json.loads(json.dumps(player.over.record))
        assert sent["winner"] == player.over.winner
