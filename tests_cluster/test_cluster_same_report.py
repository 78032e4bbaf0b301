"""On a Ray cluster the arena and the ladder report exactly what local processes report.

Run only by ``make cluster-check`` (not by ``make test``: it needs the cluster
extra and about a minute). A head node with two CPUs, so two workers, is
started on this machine with ``ray start --block`` in a session of its own,
and stopped by signalling that session's process group, so no other Ray on the
machine is touched. Every command runs as a user would run it (``python -m
bela``) and the outputs are compared byte for byte.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

RAY = str(Path(sys.executable).with_name("ray"))
START_TIMEOUT = 120.0
STOP_GRACE = 30.0


@dataclass(frozen=True)
class Cluster:
    address: str  # HOST:PORT of the head (the driver joins the cluster)
    client: str  # ray://HOST:PORT (the Ray client)
    env: dict[str, str]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    home = tmp_path_factory.mktemp("cluster")
    env = dict(os.environ)
    # token authentication, as Ray's own local clusters use it; every command here shares
    # the token Ray keeps for this user
    env["RAY_AUTH_MODE"] = "token"
    env["BELA_CONFIG_DIR"] = str(home / "config")
    port, client_port = free_port(), free_port()
    log = home / "ray-start.log"
    command = [RAY, "start", "--head", "--block", "--num-cpus", "2", "--port", str(port)]
    command += ["--ray-client-server-port", str(client_port), "--include-dashboard=false"]
    command += ["--disable-usage-stats"]
    with log.open("wb") as sink:
        head = subprocess.Popen(
            command,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its own process group, stopped as one below
        )
    try:
        address = wait_for_address(log, head)
        host = address.rsplit(":", 1)[0]
        yield Cluster(address, f"ray://{host}:{client_port}", env)
    finally:
        stop(head)


def wait_for_address(log: Path, head: subprocess.Popen[bytes]) -> str:
    """The head's HOST:PORT, as ``ray start`` prints it once the node is up."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace")
        found = re.search(r"ray start --address='([^']+)'", text)
        if found:
            return found.group(1)
        if head.poll() is not None:
            pytest.fail(f"ray start ended early:\n{text[-2000:]}")
        time.sleep(0.5)
    pytest.fail(f"the Ray head did not start in {START_TIMEOUT:.0f} s")


def stop(head: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the head's process group, SIGKILL to what is left after a grace period."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_GRACE
    while time.monotonic() < deadline:
        try:
            os.killpg(head.pid, 0)
        except ProcessLookupError:
            break
        head.poll()  # reap the head itself, so a zombie does not keep the group alive
        time.sleep(0.5)
    else:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
    head.wait(timeout=STOP_GRACE)


def bela(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bela", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout
    return done.stdout


ARENA = ["arena", "easy", "random", "--deals", "60", "--seed", "3", "--matches", "2"]
ARENA += ["--target", "501"]
LADDER = ["ladder", "random", "easy", "normal", "--deals", "30", "--seed", "5"]
LADDER += ["--cap", "normal=20"]


@pytest.mark.parametrize("output", [["--json"], []], ids=["json", "table"])
def test_the_arena_on_the_cluster_reports_what_local_processes_report(
    cluster: Cluster, output: list[str]
) -> None:
    local = bela(cluster.env, *ARENA, "--jobs", "2", *output)
    assert bela(cluster.env, *ARENA, "--cluster", cluster.address, *output) == local


def test_the_arena_through_the_ray_client_reports_the_same(cluster: Cluster) -> None:
    local = bela(cluster.env, *ARENA, "--jobs", "1", "--json")
    assert bela(cluster.env, *ARENA, "--cluster", cluster.client, "--json") == local


def test_a_cluster_started_for_the_run_reports_the_same(cluster: Cluster) -> None:
    local = bela(cluster.env, *ARENA, "--jobs", "2", "--json")
    assert bela(cluster.env, *ARENA, "--cluster", "local", "--jobs", "2", "--json") == local


@pytest.mark.parametrize("output", [["--json"], []], ids=["json", "table"])
def test_the_ladder_on_the_cluster_reports_what_local_processes_report(
    cluster: Cluster, output: list[str]
) -> None:
    local = bela(cluster.env, *LADDER, "--jobs", "2", *output)
    assert bela(cluster.env, *LADDER, "--cluster", cluster.address, *output) == local


def test_a_task_that_fails_on_the_cluster_raises_its_error_here(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bela.engine import Rules
    from bela.lab.arena import run_task
    from bela.lab.runner import map_tasks

    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    good = ("deal", "easy", "random", 1, 0, 1, 1001, Rules())
    bad = ("deal", "no-such-bot", "random", 1, 0, 1, 1001, Rules())
    with pytest.raises(ValueError, match="no-such-bot"):
        map_tasks(run_task, [good, bad, good], jobs=1, cluster=cluster.address)
    # and the next run on the same cluster is not disturbed
    assert map_tasks(run_task, [good], jobs=1, cluster=cluster.address) == [run_task(good)]
