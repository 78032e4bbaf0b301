"""A public server of many workers on a real Redis and PostgreSQL (issue #39): the front door
sends players on, the lobby lists every worker's tables, quick match meets across workers, a
player is sent to the worker holding their table, and a dead worker's tables go on elsewhere.

The workers here run in the test's own event loop (a worker "dies" by stopping its heartbeat
and dropping its connections, its stores untouched); test_online_workers_real.py kills real
processes."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from netplay import Player, wait_for
from onlineplay import OnlinePlayer, next_of

from bela.cli.online import AdminOptions, run_admin
from bela.net.client import Client, JoinError
from bela.net.faults import FaultLog
from bela.net.identity import Pins, load_or_make_certificate, server_context
from bela.net.lobby_protocol import Created, TableList
from bela.net.online_client import Online, take_seat
from bela.net.online_server import online_options
from bela.net.protocol import State, Watching, Welcome
from bela.net.seat_session import RemoteSession

pytestmark = pytest.mark.server

NAMES = ("Ana", "Ivo", "Eva", "Mate")


@dataclass
class Cluster:
    workers: list[object]
    door_port: int
    pins: Pins
    url: str
    door: object = None
    events: list[str] = field(default_factory=list)
    """What the workers said (``say``), each line as it came."""

    def worker(self, index: int) -> object:
        return self.workers[index]


@contextlib.asynccontextmanager
async def cluster(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str], count: int = 3
) -> AsyncIterator[Cluster]:
    from bela.net.front_door import FrontDoor
    from bela.net.live_postgres import PostgresLiveTables
    from bela.net.store_postgres import PostgresStore
    from bela.net.store_redis import RedisDirectory
    from bela.net.workers import WorkerServer

    redis_url, prefix = redis_prefix
    data = tmp_path / "server"
    workers = []
    events: list[str] = []
    for index in range(count):
        server = WorkerServer(
            data,
            online_options(difficulty="random", target=501, bot_delay=0.0),
            PostgresStore(postgres_url),
            RedisDirectory(redis_url, worker=f"w{index}", prefix=prefix, alive_seconds=2),
            PostgresLiveTables(postgres_url),
            say=events.append,
        )
        await server.start("127.0.0.1", 0)
        workers.append(server)
    cert, key, _ = load_or_make_certificate(data)
    directory = RedisDirectory(redis_url, worker="door", prefix=prefix)
    door = FrontDoor(server_context(cert, key), directory.addresses, FaultLog())
    _host, port = await door.start("127.0.0.1", 0)
    try:
        yield Cluster(workers, port, Pins(tmp_path / "client"), postgres_url, door, events)
    finally:
        await door.close()
        directory.close()
        for server in workers:
            with contextlib.suppress(Exception):
                await server.close()


def port_of(server: object) -> int:
    return int(server._server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]


def holder(site: Cluster, table_id: str) -> object:
    return next(w for w in site.workers if table_id in w.meta)  # type: ignore[attr-defined]


async def die(server: object) -> None:
    """The worker stops as if killed: no heartbeat, no listening, every line dropped; its
    saves stay in the store as the last action left them."""
    server.stop_beating()  # type: ignore[attr-defined]
    server._ticker.cancel()  # type: ignore[attr-defined]
    server._cluster_task.cancel()  # type: ignore[attr-defined]
    server._server.close()  # type: ignore[attr-defined]
    for table in server.tables.values():  # type: ignore[attr-defined]
        table.close()
    for conn in list(server._connections):  # type: ignore[attr-defined]
        conn.writer.transport.abort()


async def sign_in(site: Cluster, name: str, key: Ed25519PrivateKey) -> OnlinePlayer:
    online = await Online.connect("127.0.0.1", site.door_port, name, key, site.pins)
    return OnlinePlayer(online.client, online=online)


async def quick_four(site: Cluster, keys: list[Ed25519PrivateKey]) -> list[Player]:
    """Four players through the front door (sent to different workers), quick match."""
    clients = await asyncio.gather(
        *(
            take_seat(
                "127.0.0.1",
                site.door_port,
                name,
                key,
                site.pins,
                {"type": "quick", "target": 501, "wait": 60},
            )
            for key, name in zip(keys, NAMES, strict=True)
        )
    )
    seated = []
    for index, client in enumerate(clients):
        player = Player(client, index)
        seated.append(player)
    return seated


async def test_the_front_door_sends_players_on_and_quick_match_meets_across_workers(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    async with cluster(tmp_path, postgres_url, redis_prefix) as site:
        # the door takes the workers in turn: four sign-ins meet three workers
        where = set()
        for name in ("Luka", "Marta", "Nina", "Zvone"):
            online = await Online.connect(
                "127.0.0.1", site.door_port, name, Ed25519PrivateKey.generate(), site.pins
            )
            where.add(online.client.writer.get_extra_info("peername")[1])
            await online.close()
        assert len(where) > 1 and where <= {port_of(w) for w in site.workers}
        keys = [Ed25519PrivateKey.generate() for _ in range(4)]
        players = await quick_four(site, keys)
        tables = {p.client.welcome.table for p in players}  # type: ignore[union-attr]
        assert len(tables) == 1
        (table_id,) = tables
        owner = holder(site, table_id)
        await asyncio.sleep(0.6)  # the directory is brought up to date each tick
        # every worker's lobby lists it
        for server in site.workers:
            guest = await Online.connect("127.0.0.1", port_of(server), "Gost", None, site.pins)
            await guest.send({"type": "tables"})
            while not isinstance(listing := await guest.receive(), TableList):
                pass
            assert [t.id for t in listing.tables] == [table_id]
            assert [s.name for s in listing.tables[0].seats] != [None] * 4
            # a rated match in play is not counted against its players (it showed 0%)
            assert listing.tables[0].rated
            assert [s.reliability for s in listing.tables[0].seats] == [None] * 4
            await guest.close()
        # watching it from another worker: sent on to its worker
        other = next(w for w in site.workers if w is not owner)
        watcher = await take_seat(
            "127.0.0.1",
            port_of(other),
            "Gledatelj",
            Ed25519PrivateKey.generate(),
            site.pins,
            {"type": "watch", "table": table_id},
        )
        assert isinstance(watcher.watching, Watching) and watcher.watching.table == table_id
        await watcher.close()
        # a player who signs in at another worker is sent to their seat
        back = await Online.connect("127.0.0.1", port_of(other), "Eva", keys[2], site.pins)
        assert back.hi.seated
        assert back.client.writer.get_extra_info("peername")[1] == port_of(owner)
        welcome = await asyncio.wait_for(back.receive(), 5)
        while not isinstance(welcome, Welcome):
            welcome = await asyncio.wait_for(back.receive(), 5)
        assert welcome.table == table_id
        await back.close()
        for player in players:
            await player.client.close()


async def test_quick_matches_are_seated_at_the_worker_with_the_fewest_tables(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    async with cluster(tmp_path, postgres_url, redis_prefix) as site:
        first = await quick_four(site, [Ed25519PrivateKey.generate() for _ in range(4)])
        await asyncio.sleep(0.6)  # the directory is brought up to date each tick
        clients = await asyncio.wait_for(
            asyncio.gather(
                *(
                    take_seat(
                        "127.0.0.1",
                        site.door_port,
                        name,
                        Ed25519PrivateKey.generate(),
                        site.pins,
                        {"type": "quick", "target": 501, "wait": 60},
                    )
                    for name in ("Luka", "Marta", "Nina", "Zvone")
                )
            ),
            30,
        )
        one = first[0].client.welcome.table  # type: ignore[union-attr]
        two = {c.welcome.table for c in clients}  # type: ignore[union-attr]
        assert len(two) == 1 and one not in two
        assert holder(site, one) is not holder(site, two.pop())  # spread over the workers
        for player in first:
            await player.client.close()
        for client in clients:
            await client.close()


async def test_a_private_tables_code_finds_it_at_another_worker(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    async with cluster(tmp_path, postgres_url, redis_prefix, count=2) as site:
        first, second = site.workers
        created: list[Created] = []
        ana = await take_seat(
            "127.0.0.1",
            port_of(first),
            "Ana",
            Ed25519PrivateKey.generate(),
            site.pins,
            {"type": "create", "target": 501, "private": True},
            created.append,
        )
        assert created and created[0].code is not None
        code = created[0].code
        ivo = await take_seat(
            "127.0.0.1",
            port_of(second),
            "Ivo",
            Ed25519PrivateKey.generate(),
            site.pins,
            {"type": "join", "code": code.lower()},
        )
        assert ivo.welcome is not None and ivo.welcome.table == created[0].table
        # the directory keeps the code's hash, never the code
        raw = second.cluster.redis.hgetall(second.cluster._key("codes"))  # type: ignore[attr-defined]
        assert code not in repr(raw) and created[0].table in raw.values()
        with pytest.raises(JoinError):
            await take_seat(
                "127.0.0.1",
                port_of(second),
                "Eva",
                Ed25519PrivateKey.generate(),
                site.pins,
                {"type": "join", "code": "2" * 26},
            )
        # the operator's admin asks every worker (each has its control socket)
        made: list[Created] = []
        mate = await take_seat(
            "127.0.0.1",
            port_of(second),
            "Mate",
            Ed25519PrivateKey.generate(),
            site.pins,
            {"type": "create", "target": 701},
            made.append,
        )
        out = io.StringIO()
        options = AdminOptions(tmp_path / "server", "list", None)
        assert await asyncio.to_thread(run_admin, options, out, io.StringIO()) == 0
        assert created[0].table in out.getvalue() and made[0].table in out.getvalue()
        assert code not in out.getvalue()
        # each table with the worker that holds it, named as the directory holds it
        listed = {
            t: line
            for line in out.getvalue().splitlines()
            for t in (created[0].table, made[0].table)
            if t in line
        }
        assert listed[created[0].table].endswith(f"  @{first.worker}")  # type: ignore[attr-defined]
        assert listed[made[0].table].endswith(f"  @{second.worker}")  # type: ignore[attr-defined]
        ended = AdminOptions(tmp_path / "server", "end", made[0].table)
        assert await asyncio.to_thread(run_admin, ended, io.StringIO(), io.StringIO()) == 0
        assert made[0].table not in second.meta
        await ana.close()
        await ivo.close()
        await mate.close()


async def quick_three(site: Cluster, keys: list[Ed25519PrivateKey]) -> list[Player]:
    """Ivo, Eva and Mate ask for a quick match through the front door."""
    clients = await asyncio.gather(
        *(
            take_seat(
                "127.0.0.1",
                site.door_port,
                name,
                key,
                site.pins,
                {"type": "quick", "target": 501, "wait": 60},
            )
            for key, name in zip(keys[1:], NAMES[1:], strict=True)
        )
    )
    return [Player(client, index + 1) for index, client in enumerate(clients)]


async def come_back(site: Cluster, name: str, key: Ed25519PrivateKey) -> OnlinePlayer:
    """As the app does after a dropped line: sign in again through the front door until the
    server seats us (a dead worker's table may take a moment to be taken up)."""
    async with asyncio.timeout(30):
        while True:
            try:
                player = await sign_in(site, name, key)
            except (JoinError, ConnectionError):
                await asyncio.sleep(0.2)
                continue
            if player.hi.seated:
                return player
            await player.online.close()
            await asyncio.sleep(0.2)


def app_session(site: Cluster, name: str, key: Ed25519PrivateKey) -> RemoteSession:
    """A seat as ``bela online``'s app takes it (``bela.cli.online._session``): the opener
    signs in and asks for a quick match the first time; after a lost line the session's
    ``reconnect`` signs in again, retrying, and the server seats the account by itself."""
    session = RemoteSession("127.0.0.1", site.door_port, "", name, keep=False)

    async def opener(again: bool) -> Client:
        request = None if again else {"type": "quick", "target": 501, "wait": 60}
        return await take_seat("127.0.0.1", site.door_port, name, key, site.pins, request)

    session.opener = opener
    return session


async def test_a_dead_workers_table_goes_on_at_another_and_is_archived_once(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    async with cluster(tmp_path, postgres_url, redis_prefix) as site:
        keys = [Ed25519PrivateKey.generate() for _ in range(4)]
        # Ana plays through the app's own session; the others sign in again by hand
        ana = app_session(site, "Ana", keys[0])
        opened = asyncio.create_task(ana.connect())
        others = asyncio.create_task(quick_three(site, keys))
        await asyncio.wait_for(opened, 30)
        assert ana.client is not None
        players = [Player(ana.client, 0), *await asyncio.wait_for(others, 30)]
        table_id = players[0].client.welcome.table  # type: ignore[union-attr]
        seats = {name: p.seat for name, p in zip(NAMES, players, strict=True)}
        tasks = [asyncio.create_task(p.play()) for p in players]
        async with asyncio.timeout(30):
            while not players[0].states or players[0].states[-1].seq < 12:
                await asyncio.sleep(0.01)
        owner = holder(site, table_id)
        await die(owner)
        await asyncio.gather(*tasks, return_exceptions=True)  # their lines dropped
        seen = {name: p.states[-1] for name, p in zip(NAMES, players, strict=True)}
        await asyncio.wait_for(ana.reconnect(), 60)  # as the app does on a lost line
        assert ana.client is not None and ana.seat == seats["Ana"]
        back: list[Player] = [Player(ana.client, 1)]
        for name, key in zip(NAMES[1:], keys[1:], strict=True):
            back.append(await come_back(site, name, key))
        assert any(table_id in w.meta for w in site.workers if w is not owner)  # type: ignore[attr-defined]
        for name, player in zip(NAMES, back, strict=True):
            if isinstance(player, OnlinePlayer):
                welcome = await next_of(player, Welcome, 10)
                assert isinstance(welcome, Welcome) and welcome.seat == seats[name]
            state = await wait_for(player, State, 10)
            assert isinstance(state, State)
            assert state.view.hand == seen[name].view.hand or state.seq > seen[name].seq
            assert state.seq >= seen[name].seq
            player.rng.seed(len(name))
        await asyncio.wait_for(asyncio.gather(*(p.play() for p in back)), 120)
        assert all(p.over is not None for p in back)
        await asyncio.sleep(0.1)
        import psycopg

        with psycopg.connect(site.url) as db:
            (count,) = db.execute("SELECT count(*) FROM matches").fetchone()  # type: ignore[misc]
            (live,) = db.execute("SELECT count(*) FROM table_saves").fetchone()  # type: ignore[misc]
        assert count == 1 and live == 0
        for player in back:
            await player.client.close()


async def test_a_redis_that_restarts_empty_takes_no_table_from_a_live_worker(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    async with cluster(tmp_path, postgres_url, redis_prefix, count=2) as site:
        players = await quick_four(site, [Ed25519PrivateKey.generate() for _ in range(4)])
        table_id = players[0].client.welcome.table  # type: ignore[union-attr]
        owner = holder(site, table_id)
        other = next(w for w in site.workers if w is not owner)
        # every key gone at once, as when Redis restarts without its data: no heartbeat
        # is left, and the other worker looks for dead workers' tables at that moment
        client = other.cluster.redis  # type: ignore[attr-defined]
        keys = list(client.scan_iter(match=redis_prefix[1] + "*"))
        client.delete(*keys)
        other._take_over()  # type: ignore[attr-defined]
        assert table_id not in other.meta  # type: ignore[attr-defined]
        await asyncio.sleep(1.5)  # the owner's heartbeat is back within a tick
        assert table_id not in other.meta  # type: ignore[attr-defined]
        assert other.keeper.store.owner(table_id) == owner.worker  # type: ignore[attr-defined]
        # and within a few seconds Redis knows again what the workers hold
        account = owner.accounts.by_name("Ana")  # type: ignore[attr-defined]
        async with asyncio.timeout(15):
            while (
                other.cluster.held(account.id) != table_id
                or other.cluster.owner(  # type: ignore[attr-defined]
                    table_id
                )
                != owner.worker
                # each worker writes its port again at its own refresh
                or len(other.cluster.ports()) != 2  # type: ignore[attr-defined]
            ):  # type: ignore[attr-defined]
                await asyncio.sleep(0.2)
        for player in players:
            await player.client.close()


async def test_a_worker_taking_up_its_tables_slowly_at_its_start_stays_alive(
    tmp_path: Path,
    postgres_url: str,
    redis_prefix: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker started again takes up its own tables before its tick begins; with hundreds
    of them that outlasts its heartbeat, and the others took the tables over while it held
    them too (bench_server.py at 1,000 tables). Its heartbeat is renewed as it goes."""
    import time

    from bela.net.live_postgres import PostgresLiveTables
    from bela.net.store_postgres import PostgresStore
    from bela.net.store_redis import RedisDirectory
    from bela.net.workers import WorkerServer

    async with cluster(tmp_path, postgres_url, redis_prefix, count=1) as site:
        players = await quick_four(site, [Ed25519PrivateKey.generate() for _ in range(4)])
        table_id = players[0].client.welcome.table  # type: ignore[union-attr]
        dead = site.worker(0)
        await die(dead)
        redis_url, prefix = redis_prefix
        again = WorkerServer(
            tmp_path / "server",
            online_options(difficulty="random", target=501, bot_delay=0.0),
            PostgresStore(postgres_url),
            RedisDirectory(redis_url, worker="w0", prefix=prefix, alive_seconds=1),
            PostgresLiveTables(postgres_url),
        )
        take_up = again.take_up

        def slowly(*args: object) -> object:
            time.sleep(1.5)  # as a few hundred tables take, longer than the heartbeat lasts
            return take_up(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(again, "take_up", slowly)
        try:
            await again.start("127.0.0.1", 0)
            assert table_id in again.meta
            assert again.cluster.alive("w0")
        finally:
            await again.close()
        for player in players:
            await player.client.close()


async def test_a_worker_whose_event_loop_is_busy_for_seconds_is_alive_all_the_same(
    tmp_path: Path, postgres_url: str, redis_prefix: tuple[str, str]
) -> None:
    """The heartbeat has a thread of its own: a loop busy longer than a heartbeat lasts (at
    1,000 tables on a loaded machine) does not make the others take the worker for dead."""
    import time

    async with cluster(tmp_path, postgres_url, redis_prefix, count=1) as site:
        worker = site.worker(0)
        time.sleep(3.0)  # the event loop held, longer than the 2 s heartbeat lasts
        assert worker.cluster.alive(worker.worker)  # type: ignore[attr-defined]
