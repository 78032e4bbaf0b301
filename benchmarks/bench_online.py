"""Figures for the public server (issue #39, one process): a real ``bela server``, clients here.

A ``bela server`` child process on a temporary data directory; this process:

1. signs in ``--logins`` new accounts one after another (TLS handshake, an Ed25519
   challenge signed and checked, the account written to SQLite): ms per sign-in;
2. seats ``--tables`` tables by quick match at once (four new accounts each) and has
   them play a match to 501 as fast as they can (a random legal action at once): the
   time to seat them all, the actions per second, the server's CPU per action (from
   ``/proc``) and its resident memory with all of them mid-match;
3. asks for the lobby's list with those tables live: ms per listing.

A measurement, not a test: nothing is asserted. The machine is shared: run it with
``nice`` and read the figures as such.

    .venv/bin/python benchmarks/bench_online.py --tables 25 --logins 100
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bela.net.identity import Pins
from bela.net.lobby_protocol import TableList
from bela.net.online_client import Online
from bela.net.protocol import Over, State, Welcome

SERVER = [sys.executable, "-m", "bela", "--lang", "en", "server", "--port", "0"]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def play(online: Online, rng: random.Random, counter: list[int]) -> None:
    state: State | None = None
    while True:
        message = await online.receive()
        if isinstance(message, Over):
            return
        if isinstance(message, State):
            state = message
            view = state.view
            if view.to_act == state.seat and view.legal and view.phase != "finished":
                await online.send({"type": "act", "action": rng.choice(view.legal)})
                counter[0] += 1


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, BELA_DATA_DIR=f"{tmp}/data", BELA_CONFIG_DIR=f"{tmp}/config")
        server = subprocess.Popen(
            [*SERVER, "--data", f"{tmp}/srv", "--bots", "random"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r":(\d+) \(TLS", line)
        assert found, line
        port = int(found.group(1))
        pins = Pins(Path(tmp) / "client")
        try:
            start = time.perf_counter()
            for n in range(args.logins):
                online = await Online.connect(
                    "127.0.0.1", port, f"L{n}", Ed25519PrivateKey.generate(), pins
                )  # one at a time: one address is enough
                await online.close()
            took = time.perf_counter() - start
            print(f"sign-in (new account, sequential): {1000 * took / args.logins:.1f} ms each")

            print(f"server memory before the tables: {rss_mb(server.pid):.1f} MB")
            clients = []
            start = time.perf_counter()
            for n in range(4 * args.tables):
                online = await Online.connect(
                    "127.0.0.1",
                    port,
                    f"P{n}",
                    Ed25519PrivateKey.generate(),
                    pins,
                    local_address=f"127.0.{1 + n // 250}.{1 + n % 250}",  # players' addresses
                )
                await online.send({"type": "quick", "target": 501, "wait": 600})
                clients.append(online)
            for online in clients:
                while not isinstance(await online.receive(), Welcome):
                    pass
            print(
                f"{args.tables} tables seated by quick match: "
                f"{time.perf_counter() - start:.2f} s ({4 * args.tables} sign-ins included)"
            )
            counter = [0]
            cpu0, start = cpu_seconds(server.pid), time.perf_counter()
            games = [play(o, random.Random(i), counter) for i, o in enumerate(clients)]
            task = asyncio.gather(*games)
            await asyncio.sleep(0.5)
            mid = rss_mb(server.pid)
            await task
            took, cpu = time.perf_counter() - start, cpu_seconds(server.pid) - cpu0
            actions = counter[0]
            print(f"server memory mid-match: {mid:.1f} MB")
            print(
                f"{actions} actions in {took:.2f} s: {actions / took:.0f} actions/s; "
                f"server CPU {1000 * cpu / actions:.2f} ms per action "
                "(ratings written at each match's end included)"
            )
            asker = await Online.connect(
                "127.0.0.1", port, "Asker", Ed25519PrivateKey.generate(), pins
            )
            times = []
            for _ in range(20):
                t0 = time.perf_counter()
                await asker.send({"type": "tables"})
                while not isinstance(listing := await asker.receive(), TableList):
                    pass
                times.append(time.perf_counter() - t0)
            print(
                f"lobby listing of {len(listing.tables)} tables: "
                f"median {1000 * statistics.median(times):.1f} ms"
            )
            for online in [*clients, asker]:
                await online.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(10)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--logins", type=int, default=100)
    asyncio.run(main(parser.parse_args()))
