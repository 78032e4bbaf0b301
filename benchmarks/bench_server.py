"""Figures for the public server of many workers (issue #39): ``bela server --workers N`` on a
real PostgreSQL and Redis, tables played at a player's pace by scripted clients in other
processes, idle hostile connections beside them, and a worker killed in the middle.

Run it under ``tools/server_check.sh``, which starts PostgreSQL and Redis and names them:

    bash tools/server_check.sh .venv/bin/python benchmarks/bench_server.py --tables 40

What it does:

1. starts ``bela server --workers N`` (a front door and N worker processes);
2. starts ``--clients`` client processes; each seats its share of ``--tables`` tables (one
   player creates a table through the front door, three join it by its id: the tables
   spread over the workers) and plays a match to 1001, every seat acting ``--pace`` seconds
   (on average) after its turn comes;
3. holds ``--idle`` connections open that never sign in (half to the front door, half to
   the workers), opening them again as the server closes them;
4. after ``--seconds`` / 2 kills (SIGKILL) the worker holding the most tables, and times
   how long until each of them is held again: by another worker (the store says so), or
   by the new worker the supervisor starts on the killed one's port (it takes up its own
   tables before it listens: its port open again says so); and until each of their
   players has a state again (the clients sign in again by themselves);
5. prints: actions, p50 / p99 of an action reaching all four seats (from the act sent to
   the last seat's state), each worker's resident memory, Redis commands and PostgreSQL
   transactions per action, and the resume times.

A measurement, not a test: nothing is asserted. The machine is shared: read it as such.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bela.net.client import JoinError
from bela.net.identity import Pins
from bela.net.lobby_protocol import Created
from bela.net.online_client import Online, take_seat
from bela.net.protocol import Over, State, Welcome


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def save_sizes(url: str) -> tuple[float, int]:
    """The live tables' saves: their mean size in bytes, and how many there are."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute("SELECT avg(length(save)), count(*) FROM table_saves").fetchone()
    return (float(row[0] or 0), int(row[1])) if row else (0.0, 0)


def free_base(count: int) -> int:
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = int(probe.getsockname()[1])
        held = []
        try:
            for port in range(base, base + count + 1):
                sock = socket.socket()
                held.append(sock)
                sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        finally:
            for sock in held:
                sock.close()
        return base
    raise SystemExit("no free ports")


# ---------------------------------------------------------------------- a client process


class TableRun:
    """The four seats of one table, in one client process."""

    def __init__(self, port: int, index: int, pins: Pins, pace: float) -> None:
        self.port = port
        self.index = index
        self.pins = pins
        self.pace = pace
        self.rng = random.Random(index)
        self.keys = [Ed25519PrivateKey.generate() for _ in range(4)]
        self.names = [f"B{index}x{seat}{os.getpid() % 1000}" for seat in range(4)]
        self.sent: dict[int, float] = {}
        self.arrived: dict[int, int] = {}
        self.latencies: list[tuple[float, float]] = []
        """(when the action was sent, how long until the last seat had its state)."""
        self.actions: list[float] = []
        """When each action was sent (CLOCK_MONOTONIC: the same clock in every process)."""
        self.reconnects: list[float] = []
        # players come from many addresses (the server caps signed-in connections per one)
        self.address = f"127.{index // 250 % 250 + 1}.{index % 250 + 1}.{os.getpid() % 250 + 1}"

    async def seat(self) -> list[Online]:
        created: list[Created] = []
        first = await take_seat(
            "127.0.0.1",
            self.port,
            self.names[0],
            self.keys[0],
            self.pins,
            {"type": "create", "target": 1001},
            created.append,
            self.address,
        )
        table = created[0].table
        others = []
        for seat in range(1, 4):
            others.append(
                await take_seat(
                    "127.0.0.1",
                    self.port,
                    self.names[seat],
                    self.keys[seat],
                    self.pins,
                    {"type": "join", "table": table},
                    local_address=self.address,
                )
            )
        await first.send({"type": "start"})
        return [first, *others]  # type: ignore[list-item]

    async def play_seat(self, seat: int, client: object, stop: float) -> None:
        while time.monotonic() < stop:
            try:
                await self._play(client, stop)
                return
            except (ConnectionError, OSError, JoinError):
                lost = time.monotonic()
                client = await self._back(seat, stop)
                if client is None:
                    return
                self.reconnects.append(time.monotonic() - lost)

    async def _back(self, seat: int, stop: float) -> object | None:
        while time.monotonic() < stop:
            try:
                online = await Online.connect(
                    "127.0.0.1",
                    self.port,
                    self.names[seat],
                    self.keys[seat],
                    self.pins,
                    local_address=self.address,
                )
            except (JoinError, ConnectionError, OSError):
                await asyncio.sleep(0.3)
                continue
            if online.hi.seated:
                return online.client
            await online.close()
            await asyncio.sleep(0.3)
        return None

    async def _play(self, client: object, stop: float) -> None:
        while time.monotonic() < stop:
            left = stop - time.monotonic()
            try:
                message = await asyncio.wait_for(client.receive(), max(left, 0.01))  # type: ignore[attr-defined]
            except TimeoutError:
                return
            if isinstance(message, Over):
                return
            if isinstance(message, Welcome) or not isinstance(message, State):
                continue
            seq = message.seq
            count = self.arrived.get(seq, 0) + 1
            self.arrived[seq] = count
            if count == 4 and seq in self.sent:
                sent = self.sent.pop(seq)
                self.latencies.append((sent, time.monotonic() - sent))
                self.arrived.pop(seq, None)
            view = message.view
            if view.to_act == message.seat and view.legal and view.phase != "finished":
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.pace)
                self.sent[seq + 1] = time.monotonic()
                await client.send({"type": "act", "action": self.rng.choice(view.legal)})  # type: ignore[attr-defined]
                self.actions.append(self.sent[seq + 1])


async def client_main(args: argparse.Namespace) -> None:
    pins = Pins(Path(args.pins))
    stop = time.monotonic() + args.seconds
    runs = [TableRun(args.port, args.first + i, pins, args.pace) for i in range(args.count)]
    seated = []
    for run in runs:
        try:
            seated.append((run, await run.seat()))
        except (JoinError, ConnectionError, OSError) as exc:
            print(f"seat failed: {exc}", file=sys.stderr)
    print("seated", flush=True)
    await asyncio.gather(
        *(
            run.play_seat(seat, client, stop)
            for run, clients in seated
            for seat, client in enumerate(clients)
        )
    )
    result = {
        "latencies": [x for run in runs for x in run.latencies],
        "actions": [x for run in runs for x in run.actions],
        "reconnects": [x for run in runs for x in run.reconnects],
    }
    print(json.dumps(result), flush=True)


# ---------------------------------------------------------------------- idle connections


async def idle(ports: list[int], count: int, stop: float) -> None:
    """``count`` connections that never sign in, opened again whenever closed."""

    async def one(port: int) -> None:
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(reader.read(1), max(stop - time.monotonic(), 0.01))
                writer.close()
            except OSError:
                await asyncio.sleep(0.5)

    await asyncio.gather(*(one(ports[i % len(ports)]) for i in range(count)))


# ---------------------------------------------------------------------- the orchestra


def redis_calls(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        stats = client.info("commandstats")
        return sum(int(v["calls"]) for v in stats.values() if isinstance(v, dict))
    finally:
        client.close()


def pg_transactions(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        row = db.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) if row else 0


def port_open(port: int) -> bool:
    """Something listens on ``port`` of this machine."""
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def table_owners(url: str) -> dict[str, str]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        rows = db.execute("SELECT table_id, worker FROM table_saves").fetchall()
    return {str(a): str(b) for a, b in rows}


async def orchestrate(args: argparse.Namespace) -> None:
    postgres = os.environ["BELA_TEST_POSTGRES"]
    redis_url = os.environ["BELA_TEST_REDIS"]
    base = free_base(args.workers)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, BELA_DATA_DIR=f"{tmp}/data", BELA_CONFIG_DIR=f"{tmp}/config")
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "bela", "--lang", "en", "server", "--port", str(base)),
                *("--data", f"{tmp}/srv", "--bots", "random", "--workers", str(args.workers)),
                *("--postgres", postgres, "--redis", redis_url),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        lines: list[str] = []

        def read() -> None:
            assert server.stderr is not None
            for line in server.stderr:
                lines.append(line)

        threading.Thread(target=read, daemon=True).start()
        try:
            deadline = time.monotonic() + 300
            while sum("listening:" in line for line in lines) < args.workers:
                if time.monotonic() > deadline:
                    raise SystemExit("the workers did not start:\n" + "".join(lines[-20:]))
                await asyncio.sleep(0.2)
            await asyncio.sleep(1.0)
            pids = {
                m.group(1): int(m.group(2))
                for line in lines
                if (m := re.search(r"worker: (\S+) pid (\d+)$", line.strip()))
            }
            print(f"{args.workers} workers up: {sorted(pids)}", flush=True)
            per = [
                args.tables // args.clients + (i < args.tables % args.clients)
                for i in range(args.clients)
            ]
            clients = []
            first = 0
            for index, count in enumerate(per):
                clients.append(
                    subprocess.Popen(
                        [
                            *(sys.executable, __file__, "--client", "--port", str(base)),
                            *("--first", str(first), "--count", str(count)),
                            *("--seconds", str(args.seconds + 30), "--pace", str(args.pace)),
                            *("--pins", f"{tmp}/pins{index}"),
                        ],
                        stdout=subprocess.PIPE,
                        text=True,
                        env=env,
                    )
                )
                first += count
            for client in clients:
                assert client.stdout is not None
                await asyncio.to_thread(client.stdout.readline)  # "seated"
            owners = table_owners(postgres)
            print(
                f"{len(owners)} tables seated; per worker: "
                f"{ {w: list(owners.values()).count(w) for w in sorted(set(owners.values()))} }",
                flush=True,
            )
            begin = time.monotonic()
            stop = begin + args.seconds
            idler = asyncio.create_task(
                idle([base, *range(base + 1, base + args.workers + 1)], args.idle, stop)
            )
            redis_before, pg_before = redis_calls(redis_url), pg_transactions(postgres)
            cpu_before = {name: cpu_seconds(pid) for name, pid in pids.items()}
            await asyncio.sleep(args.seconds / 2)
            half = time.monotonic()
            cpu = sum(cpu_seconds(pid) - cpu_before[name] for name, pid in pids.items())
            memory = {name: rss_mb(pid) for name, pid in pids.items()}
            size, saved = save_sizes(postgres)
            owners = table_owners(postgres)
            busiest = max(set(owners.values()), key=list(owners.values()).count)
            theirs = {t for t, w in owners.items() if w == busiest}
            killed = time.monotonic()
            os.kill(pids[busiest], signal.SIGKILL)
            taken = None
            restarted = None
            by_new = 0
            dead_port = int(busiest.rsplit(":", 1)[1])
            while port_open(dead_port) and time.monotonic() < stop:
                await asyncio.sleep(0.01)  # the killed one's socket gone first
            while time.monotonic() < stop:
                now = table_owners(postgres)
                left = {t for t in theirs if now.get(t) == busiest}
                if left and port_open(dead_port):
                    restarted = time.monotonic() - killed  # the new one holds the rest
                    by_new = len(left)
                    left = set()
                if not left:
                    taken = time.monotonic() - killed
                    break
                await asyncio.sleep(0.1)
            await asyncio.sleep(max(stop - time.monotonic(), 0))
            redis_after, pg_after = redis_calls(redis_url), pg_transactions(postgres)
            await idler
            results = []
            for client in clients:
                out, _ = await asyncio.to_thread(client.communicate)
                for line in out.splitlines():
                    if line.startswith("{"):
                        results.append(json.loads(line))
        finally:
            server.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(30)
            if server.poll() is None:
                server.kill()

    def within(when: float, start: float, end: float) -> bool:
        return start <= when < end

    before = sorted(x for r in results for t, x in r["latencies"] if within(t, begin, killed))
    after = sorted(x for r in results for t, x in r["latencies"] if within(t, killed, stop))
    actions = sum(1 for r in results for t in r["actions"] if within(t, begin, stop))
    reconnects = sorted(x for r in results for x in r["reconnects"])

    def pct(values: list[float], p: float) -> str:
        if not values:
            return "-"
        return f"{values[min(len(values) - 1, int(p * len(values)))] * 1000:.1f} ms"

    print(
        f"tables {args.tables}, workers {args.workers}, pace {args.pace} s, "
        f"idle connections {args.idle}, {args.seconds} s measured"
    )
    print(f"actions: {actions} ({actions / args.seconds:.1f}/s)")
    print(
        f"an action reaching all four seats, before the kill: p50 {pct(before, 0.5)}, "
        f"p99 {pct(before, 0.99)} ({len(before)} timed)"
    )
    print(
        f"... after the kill (reconnections included): p50 {pct(after, 0.5)}, "
        f"p99 {pct(after, 0.99)} ({len(after)} timed)"
    )
    first_half = sum(1 for r in results for t in r["actions"] if within(t, begin, half))
    if first_half:
        print(
            f"workers' CPU per action (before the kill, all workers): "
            f"{cpu / first_half * 1000:.2f} ms"
        )
    print(f"a live table's save: {size / 1024:.1f} KB on average ({saved} tables)")
    print("worker memory (RSS): " + ", ".join(f"{n} {m:.0f} MB" for n, m in sorted(memory.items())))
    if actions:
        print(
            f"Redis commands per action: {(redis_after - redis_before) / actions:.1f} "
            f"(idle ones included: heartbeats, listings, queue lock)"
        )
        print(f"PostgreSQL transactions per action: {(pg_after - pg_before) / actions:.2f}")
    if taken is None:
        print("killed worker's tables not taken up in time")
    elif restarted is None:
        print(
            f"killed {busiest} holding {len(theirs)} tables: all held elsewhere after {taken:.1f} s"
        )
    else:
        print(
            f"killed {busiest} holding {len(theirs)} tables: all held again after {taken:.1f} s, "
            f"{by_new} of them by the new worker on its port, {len(theirs) - by_new} by others"
        )
    if reconnects:
        print(
            f"players back at their seats after the kill: {len(reconnects)}, "
            f"median {statistics.median(reconnects):.1f} s, max {max(reconnects):.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--idle", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--pins", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    asyncio.run(client_main(args) if args.client else orchestrate(args))


if __name__ == "__main__":
    main()
