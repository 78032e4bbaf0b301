"""The public server's SSH door (``bela server --ssh-port``, issue #39): a player with
nothing but ``ssh`` and a key is an account (the key is who they are, no password is
taken), sees the lobby in their terminal and is seated by a quick match; the same key
back is the same account."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

import asyncssh
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bela.net.identity import Pins
from bela.net.online_client import Online
from bela.net.online_server import OnlineServer, online_options
from bela.net.ssh import online_command, start_ssh


async def _until(check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


class _Screen:
    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.process = process
        self.bytes = bytearray()
        self.task = asyncio.create_task(self._read(process))

    async def _read(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        with contextlib.suppress(asyncssh.Error):
            while chunk := await process.stdout.read(65536):
                self.bytes.extend(chunk)


async def test_the_ssh_door_takes_no_password(tmp_path: Path) -> None:
    server = OnlineServer(tmp_path / "server", online_options(), say=lambda _line: None)
    _, port = await server.start("127.0.0.1", 0)
    door = await start_ssh(
        server, "127.0.0.1", 0, port, partial(online_command, port), key_dir=server.data
    )
    ssh_port = door.sockets[0].getsockname()[1]
    try:
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncssh.connect(
                "127.0.0.1",
                ssh_port,
                username="Ana",
                password="anything",
                client_keys=None,
                known_hosts=None,
            )
    finally:
        door.close()
        await door.wait_closed()
        await server.close()


@pytest.mark.slow
async def test_an_ssh_key_is_an_account_seated_by_quick_match(
    tmp_path: Path, data_dir: Path
) -> None:
    server = OnlineServer(
        tmp_path / "server",
        online_options(difficulty="random", target=1001, bot_delay=0.0),
        say=lambda _line: None,
    )
    _, port = await server.start("127.0.0.1", 0)
    door = await start_ssh(
        server, "127.0.0.1", 0, port, partial(online_command, port), key_dir=server.data
    )
    ssh_port = door.sockets[0].getsockname()[1]
    pins = Pins(tmp_path / "client")
    others = []
    key = asyncssh.generate_private_key("ssh-ed25519")
    connections: list[asyncssh.SSHClientConnection] = []

    async def session() -> _Screen:
        conn = await asyncssh.connect(
            "127.0.0.1", ssh_port, username="Ana", client_keys=[key], known_hosts=None
        )
        connections.append(conn)
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(120, 40), encoding=None
        )
        screen = _Screen(process)
        return screen

    try:
        for name in ("Ivo", "Eva", "Mate"):
            online = await Online.connect(
                "127.0.0.1", port, name, Ed25519PrivateKey.generate(), pins
            )
            await online.send({"type": "quick", "target": 1001, "wait": 600})
            others.append(online)
        screen = await session()
        await _until(lambda: b"Tables at" in screen.bytes)  # the lobby, in the terminal
        screen.process.stdin.write(b"q")  # a quick match
        await _until(lambda: any(w.name == "Ana" for w in server.who.values()))
        await _until(lambda: any("Ana" in meta.people for meta in server.meta.values()))
        await _until(lambda: b"mi / vi" in screen.bytes)
        account = next(w.account for w in server.who.values() if w.name == "Ana")
        assert account is not None
        # the line drops; the same SSH key back is the same account, seated again
        connections[0].close()
        await _until(lambda: all(w.name != "Ana" for w in server.who.values()))
        await session()
        await _until(lambda: any(w.name == "Ana" for w in server.who.values()))
        again = next(w.account for w in server.who.values() if w.name == "Ana")
        assert again is not None and again.id == account.id
        table = next(meta.table for meta in server.meta.values())
        await _until(lambda: any(s.name == "Ana" and s.link is not None for s in table.seats))
    finally:
        for conn in connections:
            conn.close()
        for online in others:
            await online.close()
        door.close()
        await door.wait_closed()
        await server.close()
