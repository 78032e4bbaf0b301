"""Helpers for the public server's tests (imported as ``onlineplay``): a server on
localhost (TLS, SQLite in a temporary directory) and signed-in scripted players."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from netplay import Player

from bela.net.identity import Pins
from bela.net.lobby_protocol import Hi
from bela.net.online_client import Online
from bela.net.online_server import OnlineServer, online_options
from bela.net.protocol import Over, ServerMessage, State


@dataclass
class Site:
    server: OnlineServer
    host: str
    port: int
    pins: Pins

    async def sign_in(
        self, name: str, key: Ed25519PrivateKey | None = None, guest: bool = False
    ) -> OnlinePlayer:
        online = await Online.connect(
            self.host,
            self.port,
            name,
            None if guest else key or Ed25519PrivateKey.generate(),
            self.pins,
        )
        return OnlinePlayer(online.client, online=online)


Stores = Callable[[], dict[str, object]]
"""The ``stores`` fixture (tests/net/conftest.py): the keywords for ``OnlineServer``'s stores."""


async def start_site(data: Path, stores: Stores | None = None, **changes: object) -> Site:
    """A server on localhost: on SQLite in ``data``, or on what ``stores`` makes (the
    ``stores`` fixture: PostgreSQL and Redis under the server marker)."""
    base: dict[str, object] = {"difficulty": "random", "target": 501, "bot_delay": 0.0}
    base.update(changes)
    server = OnlineServer(
        data / "server",
        online_options(**base),
        say=lambda _line: None,
        **(stores() if stores is not None else {}),  # type: ignore[arg-type]
    )
    host, port = await server.start("127.0.0.1", 0)
    return Site(server, host, port, Pins(data / "client"))


class OnlinePlayer(Player):
    """A scripted seat that reads the lobby's messages too (kept in ``lobby``)."""

    def __init__(self, client: object, online: Online, seed: int = 0) -> None:
        super().__init__(client, seed)  # type: ignore[arg-type]
        self.online = online
        self.lobby: list[object] = []

    @property
    def hi(self) -> Hi:
        return self.online.hi

    async def step(self) -> ServerMessage:  # type: ignore[override]
        message = await self.online.receive()
        if isinstance(message, State):
            self.states.append(message)
        elif isinstance(message, Over):
            self.over = message
        elif message.type in (
            "challenge",
            "hi",
            "tables",
            "created",
            "queued",
            "leaders",
            "renamed",
        ):
            self.lobby.append(message)
        else:
            self.others.append(message)  # type: ignore[arg-type]
        return message  # type: ignore[return-value]

    async def request(self, message: dict[str, object]) -> None:
        await self.online.send(message)


async def next_of(player: OnlinePlayer, kind: type, timeout: float = 5.0) -> object:
    async def loop() -> object:
        while True:
            message = await player.step()
            if isinstance(message, kind):
                return message

    return await asyncio.wait_for(loop(), timeout)
