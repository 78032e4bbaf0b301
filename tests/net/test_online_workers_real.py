"""``bela server --workers 4`` as its operator runs it, on a real Redis and PostgreSQL: a match
in progress, the worker holding it killed with SIGKILL, the table taken up by another worker,
the players back by themselves, the match played to its end and archived once (issue #39)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from netplay import Player
from onlineplay import OnlinePlayer, next_of

from bela.net.client import JoinError
from bela.net.identity import Pins
from bela.net.online_client import Online, take_seat
from bela.net.protocol import State, Welcome

NAMES = ("Ana", "Ivo", "Eva", "Mate")


def bela(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bela", "--lang", "en", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_workers_need_redis_and_postgres(tmp_path: Path) -> None:
    for flags in ([], ["--redis", "redis://127.0.0.1:1/0"], ["--postgres", "postgresql://x@y/z"]):
        done = bela("server", "--data", str(tmp_path), "--workers", "2", *flags)
        assert done.returncode == 2
        assert (
            done.stderr.strip()
            .splitlines()[-1]
            .endswith("--workers needs --redis and --postgres (the workers share them)")
        )
    done = bela("server", "--data", str(tmp_path), "--workers", "0")
    assert done.returncode == 2 and "from 1 to 64" in done.stderr
    done = bela("server", "--data", str(tmp_path), "--advertise", "b.bela.example")
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "--advertise goes with --workers (the workers on several machines)"
    )
    for host in ("b.bela.example:4714", "b\x1bc", "https://b.example", ""):
        done = bela("server", "--data", str(tmp_path), "--workers", "2", "--advertise", host)
        assert done.returncode == 2
        assert "expected a host name or an IP address" in done.stderr
        assert "\x1b" not in done.stderr


def free_base(count: int) -> int:
    """A port with the ``count`` after it free too (the front door's and the workers')."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = int(probe.getsockname()[1])
        if base + count > 65000:
            continue
        try:
            held = []
            for port in range(base, base + count + 1):
                sock = socket.socket()
                held.append(sock)
                sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for sock in held:
                sock.close()
        return base
    raise AssertionError("no free ports")


@contextlib.contextmanager
def workers(
    tmp_path: Path,
    count: int,
    postgres: str,
    extra: tuple[str, ...] = (),
    base: int | None = None,
) -> Iterator[tuple[int, list[str]]]:
    """``bela server --workers count`` on the real PostgreSQL and Redis: (the front door's
    port, the lines it and its workers write to standard error, as they come)."""
    base = base if base is not None else free_base(count)
    redis_url = os.environ["BELA_TEST_REDIS"]
    env = dict(os.environ, BELA_DATA_DIR=str(tmp_path / "data"))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bela",
            "--lang",
            "en",
            "server",
            "--port",
            str(base),
            "--data",
            str(tmp_path / "srv"),
            "--bots",
            "random",
            "--workers",
            str(count),
            "--postgres",
            postgres,
            "--redis",
            redis_url,
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        yield base, lines
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(5)
        import redis

        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match="bela:*"))
        if keys:
            client.delete(*keys)
        client.close()


def owner_of(table_id: str) -> str:
    import redis

    client = redis.Redis.from_url(os.environ["BELA_TEST_REDIS"], decode_responses=True)
    try:
        raw = client.hget("bela:tables", table_id)
    finally:
        client.close()
    assert isinstance(raw, str)
    return str(json.loads(raw)["worker"])


async def come_back(port: int, name: str, key: Ed25519PrivateKey, pins: Pins) -> OnlinePlayer:
    async with asyncio.timeout(60):
        while True:
            try:
                online = await Online.connect("127.0.0.1", port, name, key, pins)
            except (JoinError, ConnectionError):
                await asyncio.sleep(0.3)
                continue
            if online.hi.seated:
                return OnlinePlayer(online.client, online=online)
            await online.close()
            await asyncio.sleep(0.3)


@pytest.mark.server
async def test_four_workers_a_worker_killed_mid_match_and_the_match_goes_on(
    tmp_path: Path, postgres_url: str
) -> None:
    with workers(tmp_path, 4, postgres_url) as (port, lines):
        pins = Pins(tmp_path / "client")
        keys = [Ed25519PrivateKey.generate() for _ in range(4)]
        try:
            async with asyncio.timeout(90):  # four workers start on two shared cores
                while sum("listening:" in line for line in lines) < 4:
                    await asyncio.sleep(0.2)
        except TimeoutError:  # it failed once in a clean-clone CI run: say what they wrote
            pytest.fail(
                "four workers not listening after 90 s; they wrote:\n" + "".join(lines[-40:])
            )
        await asyncio.sleep(1.0)  # each has said its port in the directory
        clients = await asyncio.wait_for(
            asyncio.gather(
                *(
                    take_seat(
                        "127.0.0.1",
                        port,
                        name,
                        key,
                        pins,
                        {"type": "quick", "target": 501, "wait": 60},
                    )
                    for key, name in zip(keys, NAMES, strict=True)
                )
            ),
            60,
        )
        players = [Player(client, index) for index, client in enumerate(clients)]
        table_id = players[0].client.welcome.table  # type: ignore[union-attr]
        seats = {name: p.seat for name, p in zip(NAMES, players, strict=True)}
        tasks = [asyncio.create_task(p.play()) for p in players]
        async with asyncio.timeout(60):
            while not players[0].states or players[0].states[-1].seq < 12:
                await asyncio.sleep(0.01)
        owner = owner_of(table_id)
        worker_port = owner.rsplit(":", 1)[1]
        pids = [
            int(found.group(1))
            for line in lines
            if (found := re.search(rf"worker: 127\.0\.0\.1:{worker_port} pid (\d+)", line))
        ]
        assert len(pids) == 1
        os.kill(pids[0], signal.SIGKILL)
        await asyncio.gather(*tasks, return_exceptions=True)  # their lines dropped
        seen = {name: p.states[-1] for name, p in zip(NAMES, players, strict=True)}
        # the supervisor starts a new worker on the dead one's port (after its 1 s pause)
        async with asyncio.timeout(60):
            while not (
                restarted := [
                    int(found.group(1))
                    for line in lines
                    if (
                        found := re.search(
                            rf"worker: 127\.0\.0\.1:{worker_port} pid (\d+)$", line.strip()
                        )
                    )
                    and int(found.group(1)) != pids[0]
                ]
            ):
                await asyncio.sleep(0.2)
        assert any(
            f":{worker_port} pid {pids[0]} ended (-9), started again in 1 s" in line
            for line in lines
        )
        back = [
            await come_back(port, name, key, pins) for name, key in zip(NAMES, keys, strict=True)
        ]
        # held by a live worker: another one, or the new one on the old port, which took
        # up its own tables at its start (the store gives each table to one of them)
        assert owner_of(table_id).rsplit(":", 1)[1] in {str(p) for p in range(port + 1, port + 5)}
        for name, player in zip(NAMES, back, strict=True):
            welcome = await next_of(player, Welcome, 10)
            assert isinstance(welcome, Welcome) and welcome.seat == seats[name]
            assert welcome.table == table_id
            state = await next_of(player, State, 10)
            assert isinstance(state, State) and state.seq >= seen[name].seq
            assert state.round >= seen[name].round
            player.rng.seed(len(name))
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in back)), 180)
        assert all(p.over is not None for p in back)
        await asyncio.sleep(0.3)
        import psycopg

        with psycopg.connect(postgres_url) as db:
            rows = db.execute("SELECT match_id, rated FROM matches").fetchall()
            (live,) = db.execute("SELECT count(*) FROM table_saves").fetchone()  # type: ignore[misc]
        assert len(rows) == 1 and rows[0][1] and live == 0
        for player in back:
            await player.online.close()
        assert any("resume:" in line and table_id in line for line in lines)
        assert len(restarted) == 1
        os.kill(restarted[0], 0)  # the new worker runs on (ProcessLookupError if not)
        assert sum("listening:" in line for line in lines) == 5  # four, and the new one


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.server
async def test_two_workers_with_the_ssh_door_and_the_browser_page(
    tmp_path: Path, postgres_url: str
) -> None:
    """``bela server --workers 2 --ssh-port P --web-port Q``: an SSH session and a browser
    page each reach the lobby; their apps signed in at the front door and a worker took
    them (the workers' lines say so), the SSH player as an account, the page as a guest."""
    import aiohttp
    import asyncssh

    ssh_port, web_port = free_port(), free_port()
    extra = ("--ssh-port", str(ssh_port), "--web-port", str(web_port))
    with workers(tmp_path, 2, postgres_url, extra) as (_port, lines):
        async with asyncio.timeout(90):
            while sum("listening:" in line for line in lines) < 2:
                await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)  # each has said its port in the directory
        conn = await asyncssh.connect(
            "127.0.0.1",
            ssh_port,
            username="Ana",
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            known_hosts=None,
        )
        try:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(120, 40), encoding=None
            )
            screen = b""
            async with asyncio.timeout(90):
                while b"Tables at" not in screen:
                    screen += await process.stdout.read(65536)
        finally:
            conn.close()
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(
                f"https://127.0.0.1:{web_port}/ws?width=100&height=30", ssl=False
            ) as ws,
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
        async with asyncio.timeout(30):
            while not any("guest: Gost-" in line for line in lines):
                await asyncio.sleep(0.1)
        assert any(line.strip().endswith("login: Ana") for line in lines)


@pytest.mark.server
async def test_a_worker_that_cannot_start_is_given_up_in_one_line(
    tmp_path: Path, postgres_url: str
) -> None:
    """The second worker's port is taken: it dies at every start, is started again after 1,
    2, 4 and 8 s, and given up at its fifth death in one line; the first serves on."""
    from bela.net.supervisor import GIVE_UP

    base = free_base(2)
    taken = socket.socket()
    taken.bind(("127.0.0.1", base + 2))
    taken.listen()
    try:
        with workers(tmp_path, 2, postgres_url, base=base) as (port, lines):
            async with asyncio.timeout(120):
                while not any("given up" in line for line in lines):
                    await asyncio.sleep(0.2)
            await asyncio.sleep(1.5)  # nothing more is started
            given_up = [line for line in lines if "given up" in line]
            assert len(given_up) == 1 and f"127.0.0.1:{base + 2} " in given_up[0]
            ended = [
                line for line in lines if f"127.0.0.1:{base + 2} pid" in line and "ended" in line
            ]
            assert len(ended) == GIVE_UP
            started = [
                line
                for line in lines
                if re.search(rf"127\.0\.0\.1:{base + 2} pid \d+$", line.strip())
            ]
            assert len(started) == GIVE_UP  # the first start and four more
            assert sum("listening:" in line for line in lines) == 1
            online = await Online.connect(  # the front door sends players to the one left
                "127.0.0.1", port, "Ana", Ed25519PrivateKey.generate(), Pins(tmp_path / "c")
            )
            assert online.client.writer.get_extra_info("peername")[1] == base + 1
            await online.close()
    finally:
        taken.close()
