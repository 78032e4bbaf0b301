"""A seat at a table on the network, as the app sees it (``bela join``, ``bela host``).

The local game keeps its match in the table screen; a remote seat keeps only
what the host sends it. ``RemoteSession`` is the app's end of that: it joins,
hands each validated message on, sends the player's actions and table talk,
and when the line drops (or the host restarts) it sits down again with the
seat's token, trying for ``RETRY_FOR`` seconds before giving up.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Final

from bela.net.client import Client, JoinError
from bela.net.protocol import Closing, ServerMessage

__all__ = ["RETRY_FOR", "RemoteSession", "SeatLost"]

RETRY_FOR: Final = 120.0


class SeatLost(ConnectionError):
    """The seat could not be taken up again; the message says why."""


@dataclass
class RemoteSession:
    """Where to join and as whom; ``connect`` seats us, ``receive`` reads on."""

    host: str
    port: int
    code: str
    name: str
    lead: str | None = None
    """The table's leader key: the host's own app starts the match (``bela host``)."""
    retry_for: float = RETRY_FOR
    client: Client | None = None
    token: str | None = None
    seat: int | None = None

    async def connect(self) -> None:
        """Sit down (the first time, or again with our token); ``JoinError`` says why not."""
        self.client = await Client.connect(
            self.host, self.port, self.code, self.name, token=self.token, lead=self.lead
        )
        welcome = self.client.welcome
        assert welcome is not None
        self.token, self.seat = welcome.token, welcome.seat

    async def receive(self) -> ServerMessage:
        """The next message; a lost line raises ``ConnectionError`` (then ``reconnect``)."""
        if self.client is None:
            raise ConnectionError("not connected")
        message = await self.client.receive()
        if isinstance(message, Closing):
            await self.client.close()
            self.client = None
            raise ConnectionError(message.reason)
        return message

    async def reconnect(self) -> None:
        """Sit down again with the token, retrying (the host may be restarting) until
        ``retry_for`` runs out; ``SeatLost`` then."""
        if self.client is not None:
            await self.client.close()
            self.client = None
        deadline = time.monotonic() + self.retry_for
        pause = 0.25
        last = "the host is gone"
        while time.monotonic() < deadline:
            try:
                await self.connect()
                return
            except JoinError as exc:
                last = str(exc)
                if "token" in last or "code" in last:
                    break  # the table is gone (finished, or another host): retrying will not help
            await asyncio.sleep(pause)
            pause = min(pause * 2, 3.0)
        raise SeatLost(last)

    async def send(self, message: dict[str, object]) -> bool:
        """Send if connected; False when the line is down (the player is told, nothing lost:
        the turn waits on the host until we are back)."""
        if self.client is None:
            return False
        try:
            await self.client.send(message)
        except (ConnectionError, OSError):
            return False
        return True

    async def close(self, leave: bool = False) -> None:
        if self.client is not None:
            if leave:
                await self.send({"type": "leave"})
            await self.client.close()
            self.client = None
