"""The SSH door and the browser page of a public server of many workers (issue #39): they run
beside the front door, and each session's ``bela online`` signs in through the front door
like any client, so an SSH player and a browser guest reach every worker's tables.

The workers run in the test's own event loop (``test_online_workers.cluster``) on a real
Redis and PostgreSQL; the SSH session and the page run the real app in a process of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from test_online_workers import NAMES, cluster

from bela.net.client import Client
from bela.net.online_client import take_seat

pytestmark = pytest.mark.server


async def _until(check: Callable[[], bool], timeout: float = 90.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.05)


async def test_an_ssh_player_and_a_bela_online_client_meet_at_one_table_of_two_workers(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    from bela.net.ssh import start_public_ssh

    async with cluster(tmp_path, postgres_url, redis_prefix, count=2) as site:
        door = await start_public_ssh(
            site.door,  # type: ignore[arg-type]
            "127.0.0.1",
            0,
            site.door_port,
            tmp_path / "server",
        )
        ssh_port = door.sockets[0].getsockname()[1]
        screen = bytearray()
        others: list[asyncio.Task[Client]] = []
        conn = None
        try:
            for name in NAMES[1:]:  # three bela online clients wait for a quick match
                others.append(
                    asyncio.create_task(
                        take_seat(
                            "127.0.0.1",
                            site.door_port,
                            name,
                            Ed25519PrivateKey.generate(),
                            site.pins,
                            {"type": "quick", "target": 1001, "wait": 600},
                        )
                    )
                )
            conn = await asyncssh.connect(
                "127.0.0.1",
                ssh_port,
                username="Ana",
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                known_hosts=None,
            )
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(120, 40), encoding=None
            )

            async def read() -> None:
                with contextlib.suppress(asyncssh.Error):
                    while chunk := await process.stdout.read(65536):
                        screen.extend(chunk)

            reading = asyncio.create_task(read())
            await _until(lambda: b"Tables at" in screen)  # the lobby, through the front door
            process.stdin.write(b"q")  # a quick match to 1001
            clients = await asyncio.wait_for(asyncio.gather(*others), 90)
            table_ids = {c.welcome.table for c in clients if c.welcome is not None}
            assert len(table_ids) == 1
            (table_id,) = table_ids
            owner = next(w for w in site.workers if table_id in w.meta)  # type: ignore[attr-defined]
            people = owner.meta[table_id].people  # type: ignore[attr-defined]
            assert set(people) == set(NAMES)  # the SSH player Ana sits with the three
            assert people["Ana"] is not None  # as an account: the SSH key is hers
            await _until(lambda: b"mi / vi" in screen)  # her table, in her terminal
            # her app signed in at the front door and was sent on: a worker saw her login
            assert any(line.endswith(": login: Ana") for line in site.events)
            for client in clients:
                await client.close()
            reading.cancel()
        finally:
            for task in others:
                task.cancel()
            if conn is not None:
                conn.close()
            door.close()
            await door.wait_closed()


async def test_a_browser_page_reaches_the_lobby_through_the_front_door(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    import aiohttp

    from bela.cli.online import ServerCommandOptions, _start_web

    async with cluster(tmp_path, postgres_url, redis_prefix, count=2) as site:
        out = (tmp_path / "out.txt").open("w")
        options = ServerCommandOptions(0, False, None, "normal", 120, web_port=0, web_tabs=2)
        runner = await _start_web("127.0.0.1", 0, site.door_port, options, tmp_path / "web", out)
        web_port = runner.addresses[0][1]
        url = f"https://127.0.0.1:{web_port}/ws?width=100&height=30"
        try:
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(url, ssl=False) as ws,
            ):
                text = ""
                async with asyncio.timeout(90):
                    async for message in ws:
                        if message.type == aiohttp.WSMsgType.BINARY:
                            text += message.data.decode("utf-8", "replace")
                        elif message.type == aiohttp.WSMsgType.TEXT:
                            envelope = json.loads(message.data)
                            if envelope[0] == "stdout":
                                text += envelope[1]
                        if "Tables at" in text:
                            break
                await _until(lambda: any("guest: Gost-" in line for line in site.events), 30)
        finally:
            out.close()
            await runner.cleanup()
