"""The public server (``bela server``): a lobby, accounts, ratings and many tables in one process.

It is the friends' host (``bela.net.server.Server``) with a different front door:
every connection is TLS (the server's self-signed certificate, pinned by the client
on first use), and its first frames are a login (``bela.net.lobby_protocol``)
instead of a join code. A player with a key proves it by signing a fresh challenge
(``bela.net.identity``); a guest gives only a name and plays unrated. Then the
connection is in the lobby: it lists the public tables, creates one (public, or
private with a 130-bit code), asks for a quick match or watches a table. Seated,
its frames are the friends' table's own (act, chat, sit, start, ...), handled by
the same ``Table`` and the same code as at a friends' table, with the fair-play
rules of a rated match on top (``_fair``): talk is the quick phrases only, no hand
shown to a watcher, no bot in a seat, no pause, until the match has ended.

An account holds at most one seat: signing in again (after a drop, within the
table's wait of two minutes) seats the player again at once, hand and all; a
second connection of the same account ends the first. Leaving a rated match, or
staying away longer than the wait, counts as a loss (``bela.net.team_ratings``)
and the match is no longer rated for anybody.

Accounts, ratings and the table directory are kept through the ``Accounts`` and
``TableDirectory`` protocols (``bela.net.accounts``): on SQLite in the data directory,
or on PostgreSQL (``bela.net.store_postgres``) and Redis (``bela.net.store_redis``) when
the caller hands those in (``bela server --postgres URL --redis URL``). The operator
talks to a running server through a Unix socket in its data directory
(``bela server admin``). Invitations by name, muting and the weekly league are answered
by ``bela.net.online_social`` (``bela.net.invitations``, ``bela.net.league``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import secrets
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from bela.engine import Rules
from bela.engine.deal import new_seed
from bela.foundation.untrusted import oneline
from bela.net import online_social
from bela.net.accounts import (
    DB_FILE,
    Account,
    Accounts,
    Presence,
    SqliteStore,
    TableDirectory,
    TableEntry,
    clean_name,
)
from bela.net.identity import (
    b64,
    key_id,
    load_or_make_certificate,
    login_message,
    new_nonce,
    server_context,
    unb64,
    verify,
)
from bela.net.invitations import Invitation, InvitationBook, Invitations
from bela.net.league import League
from bela.net.live_keeper import LiveKeeper
from bela.net.live_tables import LiveSave, LiveStore, SqliteLiveTables
from bela.net.lobby_protocol import (
    LOBBY_VERSION,
    Block,
    Create,
    Join,
    Leaders,
    PlayerAsk,
    Quick,
    Rename,
    Report,
    Tables,
    Watch,
    decode_login,
    decode_online,
    decode_proof,
)
from bela.net.match_end import Ending, MatchEnds
from bela.net.phrases import Phrase
from bela.net.protocol import (
    CLIENT_FRAME_LIMIT,
    QUICK_PHRASES,
    Chat,
    Control,
    Leave,
    ProtocolError,
    Show,
    Start,
)
from bela.net.server import (
    CODE_ALPHABET,
    SEND_BUFFER_LIMIT,
    WRONG_CODE_PAUSE,
    Connection,
    Server,
    ServerOptions,
    _Lines,
    _Pending,
    new_code,
    normal_code,
)
from bela.net.table import Table

if TYPE_CHECKING:
    from bela.ai import Bot
    from bela.engine import Match
    from bela.net.faults import FaultLog

__all__ = [
    "DEFAULT_ONLINE_PORT",
    "OnlineServer",
    "Who",
    "online_options",
    "private_code",
]

DEFAULT_ONLINE_PORT: Final = 4713
SEAT_WAIT: Final = 120.0
"""Seconds a dropped player's seat waits at the public server (two minutes)."""
PRIVATE_CODE_LENGTH: Final = 26
"""26 characters of 32: 130 bits, from ``secrets``."""
LOBBY_BURST: Final = 20
LOBBY_WINDOW: Final = 10.0
TICK: Final = 0.5
NEAR: Final = 200.0
"""Rating points apart that a quick match seats together at first ..."""
WIDEN: Final = 10.0
"""... and how much wider the window grows each second a player waits."""
LEADERS: Final = 50
LISTED: Final = 200
"""Tables in one listing at most (a listing stays well under a frame's limit)."""
CONTROL_SOCKET: Final = "control.sock"
SIGNED_IN_PER_ADDRESS: Final = 32
"""Signed-in connections from one address at once (a club behind one router fits; one
machine holding every connection the server has does not: a guest needs no secret)."""


def private_code() -> str:
    """A private table's code: 130 bits, read aloud safely (no 0/O, 1/I)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(PRIVATE_CODE_LENGTH))


def online_options(**changes: Any) -> ServerOptions:
    """The friends' host's options as the public server sets them."""
    base: dict[str, Any] = {"wait": SEAT_WAIT, "difficulty": "normal", "keep_over": 60.0}
    base.update(changes)
    return ServerOptions(save=False, **base)


@dataclass(slots=True)
class Who:
    """The person behind a connection: an account, or a guest (``account`` None)."""

    name: str
    account: Account | None

    @property
    def guest(self) -> bool:
        return self.account is None


@dataclass(slots=True)
class Waiter:
    conn: Connection
    who: Who
    target: int
    since: float
    deadline: float
    avoid: frozenset[int] = frozenset()
    """Accounts this player is never seated with (blocked, either way)."""

    @property
    def rating(self) -> float:
        return self.who.account.rating.rating if self.who.account is not None else 1500.0

    @property
    def id(self) -> int | None:
        return self.who.account.id if self.who.account is not None else None

    def minds(self, other: Waiter) -> bool:
        """Either of the two blocked the other."""
        return other.id in self.avoid or self.id in other.avoid


@dataclass(slots=True)
class Meta:
    """What the public server knows of a table beyond the friends' table."""

    table: Table
    public: bool
    rated_wanted: bool
    rules: Rules
    people: dict[str, int | None] = field(default_factory=dict)
    """Seated names and their account ids (None: a guest)."""
    rated: bool = False
    """The match being played counts for the ratings."""
    seat_accounts: list[int | None] = field(default_factory=lambda: [None] * 4)
    abandoned_by: int | None = None
    listed: TableEntry | None = None
    match_id: str = ""
    """The match being played, for the archive (written once by this id)."""
    counted: bool = False
    """The finished match's ratings were counted already: only a save written before the
    match's end was one transaction says so (``bela.net.match_end``), and such a match is
    then archived without counting it again."""


def _compatible(first: Waiter, candidates: list[Waiter]) -> list[Waiter]:
    """Up to three of ``candidates``, in their order, none of whom blocked (or was blocked
    by) ``first`` or another one chosen."""
    chosen: list[Waiter] = []
    for waiter in candidates:
        if len(chosen) == 3:
            break
        if not any(waiter.minds(other) for other in (first, *chosen)):
            chosen.append(waiter)
    return chosen


def _refused(phrase: Phrase) -> dict[str, Any]:
    return {"type": "refused", **phrase.fields("reason")}


def from_redis(exc: BaseException) -> bool:
    """``exc`` is redis-py's (Redis away, or refusing): the worker writes all it knows
    again once Redis answers. redis-py is not imported here (one process never loads it)."""
    return type(exc).__module__.split(".", 1)[0] == "redis"


class OnlineServer(Server):
    """Lobby, accounts and tables in one asyncio process; ``start`` binds both sockets."""

    def __init__(
        self,
        data: Path,
        options: ServerOptions | None = None,
        make_bot: Callable[[str], Bot] | None = None,
        faults: FaultLog | None = None,
        say: Callable[[str], None] | None = None,
        accounts: Accounts | None = None,
        directory: TableDirectory | None = None,
        live: LiveStore | None = None,
    ) -> None:
        """``accounts``, ``directory`` and ``live`` (the live tables' saves; all closed by
        ``close``): SQLite in ``data`` for whichever is not given."""
        super().__init__(options or online_options(), None, None, make_bot, faults)
        self.data = data
        data.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            os.chmod(data, 0o700)
        store = SqliteStore(data / DB_FILE) if accounts is None or directory is None else None
        self.accounts: Accounts = accounts or store  # type: ignore[assignment]
        self.directory: TableDirectory = directory or store  # type: ignore[assignment]
        self.presence = self.directory if isinstance(self.directory, Presence) else None
        """Who is online where, and this process alive (a directory shared by workers)."""
        self.directory.clear()  # the listings are made again from the tables taken up
        worker = getattr(self.directory, "worker", "main")
        self.keeper = LiveKeeper(self, live or SqliteLiveTables(data / DB_FILE), str(worker))
        """The live tables' saves: written after every action, taken up at the start."""
        cert, key, self.fingerprint = load_or_make_certificate(data)
        self.tls = server_context(cert, key)
        self.meta: dict[str, Meta] = {}
        """By table id."""
        self.who: dict[Connection, Who] = {}
        self.online: dict[int, Connection] = {}
        """Signed-in accounts' connections, by account id (one each)."""
        self.queue: list[Waiter] = []
        self._say = say
        self._ticker: asyncio.Task[None] | None = None
        self._control: asyncio.Server | None = None
        self._lobby_times: dict[Connection, deque[float]] = {}
        self.signed_in_per_address = SIGNED_IN_PER_ADDRESS
        self.control_socket = CONTROL_SOCKET
        """The operator's socket's name in ``data`` (each worker of many has its own)."""
        self.invitations: InvitationBook = Invitations(time.monotonic)
        """Invitations by name to live tables (``bela.net.online_social``); the workers of
        many share theirs in Redis (``bela.net.invitations_redis``)."""
        self.mutes: dict[int, set[int]] = {}
        """Whom each signed-in account muted (read from the store at its first talk)."""
        self.league = League(self.accounts)
        self.ends = MatchEnds(self)
        """Matches' ends (and abandonments) written to the store at once, retried here."""
        self.redis_away = False
        """A write to the shared directory failed: Redis is (or was) away (``_shared``)."""
        self._beaten = time.monotonic()
        """When ``_beat`` renewed the heartbeat last (the directory beat at its start)."""

    # ------------------------------------------------------------------ running

    def event(self, kind: str, text: str) -> None:
        """One line for the operator per event, its kind first."""
        line = f"bela server: {kind}: {oneline(text, 200)}"
        if self._say is not None:
            self._say(line)
            return
        with contextlib.suppress(OSError, ValueError):
            print(line, file=sys.stderr, flush=True)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        """Bind the TLS port and the operator's control socket; start the quick-match tick."""
        self.take_up_tables()
        address = await self.listen(host, port, tls=self.tls)
        self._ticker = asyncio.get_running_loop().create_task(self._tick())
        sock = self.data / self.control_socket
        if len(str(sock)) < 100:
            with contextlib.suppress(FileNotFoundError):
                sock.unlink()
            old = os.umask(0o077)
            try:
                self._control = await asyncio.start_unix_server(self._admin, str(sock), limit=4096)
            finally:
                os.umask(old)
        else:  # pragma: no cover - a data directory too deep for a Unix socket's path
            self.faults.report("control", f"no control socket: {sock} is too long a path")
        self.event("listening", f"{address[0]}:{address[1]} TLS {self.fingerprint}")
        return address

    async def close(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        if self._control is not None:
            self._control.close()
            with contextlib.suppress(FileNotFoundError):
                (self.data / self.control_socket).unlink()
        await super().close()
        self.directory.clear()
        self.directory.close()
        self.keeper.store.close()
        if id(self.accounts) != id(self.directory):  # one SqliteStore may be both
            self.accounts.close()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            # each step on its own: a Redis away (the heartbeat, the listings) holds up
            # neither the quick-match queue nor the saves' retries
            if self.presence is not None:
                self._shared(self.presence.heartbeat)
            for step in (
                self._match_queue,
                self.keeper.retry,
                self.ends.retry,
                self._sync_directory,
            ):
                try:
                    step()
                except Exception as exc:
                    self.redis_away |= self.presence is not None and from_redis(exc)
                    self.faults.report(f"tick:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")

    def _beat(self) -> None:
        """The heartbeat renewed, if ``TICK`` has passed since this did it last."""
        now = time.monotonic()
        if self.presence is not None and now - self._beaten >= TICK:
            self._beaten = now
            self._shared(self.presence.heartbeat)

    def _shared(self, what: Callable[[], object]) -> bool:
        """A write to a directory shared by workers (Redis), which may be away for a while:
        its failure is logged (one line a kind) and marks Redis away, and the caller goes
        on (the worker writes it all again when Redis is back, ``bela.net.workers``). The
        one process's own SQLite directory is called as it is."""
        if self.presence is None:
            what()
            return True
        try:
            what()
        except Exception as exc:
            self.redis_away |= from_redis(exc)
            self.faults.report(f"shared:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")
            return False
        return True

    # ------------------------------------------------------------------ login

    async def _serve(self, conn: Connection, reader: asyncio.StreamReader) -> None:
        lines = _Lines(reader, CLIENT_FRAME_LIMIT, self.options.line_deadline)
        who = await self._login(conn, lines)
        if who is None:
            return
        self._seated(conn)
        if sum(1 for c in self.who if c.peer == conn.peer) >= self.signed_in_per_address:
            self.faults.report("cap:signed_in", f"too many signed in (last: {conn.peer})")
            conn.close(Phrase("too_many_signed_in"))
            if who.account is not None and self.online.get(who.account.id) is conn:
                del self.online[who.account.id]
                self._present(who.account.id, False)
            return
        self.who[conn] = who
        try:
            held = self._held_seat(who)
            conn.send(self._hi(who, held is not None))
            if held is not None:
                self._reseat(conn, who, *held)
            while not conn.closed:
                frame = await self._read(conn, lines)
                if frame is None:
                    return
                try:
                    message = decode_online(frame)
                except ProtocolError as exc:
                    conn.close(str(exc))
                    return
                self._online(conn, who, message)
        finally:
            self._gone(conn, who)

    async def _frame(self, conn: Connection, lines: _Lines) -> bytes | None:
        try:
            return await asyncio.wait_for(self._read(conn, lines), self.hello_timeout)
        except TimeoutError:
            conn.close(Phrase("no_hello"))
            return None

    async def _login(self, conn: Connection, lines: _Lines) -> Who | None:
        """Who is on ``conn``, or None (then it is closed, with the reason)."""
        wait = self.wrong_codes.blocked(conn.peer)
        if wait > 0:
            conn.close(Phrase("too_many_wrong", {"wait": f"{wait:.0f}"}))
            return None
        frame = await self._frame(conn, lines)
        if frame is None:
            return None
        try:
            login = decode_login(frame)
        except ProtocolError as exc:
            conn.close(str(exc))
            return None
        if login.v != LOBBY_VERSION:
            conn.close(Phrase("wrong_version", {"version": LOBBY_VERSION, "theirs": login.v}))
            return None
        name = clean_name(login.name)
        if not any(ch.isalnum() for ch in name):
            conn.close(Phrase("bad_name"))
            return None
        if login.guest or login.key is None:
            if not self._name_free(name, None):
                conn.close(Phrase("name_taken", {"name": name}))
                return None
            self.event("guest", name)
            who = Who(name, None)
            return who
        raw = unb64(login.key, 32)
        if raw is None:
            conn.close(Phrase("bad_signature"))
            return None
        key = key_id(raw)
        nonce = new_nonce()
        conn.send({"type": "challenge", "nonce": b64(nonce)})
        frame = await self._frame(conn, lines)
        if frame is None:
            return None
        try:
            proof = decode_proof(frame)
        except ProtocolError as exc:
            conn.close(str(exc))
            return None
        signature = unb64(proof.sig, 64)
        if signature is None or not verify(
            raw, signature, login_message(nonce, self.fingerprint, raw)
        ):
            self.wrong_codes.wrong(conn.peer)
            await asyncio.sleep(WRONG_CODE_PAUSE)
            self.faults.report("bad_signature", f"a bad signature (last: {conn.peer})")
            conn.close(Phrase("bad_signature"))
            return None
        if self.accounts.banned(key):
            conn.close(Phrase("banned"))
            return None
        account = self.accounts.by_key(key)
        if account is None:
            if not self._name_free(name, None):
                conn.close(Phrase("name_taken", {"name": name}))
                return None
            account = self.accounts.register(name, key)
            if account is None:
                conn.close(Phrase("name_taken", {"name": name}))
                return None
            self.event("account", f"{account.name} {key}")
        old = self.online.get(account.id)
        if old is not None and old is not conn:
            self.online.pop(account.id, None)
            old.close(Phrase("signed_in_elsewhere"))
        self.online[account.id] = conn
        self._present(account.id, True)
        self.event("login", account.name)
        return Who(account.name, account)

    def _present(self, account_id: int, on: bool) -> None:
        presence = self.presence
        if presence is not None:
            self._shared(lambda: presence.set_online(account_id, on))

    def _hi(self, who: Who, seated: bool) -> dict[str, Any]:
        account = who.account
        if account is None:
            return {"type": "hi", "v": LOBBY_VERSION, "name": who.name, "guest": True}
        return {
            "type": "hi",
            "v": LOBBY_VERSION,
            "name": account.name,
            "guest": False,
            "key": account.key,
            "rating": round(account.rating.rating),
            "rd": round(account.rating.rd),
            "provisional": account.provisional,
            "reliability": account.reliability,
            "seated": seated,
        }

    def _name_free(self, name: str, account_id: int | None) -> bool:
        """``name`` is no other account's (as it reads) and no guest's online now."""
        from bela.foundation.lookalike import same_name

        if not self.accounts.name_free(name, account_id):
            return False
        return not any(who.guest and same_name(who.name, name) for who in self.who.values())

    def _held_seat(self, who: Who) -> tuple[Table, int] | None:
        """The seat ``who``'s account holds in a match (away after a drop, or played by a
        bot since), unless they gave it up."""
        if who.account is None:
            return None
        for meta in self.meta.values():
            table = meta.table
            if meta.people.get(who.name) != who.account.id or not table.started:
                continue
            index = next((i for i, s in enumerate(table.seats) if s.name == who.name), None)
            if index is not None and table.seats[index].token is not None and not table.closed:
                return table, index
        return None

    def _reseat(self, conn: Connection, who: Who, table: Table, index: int) -> None:
        """An account back within its table's wait (or later, a bot playing for it):
        seated again at once, hand and all."""
        from bela.net.table import token_hash

        token = secrets.token_urlsafe(18)
        table.seats[index].token = token_hash(token)
        conn.table, conn.seat = table, index
        self._welcome(conn, table, index, token)
        meta = self.meta.get(table.table_id)
        if meta is not None and meta.rated:  # the app keeps its hints off again
            conn.send({"type": "notice", **Phrase("rated_match").fields()})
        table.rejoin(conn, index)
        self.event("back", f"{who.name} at {table.table_id}")

    def _gone(self, conn: Connection, who: Who) -> None:
        self.who.pop(conn, None)
        self._lobby_times.pop(conn, None)
        self.queue = [w for w in self.queue if w.conn is not conn]
        if who.account is not None and self.online.get(who.account.id) is conn:
            del self.online[who.account.id]
            self._present(who.account.id, False)
            self.mutes.pop(who.account.id, None)
        table = conn.table
        if table is not None:  # after the host has let the seat go (its `finally`)
            asyncio.get_running_loop().call_soon(self._tidy, table)

    # ------------------------------------------------------------------ the lobby

    def _online(self, conn: Connection, who: Who, message: object) -> None:
        lobby = (
            Tables
            | Leaders
            | PlayerAsk
            | Block
            | Report
            | Create
            | Join
            | Quick
            | Watch
            | Rename
            | online_social.SOCIAL
        )
        if isinstance(message, lobby):
            if not self._lobby_may(conn):
                return
            if isinstance(message, Tables):
                conn.send({"type": "tables", "tables": self._listing(who)})
            elif isinstance(message, Block):
                self._block(conn, who, message.name, message.on)
            elif isinstance(message, Report):
                self._report(conn, who, message.name, message.text)
            elif isinstance(message, PlayerAsk):
                self._player_page(conn, message.name)
            elif isinstance(message, Leaders):
                conn.send({"type": "leaders", "leaders": self._leaders()})
            elif isinstance(message, Rename):
                self._rename(conn, who, message.name)
            elif isinstance(message, online_social.SOCIAL):
                online_social.handle(self, conn, who, message)
            elif conn.table is not None or any(w.conn is conn for w in self.queue):
                conn.send(_refused(Phrase("already_seated")))
            elif isinstance(message, Create):
                self._create(conn, who, message)
            elif isinstance(message, Join):
                self._join(conn, who, message)
            elif isinstance(message, Quick):
                self._quick(conn, who, message)
            else:
                self._watch_public(conn, who, message.table)
            return
        table, index = conn.table, conn.seat
        if table is None:
            waiting = [w for w in self.queue if w.conn is conn]
            if waiting and isinstance(message, Leave):  # no longer waiting for a quick match
                self.queue = [w for w in self.queue if w.conn is not conn]
                conn.send({"type": "notice", **Phrase("goodbye").fields()})
                return
            conn.send(_refused(Phrase("not_seated")))
            return
        if conn.watcher is not None and isinstance(message, Leave):
            table.watchers.remove(table, conn.watcher)
            conn.watcher, conn.table = None, None
            conn.buffer_limit = SEND_BUFFER_LIMIT
            conn.send({"type": "notice", **Phrase("goodbye").fields()})
            return
        if index is None or conn.watcher is not None:
            self._dispatch(conn, message)
            return
        meta = self.meta.get(table.table_id)
        refusal = self._fair(table, meta, message)
        if refusal is not None:
            conn.send(_refused(refusal))
            return
        if isinstance(message, Start):
            if table.started:
                conn.send(_refused(Phrase("already_started")))
            elif table.leader != index:
                conn.send(_refused(Phrase("only_host_starts")))
            else:
                self._start(table)
            return
        if isinstance(message, Leave):
            table.left(index)
            conn.table = conn.seat = None
            conn.send({"type": "notice", **Phrase("goodbye").fields()})
            self._tidy(table)
            return
        self._dispatch(conn, message)
        if conn.table is None:  # quit: the table may be left empty
            asyncio.get_running_loop().call_soon(self._tidy, table)

    def _fair(self, table: Table, meta: Meta | None, message: object) -> Phrase | None:
        """Why ``message`` is refused at a rated match in play (fair play), if it is."""
        match = table.match
        rated_now = meta is not None and meta.rated and match is not None and not match.is_over
        at_rated = meta is not None and meta.rated_wanted
        if at_rated and isinstance(message, Control) and (message.do != "move" or table.started):
            return Phrase("rated_no_help")
        if not rated_now:
            return None
        if isinstance(message, Chat) and message.text.strip() not in QUICK_PHRASES:
            return Phrase("rated_phrases_only")
        if isinstance(message, Show) and message.on:
            return Phrase("rated_no_help")
        return None

    def tell(self, account_id: int, phrase: Phrase, lobby_only: bool = False) -> None:
        """Say ``phrase`` to ``account_id`` where they are signed in (here; a worker of many
        passes it on to theirs): only while they are in the lobby when ``lobby_only``."""
        there = self.online.get(account_id)
        if there is not None and (not lobby_only or there.table is None):
            there.send({"type": "notice", **phrase.fields()})

    def remote_invitation(self, invitation: Invitation, avoid: set[int]) -> dict[str, Any] | None:
        """The public facts of an invitation's table that is not here (a worker of many
        knows the other workers' tables); None: no such table."""
        return None

    def invitation_elsewhere(self, invitation: Invitation) -> dict[str, object] | int | None:
        """The ``redirect`` frame to the worker holding an invitation's table, when not
        this one (0: its worker is gone and nobody holds the table yet; the player tries
        again)."""
        return None

    def _lobby_may(self, conn: Connection) -> bool:
        now = time.monotonic()
        times = self._lobby_times.setdefault(conn, deque())
        while times and now - times[0] > LOBBY_WINDOW:
            times.popleft()
        if len(times) >= LOBBY_BURST:
            conn.send(_refused(Phrase("slow_down")))
            return False
        times.append(now)
        return True

    def _listing(self, who: Who) -> list[dict[str, Any]]:
        """The public tables as anybody may see them: no hand, no code, no private table,
        and none where somebody ``who`` blocked (or who blocked them) sits."""
        avoid = self._avoided(who)
        out = []
        for meta in self.meta.values():
            if not meta.public or meta.table.closed or self._minds(meta, avoid):
                continue
            out.append(self._info(meta))
        return out[:LISTED]

    def _avoided(self, who: Who) -> set[int]:
        return self.accounts.avoided(who.account.id) if who.account is not None else set()

    def _minds(self, meta: Meta, avoid: set[int]) -> bool:
        """Somebody seated at ``meta``'s table is among ``avoid``."""
        if not avoid:
            return False
        seated = (meta.people.get(s.name) for s in meta.table.seats if s.name is not None)
        return any(i in avoid for i in seated if i is not None)

    def _report(self, conn: Connection, who: Who, name: str, text: str) -> None:
        """A report for the operator (``bela server admin reports``): kept, never shown to
        other players; the text is the reporter's, kept as one cleaned line."""
        if who.account is None:
            conn.send(_refused(Phrase("guest_no_account")))
            return
        other = self.accounts.by_name(name)
        line = " ".join("".join(c if c.isprintable() else " " for c in text).split())[:300]
        if other is None or other.id == who.account.id or not line:
            conn.send(_refused(Phrase("no_such_player", {"name": clean_name(name)})))
            return
        self.accounts.report(who.account.id, other.id, line)
        self.event("report", f"{who.name} about {other.name}")
        conn.send({"type": "reported", "name": other.name})

    def _block(self, conn: Connection, who: Who, name: str, on: bool) -> None:
        if who.account is None:
            conn.send(_refused(Phrase("guest_no_account")))
            return
        other = self.accounts.by_name(name)
        if other is None or other.id == who.account.id:
            conn.send(_refused(Phrase("no_such_player", {"name": clean_name(name)})))
            return
        self.accounts.block(who.account.id, other.id, on)
        self.event("block" if on else "unblock", f"{who.name} -> {other.name}")
        conn.send({"type": "blocked", "name": other.name, "on": on})

    def _info(self, meta: Meta) -> dict[str, Any]:
        table = meta.table
        seats = []
        for seat in table.seats:
            entry: dict[str, Any] = {"name": seat.name, "kind": seat.kind()}
            account_id = meta.people.get(seat.name) if seat.name is not None else None
            account = self.accounts.by_id(account_id) if account_id is not None else None
            if account is not None:
                entry["rating"] = round(account.rating.rating)
                entry["provisional"] = account.provisional
                entry["reliability"] = account.reliability_while_playing(
                    table.started and meta.rated
                )
            seats.append(entry)
        match = table.match
        return {
            "id": table.table_id,
            "target": table.target,
            "rules": meta.rules.changed(),
            "rated": meta.rated if table.started else meta.rated_wanted,
            "started": table.started,
            "seats": seats,
            "watchers": table.watchers.names()[:16],
            "scores": list(match.scores) if match is not None else None,
        }

    def _leaders(self) -> list[dict[str, Any]]:
        return [
            {
                "name": a.name,
                "rating": round(a.rating.rating),
                "rd": round(a.rating.rd),
                "rated": a.rated,
                "provisional": a.provisional,
                "reliability": a.reliability,
            }
            for a in self.accounts.leaders(LEADERS)
        ]

    def _player_page(self, conn: Connection, name: str) -> None:
        """A player's page: standing, rating over time, the newest matches (all public)."""
        account = self.accounts.by_name(name)
        if account is None:
            conn.send(_refused(Phrase("no_such_player", {"name": clean_name(name)})))
            return
        conn.send(
            {
                "type": "player",
                "name": account.name,
                "rating": round(account.rating.rating),
                "rd": round(account.rating.rd),
                "rated": account.rated,
                "provisional": account.provisional,
                "reliability": account.reliability,
                "history": [[at, round(r)] for at, r in self.accounts.history(account.id, 100)],
                "matches": [
                    {
                        "ended": line.ended,
                        "rated": line.rated,
                        "won": line.won,
                        "scores": list(line.scores),
                        "left": line.left,
                    }
                    for line in self.accounts.matches_of(account.id, 20)
                ],
            }
        )

    def _rename(self, conn: Connection, who: Who, wanted: str) -> None:
        account = who.account
        if account is None:
            conn.send(_refused(Phrase("guest_rename")))
            return
        if conn.table is not None:
            conn.send(_refused(Phrase("already_seated")))
            return
        name = clean_name(wanted)
        if not any(ch.isalnum() for ch in name):
            conn.send(_refused(Phrase("bad_name")))
            return
        renamed = (
            self.accounts.rename(account.id, name) if self._name_free(name, account.id) else None
        )
        if renamed is None:
            conn.send(_refused(Phrase("name_taken", {"name": name})))
            return
        self.event("rename", f"{who.name} -> {renamed.name}")
        who.name, who.account = renamed.name, renamed
        conn.send({"type": "renamed", "name": renamed.name})

    def _new_table(self, public: bool, rated: bool, rules: Rules, target: int) -> Meta:
        code = new_code() if public else private_code()
        table = self.new_table(code)
        table.target = target
        meta = Meta(table, public, rated, rules)
        self.meta[table.table_id] = meta
        self._shared(self._sync_directory)  # Redis away: listed by the next tick after it
        self.event("table", f"{table.table_id} to {target} {'public' if public else 'private'}")
        return meta

    def _create(self, conn: Connection, who: Who, message: Create) -> None:
        rules = Rules(**message.rules.model_dump(exclude_defaults=True))
        rated = message.rated and not who.guest
        meta = self._new_table(not message.private, rated, rules, message.target)
        created: dict[str, Any] = {"type": "created", "table": meta.table.table_id}
        if message.private:
            created["code"] = meta.table.code
        conn.send(created)
        if self._sit(conn, who, meta):
            for name in message.invite:
                online_social.invite(self, conn, who, name)

    def _join(self, conn: Connection, who: Who, message: Join) -> None:
        meta: Meta | None = None
        if message.code is not None:
            if self.wrong_codes.blocked(conn.peer) > 0:
                conn.send(_refused(Phrase("no_such_table")))
                return
            table = self.tables.get(normal_code(message.code))
            taken_up = self.keeper.by_code(message.code)  # a table taken up keeps no code
            table_id = table.table_id if table is not None else taken_up
            meta = self.meta.get(table_id) if table_id is not None else None
            if meta is None or meta.public:
                self.wrong_codes.wrong(conn.peer)
                conn.send(_refused(Phrase("no_such_table")))
                return
        elif message.table is not None:
            meta = self.meta.get(message.table)
            if meta is None or not meta.public:
                conn.send(_refused(Phrase("no_such_table")))
                return
        if meta is None:
            conn.send(_refused(Phrase("no_such_table")))
            return
        if self._minds(meta, self._avoided(who)):  # as if it were not there
            conn.send(_refused(Phrase("no_such_table")))
            return
        if meta.rated_wanted and who.guest:
            conn.send(_refused(Phrase("guest_unrated")))
            return
        self._sit(conn, who, meta)

    def _sit(self, conn: Connection, who: Who, meta: Meta) -> bool:
        table = meta.table
        name = table.unique_name(who.name)
        placed = table.join(_Pending(conn), name, None)
        if isinstance(placed, Phrase):
            conn.send(_refused(placed))
            return False
        index, token = placed
        table.seats[index].link = conn
        conn.table, conn.seat = table, index
        meta.people[name] = who.account.id if who.account is not None else None
        self._welcome(conn, table, index, token)
        table.send_state(index)
        return True

    def _watch_public(self, conn: Connection, who: Who, table_id: str) -> None:
        meta = self.meta.get(table_id)
        if meta is None or not meta.public or self._minds(meta, self._avoided(who)):
            conn.send(_refused(Phrase("no_such_table")))
            return
        self._watch(conn, meta.table, who.name)

    # ------------------------------------------------------------------ quick match

    def _quick(self, conn: Connection, who: Who, message: Quick) -> None:
        if who.account is not None:  # the rating as it is now (a match may have moved it)
            who.account = self.accounts.by_id(who.account.id) or who.account
        now = asyncio.get_running_loop().time()
        avoid = frozenset(self.accounts.avoided(who.account.id)) if who.account else frozenset()
        self.queue.append(Waiter(conn, who, message.target, now, now + message.wait, avoid))
        conn.send({"type": "queued", "target": message.target, "wait": message.wait})
        self._match_queue()

    def _match_queue(self) -> None:
        """Seat whoever can be seated: four near each other's rating (rated), or the
        longest-waiting once their wait is over, with whoever waits for that target and
        bots in the empty seats (unrated)."""
        now = asyncio.get_running_loop().time()
        for first in list(self.queue):
            if first not in self.queue:
                continue
            others = [w for w in self.queue if w is not first and w.target == first.target]
            window = NEAR + WIDEN * (now - first.since)
            by_rating = sorted(others, key=lambda w: abs(w.rating - first.rating))
            near = _compatible(
                first, [w for w in by_rating if abs(w.rating - first.rating) <= window]
            )
            if len(near) == 3:
                group = [first, *near]
            elif now >= first.deadline:
                group = [first, *_compatible(first, by_rating)]
            else:
                continue
            for waiter in group:
                self.queue.remove(waiter)
            self._seat_group(group)

    def _seat_group(self, group: list[Waiter]) -> None:
        """Partners of like strength: the strongest with the weakest (seats 0 and 2)."""
        ranked = sorted(group, key=lambda w: -w.rating)
        order = [ranked[i] for i in (0, 1, 3, 2) if i < len(ranked)]
        rated = len(group) == 4 and all(not w.who.guest for w in group)
        meta = self._new_table(True, rated, self.options.rules, group[0].target)
        for waiter in order:
            if not waiter.conn.closed:
                self._sit(waiter.conn, waiter.who, meta)
        self.event("quick", f"{meta.table.table_id}: {', '.join(w.who.name for w in order)}")
        self._start(meta.table)

    # ------------------------------------------------------------------ matches and ratings

    def _start(self, table: Table) -> None:
        meta = self.meta[table.table_id]
        self._match_starts(table)
        table.start(new_seed(), meta.rules)

    def _match_starts(self, table: Table) -> None:
        """A match starts at ``table``: rated when it was meant to be and four accounts sit
        there (no bot, no guest); each of them has started one more rated match. A table
        made rated that starts with a bot (its host did not wait for four) says so."""
        meta = self.meta.get(table.table_id)
        if meta is None:
            return
        ids = [meta.people.get(s.name) if s.name is not None else None for s in table.seats]
        humans = all(s.name is not None and not s.bot for s in table.seats)
        meta.seat_accounts = ids
        meta.abandoned_by = None
        meta.match_id = secrets.token_hex(16)
        meta.rated = meta.rated_wanted and humans and all(i is not None for i in ids)
        if meta.rated:
            self.accounts.count_started([i for i in ids if i is not None])
            table.tell(Phrase("rated_match"))
        elif meta.rated_wanted:  # made rated, started with a bot in a seat: say it
            table.tell(Phrase("unrated_with_bots"))
        self.event("start", f"{table.table_id} {'rated' if meta.rated else 'unrated'}")

    def _wire(self, table: Table) -> None:
        super()._wire(table)
        table.on_abandon = self._abandoned
        table.on_change = self.keeper.keep
        table.hold = True  # each state goes out once the store holds its actions
        table.listens = functools.partial(online_social.listens, self, table)

    def take_up_tables(self) -> None:
        """Take up the live tables this worker owns (a restart), and those of workers that
        are gone (their heartbeat expired; with no shared directory, every table in the
        store is this process's own)."""
        alive = getattr(self.directory, "alive", None) if self.presence is not None else None
        for table_id in [*self.keeper.resume(), *self.keeper.take_over(alive)]:
            self.event("resume", table_id)
        self._sync_directory()

    def take_up(self, save: LiveSave, match: Match) -> Table:
        """A live table read back from its save: its players away, each seated again when
        they sign in (``_held_seat``), from the last state every one of them saw.

        A worker taking up hundreds of tables at its start renews its heartbeat as it goes
        (``_beat``): else it lapsed before the tick began, the other workers took its tables
        over meanwhile, and both held them (seen at 1,000 tables, bench_server.py)."""
        self._beat()
        kept = save.table
        table = Table(
            table_id=kept.table_id,
            code=new_code() if save.public else private_code(),  # the code is kept hashed
            difficulty=kept.difficulty,
            target=match.target,
            wait=self.options.wait,
            bot_delay=self.options.bot_delay,
            leader_key=secrets.token_urlsafe(18),
            make_bot=self._bot_maker(),
            clock=self.options.clock,
        )
        for seat, name, token, bot in zip(
            table.seats, kept.names, kept.tokens, kept.bots, strict=True
        ):
            seat.name, seat.token, seat.bot = name, token, bot
        table.leader = kept.leader
        table.bot_played = set(kept.record.bot_rounds or ())
        table.series.wins = list(kept.series)
        table.series.played = sum(kept.series)
        table.seq = table.durable = save.seq  # what the store holds went out already
        rules: dict[str, Any] = dict(save.rules)
        meta = Meta(
            table,
            save.public,
            save.rated_wanted,
            Rules(**rules),
            people=dict(save.people),
            rated=save.rated,
            seat_accounts=list(save.seat_accounts),
            abandoned_by=save.abandoned_by,
            match_id=save.match_id,
            counted=save.counted,
        )
        self.meta[table.table_id] = meta
        self._wire(table)
        self.tables[normal_code(table.code)] = table
        table.resume(match)
        return table

    def forget_here(self, table: Table) -> None:
        """``table`` is no longer this worker's (another took it over): forgotten here, its
        save left to the worker that holds it now."""
        if self.meta.pop(table.table_id, None) is not None:
            self._shared(lambda: self.directory.remove(table.table_id))
        self.tables.pop(normal_code(table.code), None)

    def _abandoned(self, table: Table, index: int) -> None:
        """A person's seat went to a bot in the match: at a rated match, a loss for them;
        the match is no longer rated (the others have finished theirs). Written at once,
        once by the match id (``bela.net.match_end``)."""
        meta = self.meta.get(table.table_id)
        if all(seat.bot for seat in table.seats):  # nobody left to play for: end it
            asyncio.get_running_loop().call_soon(self._end_unwatched, table)
        over = table.match is not None and table.match.is_over
        if meta is None or not meta.rated or over:
            return
        ids = meta.seat_accounts
        leaver = ids[index]
        meta.rated = False
        meta.abandoned_by = leaver
        if leaver is None:
            return
        meta.match_id = meta.match_id or secrets.token_hex(16)  # a save from before match ids
        left = Ending(
            table.table_id,
            meta.match_id,
            tuple(ids),
            counts=not meta.counted,
            archive=False,
            abandoned_by=leaver,
            leaver_seat=index,
        )
        self.ends.settle(left)
        table.tell(Phrase("abandoned", {"name": table.name_of(index)}))
        self.keeper.keep(table)  # no longer rated: so it is taken up, too
        self.event("abandon", f"{table.name_of(index)} at {table.table_id}")

    def _over(self, table: Table) -> str | None:
        """The match is over: archived, rated, counted and its save gone, all at once
        (``bela.net.match_end``); what the store does not take now is tried again."""
        where = super()._over(table)
        meta = self.meta.get(table.table_id)
        match = table.match
        if meta is None or match is None or match.winner is None:
            return where
        ending = Ending(
            table.table_id,
            meta.match_id or secrets.token_hex(16),
            tuple(meta.seat_accounts),
            counts=meta.rated and not meta.counted,
            archive=True,
            winner=match.winner,
            scores=match.scores,
            rated=meta.rated,
            abandoned_by=meta.abandoned_by,
        )
        meta.match_id = ending.match_id
        self.event(
            "over", f"{table.table_id} {match.scores[0]}:{match.scores[1]} rated={meta.rated}"
        )
        self.ends.settle(ending)
        return where

    def _again(self, table: Table) -> None:
        super()._again(table)
        self.keeper.forget(table.table_id)  # the last match's rounds are not this one's
        self._match_starts(table)

    def _let_go(self, table: Table) -> None:
        super()._let_go(table)
        self._forget(table)

    def _forget(self, table: Table) -> None:
        if self.meta.pop(table.table_id, None) is not None:
            self._shared(lambda: self.directory.remove(table.table_id))
            if self.ends.holds(table.table_id):  # its end is not written yet: save kept
                self.keeper.forget(table.table_id)
            else:
                self.keeper.drop(table.table_id)
        self.invitations.drop_table(table.table_id)
        self.tables.pop(normal_code(table.code), None)

    def _tidy(self, table: Table) -> None:
        """A table nobody sits at before its start is gone."""
        if table.started or any(s.name is not None for s in table.seats):
            return
        table.close(Phrase("table_closed"))
        self._forget(table)

    def _end_unwatched(self, table: Table) -> None:
        """Only bots sit at ``table``: its match is let go, unless somebody watches."""
        if table.closed or table.watchers or not all(seat.bot for seat in table.seats):
            return
        meta = self.meta.get(table.table_id)
        if meta is not None:
            meta.rated = False
        table.close(Phrase("table_closed"))
        self._forget(table)

    def _sync_directory(self) -> None:
        for meta in self.meta.values():
            table = meta.table
            entry = TableEntry(
                table.table_id,
                meta.public,
                meta.rated if table.started else meta.rated_wanted,
                table.target,
                table.started,
                tuple(s.name for s in table.seats),
                len(table.watchers.names()),
            )
            if entry != meta.listed:
                self.directory.put(entry)
                meta.listed = entry

    # ------------------------------------------------------------------ the operator

    def end_table(self, table_id: str) -> bool:
        meta = self.meta.get(table_id)
        if meta is None:
            return False
        meta.rated = False  # nobody is counted for a match the operator stopped
        meta.table.close(Phrase("ended_by_operator"))
        self._forget(meta.table)
        self.event("end", table_id)
        return True

    def ban(self, key: str) -> None:
        self.accounts.ban(key)
        account = self.accounts.by_key(key)
        if account is not None:
            conn = self.online.get(account.id)
            if conn is not None:
                conn.close(Phrase("banned"))
        self.event("ban", key)

    def admin_list(self) -> dict[str, Any]:
        """This worker's tables and who is signed in here; each table names its worker as
        the table directory holds it (``main`` for one process, ``host:port`` of many)."""
        tables = []
        for meta in self.meta.values():
            table = meta.table
            players = []
            for seat in table.seats:
                account_id = meta.people.get(seat.name) if seat.name is not None else None
                account = self.accounts.by_id(account_id) if account_id is not None else None
                players.append(
                    {
                        "name": seat.name,
                        "kind": seat.kind(),
                        "key": account.key if account else None,
                    }
                )
            tables.append(
                {
                    "id": table.table_id,
                    "public": meta.public,
                    "rated": meta.rated if table.started else meta.rated_wanted,
                    "target": table.target,
                    "started": table.started,
                    "seats": players,
                    "watchers": table.watchers.names(),
                    "worker": self.keeper.worker,
                }
            )
        online = [
            {"name": who.name, "key": who.account.key if who.account else None}
            for who in self.who.values()
        ]
        return {"tables": tables, "online": online}

    async def _admin(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One request of ``bela server admin`` (the socket is the owner's only)."""
        try:
            line = await asyncio.wait_for(reader.readline(), 5)
            request = json.loads(line)
            do = request.get("do") if isinstance(request, dict) else None
            answer: dict[str, Any]
            if do == "list":
                answer = {"ok": True, **self.admin_list()}
            elif do == "end" and isinstance(request.get("table"), str):
                answer = {"ok": self.end_table(request["table"])}
            elif do == "ban" and isinstance(request.get("key"), str):
                self.ban(request["key"])
                answer = {"ok": True}
            elif do == "reports":  # from whichever store keeps them (SQLite or PostgreSQL)
                answer = {"ok": True, "reports": self.accounts.reports(100)}
            else:
                answer = {"ok": False, "error": "unknown request"}
        except (TimeoutError, ValueError, OSError) as exc:
            answer = {"ok": False, "error": f"{type(exc).__name__}"}
        with contextlib.suppress(Exception):
            writer.write(json.dumps(answer).encode() + b"\n")
            await writer.drain()
            writer.close()
