"""The front door of a public server of many workers (``bela server --workers N``): the
public port, where every ``bela online`` connects first.

It holds no table and no account. It takes the TLS connection (the server's one certificate,
so the client's pin holds), reads the login's first frame, and answers with a ``Redirect`` to
one of the alive workers of its own machine (the same host, that worker's port), taking them
in turn; then it hangs up. Its own machine's workers are those advertising the host it
advertises (``--advertise``; none: those advertising none, one machine as before). When none
of them is alive, it sends the player to a worker of another machine, by its host and port
(a worker that advertises no host is never sent to from another machine: nobody knows where
players reach it). The client connects to that worker, checks that it shows the same
certificate, and signs in there (its challenge and signature are the worker's: nothing the
front door saw signs anybody in). The worker sends the player on again if their table, or
the quick- match queue, is at another worker (``bela.net.workers``).

Why a redirect rather than a proxy: the front door then carries no player's traffic and
holds no connection longer than a sign-in, so it is never the bottleneck nor a second point
of failure during a match (a player at a table talks to its worker only); and it needs no
secret beyond the certificate the workers show anyway. The price is that each worker's port
must be reachable by the players too (docs/server.md).

Limits: the TLS handshake within ``HELLO_TIMEOUT``, the first frame within it too and under
``CLIENT_FRAME_LIMIT``, at most ``DOOR_CONNECTIONS`` connections at once (past that a new one
is closed at once): an idle or hostile connection holds a descriptor for ten seconds at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from bela.net.lobby_protocol import decode_login
from bela.net.phrases import Phrase
from bela.net.protocol import CLIENT_FRAME_LIMIT, ProtocolError, encode
from bela.net.redirects import Address, redirect_frame
from bela.net.server import BACKLOG, HELLO_TIMEOUT, WrongCodes

if TYPE_CHECKING:
    from bela.net.faults import FaultLog

__all__ = ["DOOR_CONNECTIONS", "FrontDoor"]

DOOR_CONNECTIONS: Final = 1024


class FrontDoor:
    """Sends each sign-in on to an alive worker; ``addresses`` names them (worker -> its
    advertised host or None, its port); ``here`` is the host this machine advertises."""

    def __init__(
        self,
        tls: ssl.SSLContext,
        addresses: Callable[[], dict[str, Address]],
        faults: FaultLog,
        here: str | None = None,
    ) -> None:
        self.tls = tls
        self.addresses = addresses
        self.here = here
        self.faults = faults
        self.open = 0
        self.sent = 0
        self.connection_cap = DOOR_CONNECTIONS
        """Connections at once at most (an SSH door here takes its share out of it)."""
        self.wrong_codes = WrongCodes()
        """Nothing here takes a code; the SSH door asks it whether an address is blocked."""
        self._turn = 0
        self._known: list[Address] = []
        """The alive workers' ports when the directory last answered."""
        self._server: asyncio.Server | None = None

    async def start(self, host: str, port: int) -> tuple[str, int]:
        self._server = await asyncio.start_server(
            self._handle,
            host,
            port,
            limit=CLIENT_FRAME_LIMIT,
            backlog=BACKLOG,
            ssl=self.tls,
            ssl_handshake_timeout=HELLO_TIMEOUT,
        )
        bound = self._server.sockets[0].getsockname()
        return str(bound[0]), int(bound[1])

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def next_address(self) -> Address | None:
        """The next alive worker of this machine, in turn; else of another machine that
        advertises its host (None: no worker is alive that players can be sent to)."""
        try:
            found = list(self.addresses().values())
            self._known = found
        except Exception as exc:
            # Redis away: the workers that were alive when it last answered (their ports
            # still take players, whose tables go on from their saves)
            self.faults.report(f"door:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")
            found = self._known
        ours = sorted((host, port) for host, port in found if host == self.here)
        theirs = sorted((host or "", port) for host, port in found if host not in (None, self.here))
        choice: list[Address] = list(ours or theirs)
        if not choice:
            return None
        self._turn += 1
        return choice[self._turn % len(choice)]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.open += 1
        try:
            if self.open > self.connection_cap:
                self.faults.report("cap:door", "too many connections at the front door")
                return
            try:
                frame = await asyncio.wait_for(reader.readuntil(b"\n"), HELLO_TIMEOUT)
                decode_login(frame)
            except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                return
            except (ProtocolError, ValueError, ConnectionError):
                return
            to = self.next_address()
            if to is None:
                writer.write(encode({"type": "closing", **Phrase("host_busy").fields("reason")}))
            else:
                writer.write(encode(redirect_frame(to, self.here)))
                self.sent += 1
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer.drain(), HELLO_TIMEOUT)
        except (ConnectionError, OSError):
            pass
        finally:
            self.open -= 1
            with contextlib.suppress(Exception):
                writer.close()
