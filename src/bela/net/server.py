"""The host: an asyncio TCP server holding tables, each joined with its own code.

Every connection starts with ``Hello`` (within ``HELLO_TIMEOUT``). A wrong join
code is answered, after a short pause, with ``Closing``, and counts against the
peer's address: more than ``WrongCodes.limit`` wrong codes in ``WrongCodes.window``
seconds and that address is refused without its code even being looked at, until
the window has passed (a 10-character code from 32 letters and digits is 50 bits;
at five guesses a minute, guessing one takes longer than the universe has).

Before a byte is read, a connection must fit the caps: a few without a good hello
from one address, ``max_unseated`` without one in all (past that the longest-idle
one makes room), and all of them under what the open-file limit leaves after a
reserve for the saves (``connection_cap``): a stranger without the code cannot
hold the descriptors the journal needs. What goes wrong is logged one line per
kind (``bela.net.faults``).

Then frames are read one line at a time with a hard length limit, and a line
once begun must end within ``line_deadline`` seconds; anything
malformed (too long, not JSON, an unknown type, a field that does not fit)
closes that connection with the reason, and only that one. A client that does
not read its frames is cut off once ``SEND_BUFFER_LIMIT`` bytes wait for it,
so a stalled peer cannot make the host hold unbounded memory.

A finished table is kept ``ServerOptions.keep_over`` seconds after its ``Over``
went out (archived, every connected seat told): a player whose line dropped at
the very end and comes back in that time is seated again and sent ``Over`` with
the record, as during the match. Then the table is let go (its remaining
connections are closed with the reason) and only a line about its result is
remembered under its code, so a player who comes back later is told that the
match is over and where its record is, instead of "wrong join code" (and is not
counted as a guess). A host that plays match after match holds only the live
tables and one short line per finished one (the newest ``FINISHED_KEPT``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Final

from bela.archive.records import RecordError, parse_action
from bela.engine import Rules
from bela.engine.deal import new_seed
from bela.net.faults import FaultLog
from bela.net.finished import FINISHED_KEPT, keep_finished, load_finished
from bela.net.host_controls import control
from bela.net.phrases import Phrase
from bela.net.protocol import (
    CLIENT_FRAME_LIMIT,
    PROTOCOL_VERSION,
    Act,
    Again,
    Chat,
    Control,
    Hello,
    Leave,
    ProtocolError,
    Quit,
    Show,
    Sit,
    Start,
    decode_client,
    encode,
)
from bela.net.rematch import agree
from bela.net.table import Table
from bela.net.watchers import WATCHER_BUFFER_LIMIT, Watcher

if TYPE_CHECKING:
    from bela.ai import Bot
    from bela.engine import Match
    from bela.net.saves import TableSave, TableSaver

__all__ = [
    "CODE_ALPHABET",
    "HELLO_TIMEOUT",
    "Server",
    "ServerOptions",
    "WrongCodes",
    "new_code",
    "normal_code",
]

HELLO_TIMEOUT: Final = 10.0
FD_RESERVE: Final = 96
"""Descriptors never given to connections: the saves' files (a snapshot's temp file and
its directory, a journal, in each of the writing threads), the archive, the log."""
BACKLOG: Final = 32
"""Connections the kernel queues, and asyncio accepts in one go before the host sees them
(each holds a descriptor for a moment even when it is refused: counted in the reserve)."""
SEND_BUFFER_LIMIT: Final = 1024 * 1024
CODE_ALPHABET: Final = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud safely
CODE_LENGTH: Final = 10
WRONG_CODE_PAUSE: Final = 0.2
CHAT_BURST: Final = 5
CHAT_WINDOW: Final = 5.0


def new_code() -> str:
    """An unguessable join code, shown as ``XXXX-XXXX-XX``."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def normal_code(text: str) -> str:
    """A code as typed (any case, dashes or spaces anywhere) in its one spelling."""
    raw = "".join(ch for ch in text.upper() if ch.isalnum())
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}" if len(raw) == CODE_LENGTH else raw


@dataclass(slots=True)
class WrongCodes:
    """Wrong join codes and tokens by peer address, in a sliding window."""

    limit: int = 5
    window: float = 60.0
    seen: dict[str, deque[float]] = field(default_factory=dict)

    def blocked(self, peer: str) -> float:
        """Seconds until ``peer`` may try again (0: it may now)."""
        times = self.seen.get(peer)
        if not times:
            return 0.0
        now = time.monotonic()
        while times and now - times[0] > self.window:
            times.popleft()
        if len(times) < self.limit:
            return 0.0
        return self.window - (now - times[0])

    def wrong(self, peer: str) -> None:
        self.seen.setdefault(peer, deque()).append(time.monotonic())
        if len(self.seen) > 10_000:  # forget the oldest peers rather than grow without end
            for key in list(self.seen)[:5000]:
                del self.seen[key]


@dataclass(frozen=True, slots=True)
class ServerOptions:
    difficulty: str = "easy"
    target: int = 1001
    rules: Rules = field(default_factory=Rules)
    wait: float = 60.0
    """Seconds a dropped player's seat waits before a bot plays it."""
    bot_delay: float = 0.6
    """Seconds before each bot action, so people can follow the game (0 in tests)."""
    save: bool = True
    keep_over: float = 300.0
    """Seconds a finished table stays, so a player back in that time gets ``Over`` again."""
    clock: float = 0.0
    """Seconds a connected player has for a turn before a bot plays it (0: no clock)."""
    max_connections: int = 2000
    """Connections at once, seated or not (lowered to what the open-file limit allows,
    keeping ``FD_RESERVE`` descriptors back for saves)."""
    max_unseated: int = 128
    """Connections at once that have not said a good hello yet."""
    max_unseated_per_address: int = 8
    """Of those, from one address."""
    line_deadline: float = 10.0
    """Seconds a line may take from its first byte to its newline (a half-sent line is
    not held open for ever)."""


def connection_cap(wanted: int) -> int:
    """``wanted`` connections, or fewer if the open-file limit would not leave
    ``FD_RESERVE`` descriptors for the saves with that many (and the backlog) open."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, ValueError, OSError):  # pragma: no cover - not a Unix
        return wanted
    if soft == resource.RLIM_INFINITY:
        return wanted
    try:
        open_now = len(os.listdir("/proc/self/fd"))
    except OSError:  # pragma: no cover - no /proc: guess
        open_now = 64
    return max(4, min(wanted, soft - open_now - FD_RESERVE - BACKLOG))


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class _Cut(Exception):
    pass


class _Lines:
    """A connection's frames, one line at a time, with a length limit and a deadline:
    once a line has begun, its newline must come within ``deadline`` seconds (a peer
    that sends half a line and stops is cut off, not held open for ever). Waiting
    between lines has no deadline: a player may think as long as they like."""

    def __init__(self, reader: asyncio.StreamReader, limit: int, deadline: float) -> None:
        self.reader = reader
        self.limit = limit
        self.deadline = deadline
        self.buf = bytearray()

    async def next(self) -> bytes | None:
        """The next line, newline included; None when the peer closed between lines."""
        loop = asyncio.get_running_loop()
        started = loop.time() if self.buf else None
        while True:
            end = self.buf.find(b"\n")
            if end >= 0:
                if end + 1 > self.limit:
                    raise _TooLarge
                frame = bytes(self.buf[: end + 1])
                del self.buf[: end + 1]
                return frame
            if len(self.buf) >= self.limit:
                raise _TooLarge
            if self.buf:
                if started is None:
                    started = loop.time()
                left = started + self.deadline - loop.time()
                if left <= 0:
                    raise _TooSlow
                try:
                    chunk = await asyncio.wait_for(self.reader.read(self.limit), left)
                except TimeoutError:
                    raise _TooSlow from None
            else:
                chunk = await self.reader.read(self.limit)
            if not chunk:
                if self.buf:
                    raise _Cut
                return None
            self.buf += chunk


class Connection:
    """One client connection: frames out (never waiting on the peer), and its seat."""

    def __init__(self, writer: asyncio.StreamWriter, peer: str) -> None:
        self.writer = writer
        self.peer = peer
        self.table: Table | None = None
        self.seat: int | None = None
        self.closed = False
        self.unseated = False
        """Counted among the connections without a good hello yet (``Server`` caps them)."""
        self.since = time.monotonic()
        self.chat_times: deque[float] = deque()
        self.watcher: Watcher | None = None
        """Set for a watcher (``Hello.watch``): no seat, and a smaller send buffer."""
        self.buffer_limit = SEND_BUFFER_LIMIT

    def send(self, message: dict[str, Any]) -> None:
        self.send_frame(encode(message))

    def send_frame(self, frame: bytes) -> None:
        if self.closed:
            return
        self.writer.write(frame)
        transport = self.writer.transport
        if transport.get_write_buffer_size() > self.buffer_limit:
            self.close(Phrase("not_reading"))
            if self.watcher is not None:  # gone at once: a closing frame would wait on them
                transport.abort()

    def close(self, reason: str | Phrase) -> None:
        if self.closed:
            return
        fields = reason.fields("reason") if isinstance(reason, Phrase) else {"reason": reason}
        with contextlib.suppress(Exception):
            self.writer.write(encode({"type": "closing", **fields}))
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.close()


class Server:
    """Tables by join code; ``listen`` binds, ``serve_forever`` runs until cancelled."""

    def __init__(
        self,
        options: ServerOptions | None = None,
        saver: TableSaver | None = None,
        wrong_codes: WrongCodes | None = None,
        make_bot: Callable[[str], Bot] | None = None,
        faults: FaultLog | None = None,
    ) -> None:
        self.options = options if options is not None else ServerOptions()
        self.saver = saver
        self.wrong_codes = wrong_codes if wrong_codes is not None else WrongCodes()
        self.tables: dict[str, Table] = {}
        """By join code (normal spelling)."""
        self.finished: dict[str, Phrase] = (
            load_finished(saver.directory.parent) if saver is not None else {}
        )
        """By join code: why a finished table's code seats nobody, in words (kept on disk in
        the data directory, so a restarted host knows them too: ``bela.net.finished``)."""
        self._make_bot = make_bot
        self._letting_go: dict[str, asyncio.TimerHandle] = {}
        self._server: asyncio.Server | None = None
        self._connections: set[Connection] = set()
        self._unseated: dict[str, int] = {}
        """Connections without a good hello yet, by address."""
        self._waiting: dict[Connection, None] = {}
        """The same connections, oldest first (the first to make room)."""
        self.hello_timeout = HELLO_TIMEOUT
        self.faults = faults if faults is not None else FaultLog()
        if saver is not None and saver.on_problem is None:
            saver.on_problem = self.faults.report
        self.connection_cap = self.options.max_connections
        """Connections at once (``listen`` lowers it to what the open-file limit allows)."""

    # ------------------------------------------------------------------ tables

    def _bot_maker(self) -> Callable[[str], Bot]:
        if self._make_bot is not None:
            return self._make_bot
        from bela.ai import BOT_KINDS, make_bot

        def make(difficulty: str) -> Bot:
            # as the app chooses: the level asked for, else the nearest one this bela has
            for kind in (difficulty, "normal", "heuristic", "random"):
                if kind in BOT_KINDS:
                    return make_bot(kind)
            return make_bot(BOT_KINDS[0])

        return make

    def new_table(self, code: str | None = None) -> Table:
        """A new empty table with a fresh code (or ``code``)."""
        table = Table(
            table_id=secrets.token_hex(8),
            code=code or new_code(),
            difficulty=self.options.difficulty,
            target=self.options.target,
            wait=self.options.wait,
            bot_delay=self.options.bot_delay,
            leader_key=secrets.token_urlsafe(18),
            make_bot=self._bot_maker(),
            clock=self.options.clock,
        )
        self._wire(table)
        self.tables[normal_code(table.code)] = table
        return table

    def _wire(self, table: Table) -> None:
        saver = self.saver
        if saver is not None and self.options.save:
            table.on_change = saver.schedule
            table.hold = True  # each state goes out once its actions are saved
        table.on_over = self._over
        table.on_again = self._again
        table.on_moved = _reseat

    def _over(self, table: Table) -> str | None:
        """The match at ``table`` has ended: archive it (when saving), and let the table go
        after ``keep_over`` seconds. Returns where the record was archived."""
        saver = self.saver
        where = saver.finish(table) if saver is not None and self.options.save else None
        loop = asyncio.get_running_loop()
        code = normal_code(table.code)
        self._letting_go[code] = loop.call_later(self.options.keep_over, self._let_go, table)
        self._finished(code, table, where)
        return where

    def _finished(self, code: str, table: Table, where: str | None) -> None:
        """Remember (here and on disk) that the match at ``code`` is over, and its result."""
        match = table.match
        scores = match.scores if match is not None else (0, 0)
        values: dict[str, str | int] = {"score0": scores[0], "score1": scores[1]}
        if where:
            values["file"] = PurePath(where).name  # the name only: the host's paths are its own
        self.finished.pop(code, None)
        self.finished[code] = Phrase("code_over_kept" if where else "code_over", values)
        while len(self.finished) > FINISHED_KEPT:
            del self.finished[next(iter(self.finished))]
        if self.saver is not None and self.options.save:
            keep_finished(self.saver.directory.parent, self.finished)

    def _again(self, table: Table) -> None:
        """Another match starts at ``table`` (``bela.net.rematch``): it is kept, not let go,
        and its save starts afresh (the last match is archived)."""
        handle = self._letting_go.pop(normal_code(table.code), None)
        if handle is not None:
            handle.cancel()
        if self.saver is not None:
            self.saver.forget(table.table_id)

    def _let_go(self, table: Table) -> None:
        """Forget a finished table: its code now only says the match is over."""
        code = normal_code(table.code)
        self._letting_go.pop(code, None)
        if self.tables.get(code) is not table:
            return
        del self.tables[code]
        if self.saver is not None:
            self.saver.forget(table.table_id)
        table.close(Phrase("table_closed"))

    def resume_table(self, save: TableSave, match: Match) -> Table:
        """A table read back from its save (the host restarted)."""
        table = Table(
            table_id=save.table_id,
            code=save.code,
            difficulty=save.difficulty,
            target=match.target,
            wait=self.options.wait,
            bot_delay=self.options.bot_delay,
            leader_key=save.leader_key,
            make_bot=self._bot_maker(),
            clock=self.options.clock,
        )
        for seat, name, token, bot in zip(
            table.seats, save.names, save.tokens, save.bots, strict=True
        ):
            seat.name, seat.token, seat.bot = name, token, bot
        table.leader = save.leader
        table.bot_played = set(save.record.bot_rounds or ())
        table.series.wins = list(save.series)
        table.series.played = sum(save.series)
        if save.host_seat is not None:
            table.seats[save.host_seat].host = True
        self._wire(table)
        self.tables[normal_code(table.code)] = table
        table.resume(match)
        return table

    # ------------------------------------------------------------------ the socket

    async def listen(
        self, host: str = "127.0.0.1", port: int = 0, tls: ssl.SSLContext | None = None
    ) -> tuple[str, int]:
        """Bind and start accepting; returns the address actually bound (port 0: any free).
        ``tls``: every connection is TLS (the public server, ``bela.net.online_server``)."""
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self.faults.loop_handler)  # one line, never a traceback flood
        self.connection_cap = connection_cap(self.options.max_connections)
        self._server = await asyncio.start_server(
            self._handle,
            host,
            port,
            limit=CLIENT_FRAME_LIMIT,
            backlog=BACKLOG,
            ssl=tls,
            ssl_handshake_timeout=HELLO_TIMEOUT if tls is not None else None,
        )
        sock = self._server.sockets[0].getsockname()
        return str(sock[0]), int(sock[1])

    async def close(self) -> None:
        """Stop accepting, hang up on everyone, stop the bots, finish the saves."""
        if self._server is not None:
            self._server.close()
        for handle in self._letting_go.values():
            handle.cancel()
        self._letting_go.clear()
        for table in self.tables.values():
            table.close()
        for conn in list(self._connections):
            conn.close(Phrase("shutting_down"))
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)
        if self.saver is not None:
            await self.saver.flush()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peername = writer.get_extra_info("peername")
        peer = str(peername[0]) if isinstance(peername, tuple) else str(peername)
        conn = Connection(writer, peer)
        refusal = self._make_room(peer)
        if refusal is not None:  # refused before a byte is read: a stranger holds nothing
            self.faults.report(f"cap:{refusal.code}", f"{refusal.text} (last: {peer})")
            conn.close(refusal)
            return
        self._connections.add(conn)
        self._unseated[peer] = self._unseated.get(peer, 0) + 1
        self._waiting[conn] = None
        conn.unseated = True
        try:
            await self._serve(conn, reader)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self._seated(conn)
            self._connections.discard(conn)
            if conn.table is not None and conn.watcher is not None:
                conn.table.watchers.remove(conn.table, conn.watcher)
            if conn.table is not None and conn.seat is not None:
                conn.table.dropped(conn, conn.seat)
            conn.closed = True
            with contextlib.suppress(Exception):
                writer.close()

    def _make_room(self, peer: str) -> Phrase | None:
        """Why a new connection from ``peer`` is refused at once, if it is.

        One address holds at most ``max_unseated_per_address`` connections without a
        hello. Past the caps in all (connections without a hello: ``max_unseated``, at
        most half of what the host can hold), room is made by the address that holds the
        most of them: its oldest connection without a hello is closed (``host_busy``). So
        strangers flooding from many addresses only push out each other, and a friend's
        one connection, whose hello (the code, or a seat's token) is on its way, is never
        the one to go while any address holds more: it gets in however fast the others
        come. Only a newcomer whose own address holds the most is refused."""
        if self._unseated.get(peer, 0) >= self.options.max_unseated_per_address:
            return Phrase("too_many_from_address")
        waiting_cap = max(1, min(self.options.max_unseated, self.connection_cap // 2))
        while self._waiting and (
            len(self._waiting) >= waiting_cap or len(self._connections) >= self.connection_cap
        ):
            mine = self._unseated.get(peer, 0) + 1  # counting the newcomer
            most = max(self._unseated.values())
            if most < mine:  # the newcomer's address would hold the most: it waits
                return Phrase("host_busy")
            # the oldest connection of an address holding the most (never the newcomer's:
            # it holds fewer)
            oldest = next(c for c in self._waiting if self._unseated[c.peer] == most)
            self._seated(oldest)
            self._connections.discard(oldest)
            self.faults.report("cap:host_busy", f"{Phrase('host_busy').text} (last: {peer})")
            oldest.close(Phrase("host_busy"))
        if len(self._connections) >= self.connection_cap:
            return Phrase("host_busy")
        return None

    def _seated(self, conn: Connection) -> None:
        """``conn`` no longer counts among the connections without a good hello."""
        if not conn.unseated:
            return
        conn.unseated = False
        self._waiting.pop(conn, None)
        left = self._unseated.get(conn.peer, 0) - 1
        if left > 0:
            self._unseated[conn.peer] = left
        else:
            self._unseated.pop(conn.peer, None)

    async def _read(self, conn: Connection, lines: _Lines) -> bytes | None:
        """One frame, or None when the peer is gone or broke the framing (then closed)."""
        try:
            return await lines.next()
        except _TooLarge:
            conn.close(Phrase("frame_too_large", {"limit": CLIENT_FRAME_LIMIT}))
        except _TooSlow:
            conn.close(Phrase("line_too_slow", {"seconds": f"{lines.deadline:g}"}))
        except _Cut:
            conn.close(Phrase("frame_cut"))
        return None

    async def _serve(self, conn: Connection, reader: asyncio.StreamReader) -> None:
        lines = _Lines(reader, CLIENT_FRAME_LIMIT, self.options.line_deadline)
        try:
            frame = await asyncio.wait_for(self._read(conn, lines), self.hello_timeout)
        except TimeoutError:
            conn.close(Phrase("no_hello"))
            return
        if frame is None:
            return
        try:
            hello = decode_client(frame)
        except ProtocolError as exc:
            conn.close(str(exc))
            return
        if not isinstance(hello, Hello):
            conn.close(Phrase("hello_first"))
            return
        if not await self._admit(conn, hello):
            return
        self._seated(conn)
        while not conn.closed:
            frame = await self._read(conn, lines)
            if frame is None:
                return
            try:
                message = decode_client(frame)
            except ProtocolError as exc:
                conn.close(str(exc))
                return
            self._dispatch(conn, message)

    async def _admit(self, conn: Connection, hello: Hello) -> bool:
        """Seat the player, or say why not and hang up."""
        if hello.v != PROTOCOL_VERSION:
            conn.close(Phrase("wrong_version", {"version": PROTOCOL_VERSION, "theirs": hello.v}))
            return False
        wait = self.wrong_codes.blocked(conn.peer)
        if wait > 0:
            conn.close(Phrase("too_many_wrong", {"wait": f"{wait:.0f}"}))
            return False
        table = self.tables.get(normal_code(hello.code))
        over = self.finished.get(normal_code(hello.code))
        if table is None and over is not None:  # the right code, of a match that ended
            conn.close(over)
            return False
        if table is None:
            self.wrong_codes.wrong(conn.peer)
            await asyncio.sleep(WRONG_CODE_PAUSE)
            conn.close(Phrase("wrong_code"))
            return False
        name = _clean(hello.name, 24) or "player"
        if hello.watch:
            return self._watch(conn, table, name)
        if hello.token is not None:
            index = table.seat_by_token(hello.token)
            if index is None:  # the code was right: a stale token, not a guess (not counted)
                await asyncio.sleep(WRONG_CODE_PAUSE)
                conn.close(Phrase("stale_token"))
                return False
            conn.table, conn.seat = table, index
            token = hello.token
            self._welcome(conn, table, index, token)
            table.rejoin(conn, index)
            return True
        back = table.host_returns(hello.lead) if hello.lead is not None else None
        if back is not None:  # the host's own app, after Ctrl+Q and `bela host` again
            index, token = back
            conn.table, conn.seat = table, index
            self._welcome(conn, table, index, token)
            table.rejoin(conn, index)
            return True
        name = table.unique_name(name)  # never two people read as one name
        placed = table.join(_Pending(conn), name, hello.lead)
        if isinstance(placed, Phrase):
            conn.close(placed)
            return False
        index, token = placed
        table.seats[index].link = conn
        conn.table, conn.seat = table, index
        self._welcome(conn, table, index, token)
        table.send_state(index)
        return True

    def _watch(self, conn: Connection, table: Table, name: str) -> bool:
        """A watcher: follows the table as the public sees it (``bela.net.watchers``)."""
        watcher = table.watchers.add(table, conn, name)
        if isinstance(watcher, Phrase):
            conn.close(watcher)
            return False
        conn.table, conn.watcher = table, watcher
        conn.buffer_limit = WATCHER_BUFFER_LIMIT  # a slow watcher is dropped, soon
        conn.send({"type": "watching", "v": PROTOCOL_VERSION, "table": table.table_id})
        conn.send(table.watchers.list_message())
        table.send_watcher(watcher)
        return True

    def _welcome(self, conn: Connection, table: Table, index: int, token: str) -> None:
        conn.send(
            {
                "type": "welcome",
                "v": PROTOCOL_VERSION,
                "table": table.table_id,
                "seat": index,
                "token": token,
                "leader": table.leader == index,
            }
        )
        if table.watchers:
            conn.send(table.watchers.list_message())

    def _dispatch(self, conn: Connection, message: object) -> None:
        table, index = conn.table, conn.seat
        if conn.watcher is not None and table is not None:
            if isinstance(message, Leave):
                conn.close(Phrase("goodbye"))
            elif isinstance(message, Hello):
                conn.close(Phrase("hello_again"))
            else:  # no talk either: a watcher who sees a hand must not be heard at the table
                conn.send({"type": "refused", **Phrase("only_watching").fields("reason")})
            return
        assert table is not None and index is not None
        if isinstance(message, Act):
            try:
                action = parse_action(message.action)
            except RecordError as exc:
                conn.send({"type": "refused", "reason": exc.in_english()[:300]})
                return
            refusal = table.act(index, action)
            if refusal is not None:
                conn.send({"type": "refused", **refusal.fields("reason")})
        elif isinstance(message, Chat):
            self._chat(conn, table, index, message.text)
        elif isinstance(message, Sit):
            refusal = table.sit(conn, index, message.seat)
            if refusal is not None:
                conn.send({"type": "refused", **refusal.fields("reason")})
            else:
                conn.seat = message.seat
        elif isinstance(message, Start):
            if table.started:
                conn.send({"type": "refused", **Phrase("already_started").fields("reason")})
            elif table.leader != index:
                conn.send({"type": "refused", **Phrase("only_host_starts").fields("reason")})
            else:
                table.start(new_seed(), self.options.rules)
        elif isinstance(message, Control):
            if message.do in ("pause", "resume") and not self._may_speak(conn):
                return
            refusal = control(table, index, message.do, message.seat, message.to)
            if refusal is not None:
                conn.send({"type": "refused", **refusal.fields("reason")})
        elif isinstance(message, Show):
            refusal = table.watchers.show(table, index, message.on, message.watcher)
            if refusal is not None:
                conn.send({"type": "refused", **refusal.fields("reason")})
        elif isinstance(message, Again):
            if not self._may_speak(conn):
                return
            refusal = agree(table, index, new_seed())
            if refusal is not None:
                conn.send({"type": "refused", **refusal.fields("reason")})
        elif isinstance(message, Quit):
            conn.table = conn.seat = None
            table.dropped(conn, index, on_purpose=True)
            conn.close(Phrase("goodbye"))
        elif isinstance(message, Leave):
            table.left(index)
            conn.table = conn.seat = None
            conn.close(Phrase("goodbye"))
        else:  # a second hello
            conn.close(Phrase("hello_again"))

    def _chat(self, conn: Connection, table: Table, index: int, text: str) -> None:
        line = _clean(text, 160)
        if not line:
            conn.send({"type": "refused", **Phrase("nothing_to_say").fields("reason")})
            return
        if self._may_speak(conn):
            table.chat(index, line)

    def _may_speak(self, conn: Connection) -> bool:
        """Whether one more line in everybody's talk may come from ``conn`` now: a chat
        line, još jednu or a pause / resume each put one before every player, so all of
        them share one limit (``CHAT_BURST`` in ``CHAT_WINDOW`` seconds); past it the
        sender alone is told to slow down."""
        now = time.monotonic()
        times = conn.chat_times
        while times and now - times[0] > CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_BURST:
            conn.send({"type": "refused", **Phrase("slow_down").fields("reason")})
            return False
        times.append(now)
        return True


class _Pending:
    """A connection not yet on its seat: the table's first words to it wait for the welcome."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def send(self, message: dict[str, Any]) -> None:
        pass

    def send_frame(self, frame: bytes) -> None:
        pass

    def close(self, reason: str | Phrase) -> None:
        self.conn.close(reason)


def _reseat(table: Table) -> None:
    """The host moved players: each connection's seat is where its player sits now."""
    for index, seat in enumerate(table.seats):
        if isinstance(seat.link, Connection):
            seat.link.seat = index


def _clean(text: str, limit: int) -> str:
    """Printable characters only (no escape sequences or newlines), trimmed and cut."""
    return "".join(ch if ch.isprintable() else " " for ch in text).strip()[:limit]
