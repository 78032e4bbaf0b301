"""One worker of a public server of many (``bela server --workers N``): the one-process server
(``OnlineServer``) that shares its accounts, its live tables' saves (PostgreSQL) and its
directory (Redis) with the other workers, and sends a player on to the worker that holds
what they ask for.

Each table lives at one worker (the owner its save names, ``bela.net.live_tables``). A
player reaches a worker through the front door (``bela.net.front_door``), which sends every
sign-in to one of the alive workers; from there a ``Redirect`` (another port of the same
machine, or the host and port of a worker on another machine, ``bela.net.redirects``; always
the same certificate) sends them on:

- at the sign-in, when their account sits at a table another worker holds (Redis ``held``);
- for ``join`` (by id, or by a private table's code: Redis keeps the code's hash only) and
  ``watch`` of a table another worker holds;
- for ``quick``: one worker holds the quick-match queue (a Redis lock with the heartbeat's
  time to live, taken by another worker when it lapses), so four players waiting on four
  workers still meet.

The lobby lists every worker's public tables (the Redis directory). A worker whose heartbeat
expired is dead: each tick the others try to claim its tables in the store (one atomic
``UPDATE`` each, so one winner) and take them up from their saves; the players' clients,
whose line dropped, sign in again by themselves and are sent on to the table's new worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from bela.net.accounts import Accounts
from bela.net.invitations import Invitation
from bela.net.invitations_redis import RedisInvitations
from bela.net.live_tables import LiveSave, LiveStore, code_hash
from bela.net.lobby_protocol import Join, Quick, Watch
from bela.net.online_server import TICK, OnlineServer, Waiter, Who, from_redis
from bela.net.phrases import Phrase
from bela.net.redirects import Address, redirect_frame
from bela.net.server import Connection, ServerOptions, _Lines, normal_code

if TYPE_CHECKING:
    from bela.ai import Bot
    from bela.engine import Match, Rules
    from bela.net.faults import FaultLog
    from bela.net.online_server import Meta
    from bela.net.store_redis import RedisDirectory
    from bela.net.table import Table

__all__ = ["WORKER_ALIVE", "WorkerServer", "worker_name"]

WORKER_ALIVE: Final = 5
"""Seconds a worker's heartbeat lasts (renewed every tick, 0.5 s): a worker silent for
this long is taken for dead and its tables are taken up elsewhere."""
WAIT: Final = -1
"""``_seat_elsewhere``: the table is between workers; the client tries again."""
DEAD_FOR: Final = 2.0
"""Seconds a worker must be seen without its heartbeat before its tables are taken over."""
REFRESH_EVERY: Final = 5.0
"""Seconds between two writes of everything Redis knows of this worker (``_refresh``)."""
RESERVED: Final = 15
"""Seconds a quick-match group sent to another worker has to get there together."""
CLAIM_EVERY: Final = 1.0
"""Seconds between two looks for a dead worker's tables."""


def worker_name(host: str, port: int) -> str:
    """A worker's name: its machine and port (the same after a restart, so a worker that
    comes back on its port takes up its own tables that nobody took over meanwhile)."""
    return f"{host}:{port}"


class WorkerServer(OnlineServer):
    """An ``OnlineServer`` that is one worker of many, on shared stores."""

    def __init__(
        self,
        data: Path,
        options: ServerOptions,
        accounts: Accounts,
        directory: RedisDirectory,
        live: LiveStore,
        make_bot: Callable[[str], Bot] | None = None,
        faults: FaultLog | None = None,
        say: Callable[[str], None] | None = None,
        advertise: str | None = None,
    ) -> None:
        super().__init__(
            data, options, make_bot, faults, say, accounts=accounts, directory=directory, live=live
        )
        self.advertise = advertise
        """The host its machine's players reach it at (``--advertise``; None: the address
        they used for the front door)."""
        self.cluster = directory
        self.worker = directory.worker
        self.shared_invitations = RedisInvitations(directory)
        self.invitations = self.shared_invitations
        self.control_socket = f"control-{directory.worker.rsplit(':', 1)[-1]}.sock"
        self._cluster_task: asyncio.Task[None] | None = None
        self._stop_beating = threading.Event()
        self._beating = threading.Thread(target=self._beat_forever, daemon=True)
        self.arriving: dict[str, list[Waiter]] = {}
        """Quick-match groups sent here by the queue's worker, by ticket, as they arrive."""
        self.arriving_since: dict[str, float] = {}
        self._dead_since: dict[str, float] = {}
        self._presume_alive_until = 0.0
        """After Redis was away, every worker is taken for alive until then (``_seems_alive``)."""
        self.port = 0
        """When each worker was first seen without its heartbeat (``_seems_alive``)."""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> tuple[str, int]:
        self._beating.start()
        address = await super().start(host, port)
        self.port = address[1]
        self.cluster.set_port(address[1], self.advertise)
        self.cluster.lead_queue()
        self._cluster_task = asyncio.get_running_loop().create_task(self._cluster_tick())
        return address

    async def close(self) -> None:
        self.stop_beating()
        if self._cluster_task is not None:
            self._cluster_task.cancel()
        await super().close()

    def _beat_forever(self) -> None:
        """The heartbeat, every ``TICK``, in a thread of its own: a worker whose event loop
        is busy for seconds (taking up hundreds of tables, writing them all to Redis again,
        a storm of sign-ins on a loaded machine) is alive all the same. With the heartbeat
        in the loop, at 1,000 tables the workers took each other for dead and took each
        other's tables over and back, a thousand times, until players' seats lapsed."""
        while not self._stop_beating.wait(TICK):
            with contextlib.suppress(Exception):  # Redis away: the tick says so
                self.cluster.heartbeat()

    def stop_beating(self) -> None:
        """No more heartbeats from this worker's thread (at its end: before its last
        heartbeat is deleted, so none comes after)."""
        self._stop_beating.set()
        if self._beating.is_alive():
            self._beating.join(2.0)  # a heartbeat takes 2 s at most (store_redis.TIMEOUT)

    def _quietly(self, what: Callable[[], Any]) -> Any:
        """A Redis call whose failure is logged (one line a kind), not the request's end."""
        try:
            return what()
        except Exception as exc:
            self.redis_away |= from_redis(exc)
            self.faults.report(f"cluster:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")
            return None

    async def _cluster_tick(self) -> None:
        loop = asyncio.get_running_loop()
        last_claim = last_refresh = loop.time()
        while True:
            await asyncio.sleep(TICK)
            if self.redis_away and self._quietly(self.cluster.redis.ping):
                # Redis answers again: all it knows of this worker written again now (it
                # may have restarted empty), not at the next ``REFRESH_EVERY``
                self.redis_away = False
                last_refresh = loop.time()
                # every worker's heartbeat may be gone (an empty restart) and the others,
                # busy or starved, may set theirs again only in a while: nobody is taken
                # for dead until a heartbeat's whole life has passed since
                self._dead_since.clear()
                self._presume_alive_until = loop.time() + WORKER_ALIVE + DEAD_FOR
                if self._quietly(lambda: self._refresh(prune=True)) is not None:
                    self.event("redis", "back: this worker's tables, players and port written")
            leader = self._quietly(self.cluster.lead_queue)
            if leader is not None and leader != self.worker and self.queue:
                self._send_queue_to(leader)
            self._arrivals_late()
            self._quietly(self._tell_notices)
            if loop.time() - last_claim >= CLAIM_EVERY:
                last_claim = loop.time()
                self._quietly(self._take_over)
            if loop.time() - last_refresh >= REFRESH_EVERY:
                last_refresh = loop.time()
                self._quietly(self._refresh)

    def _refresh(self, prune: bool = False) -> bool:
        """Write again what Redis knows of this worker's tables (listings, seated accounts,
        private codes' hashes, the address): a Redis that restarted empty has it all back
        within ``REFRESH_EVERY`` seconds, or at once when this worker saw it away and back).
        Returns True (``_quietly`` gives None for a failure)."""
        self.cluster.heartbeat()
        self.cluster.set_port(self.port, self.advertise)
        self.cluster.restore(set(self.meta), set(self.online), prune)
        for meta in self.meta.values():
            meta.listed = None  # put again by the next _sync_directory
            table_id = meta.table.table_id
            if meta.table.started:
                self.cluster.hold([i for i in meta.seat_accounts if i is not None], table_id)
            if not meta.public:
                hashed = self.keeper.hash_of(meta.table, meta)
                if hashed is not None:
                    self.cluster.put_code(hashed, table_id)
        self._sync_directory()
        return True

    def _seems_alive(self, worker: str) -> bool:
        """``worker`` is alive, or has not been seen dead (its heartbeat gone) for
        ``DEAD_FOR`` seconds yet. A Redis that restarts empty loses every heartbeat at once;
        the live workers set theirs again within a tick, so none of them is taken for dead
        (and its tables taken over) in that moment; nor, after this worker saw Redis away
        and back, one whose heartbeat is not back yet within ``WORKER_ALIVE`` +
        ``DEAD_FOR`` seconds (at 1,000 tables on a loaded machine, workers busy writing
        their tables again took each other's tables over and back, hundreds of them)."""
        now = asyncio.get_running_loop().time()
        if now < self._presume_alive_until:
            return True
        if self.cluster.alive(worker):
            self._dead_since.pop(worker, None)
            return True
        return now - self._dead_since.setdefault(worker, now) < DEAD_FOR

    def _take_over(self) -> None:
        for table_id in self.keeper.take_over(self._seems_alive):
            self.event("resume", f"{table_id} (its worker is gone)")
        self._sync_directory()

    def _send_queue_to(self, leader: str) -> None:
        """Another worker holds the queue now: our waiters go there (their clients ask again)."""
        address = self.cluster.addresses().get(leader)
        if address is None:
            return
        for waiter in self.queue:
            waiter.conn.send(self._redirect(address))
        self.queue = []

    def _address_of(self, worker: str | None) -> Address | None:
        """Where players reach ``worker`` (None: it is this one, or not alive)."""
        if worker is None or worker == self.worker:
            return None
        found: dict[str, Address] | None = self._quietly(self.cluster.addresses)
        return (found or {}).get(worker)

    def _redirect(self, to: Address) -> dict[str, object]:
        """The frame sending a player on to the worker at ``to`` (its host only when it is
        another machine's, ``bela.net.redirects``)."""
        return redirect_frame(to, self.advertise)

    def _owner(self, table_id: str) -> str | None:
        """The worker holding ``table_id``: its save's owner, or the directory's (a table not
        started has no save yet)."""
        return self.keeper.store.owner(table_id) or self.cluster.owner(table_id)

    # ------------------------------------------------------------------ the sign-in

    async def _login(self, conn: Connection, lines: _Lines) -> Who | None:
        who = await super()._login(conn, lines)
        if who is None or who.account is None or self._held_seat(who) is not None:
            return who
        account_id = who.account.id
        try:
            to = self._seat_elsewhere(account_id)
        except Exception as exc:  # Redis away: where their table is, only its worker knows
            self.redis_away |= from_redis(exc)
            self.faults.report(f"cluster:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")
            to = WAIT  # told to try again: the front door sends them on to the next worker
        if to is None:
            return who
        if isinstance(to, int):  # WAIT: its worker is gone and nobody holds it yet
            conn.close(Phrase("host_busy"))
        else:
            conn.send(self._redirect(to))
            conn.close(Phrase("goodbye"))
        if self.online.get(who.account.id) is conn:
            del self.online[who.account.id]
            self._present(who.account.id, False)
        return None

    def _seat_elsewhere(self, account_id: int) -> Address | int | None:
        """The address of the worker holding the table ``account_id`` sits at, when that is
        another worker; a dead worker's table is taken up here first (then None); ``WAIT``
        when the table's worker cannot be reached and nobody has taken it up yet (the
        client is told to try again, not that its seat is gone)."""
        table_id = self.cluster.held(account_id)
        if table_id is None or table_id in self.meta:
            return None
        owner = self._owner(table_id)
        if owner is None or owner == self.worker:
            return None
        if not self._seems_alive(owner):
            self._take_over()
            if table_id in self.meta:
                return None
            owner = self._owner(table_id)  # another worker won it, or nobody could
            if owner is None or owner == self.worker:
                return None
        address = self._address_of(owner)
        return address if address is not None else WAIT

    # ------------------------------------------------------------------ the lobby

    def _online(self, conn: Connection, who: Who, message: object) -> None:
        free = conn.table is None and not any(w.conn is conn for w in self.queue)
        if free and isinstance(message, Join | Watch | Quick):
            to = self._quietly(lambda: self._elsewhere(message, who))
            if to is not None:
                if self._lobby_may(conn):
                    conn.send(self._redirect(to))
                return
        super()._online(conn, who, message)

    def _elsewhere(self, message: Join | Watch | Quick, who: Who) -> Address | None:
        """The address of the worker that should take ``message``, when it is not this one."""
        if isinstance(message, Quick):
            if who.account is not None:
                found = self.cluster.reservation(who.account.id)
                if found is not None:  # grouped by the queue: to sit at this worker, or that
                    return self._address_of(found[2])
            return self._address_of(self.cluster.lead_queue())
        if isinstance(message, Join) and message.code is not None:
            code = normal_code(message.code)
            if code in self.tables or self.keeper.by_code(message.code) is not None:
                return None
            table_id = self.cluster.by_code(code_hash(code))
        else:
            table_id = message.table
        if table_id is None or table_id in self.meta:
            return None
        return self._address_of(self._owner(table_id))

    def _listing(self, who: Who) -> list[dict[str, Any]]:
        """This worker's public tables, then the other workers' (from the directory, without
        their house rules and score, which the directory does not carry)."""
        out = super()._listing(who)
        avoid = self._avoided(who)
        alive: dict[str, bool] = {}
        for entry, worker in self._quietly(self.cluster.listings) or []:
            if worker == self.worker or entry.id in self.meta or not entry.public:
                continue
            if worker not in alive:
                alive[worker] = self.cluster.alive(worker)
            if not alive[worker]:
                continue
            seats = []
            for name in entry.seats:
                account = self.accounts.by_name(name) if name is not None else None
                seat: dict[str, Any] = {
                    "name": name,
                    "kind": "human" if name is not None else "bot" if entry.started else "open",
                }
                if account is not None:
                    if account.id in avoid:
                        break
                    seat["rating"] = round(account.rating.rating)
                    seat["provisional"] = account.provisional
                    seat["reliability"] = account.reliability_while_playing(
                        entry.started and entry.rated
                    )
                seats.append(seat)
            if len(seats) < 4:  # somebody ``who`` blocked sits there: not listed
                continue
            out.append(
                {
                    "id": entry.id,
                    "target": entry.target,
                    "rules": {},
                    "rated": entry.rated,
                    "started": entry.started,
                    "seats": seats,
                    "watchers": [],
                }
            )
        return out[:200]

    # ------------------------------------------------------------------ invitations

    def tell(self, account_id: int, phrase: Phrase, lobby_only: bool = False) -> None:
        if account_id in self.online:
            super().tell(account_id, phrase, lobby_only)
            return
        worker = self._quietly(lambda: self.cluster.online_at(account_id))
        if worker is not None and worker != self.worker:
            self._quietly(
                lambda: self.shared_invitations.notify(
                    worker, account_id, phrase.fields(), lobby_only
                )
            )

    def _tell_notices(self) -> None:
        """What other workers left for this worker's players (``tell``), said to them."""
        for account_id, fields, lobby_only in self.shared_invitations.take_notices(self.worker):
            there = self.online.get(account_id)
            if there is not None and (not lobby_only or there.table is None):
                there.send({"type": "notice", **fields})

    def remote_invitation(self, invitation: Invitation, avoid: set[int]) -> dict[str, Any] | None:
        """The facts the invitation carries, while its table is at an alive worker and
        nobody ``avoid`` names sat there when it was made (its worker checks again at
        the answer)."""
        owner = self._quietly(lambda: self._owner(invitation.table_id))
        if owner is None or not self._seems_alive(owner):
            return None
        accounts = invitation.facts.get("accounts", [])
        if not isinstance(accounts, list) or avoid & set(accounts):
            return None
        return invitation.facts

    def invitation_elsewhere(self, invitation: Invitation) -> dict[str, object] | int | None:
        """The redirect to the worker holding the invitation's table; a dead worker's table
        is taken up here first (then None: it is here, or gone; 0 while nobody holds it)."""
        table_id = invitation.table_id
        if table_id in self.meta:
            return None
        owner = self._quietly(lambda: self._owner(table_id))
        if owner is None or owner == self.worker:
            return None
        if not self._seems_alive(owner):
            self._quietly(self._take_over)
            if table_id in self.meta:
                return None
            owner = self._quietly(lambda: self._owner(table_id))
            if owner is None or owner == self.worker:
                return None
            if not self._seems_alive(owner):
                return 0  # nobody holds it yet: the client is told to try again
        address = self._address_of(owner)
        return self._redirect(address) if address is not None else None

    # ------------------------------------------------------------------ quick match

    def _seat_group(self, group: list[Waiter]) -> None:
        """Four accounts grouped here sit at the worker holding the fewest tables: this one,
        or another they are sent on to (each signs in there and asks again; that worker
        seats them together when all four have come, ``_quick``)."""
        ids = [w.id for w in group]
        counts: dict[str, int] | None = self._quietly(self.cluster.table_counts)
        if len(group) < 4 or any(i is None for i in ids) or not counts:
            super()._seat_group(group)
            return
        counts[self.worker] = len(self.meta)
        target = min(sorted(counts), key=lambda w: counts[w])
        address = self._address_of(target)
        if target == self.worker or address is None or counts[target] >= counts[self.worker]:
            super()._seat_group(group)
            return
        ticket = secrets.token_hex(16)
        accounts = [i for i in ids if i is not None]
        self.cluster.reserve(ticket, accounts, target, RESERVED)
        for waiter in group:
            waiter.conn.send(self._redirect(address))
        self.event("quick", f"{', '.join(w.who.name for w in group)} sent to {target}")

    def _quick(self, conn: Connection, who: Who, message: Quick) -> None:
        account_id = who.account.id if who.account is not None else None
        found = (
            self._quietly(lambda: self.cluster.reservation(account_id))
            if account_id is not None
            else None
        )
        if found is None or found[2] != self.worker:
            super()._quick(conn, who, message)
            return
        ticket, accounts, _worker = found
        now = asyncio.get_running_loop().time()
        arrived = self.arriving.setdefault(ticket, [])
        self.arriving_since.setdefault(ticket, now)
        arrived[:] = [w for w in arrived if w.id != account_id]
        arrived.append(Waiter(conn, who, message.target, now, now + message.wait))
        conn.send({"type": "queued", "target": message.target, "wait": message.wait})
        if {w.id for w in arrived} >= set(accounts):
            del self.arriving[ticket]
            self.arriving_since.pop(ticket, None)
            self._quietly(lambda: self.cluster.release_reservation(ticket, accounts))
            super()._seat_group([w for w in arrived if not w.conn.closed])

    def _arrivals_late(self) -> None:
        """A group whose players have not all come within ``RESERVED`` seconds: those who
        came are seated anyway, bots in the missing seats (unrated)."""
        now = asyncio.get_running_loop().time()
        for ticket, since in list(self.arriving_since.items()):
            if now - since < RESERVED:
                continue
            arrived = [w for w in self.arriving.pop(ticket, []) if not w.conn.closed]
            del self.arriving_since[ticket]
            if arrived:
                super()._seat_group(arrived)

    # ------------------------------------------------------------------ what Redis says

    def _new_table(self, public: bool, rated: bool, rules: Rules, target: int) -> Meta:
        meta = super()._new_table(public, rated, rules, target)
        if not public:
            hashed = code_hash(normal_code(meta.table.code))
            self._quietly(lambda: self.cluster.put_code(hashed, meta.table.table_id))
        return meta

    def _match_starts(self, table: Table) -> None:
        super()._match_starts(table)
        meta = self.meta.get(table.table_id)
        if meta is not None:
            ids = [i for i in meta.seat_accounts if i is not None]
            self._quietly(lambda: self.cluster.hold(ids, table.table_id))

    def take_up(self, save: LiveSave, match: Match) -> Table:
        table = super().take_up(save, match)
        ids = [i for i in save.seat_accounts if i is not None]
        self._quietly(lambda: self.cluster.hold(ids, table.table_id))
        if save.code_hash is not None:
            hashed = save.code_hash
            self._quietly(lambda: self.cluster.put_code(hashed, table.table_id))
        return table

    def _forget(self, table: Table) -> None:
        meta = self.meta.get(table.table_id)
        super()._forget(table)
        if meta is not None:
            ids = [i for i in meta.people.values() if i is not None]
            self._quietly(lambda: self.cluster.release(ids, table.table_id))
            if not meta.public:
                self._quietly(lambda: self.cluster.drop_code(table.table_id))


async def run_worker(server: WorkerServer, host: str, port: int, stop: asyncio.Event) -> None:
    """Run one worker until ``stop`` is set (its process's SIGTERM)."""
    await server.start(host, port)
    try:
        await stop.wait()
    finally:
        with contextlib.suppress(Exception):
            await server.close()
