"""The public server as its operator runs it: a real ``bela server`` process, the
``bela online`` and ``bela server admin`` commands against it (issue #39)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from onlineplay import OnlinePlayer, next_of

from bela.net.identity import Pins
from bela.net.lobby_protocol import Created, Reported
from bela.net.online_client import Online
from bela.net.protocol import Closing, Welcome

SERVER = [sys.executable, "-m", "bela", "--lang", "en", "server", "--port", "0"]


def bela(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bela", "--lang", "en", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@contextlib.asynccontextmanager
async def real_server(
    tmp_path: Path, *extra: str
) -> AsyncIterator[tuple[int, str, dict[str, str], Path]]:
    """``bela server --port 0`` (and ``extra``) on its own data directory: (port,
    fingerprint, the environment for the commands, the server's directory); stopped with
    SIGTERM."""
    data = tmp_path / "srv"
    env = dict(
        os.environ,
        BELA_DATA_DIR=str(tmp_path / "data"),
        BELA_CONFIG_DIR=str(tmp_path / "config"),
    )
    process = subprocess.Popen(
        [*SERVER, "--data", str(data), "--bots", "random", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    try:
        line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), 30)
        found = re.search(
            r"listens at 127\.0\.0\.1:(\d+) \(TLS, certificate (SHA256:[0-9a-f:]+)\)", line
        )
        assert found, line
        yield int(found.group(1)), found.group(2), env, data
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            assert process.wait(10) == 0
        finally:
            if process.poll() is None:
                process.kill()


async def test_bela_online_pins_the_server_and_the_operator_ends_and_bans(tmp_path: Path) -> None:
    async with real_server(tmp_path) as (port, fingerprint, env, data):
        where = f"127.0.0.1:{port}"
        first = await asyncio.to_thread(bela, env, "online", where, "--name", "Ana")
        assert first.returncode == 0, first.stderr
        assert f"its certificate {fingerprint} is pinned" in first.stdout
        assert "Signed in as Ana (1500?)" in first.stdout
        again = await asyncio.to_thread(bela, env, "online", where, "--name", "Ana")
        assert "pinned" not in again.stdout and "Signed in as Ana" in again.stdout
        # the key was made once, in the config directory, and is the same account
        assert (tmp_path / "config" / "online_key.pem").stat().st_mode & 0o777 == 0o600

        pins = Pins(tmp_path / "client")
        online = await Online.connect("127.0.0.1", port, "Ivo", Ed25519PrivateKey.generate(), pins)
        ivo = OnlinePlayer(online.client, online=online)
        await ivo.request({"type": "create", "target": 501})
        created = await next_of(ivo, Created)
        assert isinstance(created, Created)
        await next_of(ivo, Welcome)
        listed = await asyncio.to_thread(bela, env, "server", "admin", "list", "--data", str(data))
        assert listed.returncode == 0, listed.stderr
        assert created.table in listed.stdout and str(ivo.hi.key) in listed.stdout
        ended = await asyncio.to_thread(
            bela, env, "server", "admin", "end", created.table, "--data", str(data)
        )
        assert ended.returncode == 0, ended.stderr
        closing = await next_of(ivo, Closing)
        assert isinstance(closing, Closing) and closing.code == "ended_by_operator"

        troll_key = Ed25519PrivateKey.generate()
        online = await Online.connect("127.0.0.1", port, "Troll", troll_key, pins)
        troll = OnlinePlayer(online.client, online=online)
        # a report is kept for the operator, its text one clean line
        online = await Online.connect("127.0.0.1", port, "Eva", Ed25519PrivateKey.generate(), pins)
        eva = OnlinePlayer(online.client, online=online)
        await eva.request({"type": "report", "name": "troll", "text": "rude\x1b[2J\nvery"})
        assert isinstance(await next_of(eva, Reported), Reported)
        reports = await asyncio.to_thread(
            bela, env, "server", "admin", "reports", "--data", str(data)
        )
        assert reports.returncode == 0, reports.stderr
        assert "Eva -> Troll: rude" in reports.stdout and "very" in reports.stdout
        assert "\x1b" not in reports.stdout
        banned = await asyncio.to_thread(
            bela, env, "server", "admin", "ban", str(troll.hi.key), "--data", str(data)
        )
        assert banned.returncode == 0, banned.stderr
        closing = await next_of(troll, Closing)
        assert isinstance(closing, Closing) and closing.code == "banned"
        from bela.net.client import JoinError

        with pytest.raises(JoinError) as refused:
            await Online.connect("127.0.0.1", port, "Troll", troll_key, pins)
        assert refused.value.code == "banned"


@pytest.mark.slow
async def test_four_players_play_a_rated_match_at_a_real_server(tmp_path: Path) -> None:
    async with real_server(tmp_path) as (port, _fingerprint, env, _data):
        pins = Pins(tmp_path / "client")
        players = []
        for index, name in enumerate(("Ana", "Ivo", "Eva", "Mate")):
            online = await Online.connect(
                "127.0.0.1", port, name, Ed25519PrivateKey.generate(), pins
            )
            player = OnlinePlayer(online.client, online=online, seed=index)
            await player.request({"type": "quick", "target": 501, "wait": 600})
            players.append(player)
        for player in players:
            await next_of(player, Welcome, 30)
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in players)), 120)
        await asyncio.sleep(0.2)
        board = await asyncio.to_thread(bela, env, "online", f"127.0.0.1:{port}", "--leaders")
        assert board.returncode == 0, board.stderr
        lines = [line for line in board.stdout.splitlines() if re.match(r"\s+\d+\. ", line)]
        assert len(lines) == 4
        ratings = [int(re.search(r"  (\d+)\?", line).group(1)) for line in lines]  # type: ignore[union-attr]
        assert ratings[0] > 1500 > ratings[-1]
        page = await asyncio.to_thread(bela, env, "online", f"127.0.0.1:{port}", "--player", "ana")
        assert page.returncode == 0, page.stderr
        assert re.search(r"Ana: \d+\? ± \d+, 1 rated match, reliability 100%", page.stdout)
        assert "Rating over time: " in page.stdout
        assert ("won, rated" in page.stdout) != ("lost, rated" in page.stdout)


@pytest.mark.server
async def test_bela_server_keeps_accounts_in_postgres_and_tables_in_redis(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    """``bela server --postgres URL --redis URL`` (the real servers, make server-check):
    an account made through it is in PostgreSQL, its table in Redis with this process as
    its owner, and nothing of either in the data directory's SQLite."""
    from bela.net.store_postgres import PostgresStore
    from bela.net.store_redis import RedisDirectory

    redis_url, _prefix = redis_prefix
    async with real_server(tmp_path, "--postgres", postgres_url, "--redis", redis_url) as (
        port,
        _fingerprint,
        env,
        data,
    ):
        signed = await asyncio.to_thread(bela, env, "online", f"127.0.0.1:{port}", "--name", "Ana")
        assert signed.returncode == 0, signed.stderr
        online = await Online.connect(
            "127.0.0.1", port, "Ivo", Ed25519PrivateKey.generate(), Pins(tmp_path / "client")
        )
        ivo = OnlinePlayer(online.client, online=online)
        await ivo.request({"type": "create", "target": 701})
        created = await next_of(ivo, Created)
        assert isinstance(created, Created)
        await next_of(ivo, Welcome)
        accounts = PostgresStore(postgres_url)
        directory = RedisDirectory(redis_url, worker="the test")
        try:
            assert accounts.by_name("ana") is not None and accounts.by_name("IVO") is not None
            for _ in range(50):  # the server lists its tables on its tick (0.5 s)
                if any(entry.seats[0] == "Ivo" for entry in directory.entries()):
                    break
                await asyncio.sleep(0.1)
            (entry,) = directory.entries()
            assert entry.id == created.table and entry.target == 701 and entry.seats[0] == "Ivo"
            owner = directory.owner(created.table)
            assert owner is not None and directory.alive(owner)
            assert directory.online().get(accounts.by_name("Ivo").id) == owner  # type: ignore[union-attr]
        finally:
            directory.close()
        # the operator reads the reports from PostgreSQL through the running server
        await ivo.request({"type": "report", "name": "ana", "text": "slow"})
        assert isinstance(await next_of(ivo, Reported), Reported)
        reports = await asyncio.to_thread(
            bela, env, "server", "admin", "reports", "--data", str(data)
        )
        assert reports.returncode == 0, reports.stderr
        assert "Ivo -> Ana: slow" in reports.stdout
        await ivo.online.close()
        assert not (data / "server.sqlite3").exists()
    # stopped: its tables are gone from Redis, its accounts stay in PostgreSQL
    directory = RedisDirectory(redis_url, worker="the test")
    try:
        assert directory.entries() == [] and directory.online() == {}
        assert accounts.by_name("Ana") is not None
    finally:
        directory.close()
        accounts.close()
