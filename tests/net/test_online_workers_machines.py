"""Two machines, each ``bela server --workers 2 --advertise HOST``, sharing one PostgreSQL
and one Redis (issue #39): on one box, the loopback addresses 127.0.0.1 and 127.0.0.2 are
the two machines, each listening on its own address only, on the same ports. A player at
the first machine's front door is sent to a table the second machine's worker holds (the
redirect names its host) and plays there; the first machine dies whole (its supervisor and
workers killed at once): the second serves on, takes up the first one's table, and its
player comes back through the second machine's front door (trying the first one's, as
``bela online A,B`` does, then the second's)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from netplay import Player
from onlineplay import OnlinePlayer, next_of
from test_online_workers_real import free_base

from bela.net.client import Client, JoinError
from bela.net.identity import CERT_FILE, CERT_KEY_FILE, Pins, load_or_make_certificate
from bela.net.lobby_protocol import Created
from bela.net.online_client import Online, in_turn, take_seat
from bela.net.protocol import State, Welcome

A, B = "127.0.0.1", "127.0.0.2"


@contextlib.contextmanager
def machine(
    data: Path, host: str, port: int, postgres: str
) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """``bela server --workers 2 --advertise host --listen host`` in a session of its own
    (so the whole machine can be killed at once): its process and its lines, as they come."""
    env = dict(os.environ, BELA_DATA_DIR=str(data / "home"))
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "bela", "--lang", "en", "server"),
            *("--port", str(port), "--data", str(data / "srv"), "--bots", "random"),
            *("--workers", "2", "--advertise", host, "--listen", host),
            *("--postgres", postgres, "--redis", os.environ["BELA_TEST_REDIS"]),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        lines.extend(process.stderr)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield process, lines
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(5)


def owner_of(table_id: str) -> str:
    import redis

    client = redis.Redis.from_url(os.environ["BELA_TEST_REDIS"], decode_responses=True)
    try:
        raw = client.hget("bela:tables", table_id)
    finally:
        client.close()
    assert isinstance(raw, str)
    return str(json.loads(raw)["worker"])


def forget_redis() -> None:
    import redis

    client = redis.Redis.from_url(os.environ["BELA_TEST_REDIS"])
    keys = list(client.scan_iter(match="bela:*"))
    if keys:
        client.delete(*keys)
    client.close()


async def until(check: object, seconds: float) -> None:
    async with asyncio.timeout(seconds):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.2)


@pytest.mark.server
async def test_two_machines_a_player_sent_across_and_one_machine_dies(
    tmp_path: Path, postgres_url: str
) -> None:
    port = free_base(2)
    # the operator copies the one certificate into each machine's data directory
    load_or_make_certificate(tmp_path / "a" / "srv")
    (tmp_path / "b" / "srv").mkdir(parents=True)
    for name in (CERT_FILE, CERT_KEY_FILE):
        shutil.copy2(tmp_path / "a" / "srv" / name, tmp_path / "b" / "srv" / name)
    pins = Pins(tmp_path / "client")
    keys = {name: Ed25519PrivateKey.generate() for name in ("Ana", "Ivo", "Eva", "Mate")}
    try:
        with (
            machine(tmp_path / "a", A, port, postgres_url) as (first, a_lines),
            machine(tmp_path / "b", B, port, postgres_url) as (_second, b_lines),
        ):
            await until(lambda: sum("listening:" in line for line in a_lines + b_lines) >= 4, 90)
            await asyncio.sleep(1.0)  # each worker has said its address in the directory
            # Ana creates a table at the second machine; Ivo and Eva, at the first
            # machine's front door, ask for it by its id and are sent across
            made: list[Created] = []
            ana = await take_seat(
                B, port, "Ana", keys["Ana"], pins, {"type": "create", "target": 501}, made.append
            )
            table_b = made[0].table
            assert owner_of(table_b).startswith(f"{B}:")
            joined: list[Client] = []
            for name in ("Ivo", "Eva"):
                client = await take_seat(
                    A, port, name, keys[name], pins, {"type": "join", "table": table_b}
                )
                assert client.writer.get_extra_info("peername")[0] == B
                assert isinstance(client.welcome, Welcome) and client.welcome.table == table_b
                joined.append(client)
            # Mate's table is at the first machine (its front door keeps him there)
            made_a: list[Created] = []
            mate = await take_seat(
                A, port, "Mate", keys["Mate"], pins, {"type": "create"}, made_a.append
            )
            table_a = made_a[0].table
            assert owner_of(table_a).startswith(f"{A}:")
            await ana.send({"type": "start"})
            await mate.send({"type": "start"})
            players = [Player(c, i) for i, c in enumerate([ana, *joined])]
            tasks = [asyncio.create_task(p.play()) for p in players]
            mate_player = Player(mate, 9)
            mate_task = asyncio.create_task(mate_player.play())
            await until(lambda: len(players[1].states) >= 8 and len(mate_player.states) >= 4, 60)
            # the first machine dies whole: its front door, its supervisor, its workers
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
            await asyncio.gather(mate_task, return_exceptions=True)  # his line dropped
            seen = mate_player.states[-1]
            before = len(players[1].states)
            # the table at the second machine plays on, its players never left
            await until(lambda: len(players[1].states) >= before + 8, 60)
            assert all(not t.done() or t.exception() is None for t in tasks)

            # Mate comes back at the second machine's front door: seated again, at his
            # table, which a worker of the second machine took up from its save
            async def connect(host: str, at: int) -> Online:
                return await Online.connect(host, at, "Mate", keys["Mate"], pins)

            async with asyncio.timeout(60):
                while True:
                    try:  # as bela online A,B does: the first machine, then the second
                        online, reached = await in_turn([(A, port), (B, port)], connect)
                    except (JoinError, ConnectionError):
                        await asyncio.sleep(0.3)
                        continue
                    if online.hi.seated:
                        break
                    await online.close()
                    await asyncio.sleep(0.3)
            assert reached == (B, port)
            back = OnlinePlayer(online.client, online=online)
            welcome = await next_of(back, Welcome, 10)
            assert isinstance(welcome, Welcome) and welcome.table == table_a
            state = await next_of(back, State, 10)
            assert isinstance(state, State) and state.seq >= seen.seq
            assert owner_of(table_a).startswith(f"{B}:")
            # the worker's line comes through its supervisor's pipe: a moment after the state
            await until(lambda: any("resume:" in line and table_a in line for line in b_lines), 10)
            await back.online.close()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for client in (ana, *joined):
                await client.close()
    finally:
        forget_redis()
