"""``map_tasks``: results in task order on any number of local workers; no Ray, one line."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.lab import runner
from bela.lab.runner import CLUSTER_HINT, ClusterError, map_tasks


def square_after_a_while(n: int) -> int:
    """Later tasks finish first (the small ones sleep longer), so order must be restored."""
    import time

    time.sleep(0.002 * (5 - n % 5))
    return n * n


def fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError("three")
    return n


@given(st.lists(st.integers(-50, 50), max_size=12))
@settings(max_examples=20, deadline=None)
def test_one_worker_is_a_plain_map(numbers: list[int]) -> None:
    calls: list[tuple[int, int]] = []
    got = map_tasks(
        square_after_a_while, numbers, jobs=1, progress=lambda d, t: calls.append((d, t))
    )
    assert got == [n * n for n in numbers]
    n = len(numbers)
    assert calls == [(i, n) for i in range(n + 1)]


def test_two_workers_give_the_results_in_task_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "usable_cpus", lambda: 2)
    calls: list[tuple[int, int]] = []
    tasks = iter(range(20))  # any iterable, consumed once
    got = map_tasks(square_after_a_while, tasks, jobs=2, progress=lambda d, t: calls.append((d, t)))
    assert got == [n * n for n in range(20)]
    assert calls[0] == (0, 20) and calls[-1] == (20, 20)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_an_error_in_a_task_is_raised_to_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "usable_cpus", lambda: 2)
    for jobs in (1, 2):
        with pytest.raises(ValueError, match="three"):
            map_tasks(fail_on_three, range(6), jobs=jobs)


def test_no_tasks_no_work() -> None:
    assert map_tasks(square_after_a_while, [], jobs=4) == []


def test_without_ray_the_cluster_is_one_line_with_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(ClusterError) as caught:
        map_tasks(square_after_a_while, [1, 2], jobs=1, cluster="local")
    message = str(caught.value)
    assert CLUSTER_HINT in message and "\n" not in message


def test_local_workers_are_no_more_than_cpus_or_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "usable_cpus", lambda: 2)
    assert runner.worker_count(64, 1000) == 2
    assert runner.worker_count(64, 1) == 1
    assert runner.worker_count(1, 1000) == 1
    assert runner.worker_count(3, 0) == 1


def test_a_head_that_does_not_answer_is_one_line_in_seconds() -> None:
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: nobody listens there now
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(ClusterError) as caught:
            runner._check_reachable(address)
        assert "cannot reach" in str(caught.value) and "\n" not in str(caught.value)
    runner._check_reachable("auto")  # not HOST:PORT: left to Ray, nothing raised here


def test_a_head_that_answers_passes_the_check() -> None:
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        runner._check_reachable(f"127.0.0.1:{server.getsockname()[1]}")


def test_workers_are_forked_only_from_a_single_thread() -> None:
    """Forking with another thread alive can hang the pool (a lock held by that thread stays
    held in the child): with one, the workers start from a fresh interpreter."""
    script = "from bela.lab.runner import start_method; print(start_method())"
    alone = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert alone.stdout.strip() == "fork"  # Linux, one thread: the fast way
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert runner.start_method() in ("forkserver", "spawn")
    finally:
        stop.set()
        other.join()
    # a thread started with _thread, as pytest-xdist's worker starts its own, counts too
    script = (
        "import _thread, threading, time\n"
        "from bela.lab.runner import start_method\n"
        "started = threading.Event()\n"
        "_thread.start_new_thread(lambda: (started.set(), time.sleep(5)), ())\n"
        "started.wait()\n"
        "print(start_method())\n"
    )
    raw = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert raw.stdout.strip() in ("forkserver", "spawn"), raw.stderr


def test_two_workers_with_another_thread_alive_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "usable_cpus", lambda: 2)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert map_tasks(square_after_a_while, range(8), jobs=2) == [n * n for n in range(8)]
    finally:
        stop.set()
        other.join()
