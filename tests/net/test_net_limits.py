"""Limits a stranger cannot pass (issue #23, points 1 and 4), on a host in this process.

Connections that have not said a good hello are capped by address and in all, and
refused before a byte of theirs is read; a line once begun must end within the
host's deadline; a save that fails stops the table (no state goes out, no bot
plays) and says so once, until a save lands again; a value echoed in a closing
frame is cut. ``tests/cli/test_cli_net_limits.py`` has the same with the real
``bela host`` under a lowered open-file limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path

from netplay import Player, start_host, wait_for

from bela.net.faults import FaultLog
from bela.net.protocol import PROTOCOL_VERSION, Notice, Refused, State


async def _closing_of(reader: asyncio.StreamReader, timeout: float = 5.0) -> dict[str, object]:
    line = await asyncio.wait_for(reader.readline(), timeout)
    frame = json.loads(line)
    assert isinstance(frame, dict) and frame["type"] == "closing"
    return frame


async def test_connections_without_hello_are_capped_by_address_and_in_all() -> None:
    host = await start_host(max_unseated=6, max_unseated_per_address=3)
    table = host.server.new_table()
    held: list[asyncio.StreamWriter] = []
    try:
        # three idle connections from one address are held; the fourth is refused at once
        for n in range(3):
            reader, writer = await asyncio.open_connection(host.host, host.port)
            held.append(writer)
            if n == 0:
                first = reader
        reader, writer = await asyncio.open_connection(host.host, host.port)
        closing = await _closing_of(reader)
        assert closing["code"] == "too_many_from_address"
        writer.close()
        # another address (127.0.0.2: loopback too) fills the cap in all
        for _ in range(3):
            _reader, writer = await asyncio.open_connection(
                host.host, host.port, local_addr=("127.0.0.2", 0)
            )
            held.append(writer)
        await asyncio.sleep(1.1)
        # past it, the oldest idle connection makes room: strangers cannot keep friends out
        _reader, writer = await asyncio.open_connection(
            host.host, host.port, local_addr=("127.0.0.3", 0)
        )
        held.append(writer)
        assert (await _closing_of(first))["code"] == "host_busy"
        held.pop(0).close()
        await asyncio.sleep(0.1)
        friend = await host.join(table.code, "Ana")
        assert friend.welcome is not None and friend.welcome.seat == 0
        # and once seated, a connection no longer counts
        assert len(host.server._waiting) == 5
        await friend.close()
    finally:
        for writer in held:
            writer.close()
        await host.server.close()


async def test_a_half_sent_line_is_cut_off_after_the_deadline() -> None:
    host = await start_host(line_deadline=0.3)
    table = host.server.new_table()
    try:
        reader, writer = await asyncio.open_connection(host.host, host.port)
        hello = {"type": "hello", "v": PROTOCOL_VERSION, "code": table.code, "name": "Ana"}
        writer.write(json.dumps(hello).encode() + b"\n")
        await writer.drain()
        welcome = json.loads(await asyncio.wait_for(reader.readline(), 2))
        assert welcome["type"] == "welcome"
        await asyncio.wait_for(reader.readline(), 2)  # the lobby
        writer.write(b'{"type": "chat", "te')  # ... and nothing more
        await writer.drain()
        while True:  # notices and lobbies may come first; then the closing frame
            frame = json.loads(await asyncio.wait_for(reader.readline(), 3))
            if frame["type"] == "closing":
                break
        assert frame["code"] == "line_too_slow"
        assert await asyncio.wait_for(reader.read(), 2) == b""  # and the line is hung up
        writer.close()
    finally:
        await host.server.close()


async def test_a_huge_number_is_not_echoed_whole() -> None:
    host = await start_host()
    table = host.server.new_table()
    try:
        reader, writer = await asyncio.open_connection(host.host, host.port)
        huge = "9" * 1900
        hello = f'{{"type":"hello","v":{huge},"code":"{table.code}","name":"Ana"}}\n'
        writer.write(hello.encode())
        line = await asyncio.wait_for(reader.readline(), 2)
        frame = json.loads(line)
        assert frame["type"] == "closing" and frame["code"] == "wrong_version"
        assert len(line) < 600
        assert "9" * 100 not in line.decode()
        writer.close()
    finally:
        await host.server.close()


async def test_a_failed_save_stops_the_table_tells_everyone_once_and_recovers(
    data_dir: Path,
) -> None:
    lines: list[str] = []
    host = await start_host(wait=30)
    host.server.faults = FaultLog(write=lines.append)
    saver = host.server.saver
    assert saver is not None
    saver.on_problem = host.server.faults.report
    saver.retry_after = 0.05
    tables = saver.directory
    tables.parent.mkdir(parents=True, exist_ok=True)
    tables.write_text("not a directory")  # every save fails (ENOTDIR / EEXIST) until fixed
    table = host.server.new_table()
    try:
        ana = Player(await host.join(table.code, "Ana", lead=table.leader_key), seed=1)
        ivo = Player(await host.join(table.code, "Ivo"), seed=2)
        await ana.client.send({"type": "start"})
        told = await wait_for(ana, Notice)
        while isinstance(told, Notice) and told.code != "not_saving":
            told = await wait_for(ana, Notice)
        await asyncio.sleep(0.5)  # ten tries fail meanwhile
        # the dealt hands were never saved: nobody has seen them, and no bot has played
        assert not ana.states and not ivo.states
        assert table.match is not None and table.match.current is not None
        assert not table.match.current.actions
        await ana.client.act("dalje")
        refusal = await wait_for(ana, Refused)
        assert isinstance(refusal, Refused) and refusal.code == "not_saving"
        # the host's operator is told in one line, however many tries failed
        assert len([line for line in lines if "could not save" in line]) == 1
        os.unlink(tables)
        tables.mkdir()
        state = await wait_for(ana, State)
        assert isinstance(state, State)
        await asyncio.wait_for(asyncio.gather(ana.play(), ivo.play()), 30)
        notices = [m for m in ana.others if isinstance(m, Notice)]
        assert [n.code for n in notices].count("not_saving") == 1  # told once
        assert any(n.code == "saving_again" for n in notices)
        assert ana.over is not None
    finally:
        await host.server.close()


async def test_a_friend_gets_in_while_strangers_flood_from_many_addresses() -> None:
    """Issue #33: thousands of idle connections a second from 20+ addresses (more than the
    waiting room holds, each address at its cap) refused 12 of 15
    friends' hellos and 9 of 15 token reconnects (``host_busy``): the waiting room was full
    of connections too young to push out. Now the address holding the most makes room, so
    the strangers only push out each other and every friend with the code or a token is in."""
    from bela.net.protocol import Welcome

    host = await start_host(max_unseated=32, max_unseated_per_address=4)
    table = host.server.new_table()
    stop = asyncio.Event()
    opened = 0

    async def stranger(address: str) -> None:
        nonlocal opened
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(
                    host.host, host.port, local_addr=(address, 0)
                )
            except OSError:
                await asyncio.sleep(0.01)
                continue
            opened += 1
            with contextlib.suppress(Exception):
                await asyncio.wait_for(reader.read(), 0.2)  # until the host hangs up, or a while
            writer.close()

    flood = [asyncio.create_task(stranger(f"127.0.0.{n}")) for n in range(2, 12) for _ in range(4)]
    try:
        await asyncio.sleep(0.5)
        friends = [await host.join(table.code, name) for name in ("Ana", "Ivo", "Mara")]
        assert all(isinstance(f.welcome, Welcome) for f in friends)
        tokens = [(f.welcome.seat, f.welcome.token) for f in friends if f.welcome is not None]
        await friends[0].send({"type": "start"})  # seats are kept for their tokens from now
        await asyncio.sleep(0.2)
        for friend in friends:
            await friend.close()
        await asyncio.sleep(0.1)
        for seat, token in tokens:  # each back with its token, while the flood goes on
            back = await host.join(table.code, "x", token=token)
            assert back.welcome is not None and back.welcome.seat == seat
            await back.close()
        assert opened > 100  # the flood was on all along
    finally:
        stop.set()
        await asyncio.gather(*flood, return_exceptions=True)
        await host.server.close()
