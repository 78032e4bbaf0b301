"""``bela server --workers N`` starts a dead worker again on its port, after a pause that
doubles with each death in a row at its start, and gives up on one that keeps dying at its
start, said in one line (issue #39). The processes here are stand-ins and the clock is the
test's; test_online_workers_real.py kills a real worker with SIGKILL."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from bela.net.supervisor import BACKOFF, GIVE_UP, Supervisor


class FakeProcess:
    pids = iter(range(1000, 2000))

    def __init__(self, dead: bool = False) -> None:
        self.pid = next(FakeProcess.pids)
        self.code: int | None = -9 if dead else None

    def poll(self) -> int | None:
        return self.code

    def terminate(self) -> None:
        self.code = -15

    def kill(self) -> None:
        self.code = -9

    def wait(self) -> int | None:
        return self.code


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Stand(Supervisor):
    """A supervisor whose workers are stand-ins; the ports in ``failing`` die at once."""

    failing: set[int]
    spawned: list[tuple[int, FakeProcess]]

    def spawn(self, port: int) -> subprocess.Popen[bytes]:
        process = FakeProcess(dead=port in self.failing)
        self.spawned.append((port, process))
        return process  # type: ignore[return-value]


async def test_a_dead_worker_is_started_again_and_one_dying_at_its_start_is_given_up(
    tmp_path: Path,
) -> None:
    lines: list[str] = []
    clock = Clock()
    supervisor = Stand(tmp_path, 2, [], dict, lines.append, clock=clock)
    supervisor.failing, supervisor.spawned = set(), []
    _host, port = await supervisor.start("127.0.0.1", 0)
    first, second = port + 1, port + 2
    try:
        assert [p for p, _ in supervisor.spawned] == [first, second]
        # the first worker, after running for a while, is killed
        clock.now = 100.0
        supervisor.spawned[0][1].code = -9
        supervisor.look()
        assert lines[-1].endswith(
            f"127.0.0.1:{first} pid {supervisor.spawned[0][1].pid} ended (-9), started again in 1 s"
        )
        assert len(supervisor.spawned) == 2  # not at once: after the pause
        clock.now = 100.5
        supervisor.look()
        assert len(supervisor.spawned) == 2
        clock.now = 101.0
        supervisor.look()
        assert [p for p, _ in supervisor.spawned] == [first, second, first]  # the same port
        new = supervisor.spawned[2][1]
        assert lines[-1] == f"bela server: worker: 127.0.0.1:{first} pid {new.pid}"
        assert supervisor.processes[0] is new
        supervisor.look()
        assert len(supervisor.spawned) == 3  # alive: left alone
        # the second worker dies, and dies again at every start (its port taken, say)
        supervisor.failing.add(second)
        supervisor.spawned[1][1].code = 1
        clock.now = 200.0
        for _ in range(400):
            supervisor.look()
            clock.now += 0.5
        again = [p for p, _ in supervisor.spawned[3:]]
        assert again == [second] * (GIVE_UP - 1)  # started again until given up, no more
        pauses = [
            float(found.group(1))
            for line in lines
            if f":{second} " in line and (found := re.search(r"again in (\S+) s", line))
        ]
        assert pauses == list(BACKOFF[: GIVE_UP - 1])  # 1, 2, 4, 8: doubling
        given_up = [line for line in lines if "given up" in line]
        assert len(given_up) == 1 and f"127.0.0.1:{second} " in given_up[0]
        assert f"{GIVE_UP} times in a row at its start" in given_up[0]
        assert supervisor.processes[0] is new and new.poll() is None  # the first one runs on
    finally:
        await supervisor.close()
    assert supervisor.processes[0].poll() == -15  # stopped with the rest


class NoFork(Stand):
    """The first start works; every later one finds no process to be had."""

    def spawn(self, port: int) -> subprocess.Popen[bytes]:
        if self.spawned:
            raise OSError(11, "Resource temporarily unavailable")
        return super().spawn(port)


async def test_a_worker_that_cannot_even_be_spawned_counts_as_dying_at_its_start(
    tmp_path: Path,
) -> None:
    lines: list[str] = []
    clock = Clock()
    supervisor = NoFork(tmp_path, 1, [], dict, lines.append, clock=clock)
    supervisor.failing, supervisor.spawned = set(), []
    await supervisor.start("127.0.0.1", 0)
    try:
        clock.now = 100.0
        supervisor.spawned[0][1].code = -9
        for _ in range(200):  # the watch goes on: no exception out of look
            supervisor.look()
            clock.now += 0.5
        assert sum("could not be started" in line for line in lines) == GIVE_UP - 1
        assert sum("given up" in line for line in lines) == 1
    finally:
        await supervisor.close()
