"""Load benchmark for the network table (issue #16): one host process, many tables, scripted seats.

One host process (a child of this script, ``--serve``) opens ``--tables`` tables
(default 200); this process seats four scripted clients at each (800 TCP
connections on localhost) and they play as fast as they can for ``--seconds``:
every client answers its turn at once with a random legal action (``--think S``:
after S seconds on average, a player's pace).

Printed:
- actions applied per second over the run;
- the time from a client sending an action to *all four* seats of its table
  having the resulting state (median, p90, p99, max), measured in this
  process, so it includes the clients' own reading and JSON parsing;
- the host's CPU time per action (from ``/proc``), which does not depend on how much
  of the machine the host got, and what a whole free core would serve at that cost,
  with the kernel's share of it (socket sends, fsync);
- the clients' CPU per action (this process: they share the machine with the host),
  and what two whole cores would serve at host + clients per action: a closed loop of
  T tables then waits at least T / that many seconds per action (Little's law);
- the host's memory: resident set before any table, after the tables are
  opened and seated, and while all of them are mid-match, per table.

``--hostile N`` keeps N idle connections open against the host the whole time
(from many loopback addresses, never a byte sent; each one the host closes, at
its hello deadline or to make room, is opened again), as a stranger without the
code would; ``--ssh N`` also starts the host's SSH door and holds N idle SSH
connections against it. The host's memory is then printed with them held.

The host saves every table after every action (as ``bela host`` does) unless
``--no-save``. It is a measurement, not a test: nothing is asserted. The
machine is shared, so run it with ``nice`` and read the figures as such.

    .venv/bin/python benchmarks/bench_net.py --tables 200 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bela.net.protocol import PROTOCOL_VERSION

if TYPE_CHECKING:
    from bela.net.saves import TableSaver


def _cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU time of a process so far (``/proc/PID/stat``, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# ---------------------------------------------------------------------- the host (child)


def _counting(saver: TableSaver, counts: dict[str, int], lock: threading.Lock) -> None:
    """Count the host's writes (in their threads) and its failed saves."""
    replace, append = saver._replace, saver._append

    def counted_replace(*args: Any) -> None:
        replace(*args)
        with lock:
            counts["snapshots"] += 1

    def counted_append(*args: Any) -> None:
        append(*args)
        with lock:
            counts["journal_appends"] += 1

    def problem(kind: str, line: str) -> None:
        if "saved again" not in line:
            counts["failed_saves"] += 1

    saver._replace = counted_replace  # type: ignore[method-assign]
    saver._append = counted_append  # type: ignore[method-assign]
    saver.on_problem = problem


async def _serve(tables: int, save: bool, ssh: bool) -> None:
    from bela.net.faults import FaultLog
    from bela.net.saves import TableSaver
    from bela.net.server import Server, ServerOptions, WrongCodes

    counts = {"snapshots": 0, "journal_appends": 0, "failed_saves": 0, "fault_lines": 0}
    saver = TableSaver() if save else None
    if saver is not None:
        _counting(saver, counts, threading.Lock())

    def log_line(line: str) -> None:
        counts["fault_lines"] += 1
        print(line, file=sys.stderr, flush=True)

    server = Server(
        ServerOptions(difficulty="random", target=1001, bot_delay=0.0, wait=60, save=save),
        saver,
        WrongCodes(limit=10**9),
        faults=FaultLog(write=log_line),
    )
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    _, port = await server.listen("127.0.0.1", 0)
    ssh_port = None
    if ssh:
        from bela.net.ssh import start_ssh

        door = await start_ssh(server, "127.0.0.1", 0, port)
        ssh_port = door.sockets[0].getsockname()[1]
    print(
        json.dumps({"port": port, "ssh": ssh_port, "rss_empty": _rss_kib(os.getpid())}),
        flush=True,
    )
    codes = [server.new_table().code for _ in range(tables)]
    print(json.dumps({"codes": codes, "leads": [t.leader_key for t in server.tables.values()]}))
    sys.stdout.flush()
    await stop.wait()  # SIGTERM: say what was saved and what went wrong, then go
    stalled = sum(1 for t in server.tables.values() if t.stalled)
    print(json.dumps({"counts": {**counts, "stalled_tables": stalled}}), flush=True)


# ---------------------------------------------------------------------- the seats (this process)


@dataclass
class Hostile:
    """Idle connections held against the host: how many are open, how often it hung up."""

    open: int = 0
    opened: int = 0
    closed_by_host: int = 0
    refused: int = 0


async def _idle(port: int, source: str, hostile: Hostile, stop: asyncio.Event) -> None:
    """One idle connection from ``source``, opened again each time the host closes it."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 5
            )
        except (OSError, TimeoutError):
            hostile.refused += 1
            await asyncio.sleep(1)
            continue
        hostile.open += 1
        hostile.opened += 1
        try:
            await reader.read()  # nothing is ever sent: wait for the host to hang up
            hostile.closed_by_host += 1
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            hostile.open -= 1
            writer.close()
        await asyncio.sleep(0.5)


@dataclass
class TableRun:
    pending: dict[int, tuple[float, set[int]]] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    welcomed: int = 0
    errors: int = 0
    """Refusals and closings a seat was sent: a scripted seat plays only legal actions."""


async def _seat(
    host: str,
    port: int,
    code: str,
    name: str,
    run: TableRun,
    rng: random.Random,
    lead: str | None,
    started: asyncio.Event,
    stop: asyncio.Event,
    think: float,
    source: str,
) -> None:
    # each table's seats from their own loopback address, as players on their own machines
    # (the host holds at most a few connections an address before their hello)
    reader, writer = await asyncio.open_connection(
        host, port, limit=1 << 20, local_addr=(source, 0)
    )
    hello = {"type": "hello", "v": PROTOCOL_VERSION, "code": code, "name": name}
    if lead is not None:
        hello["lead"] = lead
    writer.write(json.dumps(hello).encode() + b"\n")
    seat = -1
    acted: tuple[int, int] | None = None
    counted = -1
    while not stop.is_set():
        line = await reader.readline()
        if not line:
            return
        message = json.loads(line)
        kind = message["type"]
        if kind == "welcome":
            seat = message["seat"]
            run.welcomed += 1
        elif kind == "lobby" and lead is not None:
            if all(s["name"] for s in message["seats"]):
                writer.write(b'{"type":"start"}\n')
        elif kind == "state":
            started.set()
            seq = message["seq"]
            now = time.perf_counter()
            waiting = run.pending.get(seq)
            if waiting is not None and seq != counted:
                counted = seq
                waiting[1].add(seat)
                if len(waiting[1]) == 4:
                    run.latencies.append(now - waiting[0])
                    del run.pending[seq]
            view = message["view"]
            key = (seq, message["round"])
            if view["to_act"] == seat and view["legal"] and key != acted:
                acted = key
                if think > 0:  # a player's pace: the host is then measured, not its queue
                    await asyncio.sleep(think * (0.5 + rng.random()))
                run.pending[seq + 1] = (time.perf_counter(), set())
                run.actions += 1
                action = rng.choice(view["legal"])
                writer.write(json.dumps({"type": "act", "action": action}).encode() + b"\n")
        elif kind == "refused":
            run.errors += 1
        elif kind in ("over", "closing"):
            run.errors += kind == "closing"
            return
    writer.close()


async def _bench(args: argparse.Namespace) -> None:
    data = tempfile.mkdtemp(prefix="bela-bench-net-")
    env = dict(os.environ, BELA_DATA_DIR=data)
    flags = ["--serve", str(args.tables)] + ([] if args.save else ["--no-save"])
    flags += ["--ssh", "1"] if args.ssh else []
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        os.environ.get("BENCH_NET_HOST", __file__),
        *flags,
        stdout=asyncio.subprocess.PIPE,
        env=env,
    )
    assert child.stdout is not None
    first = json.loads(await child.stdout.readline())
    port, rss_empty = first["port"], first["rss_empty"]
    opened = json.loads(await child.stdout.readline())
    rss_open = _rss_kib(child.pid)
    stop = asyncio.Event()
    runs = [TableRun() for _ in opened["codes"]]
    starts = [asyncio.Event() for _ in opened["codes"]]
    tasks = []
    for n, (code, lead) in enumerate(zip(opened["codes"], opened["leads"], strict=True)):
        for k in range(4):
            tasks.append(
                asyncio.create_task(
                    _seat(
                        "127.0.0.1",
                        port,
                        code,
                        f"t{n}s{k}",
                        runs[n],
                        random.Random(n * 4 + k),
                        lead if k == 3 else None,
                        starts[n],
                        stop,
                        args.think,
                        f"127.0.{100 + n // 250}.{1 + n % 250}",
                    )
                )
            )
        if n % 20 == 19:  # in batches, each seated before the next (as the host caps
            # connections without a hello: a few a source address, 128 in all)
            for _ in range(500):
                if sum(run.welcomed for run in runs[: n + 1]) >= 4 * (n + 1):
                    break
                await asyncio.sleep(0.01)
    await asyncio.wait_for(asyncio.gather(*(s.wait() for s in starts)), 60)
    hostile, ssh_hostile = Hostile(), Hostile()
    for n in range(args.hostile):  # at most 4 a source address: most are held, none refused
        source = f"127.0.{2 + n // 1000}.{1 + (n // 4) % 250}"
        tasks.append(asyncio.create_task(_idle(port, source, hostile, stop)))
    for n in range(args.ssh):
        source = f"127.0.{10 + n // 1000}.{1 + (n // 2) % 250}"
        tasks.append(asyncio.create_task(_idle(first["ssh"], source, ssh_hostile, stop)))
    if args.hostile or args.ssh:
        await asyncio.sleep(2)  # all of them open before the measurement starts
    seated = time.perf_counter()
    (user0, sys0), cpu_self = _cpu_seconds(child.pid), time.process_time()
    await asyncio.sleep(args.seconds / 2)
    rss_play = _rss_kib(child.pid)
    held = (hostile.open, ssh_hostile.open)
    await asyncio.sleep(args.seconds / 2)
    elapsed = time.perf_counter() - seated
    user1, sys1 = _cpu_seconds(child.pid)
    cpu_host, cpu_kernel = user1 - user0 + sys1 - sys0, sys1 - sys0
    cpu_self = time.process_time() - cpu_self
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    child.terminate()
    counts: dict[str, int] = {}
    for line in (await child.stdout.read()).decode().splitlines():
        with contextlib.suppress(ValueError):
            counts = json.loads(line).get("counts", counts)
    await child.wait()
    shutil.rmtree(data, ignore_errors=True)  # the host's saves: a few MiB per run

    latencies = sorted(x for run in runs for x in run.latencies)
    actions = sum(run.actions for run in runs)
    tables = len(runs)
    print(
        f"bench_net: {tables} tables x 4 seats, {elapsed:.1f} s of play, "
        f"saving {'on' if args.save else 'off'}, think {args.think:g} s "
        "(one host process, clients in one process)"
    )
    print(f"  actions applied: {actions} ({actions / elapsed:.0f}/s, {actions / tables:.0f}/table)")
    if latencies:
        q = statistics.quantiles(latencies, n=100)
        ms = 1000.0
        print(
            f"  action -> all 4 seats updated: median {statistics.median(latencies) * ms:.1f} ms, "
            f"p90 {q[89] * ms:.1f} ms, p99 {q[98] * ms:.1f} ms, max {latencies[-1] * ms:.1f} ms "
            f"({len(latencies)} actions)"
        )
    if actions and cpu_host > 0:
        per_action = cpu_host / actions
        print(
            f"  host CPU: {cpu_host:.1f} s in {elapsed:.1f} s ({100 * cpu_host / elapsed:.0f}% of "
            f"a core), {per_action * 1000:.2f} ms per action: one free core would apply "
            f"{1 / per_action:.0f} actions/s ({100 * cpu_kernel / max(cpu_host, 1e-9):.0f}% "
            "of it in the kernel: sockets, disk)"
        )
        per_client = cpu_self / actions
        print(
            f"  clients' CPU: {cpu_self:.1f} s, {per_client * 1000:.2f} ms per action "
            f"({100 * cpu_self / (cpu_self + cpu_host):.0f}% of the benchmark's CPU); host and "
            f"clients together: {(per_action + per_client) * 1000:.2f} ms per action, so 2 whole "
            f"cores would apply at most {2 / (per_action + per_client):.0f} actions/s"
        )
    per_table = (rss_play - rss_empty) / tables
    print(
        f"  host memory: {rss_empty / 1024:.1f} MiB empty, {rss_open / 1024:.1f} MiB with "
        f"{tables} open tables, {rss_play / 1024:.1f} MiB mid-play: "
        f"{per_table:.0f} KiB per playing table"
    )
    errors = sum(run.errors for run in runs)
    if counts:
        print(
            f"  host saves: {counts['snapshots']} snapshots, {counts['journal_appends']} "
            f"journal appends, {counts['failed_saves']} failed; {counts['stalled_tables']} "
            f"tables stalled at the end; {counts['fault_lines']} lines in the host's fault log"
        )
    print(f"  seats sent a refusal or closed: {errors}")
    if args.hostile:
        print(
            f"  hostile idle connections: {args.hostile} kept up, {held[0]} open mid-run; "
            f"{hostile.opened} opened, {hostile.closed_by_host} hung up by the host "
            f"(hello deadline or making room), {hostile.refused} not connected"
        )
    if args.ssh:
        print(
            f"  hostile idle SSH connections: {args.ssh} kept up, {held[1]} open mid-run; "
            f"{ssh_hostile.opened} opened, {ssh_hostile.closed_by_host} hung up by the host"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--no-save", dest="save", action="store_false")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a seat waits before acting, on average (0: as fast as it can)",
    )
    parser.add_argument(
        "--hostile",
        type=int,
        default=0,
        metavar="N",
        help="N idle connections without a hello held against the host meanwhile",
    )
    parser.add_argument(
        "--ssh",
        type=int,
        default=0,
        metavar="N",
        help="start the host's SSH door and hold N idle SSH connections against it",
    )
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        asyncio.run(_serve(args.serve, args.save, bool(args.ssh)))
    else:
        asyncio.run(_bench(args))


if __name__ == "__main__":
    main()
