"""A seat's end of the connection: say hello, send actions, read validated messages.

``Client`` is what the app's remote session, the tests and the load benchmark
use. Everything the server sends is validated (``decode_server``) before it is
believed: a host is somebody else's machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

from bela.i18n import _
from bela.net import DEFAULT_PORT
from bela.net.phrases import render
from bela.net.protocol import (
    PROTOCOL_VERSION,
    SERVER_FRAME_LIMIT,
    Closing,
    ProtocolError,
    ServerMessage,
    Watching,
    Welcome,
    decode_server,
    encode,
)

__all__ = ["DEFAULT_PORT", "Client", "JoinError", "NotBela", "parse_address", "unreachable"]


class JoinError(ConnectionError):
    """The host could not be reached or would not seat us; the message says why.

    ``code`` is the host's phrase code when the host answered (``stale_token``: that
    seat is no longer ours), None when it could not be reached."""

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code


class NotBela(ConnectionError):
    """The host sent a frame that is not a valid message (too large, not JSON, a bid the
    engine never writes): a broken or hostile host. Sitting down again would only be
    sent the same, so the app says so and stays off the line."""


def unreachable(host: str, port: int, exc: BaseException) -> str:
    """Why ``host:port`` could not be reached, as a sentence (never "[Errno 111] Connect
    call failed ('127.0.0.1', 4711)")."""
    address = f"{host}:{port}"
    if isinstance(exc, ConnectionRefusedError):
        return _(
            "nobody is hosting at {address}: is bela host running there, and is the port right?"
        ).format(address=address)
    if isinstance(exc, socket.gaierror):
        return _("cannot find the machine {host}: check the address").format(host=host[:80])
    if isinstance(exc, TimeoutError):
        return _("{address} did not answer in time").format(address=address)
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else ""
    if reason:
        return _("cannot reach {address}: {reason}").format(address=address, reason=reason)
    return _("cannot reach {address}").format(address=address)


def parse_address(text: str) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT`` or ``[V6]:PORT`` as (host, port)."""
    text = text.strip()
    if text.startswith("["):
        host, _sep, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    elif text.count(":") == 1:
        host, _sep, port = text.partition(":")
    else:
        host, port = text, ""
    if not host:
        raise ValueError(_("the address has no host"))
    if not port:
        return host, DEFAULT_PORT
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(_("{port} is not a port number").format(port=repr(port[:10])))
    return host, int(port)


class Client:
    """One connection to a table."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.welcome: Welcome | None = None
        self.watching: Watching | None = None
        """Set instead of ``welcome`` for a watcher (``connect(watch=True)``)."""
        self.log: list[bytes] | None = None
        """Every frame received, when a list is put here (tests check what a seat was sent)."""

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        code: str,
        name: str,
        token: str | None = None,
        lead: str | None = None,
        timeout: float = 10.0,
        log: list[bytes] | None = None,
        watch: bool = False,
    ) -> Client:
        """Connect and say hello; returns once seated (``welcome``), or once watching
        (``watching``, with ``watch``), or raises ``JoinError``."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(host, port, limit=SERVER_FRAME_LIMIT), timeout
            )
        except (OSError, TimeoutError) as exc:
            raise JoinError(unreachable(host, port, exc)) from None
        client = cls(reader, writer)
        client.log = log
        hello: dict[str, object] = {"type": "hello", "v": PROTOCOL_VERSION, "code": code}
        hello["name"] = name
        if token is not None:
            hello["token"] = token
        if lead is not None:
            hello["lead"] = lead
        if watch:
            hello["watch"] = True
        await client.send(hello)
        try:
            first = await asyncio.wait_for(client.receive(), timeout)
        except TimeoutError:
            await client.close()
            raise JoinError(_("the host did not answer")) from None
        if isinstance(first, Closing):
            await client.close()
            raise JoinError(render(first.reason, first.code, first.args), first.code)
        if watch and isinstance(first, Watching):
            client.watching = first
            return client
        if not isinstance(first, Welcome):
            await client.close()
            raise JoinError(_("the host did not welcome us"))
        client.welcome = first
        return client

    async def send(self, message: dict[str, object]) -> None:
        self.writer.write(encode(message))
        await self.writer.drain()

    async def act(self, action: str) -> None:
        await self.send({"type": "act", "action": action})

    async def chat(self, text: str) -> None:
        await self.send({"type": "chat", "text": text})

    async def receive(self) -> ServerMessage:
        """The next message; ``ConnectionError`` when the host hangs up or breaks the protocol."""
        try:
            frame = await self.reader.readuntil(b"\n")
        except asyncio.IncompleteReadError:
            raise ConnectionError(_("the host closed the connection")) from None
        except (asyncio.LimitOverrunError, ValueError):
            raise NotBela(_("the host sent a frame that is too large")) from None
        if self.log is not None:
            self.log.append(frame)
        try:
            return decode_server(frame)
        except ProtocolError as exc:
            raise NotBela(
                _("the host sent something that is not bela: {reason}").format(reason=exc)
            ) from None

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()
            await asyncio.wait_for(self.writer.wait_closed(), 1)
