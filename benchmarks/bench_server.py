"""Figures for the public server of many workers (issue #39): ``bela server --workers N`` on a
real PostgreSQL and Redis, tables played at a player's pace by scripted clients in other
processes, idle hostile connections beside them, a worker killed, then Redis killed.

Run it under ``tools/server_check.sh``, which starts PostgreSQL and Redis and names them
(and Redis's directory, ``BELA_TEST_REDIS_DIR``, for its restart):

    bash tools/server_check.sh .venv/bin/python benchmarks/bench_server.py --tables 40

What it does:

1. raises its open-file limit to the hard one (the server and the clients inherit it) and
   starts ``bela server --workers N`` (a front door and N worker processes);
2. starts ``--clients`` client processes; each seats its share of ``--tables`` tables,
   ``SEAT_AT_ONCE`` at a time (one player creates a table through the front door, three join
   it by its id: the tables spread over the workers; each seat is its own connection) and
   plays a match to 1001, every seat acting ``--pace`` seconds (on average) after its turn;
3. holds ``--idle`` connections open that never sign in (half to the front door, half to
   the workers, from many loopback addresses), opening them again a second after the
   server closes them;
4. at a third of ``--seconds`` kills (SIGKILL) the worker holding the most tables, and
   times how long until each of them is held again: by another worker (the store says
   so), or by the new worker the supervisor starts on the killed one's port (it takes up
   its own tables before it listens: its port open again says so); and until each of
   their players has a state again (the clients sign in again by themselves);
5. at two thirds kills Redis (SIGKILL), starts it again on its port ``--redis-down``
   seconds later (empty: it saves nothing), and times how long until Redis lists every
   live table again, has every worker's heartbeat and port, and marks as many players
   online as before the kill; the clients time how long until each seat has a state after
   Redis is back, and the longest a table went without a state around the outage;
6. prints: actions, p50 / p99 of an action reaching all four seats (from the act sent to
   the last seat's state), each worker's resident memory, Redis commands and PostgreSQL
   transactions per action (before the kills), the resume times, and what the clients
   checked in every state they read: that its number never went back, and that no card
   came back to a hand it had left (nothing a player had seen was lost).

A measurement, not a test: nothing is asserted. The machine is shared: read it as such.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import resource
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

SEAT_AT_ONCE = 8
"""Tables each client process seats at once (a worker takes ``max_unseated`` sign-ins in
progress at a time, 128: eight processes of eight tables stay well under it)."""


def more_files() -> int:
    """The open-file limit raised to the hard one (each seat, idle connection and worker's
    player is a descriptor); the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


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
        self.state_times: list[list[float]] = [[], [], [], []]
        """When each seat read each state (for the Redis outage's figures)."""
        self.last: list[State | None] = [None, None, None, None]
        self.went_back = 0
        """States whose number was below one the seat had read before (never, we hope)."""
        self.cards_back = 0
        """States that gave a seat back a card that had left its hand in the same deal."""
        self.checked = 0
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
                await self._play(seat, client, stop)
                return
            except (ConnectionError, OSError, JoinError):
                lost = time.monotonic()
                client = await self._back(seat, stop)
                if client is None:
                    return
                self.reconnects.append(time.monotonic() - lost)

    async def _back(self, seat: int, stop: float) -> object | None:
        """Signed in again, as the app does after a lost line (``RemoteSession.reconnect``:
        a pause of 0.25 s after each failure, doubling up to 3 s)."""
        pause = 0.25
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
                await asyncio.sleep(pause)
                pause = min(pause * 2, 3.0)
                continue
            if online.hi.seated:
                return online.client
            await online.close()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 3.0)
        return None

    def _check(self, seat: int, state: State) -> None:
        """Nothing this seat saw is taken back: the state's number never falls (across a
        reconnection too), and from one state to the next within a deal's play no card
        comes back to the hand."""
        self.state_times[seat].append(time.monotonic())
        self.checked += 1
        before = self.last[seat]
        self.last[seat] = state
        if before is None:
            return
        if state.seq < before.seq:
            self.went_back += 1
        elif (
            state.seq == before.seq + 1
            and state.view.phase == before.view.phase == "play"
            and set(state.view.hand) - set(before.view.hand)
        ):
            self.cards_back += 1

    def outage(self, down: float, back: float) -> dict[str, object]:
        """For the Redis outage from ``down`` to ``back``: each seat's wait from ``back`` to
        its first state after it, whether it read a state while Redis was away, and the
        table's longest time without any state around the outage (5 s either side)."""
        waits = []
        during = 0
        for times in self.state_times:
            after = [t for t in times if t >= back]
            if after:
                waits.append(after[0] - back)
            if any(down <= t < back for t in times):
                during += 1
        merged = sorted(t for times in self.state_times for t in times if down - 5 <= t <= back + 5)
        gaps = [b - a for a, b in itertools.pairwise(merged)]
        return {"waits": waits, "during": during, "gap": max(gaps, default=0.0)}

    async def _play(self, seat: int, client: object, stop: float) -> None:
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
            self._check(seat, message)
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
    more_files()
    seated = []
    gate = asyncio.Semaphore(SEAT_AT_ONCE)

    async def seat(run: TableRun) -> None:
        async with gate:
            for attempt in range(5):
                try:
                    seated.append((run, await run.seat()))
                    return
                except (JoinError, ConnectionError, OSError) as exc:
                    if attempt == 4:
                        print(f"seat failed: {exc}", file=sys.stderr)
                    await asyncio.sleep(1.0)

    await asyncio.gather(*(seat(run) for run in runs))
    print("seated", flush=True)
    # the orchestra says when to stop (CLOCK_MONOTONIC), once every process has seated
    stop = float(await asyncio.to_thread(sys.stdin.readline) or stop)
    await asyncio.gather(
        *(
            run.play_seat(seat, client, stop)
            for run, clients in seated
            for seat, client in enumerate(clients)
        )
    )
    result: dict[str, object] = {
        "latencies": [x for run in runs for x in run.latencies],
        "actions": [x for run in runs for x in run.actions],
        "reconnects": [x for run in runs for x in run.reconnects],
        "seated": len(seated),
        "went_back": sum(run.went_back for run in runs),
        "cards_back": sum(run.cards_back for run in runs),
        "checked": sum(run.checked for run in runs),
    }
    times = Path(args.pins).parent / "redis-times.json"
    if times.exists():
        down, back = json.loads(times.read_text())
        outages = [run.outage(down, back) for run, _ in seated]
        result["redis_waits"] = [w for o in outages for w in o["waits"]]  # type: ignore[attr-defined]
        result["redis_during"] = sum(o["during"] for o in outages)  # type: ignore[misc]
        result["redis_gaps"] = [o["gap"] for o in outages]
    print(json.dumps(result), flush=True)


# ---------------------------------------------------------------------- idle connections


async def idle(ports: list[int], count: int, stop: float) -> None:
    """``count`` connections that never sign in, four from each loopback address, opened
    again a second after the server closes them."""

    async def one(index: int) -> None:
        port = ports[index % len(ports)]
        address = f"127.250.{index // 4 // 250 % 250}.{index // 4 % 250 + 1}"
        while time.monotonic() < stop:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(address, 0)
                )
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(reader.read(1), max(stop - time.monotonic(), 0.01))
                writer.close()
            except OSError:
                pass
            await asyncio.sleep(1.0)

    await asyncio.gather(*(one(i) for i in range(count)))


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
                        stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE,
                        text=True,
                        env=env,
                    )
                )
                first += count
            seating = time.monotonic()
            for client in clients:
                assert client.stdout is not None
                await asyncio.to_thread(client.stdout.readline)  # "seated"
            owners = table_owners(postgres)
            print(
                f"{len(owners)} tables seated in {time.monotonic() - seating:.0f} s; per worker: "
                f"{ {w: list(owners.values()).count(w) for w in sorted(set(owners.values()))} }",
                flush=True,
            )
            begin = time.monotonic()
            for client in clients:
                assert client.stdin is not None
                client.stdin.write(f"{begin + args.seconds}\n")
                client.stdin.flush()
            stop = begin + args.seconds
            idler = asyncio.create_task(
                idle([base, *range(base + 1, base + args.workers + 1)], args.idle, stop)
            )
            redis_before, pg_before = redis_calls(redis_url), pg_transactions(postgres)
            cpu_before = {name: cpu_seconds(pid) for name, pid in pids.items()}
            await asyncio.sleep(args.seconds / 3)
            half = time.monotonic()
            redis_mid, pg_mid = redis_calls(redis_url), pg_transactions(postgres)
            cpu = sum(cpu_seconds(pid) - cpu_before[name] for name, pid in pids.items())
            memory = {name: rss_mb(pid) for name, pid in pids.items()}
            size, saved = save_sizes(postgres)
            owners = table_owners(postgres)
            held_by = {w: list(owners.values()).count(w) for w in set(owners.values())}
            busiest = max(held_by, key=lambda w: held_by[w])
            theirs = {t for t, w in owners.items() if w == busiest}
            killed = time.monotonic()
            os.kill(pids[busiest], signal.SIGKILL)
            redis_at = begin + 2 * args.seconds / 3
            taken = None
            restarted = None
            by_new = 0
            dead_port = int(busiest.rsplit(":", 1)[1])
            while port_open(dead_port) and time.monotonic() < redis_at:
                await asyncio.sleep(0.01)  # the killed one's socket gone first
            while time.monotonic() < redis_at:
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
            await asyncio.sleep(max(redis_at - time.monotonic(), 0))
            outage = await redis_outage(redis_url, postgres, args, list(pids), Path(tmp), stop)
            await asyncio.sleep(max(stop - time.monotonic(), 0))
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
            if args.log:
                Path(args.log).write_text("".join(lines))

    def within(when: float, start: float, end: float) -> bool:
        return start <= when < end

    down, back = outage["down"], outage["back"]
    before = sorted(x for r in results for t, x in r["latencies"] if within(t, begin, killed))
    after = sorted(x for r in results for t, x in r["latencies"] if within(t, killed, down))
    away = sorted(x for r in results for t, x in r["latencies"] if within(t, down, back))
    later = sorted(x for r in results for t, x in r["latencies"] if within(t, back, stop))
    actions = sum(1 for r in results for t in r["actions"] if within(t, begin, stop))
    reconnects = sorted(x for r in results for x in r["reconnects"])

    def pct(values: list[float], p: float) -> str:
        if not values:
            return "-"
        return f"{values[min(len(values) - 1, int(p * len(values)))] * 1000:.1f} ms"

    seated = sum(int(r["seated"]) for r in results)
    print(
        f"tables {args.tables} ({seated} seated), workers {args.workers}, "
        f"client processes {args.clients}, pace {args.pace} s, "
        f"idle connections {args.idle}, {args.seconds:g} s measured"
    )
    print(f"actions: {actions} ({actions / args.seconds:.1f}/s)")
    for what, values in (
        ("before the worker's kill", before),
        ("after it (reconnections included)", after),
        ("while Redis was away", away),
        ("after Redis was back", later),
    ):
        print(
            f"an action reaching all four seats, {what}: p50 {pct(values, 0.5)}, "
            f"p99 {pct(values, 0.99)} ({len(values)} timed)"
        )
    first = sum(1 for r in results for t in r["actions"] if within(t, begin, half))
    if first:
        print(
            f"workers' CPU per action (before the kills, all workers): {cpu / first * 1000:.2f} ms"
        )
        print(
            f"Redis commands per action: {(redis_mid - redis_before) / first:.2f} "
            f"(idle ones included: heartbeats, listings, queue lock, refresh)"
        )
        print(f"PostgreSQL transactions per action: {(pg_mid - pg_before) / first:.2f}")
    print(f"a live table's save: {size / 1024:.1f} KB on average ({saved} tables)")
    print(
        "worker memory (RSS): "
        + ", ".join(
            f"{n} {m:.0f} MB ({held_by.get(n, 0)} tables)" for n, m in sorted(memory.items())
        )
    )
    if taken is None:
        print(f"killed worker {busiest}'s {len(theirs)} tables not all taken up in time")
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
    print(
        f"Redis killed, started again (empty) on its port after {back - down:.1f} s; "
        f"before the kill it listed {outage['tables_before']} tables, "
        f"{outage['online_before']} players online"
    )
    for what in ("tables", "workers", "online"):
        when = outage[what]
        print(
            f"... {OUTAGE_WHAT[what]}: "
            + (f"{when:.1f} s after it was back" if isinstance(when, float) else "not in time")
        )
    waits = sorted(w for r in results for w in r.get("redis_waits", []))
    gaps = sorted(g for r in results for g in r.get("redis_gaps", []))
    during = sum(int(r.get("redis_during", 0)) for r in results)
    if waits:
        print(
            f"... seats with a state after Redis was back: {len(waits)}, the first after "
            f"median {statistics.median(waits):.1f} s, max {max(waits):.1f} s; "
            f"seats that read a state while it was away: {during}"
        )
        print(
            f"... a table's longest time without a state around the outage: "
            f"median {statistics.median(gaps):.1f} s, max {max(gaps):.1f} s"
        )
    backs = sum("redis: back" in line for line in lines)
    print(f"... workers that said Redis was back and wrote again what it knew: {backs}")
    checked = sum(int(r["checked"]) for r in results)
    went_back = sum(int(r["went_back"]) for r in results)
    cards_back = sum(int(r["cards_back"]) for r in results)
    print(
        f"nothing lost: {checked} states checked at the seats, through both kills; "
        f"a state number that went back: {went_back}; a card back in a hand it had left: "
        f"{cards_back}"
    )


OUTAGE_WHAT = {
    "tables": "every live table (the store's) listed in Redis again",
    "workers": "every worker's heartbeat and port in Redis again",
    "online": "as many players marked online as before the kill (95% or more)",
}


async def redis_outage(
    url: str, postgres: str, args: argparse.Namespace, workers: list[str], tmp: Path, stop: float
) -> dict[str, float | int | None]:
    """Redis killed (SIGKILL), started again on its port ``--redis-down`` seconds later
    (empty), and how long until it knows again what it knew (``OUTAGE_WHAT``)."""
    import redis

    folder = Path(os.environ["BELA_TEST_REDIS_DIR"])
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=2)
    tables_before = int(client.hlen("bela:tables"))  # type: ignore[arg-type]
    online_before = int(client.hlen("bela:online"))  # type: ignore[arg-type]
    down = time.monotonic()
    os.kill(int((folder / "redis.pid").read_text().strip()), signal.SIGKILL)
    await asyncio.sleep(args.redis_down)
    subprocess.run(
        [
            *("redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder)),
            *("--save", "", "--appendonly", "no", "--daemonize", "yes"),
            *("--pidfile", str(folder / "redis.pid"), "--logfile", str(folder / "redis.log")),
        ],
        check=True,
    )
    while True:
        with contextlib.suppress(redis.RedisError):
            if client.ping():
                break
        await asyncio.sleep(0.01)
    back = time.monotonic()
    (tmp / "redis-times.json").write_text(json.dumps([down, back]))
    found: dict[str, float | int | None] = {
        "down": down,
        "back": back,
        "tables_before": tables_before,
        "online_before": online_before,
        "tables": None,
        "workers": None,
        "online": None,
    }
    while time.monotonic() < stop and None in (found["tables"], found["workers"], found["online"]):
        with contextlib.suppress(redis.RedisError):
            now = time.monotonic() - back
            live = set(table_owners(postgres))
            listed = set(client.hkeys("bela:tables"))  # type: ignore[arg-type]
            if found["tables"] is None and live <= listed:
                found["tables"] = now
            ports = client.hgetall("bela:ports")
            beating = all(client.exists(f"bela:alive:{w}") for w in workers)
            if found["workers"] is None and beating and set(workers) <= set(ports):  # type: ignore[arg-type]
                found["workers"] = now
            if found["online"] is None and int(client.hlen("bela:online")) >= 0.95 * online_before:  # type: ignore[arg-type]
                found["online"] = now
        await asyncio.sleep(0.1)
    client.close()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--idle", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--redis-down", type=float, default=3.0)
    parser.add_argument("--log", default="", help="write the server's own lines to this file")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--pins", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.client:
        print(f"open files: up to {more_files()} per process", flush=True)
    asyncio.run(client_main(args) if args.client else orchestrate(args))


if __name__ == "__main__":
    main()
