"""``TableDirectory`` on Redis: the live tables of every worker, who owns each, who is
online, and the lobby's events, for a public server of several processes.

Keys (all under ``prefix``, so that several servers, or tests, can share one Redis):

- ``tables``: a hash, table id -> the listing as JSON (``TableEntry`` without secrets,
  plus the owning worker and when it was written);
- ``owner:<worker>``: a set, the tables a worker owns (so that ``clear`` at its start and
  its end removes its own tables and nobody else's);
- ``alive:<worker>``: a key with a time to live that the worker renews (``heartbeat``):
  a worker whose key has expired is gone, and ``orphans`` names the tables it left;
- ``online``: a hash, account id -> the worker holding that account's connection;
- the channel ``lobby``: one JSON message per change (``{"put": id}``, ``{"remove": id}``),
  published so that a front door or another worker can refresh its view without polling.
- for many workers (``bela.net.workers``): ``ports`` (worker -> the port it takes players
  on), ``hosts`` (worker -> the host its machine advertises, ``--advertise``; none: the
  players reach it at the address they used for the front door), ``held`` (account id -> the
  table it sits at), ``codes`` (a private table's code hash -> its table id; never a code),
  ``queue`` (the worker holding the quick-match queue: a lock that lapses with the
  heartbeat's time to live) and ``quick:<ticket>`` / ``quickfor:<account>`` (a group the
  queue sent on to the worker with the fewest tables); the shared invitations and the
  notices between workers (``bela.net.invitations_redis``).

Redis may go away for a while (a restart, empty or not): every call here then fails at
once (one immediate retry on a fresh connection, no backoff, ``TIMEOUT`` seconds at most on
a Redis that hangs), never sleeping in the worker's event loop, whose tables go on from
their saves in PostgreSQL; the worker writes again all it knows (``restore``, and
``bela.net.workers``) when Redis answers again.

redis-py is imported here only: ``bela server`` without ``--redis`` never loads it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, Final

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from bela.net.accounts import TableEntry

__all__ = ["ALIVE_SECONDS", "LOBBY_CHANNEL", "TIMEOUT", "RedisDirectory"]

LOBBY_CHANNEL: Final = "lobby"
ALIVE_SECONDS: Final = 15
"""A worker that has not renewed its ``alive`` key for this long is taken for dead."""
TIMEOUT: Final = 2.0
"""Seconds a Redis call may take (connecting, or waiting for its answer) before it fails:
redis-py's default (ten retries with a growing pause, each up to the socket's timeout) held
a worker's event loop, and so all its tables, for seconds at every call while Redis was away."""


def _entry(raw: str | bytes) -> tuple[TableEntry, str, float] | None:
    """A listing read back, its owner and when it was written (None: not ours to read)."""
    try:
        data = json.loads(raw)
        entry = TableEntry(
            str(data["id"]),
            bool(data["public"]),
            bool(data["rated"]),
            int(data["target"]),
            bool(data["started"]),
            tuple(n if isinstance(n, str) else None for n in data["seats"]),
            int(data["watchers"]),
        )
        return entry, str(data["worker"]), float(data["updated"])
    except (ValueError, KeyError, TypeError):
        return None


class RedisDirectory:
    """``TableDirectory`` on Redis for the worker named ``worker``."""

    def __init__(
        self,
        url: str,
        worker: str = "main",
        prefix: str = "bela:",
        alive_seconds: int = ALIVE_SECONDS,
    ) -> None:
        self.redis: redis.Redis = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=TIMEOUT,
            socket_connect_timeout=TIMEOUT,
            retry=Retry(NoBackoff(), 1),  # once more at once: a connection from before a restart
        )
        self.worker = worker
        self.prefix = prefix
        self.alive_seconds = alive_seconds
        self.redis.ping()  # a wrong URL fails here, at the start, with the reason
        self.heartbeat()

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def close(self) -> None:
        self.redis.delete(self._key("alive", self.worker))
        self.redis.close()

    def _publish(self, event: dict[str, str]) -> None:
        self.redis.publish(self._key(LOBBY_CHANNEL), json.dumps(event))

    # ------------------------------------------------------------------ TableDirectory

    def put(self, entry: TableEntry) -> None:
        listing = {
            "id": entry.id,
            "public": entry.public,
            "rated": entry.rated,
            "target": entry.target,
            "started": entry.started,
            "seats": list(entry.seats),
            "watchers": entry.watchers,
            "worker": self.worker,
            "updated": time.time(),
        }
        pipe = self.redis.pipeline()
        pipe.hset(self._key("tables"), entry.id, json.dumps(listing))
        pipe.sadd(self._key("owner", self.worker), entry.id)
        pipe.publish(self._key(LOBBY_CHANNEL), json.dumps({"put": entry.id}))
        pipe.execute()

    def remove(self, table_id: str) -> None:
        pipe = self.redis.pipeline()
        pipe.hdel(self._key("tables"), table_id)
        pipe.srem(self._key("owner", self.worker), table_id)
        pipe.publish(self._key(LOBBY_CHANNEL), json.dumps({"remove": table_id}))
        pipe.execute()

    def _listings(self) -> Iterator[tuple[TableEntry, str, float]]:
        raw: dict[str, str] = self.redis.hgetall(self._key("tables"))  # type: ignore[assignment]
        for value in raw.values():
            read = _entry(value)
            if read is not None:
                yield read

    def entries(self) -> list[TableEntry]:
        """Every worker's tables, the longest unchanged first (as ``SqliteStore``)."""
        return [entry for entry, _, _ in sorted(self._listings(), key=lambda e: e[2])]

    def clear(self) -> None:
        """Forget this worker's tables, and what dead workers left: their tables and their
        players' online marks (a live worker's stay)."""
        self._drop(self.worker)
        for worker in self.orphans():
            self._drop(worker)

    def _drop(self, worker: str) -> None:
        owned = self._key("owner", worker)
        ids: set[str] = self.redis.smembers(owned)  # type: ignore[assignment]
        ids |= {entry.id for entry, owner, _ in self._listings() if owner == worker}
        marks: dict[str, str] = self.redis.hgetall(self._key("online"))  # type: ignore[assignment]
        pipe = self.redis.pipeline()
        if ids:
            pipe.hdel(self._key("tables"), *ids)
        gone = [account for account, at in marks.items() if at == worker]
        if gone and worker != self.worker:
            pipe.hdel(self._key("online"), *gone)
        pipe.delete(owned)
        for table_id in ids:
            pipe.publish(self._key(LOBBY_CHANNEL), json.dumps({"remove": table_id}))
        pipe.execute()

    # ------------------------------------------------------------------ beyond the protocol

    def owner(self, table_id: str) -> str | None:
        """The worker that holds ``table_id`` (None: no such live table)."""
        raw: str | None = self.redis.hget(self._key("tables"), table_id)  # type: ignore[assignment]
        read = _entry(raw) if raw is not None else None
        return read[1] if read is not None else None

    def heartbeat(self) -> None:
        """This worker is alive for ``ALIVE_SECONDS`` more."""
        self.redis.set(self._key("alive", self.worker), str(time.time()), ex=self.alive_seconds)

    def alive(self, worker: str) -> bool:
        return bool(self.redis.exists(self._key("alive", worker)))

    def orphans(self) -> dict[str, list[str]]:
        """The listed tables of workers that are no longer alive, by worker."""
        gone: dict[str, list[str]] = {}
        for entry, worker, _ in self._listings():
            if worker != self.worker and not self.alive(worker):
                gone.setdefault(worker, []).append(entry.id)
        return gone

    def set_online(self, account_id: int, on: bool) -> None:
        """``account_id`` is (or no longer is) connected to this worker."""
        if on:
            self.redis.hset(self._key("online"), str(account_id), self.worker)
        else:
            # only this worker's mark: a newer sign-in on another worker keeps its own
            script = (
                "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then "
                "return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0"
            )
            self.redis.eval(script, 1, self._key("online"), str(account_id), self.worker)

    def restore(self, table_ids: set[str], online: set[int], prune: bool) -> None:
        """This worker's ``online`` accounts marked online here again (a Redis that restarted
        empty lost them); with ``prune`` (after Redis was away), also this worker's listings
        of tables it no longer holds removed (a match that ended meanwhile) and its marks of
        accounts no longer here (they left meanwhile)."""
        if not prune:
            if online:
                self.redis.hset(self._key("online"), mapping={str(a): self.worker for a in online})
            return
        listed = {entry.id for entry, owner, _ in self._listings() if owner == self.worker}
        owned: set[str] = self.redis.smembers(self._key("owner", self.worker))  # type: ignore[assignment]
        marks: dict[str, str] = self.redis.hgetall(self._key("online"))  # type: ignore[assignment]
        mine = [a for a, at in marks.items() if at == self.worker]
        stale_marks = [a for a in mine if not (a.isdigit() and int(a) in online)]
        pipe = self.redis.pipeline()
        for table_id in (listed | owned) - table_ids:
            pipe.hdel(self._key("tables"), table_id)
            pipe.srem(self._key("owner", self.worker), table_id)
            pipe.publish(self._key(LOBBY_CHANNEL), json.dumps({"remove": table_id}))
        if stale_marks:
            pipe.hdel(self._key("online"), *stale_marks)
        if online:
            pipe.hset(self._key("online"), mapping={str(a): self.worker for a in online})
        pipe.execute()

    def online(self) -> dict[int, str]:
        """Who is online, and at which worker."""
        raw: dict[str, str] = self.redis.hgetall(self._key("online"))  # type: ignore[assignment]
        return {int(k): v for k, v in raw.items() if k.isdigit()}

    def online_at(self, account_id: int) -> str | None:
        """The worker ``account_id`` is connected to, if any."""
        found: str | None = self.redis.hget(self._key("online"), str(account_id))  # type: ignore[assignment]
        return found

    def listings(self) -> list[tuple[TableEntry, str]]:
        """Every worker's tables and the worker holding each, the longest unchanged first."""
        return [(e, worker) for e, worker, _ in sorted(self._listings(), key=lambda e: e[2])]

    # ------------------------------------------------------------------ many workers

    def set_port(self, port: int, host: str | None = None) -> None:
        """This worker takes players on ``port`` of ``host`` (its machine's advertised
        host; None: none, as one machine's workers); the front doors and the other workers
        send them there. The host is a hash of its own, beside ``ports``, which an older
        worker reads as before during an upgrade."""
        pipe = self.redis.pipeline()
        pipe.hset(self._key("ports"), self.worker, str(port))
        if host is None:
            pipe.hdel(self._key("hosts"), self.worker)
        else:
            pipe.hset(self._key("hosts"), self.worker, host)
        pipe.execute()

    def addresses(self) -> dict[str, tuple[str | None, int]]:
        """The alive workers' (advertised host or None, port), by worker."""
        ports = self.ports()
        if not ports:
            return {}
        raw: dict[str, str] = self.redis.hgetall(self._key("hosts"))  # type: ignore[assignment]
        return {worker: (raw.get(worker) or None, port) for worker, port in ports.items()}

    def ports(self) -> dict[str, int]:
        """The alive workers' ports, by worker."""
        raw: dict[str, str] = self.redis.hgetall(self._key("ports"))  # type: ignore[assignment]
        return {w: int(p) for w, p in raw.items() if p.isdigit() and self.alive(w)}

    def hold(self, account_ids: list[int], table_id: str) -> None:
        """These accounts sit at ``table_id`` (a worker they sign in at sends them there)."""
        if account_ids:
            self.redis.hset(self._key("held"), mapping={str(a): table_id for a in account_ids})

    def release(self, account_ids: list[int], table_id: str) -> None:
        """These accounts no longer sit at ``table_id`` (a newer seat of theirs stays)."""
        script = (
            "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then "
            "return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0"
        )
        for account_id in account_ids:
            self.redis.eval(script, 1, self._key("held"), str(account_id), table_id)

    def held(self, account_id: int) -> str | None:
        """The table ``account_id`` sits at, at whichever worker."""
        found: str | None = self.redis.hget(self._key("held"), str(account_id))  # type: ignore[assignment]
        return found

    def put_code(self, hashed: str, table_id: str) -> None:
        """A private table's code, hashed, names its table (never the code itself)."""
        self.redis.hset(self._key("codes"), hashed, table_id)

    def drop_code(self, table_id: str) -> None:
        raw: dict[str, str] = self.redis.hgetall(self._key("codes"))  # type: ignore[assignment]
        gone = [hashed for hashed, found in raw.items() if found == table_id]
        if gone:
            self.redis.hdel(self._key("codes"), *gone)

    def by_code(self, hashed: str) -> str | None:
        found: str | None = self.redis.hget(self._key("codes"), hashed)  # type: ignore[assignment]
        return found

    def lead_queue(self) -> str | None:
        """The worker that holds the quick-match queue: this one, if none holds it (or it
        held it already: renewed); a lock with the heartbeat's time to live."""
        key = self._key("queue")
        if self.redis.set(key, self.worker, nx=True, ex=self.alive_seconds):
            return self.worker
        leader: str | None = self.redis.get(key)  # type: ignore[assignment]
        if leader == self.worker:
            self.redis.expire(key, self.alive_seconds)
        return leader

    def reserve(self, ticket: str, account_ids: list[int], worker: str, seconds: int) -> None:
        """Four accounts the quick-match queue grouped are to sit together at ``worker``
        (for ``seconds``): each is sent there and asks again."""
        value = json.dumps({"accounts": account_ids, "worker": worker})
        pipe = self.redis.pipeline()
        pipe.set(self._key("quick", ticket), value, ex=seconds)
        for account_id in account_ids:
            pipe.set(self._key("quickfor", str(account_id)), ticket, ex=seconds)
        pipe.execute()

    def reservation(self, account_id: int) -> tuple[str, list[int], str] | None:
        """(ticket, the group's accounts, the worker) that ``account_id`` is to sit with."""
        ticket: str | None = self.redis.get(self._key("quickfor", str(account_id)))  # type: ignore[assignment]
        raw: str | None = (
            self.redis.get(self._key("quick", ticket)) if ticket is not None else None  # type: ignore[assignment]
        )
        if ticket is None or raw is None:
            return None
        try:
            data = json.loads(raw)
            return ticket, [int(a) for a in data["accounts"]], str(data["worker"])
        except (ValueError, KeyError, TypeError):
            return None

    def release_reservation(self, ticket: str, account_ids: list[int]) -> None:
        keys = [self._key("quick", ticket), *(self._key("quickfor", str(a)) for a in account_ids)]
        self.redis.delete(*keys)

    def table_counts(self) -> dict[str, int]:
        """How many tables each alive worker holds (the listings), 0 for one holding none."""
        counts = dict.fromkeys(self.ports(), 0)
        for listing in self._listings():
            if listing[1] in counts:
                counts[listing[1]] += 1
        return counts

    def subscribe(self) -> Any:
        """A pub/sub subscribed to the lobby's events (``get_message`` reads them)."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(self._key(LOBBY_CHANNEL))
        return pubsub
