"""A public server of many workers whose Redis dies and comes back empty on its port (issue
#39): the tables go on from their saves in PostgreSQL meanwhile, a player whose line drops
signs in again through the front door and is seated again, nothing a player saw is taken
back, and the workers write again all Redis knew (listings, heartbeats, ports, seats, who is
online) by themselves once it answers.

The test starts a Redis of its own on a free port (it kills it), beside the one make
server-check gives the others; PostgreSQL is make server-check's."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from netplay import Player
from onlineplay import OnlinePlayer, next_of
from test_online_workers import NAMES, holder, port_of, quick_four, sign_in
from test_online_workers import cluster as start_cluster

from bela.net.client import JoinError
from bela.net.online_client import Online
from bela.net.protocol import State, Welcome

pytestmark = pytest.mark.server


class OwnRedis:
    """A redis-server of this test's own on ``port``, without saves: started again after a
    kill, it is empty."""

    def __init__(self, where: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self.where = where
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        server = shutil.which("redis-server")
        if server is None:
            pytest.fail(
                "redis-server is missing: run the tests marked server with make server-check"
            )
        self.process = subprocess.Popen(
            [
                *(server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no", "--dir", str(self.where)),
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        pytest.fail("the test's own redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@contextlib.contextmanager
def own_redis(where: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(where)
    server.start()
    try:
        yield server
    finally:
        server.kill()


PACE = 0.04
"""Seconds each seat waits before it acts: the match lasts a few seconds, not a blink."""


async def play(player: Player) -> None:
    """As ``Player.play``, each action ``PACE`` seconds after the turn came."""
    while player.over is None:
        if player.my_turn() and player.states[-1].view.phase != "finished":
            await asyncio.sleep(PACE)
            await player.client.act(player.rng.choice(player.states[-1].view.legal))
            last = player.states[-1]
            hidden = last.view.model_copy(update={"to_act": None, "legal": ()})
            player.states.append(last.model_copy(update={"view": hidden}))
        await player.step()


async def come_back(site: object, key: Ed25519PrivateKey) -> OnlinePlayer:
    """Ana signs in through the front door as the app does after a lost line: told the
    server is busy (a worker that cannot ask Redis where her table is), she tries again,
    and the front door sends her on to the next worker."""
    while True:
        try:
            back = await sign_in(site, "Ana", key)  # type: ignore[arg-type]
        except JoinError as exc:
            assert "try again" in str(exc)
            await asyncio.sleep(0.1)
            continue
        assert back.hi.seated
        return back


async def seq_reaches(player: Player, seq: int, timeout: float = 30) -> None:
    async with asyncio.timeout(timeout):
        while not player.states or player.states[-1].seq < seq:
            await asyncio.sleep(0.02)


def never_back(states: list[State]) -> bool:
    """No state took back one before it: the numbers never fall, and within a deal no card
    a player held comes back to their hand once it has left it."""
    for before, after in itertools.pairwise(states):
        if after.seq < before.seq:
            return False
        same_deal = after.seq == before.seq + 1 and after.view.phase == before.view.phase == "play"
        if same_deal and set(after.view.hand) - set(before.view.hand):
            return False
    return True


async def test_a_redis_that_dies_and_comes_back_empty_loses_nothing_and_is_written_again(
    tmp_path: Path, postgres_url: str
) -> None:
    with own_redis(tmp_path) as redis_server:
        prefix = "bela-away:"
        async with start_cluster(tmp_path, postgres_url, (redis_server.url, prefix), 2) as site:
            keys = [Ed25519PrivateKey.generate() for _ in range(4)]
            players = await asyncio.wait_for(quick_four(site, keys), 30)
            table_id = players[0].client.welcome.table  # type: ignore[union-attr]
            owner = holder(site, table_id)
            tasks = [asyncio.create_task(play(p)) for p in players[1:]]
            ana = players[0]
            ana_task = asyncio.create_task(play(ana))
            await seq_reaches(ana, 8)

            redis_server.kill()
            # the table goes on without Redis
            await seq_reaches(players[1], players[1].states[-1].seq + 8)
            # Ana's line drops; she signs in again through the front door, which still
            # knows where the workers listen, and is seated again at once
            ana_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ana_task
            await ana.client.close()
            # a worker that does not hold her table cannot ask Redis where it is: it tells
            # her to try again (not that she has no seat)
            other = next(w for w in site.workers if w is not owner)
            with pytest.raises(JoinError, match="try again"):
                await Online.connect(
                    "127.0.0.1",
                    port_of(other),
                    "Ana",
                    keys[0],
                    site.pins,  # type: ignore[attr-defined]
                )
            back = await asyncio.wait_for(come_back(site, keys[0]), 15)
            welcome = await next_of(back, Welcome, 10)
            assert isinstance(welcome, Welcome) and welcome.seat == ana.seat
            state = await next_of(back, State, 10)
            assert isinstance(state, State)
            assert state.seq >= ana.states[-1].seq
            back_task = asyncio.create_task(play(back))
            await seq_reaches(players[2], players[2].states[-1].seq + 4)

            redis_server.start()  # on its port, empty
            cluster_view = owner.cluster  # type: ignore[attr-defined]
            accounts = {owner.accounts.by_name(name).id for name in NAMES}  # type: ignore[attr-defined]
            async with asyncio.timeout(15):
                while True:
                    with contextlib.suppress(Exception):
                        online = cluster_view.online()
                        if (
                            cluster_view.owner(table_id) == owner.worker  # type: ignore[attr-defined]
                            and all(cluster_view.alive(w.worker) for w in site.workers)  # type: ignore[attr-defined]
                            and len(cluster_view.ports()) == 2
                            and accounts <= set(online)
                            and all(cluster_view.held(a) == table_id for a in accounts)
                        ):
                            break
                    await asyncio.sleep(0.1)
            assert {online[a] for a in accounts} == {owner.worker}  # type: ignore[attr-defined]
            # the table goes on, and nobody saw anything taken back
            await seq_reaches(back, back.states[-1].seq + 4)
            assert all(table_id in w.meta for w in [owner])  # type: ignore[attr-defined]
            assert not any(table_id in w.meta for w in site.workers if w is not owner)  # type: ignore[attr-defined]
            for player in [*players, back]:
                assert never_back(player.states)
            for task in [*tasks, back_task]:
                task.cancel()
            await asyncio.gather(*tasks, back_task, return_exceptions=True)
            for player in [*players[1:], back]:
                await player.client.close()


async def test_after_redis_comes_back_empty_a_worker_slow_to_beat_keeps_its_tables(
    tmp_path: Path, postgres_url: str
) -> None:
    """Redis comes back empty: no worker has a heartbeat until its next tick, and on a
    loaded machine that tick may come seconds late. The others wait a heartbeat's whole
    life before they take anybody for dead (at 1,000 tables they took each other's tables
    over and back, hundreds of them, bench_server.py)."""
    with own_redis(tmp_path) as redis_server:
        prefix = "bela-slow:"
        async with start_cluster(tmp_path, postgres_url, (redis_server.url, prefix), 2) as site:
            players = await asyncio.wait_for(
                quick_four(site, [Ed25519PrivateKey.generate() for _ in range(4)]), 30
            )
            table_id = players[0].client.welcome.table  # type: ignore[union-attr]
            slow = holder(site, table_id)
            other = next(w for w in site.workers if w is not slow)
            redis_server.kill()
            await asyncio.sleep(1.0)  # both see it away
            slow.stop_beating()  # type: ignore[attr-defined]
            slow._ticker.cancel()  # type: ignore[attr-defined]
            slow._cluster_task.cancel()  # type: ignore[attr-defined]
            redis_server.start()  # empty: the slow worker does not beat again for a while
            await asyncio.sleep(4.0)  # the other has seen it without a heartbeat for 2 s+
            assert table_id not in other.meta  # type: ignore[attr-defined]
            assert other.keeper.store.owner(table_id) == slow.worker  # type: ignore[attr-defined]
            for player in players:
                await player.client.close()
