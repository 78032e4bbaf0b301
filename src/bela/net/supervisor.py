"""``bela server --workers N``: N worker processes and the front door, in this process.

Each worker is ``bela server --worker-port PORT`` with the same data directory (the one
certificate: the players' pin holds whichever worker they reach), PostgreSQL and Redis; the
ports are the ones after the public port (``--port 4713 --workers 4``: 4714 to 4717). This
process makes the certificate first (so the workers do not race to), starts them, listens on
the public port (``bela.net.front_door``) and stops them when it is stopped (SIGTERM, then
SIGKILL after ``STOP_GRACE`` seconds).

A worker that dies is started again on its port (so under its name, ``bela.net.workers``),
after a pause that doubles with each death in a row at its start (``BACKOFF``); one that
has died ``GIVE_UP`` times in a row within ``EARLY`` seconds of its start (a port taken, a
store refusing it) is given up, said in one line. Meanwhile its tables go on: the other
workers claim them once its heartbeat has lapsed, or the worker started again takes up its
own at its start (whichever comes first; the store lets one of them have each table).
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bela.net.faults import FaultLog
from bela.net.front_door import FrontDoor
from bela.net.identity import load_or_make_certificate, server_context
from bela.net.redirects import Address

__all__ = [
    "BACKOFF",
    "EARLY",
    "GIVE_UP",
    "STOP_GRACE",
    "Supervisor",
    "WorkerProcess",
    "worker_ports",
]

STOP_GRACE: Final = 10.0
BACKOFF: Final = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
"""Seconds before a dead worker is started again, by its deaths in a row at its start (the
last for any more)."""
EARLY: Final = 30.0
"""A worker that dies within this many seconds of its start died at its start."""
GIVE_UP: Final = 5
"""Deaths in a row at its start after which a worker is not started again."""
WATCH_EVERY: Final = 0.5
"""Seconds between two looks at the workers' processes."""


@dataclass(slots=True)
class WorkerProcess:
    """One worker's port and its process now, and what the restarts know of it."""

    port: int
    process: subprocess.Popen[bytes]
    started: float
    early_deaths: int = 0
    """Deaths in a row within ``EARLY`` seconds of a start."""
    restart_at: float | None = None
    """When it is started again (it is dead until then)."""
    given_up: bool = False


def worker_ports(port: int, count: int) -> list[int]:
    """The workers' ports: the ``count`` after the public ``port``."""
    return [port + i for i in range(1, count + 1)]


class Supervisor:
    """The workers' processes and the front door."""

    def __init__(
        self,
        data: Path,
        count: int,
        worker_args: list[str],
        addresses: Callable[[], dict[str, Address]],
        say: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
        advertise: str | None = None,
    ) -> None:
        self.data = data
        self.count = count
        self.worker_args = worker_args
        self.addresses = addresses
        """Every machine's alive workers (the shared Redis)."""
        self.advertise = advertise
        """The host this machine's workers are reached at (``--advertise``), or None."""
        self.say = say
        self.clock = clock
        self.workers: list[WorkerProcess] = []
        data.mkdir(parents=True, exist_ok=True)
        _cert, _key, self.fingerprint = load_or_make_certificate(data)
        self.door: FrontDoor | None = None

    @property
    def processes(self) -> list[subprocess.Popen[bytes]]:
        """Each worker's process now."""
        return [worker.process for worker in self.workers]

    def spawn(self, port: int) -> subprocess.Popen[bytes]:
        """A worker's process on ``port``."""
        command = [
            sys.executable,
            "-m",
            "bela",
            "server",
            *self.worker_args,
            "--worker-port",
            str(port),
        ]
        return subprocess.Popen(command, stdin=subprocess.DEVNULL)

    def _start_worker(self, port: int) -> subprocess.Popen[bytes]:
        process = self.spawn(port)
        self.say(f"bela server: worker: {self.advertise or '127.0.0.1'}:{port} pid {process.pid}")
        return process

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """The front door on ``host:port`` (port 0: any free; the workers after it)."""
        cert, key, _ = load_or_make_certificate(self.data)
        self.door = FrontDoor(server_context(cert, key), self.addresses, FaultLog(), self.advertise)
        bound = await self.door.start(host, port)
        for worker_port in worker_ports(bound[1], self.count):
            process = self._start_worker(worker_port)
            self.workers.append(WorkerProcess(worker_port, process, self.clock()))
        return bound

    async def ready(self, timeout: float = 60.0) -> bool:
        """Every worker of this machine has said where it listens (in the directory), within
        ``timeout`` (another machine's, in the same directory, do not count)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        ours = {(self.advertise, worker.port) for worker in self.workers}
        while loop.time() < deadline:
            with contextlib.suppress(Exception):
                if ours <= set(self.addresses().values()):
                    return True
            await asyncio.sleep(0.2)
        return False

    def look(self) -> None:
        """One look at the workers: a dead one is said once and given its restart time (or
        given up); one whose time has come is started again on its port."""
        now = self.clock()
        for worker in self.workers:
            if worker.given_up:
                continue
            if worker.restart_at is not None:
                if now >= worker.restart_at:
                    worker.restart_at = None
                    worker.started = now
                    try:
                        worker.process = self._start_worker(worker.port)
                    except OSError as exc:  # no process at all (out of processes, say)
                        worker.early_deaths += 1
                        self._after_death(worker, now, f"could not be started ({exc})")
                continue
            code = worker.process.poll()
            if code is None:
                continue
            if now - worker.started < EARLY:
                worker.early_deaths += 1
            else:
                worker.early_deaths = 1  # it ran a while: this death starts a new count
            self._after_death(worker, now, f"pid {worker.process.pid} ended ({code})")

    def _after_death(self, worker: WorkerProcess, now: float, what: str) -> None:
        """Said in one line: started again after its pause, or given up."""
        where = f"bela server: worker: {self.advertise or '127.0.0.1'}:{worker.port} {what}"
        if worker.early_deaths >= GIVE_UP:
            worker.given_up = True
            self.say(f"{where}, {worker.early_deaths} times in a row at its start: given up")
            return
        pause = BACKOFF[min(worker.early_deaths, len(BACKOFF)) - 1]
        worker.restart_at = now + pause
        self.say(f"{where}, started again in {pause:g} s")

    async def watch(self, stop: asyncio.Event) -> None:
        """Until ``stop``: the workers looked at (``look``) every ``WATCH_EVERY`` seconds."""
        while not stop.is_set():
            self.look()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), WATCH_EVERY)

    async def close(self) -> None:
        if self.door is not None:
            await self.door.close()
        for worker in self.workers:
            worker.restart_at = None
            worker.given_up = True  # nothing is started again from here on
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_GRACE
        for process in self.processes:
            while process.poll() is None and loop.time() < deadline:
                await asyncio.sleep(0.1)
            if process.poll() is None:
                process.kill()
                process.wait()
