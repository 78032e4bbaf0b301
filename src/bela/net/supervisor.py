"""``bela server --workers N``: N worker processes and the front door, in this process.

Each worker is ``bela server --worker-port PORT`` with the same data directory (the one
certificate: the players' pin holds whichever worker they reach), PostgreSQL and Redis; the
ports are the ones after the public port (``--port 4713 --workers 4``: 4714 to 4717). This
process makes the certificate first (so the workers do not race to), starts them, listens on
the public port (``bela.net.front_door``) and stops them when it is stopped (SIGTERM, then
SIGKILL after ``STOP_GRACE`` seconds). A worker that dies is not started again here: its
tables go on at the other workers (``bela.net.workers``); start it again by hand, or run the
workers under a service manager instead of this one.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final

from bela.net.faults import FaultLog
from bela.net.front_door import FrontDoor
from bela.net.identity import load_or_make_certificate, server_context

__all__ = ["STOP_GRACE", "Supervisor", "worker_ports"]

STOP_GRACE: Final = 10.0


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
        ports: Callable[[], dict[str, int]],
        say: Callable[[str], None],
    ) -> None:
        self.data = data
        self.count = count
        self.worker_args = worker_args
        self.ports = ports
        self.say = say
        self.processes: list[subprocess.Popen[bytes]] = []
        data.mkdir(parents=True, exist_ok=True)
        _cert, _key, self.fingerprint = load_or_make_certificate(data)
        self.door: FrontDoor | None = None

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """The front door on ``host:port`` (port 0: any free; the workers after it)."""
        cert, key, _ = load_or_make_certificate(self.data)
        self.door = FrontDoor(server_context(cert, key), self.ports, FaultLog())
        bound = await self.door.start(host, port)
        for worker_port in worker_ports(bound[1], self.count):
            command = [
                sys.executable,
                "-m",
                "bela",
                "server",
                *self.worker_args,
                "--worker-port",
                str(worker_port),
            ]
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
            self.processes.append(process)
            self.say(f"bela server: worker: 127.0.0.1:{worker_port} pid {process.pid}")
        return bound

    async def ready(self, timeout: float = 60.0) -> bool:
        """Every worker has said where it listens (in the directory), within ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            with contextlib.suppress(Exception):
                if len(self.ports()) >= self.count:
                    return True
            await asyncio.sleep(0.2)
        return False

    async def watch(self, stop: asyncio.Event) -> None:
        """Until ``stop``: say once when a worker has died."""
        told: set[int] = set()
        while not stop.is_set():
            for process in self.processes:
                code = process.poll()
                if code is not None and process.pid not in told:
                    told.add(process.pid)
                    self.say(f"bela server: worker: pid {process.pid} ended ({code})")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)

    async def close(self) -> None:
        if self.door is not None:
            await self.door.close()
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
