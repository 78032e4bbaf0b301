"""Where the lab's work runs: local worker processes, or a Ray cluster when asked.

``map_tasks(fn, tasks, jobs=..., cluster=...)`` is the one place the lab spreads
work out (the arena, the ladder, data generation). It returns ``fn``'s results
in the order of ``tasks``, whatever order the workers finish in, so a report
built from them is the same on one process, on two, or on a cluster: every
task must be a pure function of its own arguments (the lab's are, by seed).

Without ``cluster`` nothing new is needed: a ``multiprocessing`` pool (forked
where the OS can, so workers start in milliseconds), or this very process for
one worker. With ``cluster`` the tasks go to Ray, which is imported only then:
the default install stays lean and a missing Ray is one line
(``ClusterError``), not a traceback. The addresses are Ray's own:

- ``local``: start a Ray instance in this process's machine for this run
  (``jobs`` CPUs), and stop it at the end;
- ``auto``: the cluster this machine belongs to (``ray start`` ran here);
- ``HOST:PORT`` or ``ray://HOST:10001``: a cluster elsewhere (the second through
  the Ray client, which needs ``ray[client]``, part of bela's ``cluster`` extra).

On a cluster the workers run this checkout's ``bela`` package, shipped with the
job (Ray's ``py_modules``), so a bot changed here is the bot measured there;
bela's dependencies must be installed on the nodes (see the README).
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import socket
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from bela.foundation.untrusted import oneline, shown

__all__ = [
    "CLUSTER_HINT",
    "ClusterError",
    "Progress",
    "map_tasks",
    "start_method",
    "usable_cpus",
    "worker_count",
]

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` with the number of tasks finished so far."""

CLUSTER_HINT = "install the cluster extra: pip install 'croatian-bela[cluster]'"
_POLL_SECONDS = 0.25
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a HOST:PORT to accept a connection before saying it does not."""
AUTH_HINT = " (a cluster with token authentication needs RAY_AUTH_MODE=token and its token)"
"""Said when joining fails and no auth mode is set: Ray's own message does not say it."""


class ClusterError(Exception):
    """The cluster cannot be used: Ray is not installed, or the address does not answer.

    The message is one line for the user; the command line shows it as it shows
    any bad input, and nothing has been played.
    """


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except (AttributeError, OSError):  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def worker_count(jobs: int, n_tasks: int) -> int:
    """The local processes to start: no more than asked, than tasks, or than usable CPUs.

    The work is CPU-bound: a process beyond the CPUs only adds memory and start-up
    (``--jobs 64`` on two cores used to start 64).
    """
    return max(min(jobs, n_tasks, usable_cpus()), 1)


def map_tasks(
    fn: Callable[[T], R],
    tasks: Iterable[T],
    *,
    jobs: int,
    cluster: str | None = None,
    progress: Progress | None = None,
) -> list[R]:
    """``[fn(task) for task in tasks]``, spread over ``jobs`` processes or a Ray cluster.

    ``fn`` must be a top-level function and the tasks picklable: they travel to
    other processes by name and value. ``progress(0, total)`` is called once the
    workers are up and before any result, then after each finished task; a
    caller that draws a progress bar should start its refresh thread there,
    not before, so no worker is forked from a process with a thread in flight.
    An exception in ``fn`` is raised here, and the remaining work is dropped.
    """
    todo = list(tasks)
    if cluster is not None:
        return _on_ray(fn, todo, cluster, jobs, progress)
    return _local(fn, todo, jobs, progress)


def start_method() -> str:
    """How to start the worker processes: ``fork`` (the fastest) only from a single thread.

    ``fork`` copies the process as it is, and a lock another thread held at that moment (a
    progress bar's, pytest-xdist's own worker thread's, an import lock) stays locked in the
    child for good: the pool hangs. With another thread alive, the workers start from a fresh
    interpreter instead (``forkserver``, else ``spawn``); they import what they run by name,
    so the results are the same, only the start-up is slower.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and _threads() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _threads() -> int:
    """The process's threads, as the system counts them: ``threading.active_count`` misses
    those started with ``_thread`` (pytest-xdist's worker runs its I/O on one)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:  # no /proc (macOS): fork is not the default there anyway
        return threading.active_count()


def _local(fn: Callable[[T], R], todo: list[T], jobs: int, progress: Progress | None) -> list[R]:
    total = len(todo)
    workers = worker_count(jobs, total)
    results: list[R] = []
    if workers <= 1:
        if progress is not None:
            progress(0, total)
        for task in todo:
            results.append(fn(task))
            if progress is not None:
                progress(len(results), total)
        return results
    ctx = multiprocessing.get_context(start_method())
    pool = ctx.Pool(processes=workers)
    try:
        if progress is not None:
            progress(0, total)
        # imap keeps the order of the tasks; chunks of one, as the lab's tasks are big
        for result in pool.imap(fn, todo):
            results.append(result)
            if progress is not None:
                progress(len(results), total)
    finally:
        pool.terminate()
        pool.join()
    return results


def _import_ray() -> Any:
    """Ray, imported by name so neither the default install nor mypy needs it."""
    try:
        return importlib.import_module("ray")
    except ModuleNotFoundError as exc:
        if exc.name is not None and exc.name.split(".")[0] == "ray":
            raise ClusterError(f"--cluster needs Ray: {CLUSTER_HINT}") from None
        raise


def _apply(fn: Callable[[T], R], task: T) -> R:
    """The remote side of a task (a plain function, so Ray can ship it by name)."""
    return fn(task)


def _bela_package() -> str:
    """The directory of the ``bela`` package this process runs, to ship to the cluster."""
    return str(Path(__file__).resolve().parent.parent)


def _check_reachable(cluster: str) -> None:
    """Fail in seconds, with one line, on a HOST:PORT that does not answer.

    Ray itself retries an unreachable head for minutes, printing a warning a
    second on stderr; ``local`` and ``auto`` are left to Ray.
    """
    address = cluster.removeprefix("ray://")
    host, sep, port_text = address.rpartition(":")
    if not sep or not host or not port_text.isdigit():
        return  # not HOST:PORT: Ray says what it makes of it
    try:
        with socket.create_connection((host.strip("[]"), int(port_text)), timeout=CONNECT_TIMEOUT):
            pass
    except (OSError, ValueError) as exc:
        reason = exc.strerror or str(exc) if isinstance(exc, OSError) else str(exc)
        raise ClusterError(
            f"cannot reach the Ray cluster at {shown(cluster)}: {oneline(reason or 'no answer')}"
        ) from None


def _connect(ray: Any, cluster: str, cpus: int) -> None:
    """Join (or, for ``local``, start) the cluster; one-line ``ClusterError`` if it fails."""
    options: dict[str, Any] = {
        "runtime_env": {"py_modules": [_bela_package()]},
        "log_to_driver": False,  # the workers print nothing we want on our stderr
        "logging_level": logging.ERROR,
    }
    _check_reachable(cluster)
    if cluster == "local":
        options.update(address="local", num_cpus=cpus, include_dashboard=False)
    else:
        options["address"] = cluster
    try:
        ray.init(**options)
    except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError, ...
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        hint = "" if cluster == "local" or os.environ.get("RAY_AUTH_MODE") else AUTH_HINT
        raise ClusterError(
            f"cannot use the Ray cluster at {shown(cluster)}: {oneline(reason)}{hint}"
        ) from None


def _on_ray(
    fn: Callable[[T], R], todo: list[T], cluster: str, jobs: int, progress: Progress | None
) -> list[R]:
    ray = _import_ray()
    if ray.is_initialized():  # a caller (a test, a notebook) already chose the cluster
        started = False
    else:
        _connect(ray, cluster, worker_count(jobs, len(todo)))
        started = True
    try:
        remote = ray.remote(num_cpus=1)(_apply)
        fn_ref = ray.put(fn)
        refs = [remote.remote(fn_ref, task) for task in todo]
        total = len(refs)
        if progress is not None:
            progress(0, total)
        pending = list(refs)
        while pending:
            # whatever finished within the poll: one wait per task would cost O(n²) for many
            done, pending = ray.wait(pending, num_returns=len(pending), timeout=_POLL_SECONDS)
            if done:
                ray.get(done)  # a failed task raises now, not after the whole run
                if progress is not None:
                    progress(total - len(pending), total)
        results: list[R] = ray.get(refs)  # in the order of the tasks
        return results
    finally:
        if started:
            ray.shutdown()
