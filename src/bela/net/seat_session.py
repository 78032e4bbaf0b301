"""A seat at a table on the network (``bela join``, ``bela host``; the app and the plain seat).

The local game keeps its match in the table screen; a remote seat keeps only
what the host sends it. ``RemoteSession`` is the app's end of that: it joins,
hands each validated message on, sends the player's actions and table talk,
and when the line drops (or the host restarts) it sits down again with the
seat's token, trying for ``RETRY_FOR`` seconds before giving up.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bela.archive.storage import data_dir
from bela.foundation.files import read_limited, replace_atomically
from bela.foundation.untrusted import oneline
from bela.i18n import _
from bela.net.client import Client, JoinError
from bela.net.phrases import render
from bela.net.protocol import Closing, Over, ServerMessage
from bela.net.server import normal_code

__all__ = [
    "RETRY_FOR",
    "RemoteSession",
    "SeatLost",
    "forget_token",
    "keep_record",
    "keep_token",
    "kept_token",
]

RETRY_FOR: Final = 120.0
SEAT_GONE: Final = frozenset({"stale_token"})
"""The host's answers that mean the seat is no longer ours: only these forget a token."""
TAKEN_OVER: Final = frozenset({"taken_up_again"})
"""The host closed us because our seat's token sat down on another connection: the same
player on a newer line. Sitting down again would take it back from them, and they from
us, for ever (two apps of one player once did so 373 times in 10 s): this app stops."""
_BUSY: Final = frozenset({"host_busy", "too_many_from_address"})
BUSY_TRIES: Final = 5
BUSY_PAUSE: Final = 1.0
"""A host that is busy (connections without a hello at its caps) is tried again a few times."""
_NO_RETRY: Final = SEAT_GONE | {"wrong_code", "code_over", "code_over_kept", "wrong_version"}
"""Answers that trying again will not change."""
_KEPT_SEATS: Final = 50
"""Tokens kept at most (the newest): enough for any evening's tables."""


def _seats_file() -> Path:
    return data_dir() / "seats.json"


def _kept() -> dict[str, str]:
    try:
        data = json.loads(read_limited(_seats_file(), 64 * 1024))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def kept_token(key: str) -> str | None:
    """The reconnect token this player got last time at this table, if any (also one kept
    by an older bela, under the address as it was typed before the code)."""
    kept = _kept()
    found = kept.get(key)
    if found is None:
        found = next((t for k, t in reversed(kept.items()) if k.endswith(f" {key}")), None)
    return found


def keep_token(key: str, token: str) -> None:
    """Remember a seat's token (owner-only file in the data directory); a failure only
    means a closed app cannot sit down again by itself."""
    seats = _kept()
    seats.pop(key, None)
    seats[key] = token
    newest = dict(list(seats.items())[-_KEPT_SEATS:])
    with contextlib.suppress(OSError):
        replace_atomically(_seats_file(), json.dumps(newest, indent=1), ".seats-")
        os.chmod(_seats_file(), 0o600)


def forget_token(key: str) -> None:
    seats = _kept()
    if seats.pop(key, None) is not None:
        with contextlib.suppress(OSError):
            replace_atomically(_seats_file(), json.dumps(seats, indent=1), ".seats-")


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
    keep: bool = True
    """Keep the seat's token on disk and try a kept one first (False: every join is new,
    as for the browser's sessions, which share one data directory and one name)."""
    record: bool = True
    """Keep a copy of the finished match in this machine's archive (False for the SSH
    sessions: they run on the host's machine, whose archive has the host's record)."""
    invite: tuple[str, ...] = ()
    """How friends join (the host's own app shows it in the table talk)."""
    watch: bool = False
    """Follow the table without a seat (``bela join --watch``): no token, nothing to act."""
    opener: Callable[[bool], Awaitable[Client]] | None = None
    """How to sit down at the public server (``bela online``) instead of a join code: it
    opens TLS, signs in and, the first time (False), asks the lobby for the seat; again
    (True), the server seats the returning account by itself."""
    client: Client | None = None
    token: str | None = None
    seat: int | None = None

    async def connect(self) -> None:
        """Sit down (the first time, or again with our token); ``JoinError`` says why not.

        The first time, a token kept from an earlier ``bela join`` of this table under
        this name is tried first: a player whose app or terminal closed gets the seat
        and the hand back by joining again as before.
        """
        if self.opener is not None:
            self.client = await self.opener(self.client is not None or self.seat is not None)
            if self.client.welcome is not None:
                self.token, self.seat = self.client.welcome.token, self.client.welcome.seat
            return
        if self.watch:
            self.client = await Client.connect(
                self.host, self.port, self.code, self.name, watch=True
            )
            return
        if self.token is None and self.keep:
            kept = kept_token(self.key)
            if kept is not None:
                try:
                    await self._hello(kept)
                    return
                except JoinError as exc:
                    # only the host's "that seat is no longer yours" ends a seat; a host
                    # restarting or a rate limit keeps it (and takes no second seat)
                    if exc.code not in SEAT_GONE:
                        raise
                    forget_token(self.key)
        try:
            await self._hello(self.token)
        except JoinError as exc:
            if self.token is not None and exc.code in SEAT_GONE:
                self.token = None
                if self.keep:
                    forget_token(self.key)
            raise

    async def _hello(self, token: str | None) -> None:
        for attempt in range(BUSY_TRIES):
            try:
                self.client = await Client.connect(
                    self.host, self.port, self.code, self.name, token=token, lead=self.lead
                )
                break
            except JoinError as exc:
                # a host busy with strangers' connections makes room for a later try
                if exc.code not in _BUSY or attempt == BUSY_TRIES - 1:
                    raise
                await asyncio.sleep(BUSY_PAUSE)
        welcome = self.client.welcome if self.client is not None else None
        assert welcome is not None
        self.token, self.seat = welcome.token, welcome.seat
        if self.keep:
            keep_token(self.key, welcome.token)

    @property
    def key(self) -> str:
        """Which seat a kept token is for: this table, by its join code (one table's, for
        good), under this name; not by the address as typed, which changes
        (``localhost`` or ``127.0.0.1``, a host's new LAN address) while the table does not."""
        return f"{normal_code(self.code)} {self.name}"

    async def receive(self) -> ServerMessage:
        """The next message; a lost line raises ``ConnectionError`` (then ``reconnect``)."""
        if self.client is None:
            raise ConnectionError(_("not connected"))
        message = await self.client.receive()
        if isinstance(message, Closing):
            await self.client.close()
            self.client = None
            why = render(message.reason, message.code, message.args)
            if message.code in TAKEN_OVER:
                raise SeatLost(why)
            raise ConnectionError(why)
        return message

    async def reconnect(self) -> None:
        """Sit down again with the token, retrying (the host may be restarting) until
        ``retry_for`` runs out; ``SeatLost`` then."""
        if self.client is not None:
            await self.client.close()
            self.client = None
        deadline = time.monotonic() + self.retry_for
        pause = 0.25
        last = _("the host is gone")
        while time.monotonic() < deadline:
            try:
                await self.connect()
                return
            except JoinError as exc:
                last = str(exc)
                if exc.code in _NO_RETRY:
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

    async def close(self, leave: bool = False, quit_app: bool = False) -> None:
        """Hang up; ``leave``: give the seat up for good; ``quit_app``: the player closes
        the app (the table hears they left, and the seat waits for the token)."""
        if self.client is not None:
            if leave:
                await self.send({"type": "leave"})
            elif quit_app:
                await self.send({"type": "quit"})
            await self.client.close()
            self.client = None


def keep_record(session: RemoteSession, over: Over) -> str:
    """Every player keeps the match: ``over``'s record goes to this player's archive too,
    counted from their seat (the app's seat and the plain seat alike); what became of it,
    in a sentence."""
    from bela.archive.records import loads
    from bela.archive.storage import archive_match, matches_dir, read_record

    if not session.record:  # a session on the host's machine: the host keeps it
        return _("The host keeps the record.")
    try:
        record = loads(json.dumps(over.record))
        # this player's copy counts from their seat in the history and the statistics
        record = record.model_copy(update={"me": session.seat})
        for path in matches_dir().glob(f"*-{record.seed}*.json"):
            with contextlib.suppress(OSError, ValueError):  # unreadable: not this one
                kept = read_record(path)
                if kept.model_copy(update={"me": record.me}) == record:
                    # the host's own archive, on this machine (from the host's seat)
                    return _("Kept in {file} (bela replay, F3 history).").format(file=path.name)
        path = archive_match(record)
    except (OSError, ValueError) as exc:
        return _("The record could not be kept here: {reason}.").format(reason=oneline(exc, 120))
    return _("Kept in {file} (bela replay, F3 history).").format(file=path.name)
