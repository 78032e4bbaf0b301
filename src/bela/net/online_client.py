"""``bela online``'s end of the public server: TLS with a pinned certificate, the signed
login, the lobby's requests; then the seat, as a ``Client`` of the friends' table.

``Online.connect`` opens TLS, checks the server's certificate against its pin
(``bela.net.identity.Pins``: first use pins it and says so), and signs in with
the player's Ed25519 key (or as a guest). Every frame the server sends is
validated before it is believed: a lobby message (``bela.net.lobby_protocol``) or
a table's (``bela.net.protocol``). ``client`` is a ``bela.net.client.Client`` on the
same connection, for whatever plays the seat once the lobby has seated us.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeVar

from bela.i18n import _
from bela.net.client import Client, JoinError, NotBela, unreachable
from bela.net.identity import (
    PinMismatch,
    Pins,
    b64,
    client_context,
    fingerprint,
    login_message,
    public_raw,
    sign,
    unb64,
)
from bela.net.lobby_protocol import (
    LOBBY_TYPES,
    LOBBY_VERSION,
    Challenge,
    Created,
    Hi,
    LobbyReply,
    Redirect,
    decode_lobby_server,
)
from bela.net.phrases import render
from bela.net.protocol import (
    SERVER_FRAME_LIMIT,
    Closing,
    ProtocolError,
    Refused,
    ServerMessage,
    Watching,
    Welcome,
    decode_server,
    encode,
)

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

__all__ = ["LobbyMessage", "Online", "in_turn", "take_seat", "worth_another"]

LobbyMessage = LobbyReply
T = TypeVar("T")
MAX_REDIRECTS: Final = 3
"""Workers a sign-in is sent on through at most (a front door, then the table's worker)."""


@dataclass(frozen=True, slots=True)
class SentOn:
    """A sign-in answered with a ``Redirect``: where to go on to (the redirect's host, or
    the address the redirecting connection reached), and what that connection showed."""

    host: str
    port: int
    fingerprint: str
    first_use: bool


def worth_another(exc: BaseException) -> bool:
    """A sign-in failed in a way another address of the same server (another machine of
    it, docs/server.md "Several machines") may not fail: that machine could not be reached,
    its line dropped, or none of its workers was alive. A refusal (a ban, a taken name), a
    certificate that differs from its pin or a frame that is not bela is no reason to try
    another: it is said."""
    if isinstance(exc, PinMismatch | NotBela):
        return False
    if isinstance(exc, JoinError):
        return exc.code in (None, "host_busy")
    return isinstance(exc, ConnectionError)


async def in_turn(
    addresses: list[tuple[str, int]], attempt: Callable[[str, int], Awaitable[T]]
) -> tuple[T, tuple[str, int]]:
    """``attempt`` at each address in turn until one answers (``worth_another`` says when
    to go on): its result and the address; the last failure when none answers."""
    for index, (host, port) in enumerate(addresses):
        try:
            return await attempt(host, port), (host, port)
        except ConnectionError as exc:
            if index == len(addresses) - 1 or not worth_another(exc):
                raise
    raise JoinError(_("the host did not welcome us"))


def _peer(name: object) -> str | None:
    """The address a connection reached, from its ``peername`` (None: not an IP socket,
    or an IPv6 address with a zone, which only the name given reaches again)."""
    if not isinstance(name, tuple) or len(name) < 2 or not isinstance(name[0], str):
        return None
    if len(name) >= 4 and name[3]:
        return None
    return name[0]


@dataclass
class Online:
    """A signed-in connection to the public server."""

    client: Client
    hi: Hi
    fingerprint: str
    first_use: bool
    """The certificate was pinned just now (the caller prints its fingerprint)."""
    host: str = ""
    """The host this connection reached, as it was named (the player's, or a redirect's)."""
    local_address: str | None = None
    """The address we connect from (``connect``'s), kept for a redirect."""
    peer: str | None = None
    """The address this connection reached (``host`` resolved): a redirect without a host
    goes on to another port of it, the same machine even when ``host`` is a name with
    several addresses (docs/server.md, "Several machines")."""

    @classmethod
    async def connect(
        cls,
        host: str,
        port: int,
        name: str,
        key: Ed25519PrivateKey | None,
        pins: Pins | None,
        timeout: float = 10.0,
        local_address: str | None = None,
    ) -> Online:
        """Connect, check the pin, sign in; ``JoinError`` says why not (``PinMismatch``
        when the server's certificate is not the one pinned for it). ``local_address``:
        the address to connect from (the benchmark spreads its clients over loopback
        addresses, as players come from many). A server of many workers may send us on
        to another worker (``Redirect``: another port of the machine we reached, or a
        host and port of another machine): followed, and that worker must show the very
        certificate the first connection showed (its pin)."""
        first = await cls._once(host, port, name, key, pins, None, timeout, local_address)
        online = first
        for _hop in range(MAX_REDIRECTS):
            if isinstance(online, Online):
                break
            online = await cls._once(
                online.host,
                online.port,
                name,
                key,
                None,
                online.fingerprint,
                timeout,
                local_address,
            )
        if not isinstance(online, Online):
            raise JoinError(_("the host did not welcome us"))
        if not isinstance(first, Online):  # the pin was met (or made) at the first door
            online.first_use = first.first_use
        return online

    async def follow(self, redirect: Redirect, name: str, key: Ed25519PrivateKey | None) -> Online:
        """This connection closed, signed in at the worker ``redirect`` names instead."""
        await self.close()
        where = redirect.host or self.peer or self.host
        local, expect = self.local_address, self.fingerprint
        online = await Online._once(where, redirect.port, name, key, None, expect, 10.0, local)
        for _hop in range(MAX_REDIRECTS):
            if isinstance(online, Online):
                return online
            online = await Online._once(
                online.host, online.port, name, key, None, expect, 10.0, local
            )
        if not isinstance(online, Online):
            raise JoinError(_("the host did not welcome us"))
        return online

    @classmethod
    async def _once(
        cls,
        host: str,
        port: int,
        name: str,
        key: Ed25519PrivateKey | None,
        pins: Pins | None,
        expect: str | None,
        timeout: float = 10.0,
        local_address: str | None = None,
    ) -> Online | SentOn:
        """One connection and sign-in: signed in, or where we are sent on to (with the
        certificate's fingerprint, and whether it was pinned just now). ``expect``: the
        fingerprint a redirected connection must show (instead of ``pins``)."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(
                    host,
                    port,
                    limit=SERVER_FRAME_LIMIT,
                    ssl=client_context(),
                    server_hostname="",
                    local_addr=(local_address, 0) if local_address is not None else None,
                ),
                timeout,
            )
        except (OSError, TimeoutError) as exc:
            raise JoinError(unreachable(host, port, exc)) from None
        client = Client(reader, writer)
        peer = _peer(writer.get_extra_info("peername"))
        ssl_object = writer.get_extra_info("ssl_object")
        der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
        if not der:
            await client.close()
            raise JoinError(_("the server showed no certificate"))
        shown = fingerprint(der)
        if expect is not None and not secrets.compare_digest(expect, shown):
            await client.close()
            raise PinMismatch(f"{host}:{port}", expect, shown)
        try:
            first = pins.check(f"{host}:{port}", shown) if pins is not None else False
        except Exception:
            await client.close()
            raise
        login: dict[str, object] = {"type": "login", "v": LOBBY_VERSION, "name": name}
        if key is None:
            login["guest"] = True
        else:
            login["key"] = b64(public_raw(key))
        await client.send(login)
        answer = await _first(client, timeout)
        if isinstance(answer, Challenge) and key is not None:
            nonce = unb64(answer.nonce, 32)
            if nonce is None:
                await client.close()
                raise NotBela(
                    _("the host sent something that is not bela: {reason}").format(
                        reason="challenge"
                    )
                )
            proof = sign(key, login_message(nonce, shown, public_raw(key)))
            await client.send({"type": "proof", "sig": b64(proof)})
            answer = await _first(client, timeout)
        if isinstance(answer, Redirect):
            await client.close()
            return SentOn(answer.host or peer or host, answer.port, shown, first)
        if not isinstance(answer, Hi):
            await client.close()
            raise JoinError(_("the host did not welcome us"))
        return cls(client, answer, shown, first, host, local_address, peer)

    async def send(self, message: dict[str, object]) -> None:
        await self.client.send(message)

    async def receive(self) -> LobbyMessage | ServerMessage:
        """The next message, lobby's or table's; ``ConnectionError`` when the line is gone."""
        message = _decode(await _frame(self.client))
        if isinstance(message, Welcome):  # seated (again): the seat's client knows where
            self.client.welcome, self.client.watching = message, None
        elif isinstance(message, Watching):
            self.client.welcome, self.client.watching = None, message
        return message

    async def close(self) -> None:
        await self.client.close()


async def _frame(client: Client) -> bytes:
    try:
        frame = await client.reader.readuntil(b"\n")
    except asyncio.IncompleteReadError:
        raise ConnectionError(_("the host closed the connection")) from None
    except (asyncio.LimitOverrunError, ValueError):
        raise NotBela(_("the host sent a frame that is too large")) from None
    if client.log is not None:
        client.log.append(frame)
    return frame


def _decode(frame: bytes) -> LobbyMessage | ServerMessage:
    try:
        kind = json.loads(frame).get("type")
    except (ValueError, AttributeError):
        kind = None
    try:
        if kind in LOBBY_TYPES:
            return decode_lobby_server(frame)
        return decode_server(frame)
    except ProtocolError as exc:
        raise NotBela(
            _("the host sent something that is not bela: {reason}").format(reason=exc)
        ) from None


async def _first(client: Client, timeout: float) -> LobbyMessage | ServerMessage:
    try:
        message = _decode(await asyncio.wait_for(_frame(client), timeout))
    except TimeoutError:
        await client.close()
        raise JoinError(_("the host did not answer")) from None
    except ConnectionError:
        await client.close()
        raise
    if isinstance(message, Closing):
        await client.close()
        raise JoinError(render(message.reason, message.code, message.args), message.code)
    return message


def frame_of(message: dict[str, object]) -> bytes:
    """A request as it travels (tests send malformed ones beside)."""
    return encode(message)


async def take_seat(
    host: str,
    port: int,
    name: str,
    key: Ed25519PrivateKey | None,
    pins: Pins | None,
    request: dict[str, object] | None,
    on_created: Callable[[Created], None] | None = None,
    local_address: str | None = None,
) -> Client:
    """Sign in and sit down: ``request`` asks the lobby for the seat (a quick match, a new
    table, a table, a code, a table to watch); None when the server seats a returning
    account by itself (after a drop). Returns the seat's ``Client`` once welcomed (or
    watching); ``JoinError`` says why not."""
    online = await Online.connect(host, port, name, key, pins, local_address=local_address)
    if request is not None:
        await online.send(request)
    elif not online.hi.seated:  # back after a drop, and the seat is no longer ours
        await online.close()
        raise JoinError(_("you are not at a table"), "stale_token")
    hops = 0
    while True:
        try:
            message = await online.receive()
        except ConnectionError:
            await online.close()
            raise
        if isinstance(message, Welcome | Watching):
            return online.client
        if isinstance(message, Redirect) and request is not None and hops < MAX_REDIRECTS:
            hops += 1  # the table (or the quick-match queue) is at another worker
            online = await online.follow(message, name, key)
            await online.send(request)
            continue
        if isinstance(message, Refused | Closing):
            await online.close()
            raise JoinError(render(message.reason, message.code, message.args), message.code)
        if isinstance(message, Created) and on_created is not None:
            on_created(message)
