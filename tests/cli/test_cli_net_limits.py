"""The real ``bela host`` under attack and crashes (issue #23, points 1 and 8).

A host whose open-file limit is lowered to 256 (as ``preexec_fn`` sets it, soft
and hard) is flooded with 400 idle connections from 50 addresses while a friend
plays; the host refuses what it cannot hold, keeps saving, logs a line per kind
of fault (no tracebacks), and a SIGKILL then loses nothing the friend had seen.
A table killed right after its deal, before the first bid, comes back with its
code and the same hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bela.net.client import Client
from bela.net.protocol import State

_FLAGS = ["--bots", "random", "--bot-delay", "0", "--wait", "30", "--target", "501"]


def _host(data_dir: Path, files: int | None = None) -> tuple[subprocess.Popen[str], int, str]:
    """``bela host --no-play`` in a child (with at most ``files`` descriptors): it, its
    port and its join code."""

    def limits() -> None:  # pragma: no cover - runs in the child
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    child = subprocess.Popen(
        [sys.executable, "-m", "bela", "host", "--no-play", "--port", "0", *_FLAGS],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, BELA_DATA_DIR=str(data_dir)),
        preexec_fn=limits,
    )
    assert child.stdout is not None
    lines = []
    while True:
        line = child.stdout.readline()
        assert line, f"the host ended early: {lines}"
        lines.append(line)
        if "Table open at" in line:
            break
    found = re.search(r"at ([\d.]+):(\d+)\s+join code: (\S+)", lines[-1])
    assert found is not None
    return child, int(found.group(2)), found.group(3)


def _kill(child: subprocess.Popen[str]) -> str:
    """SIGKILL, and what the host wrote to standard error."""
    child.send_signal(signal.SIGKILL)
    _out, err = child.communicate(timeout=10)
    return err


def _stop(child: subprocess.Popen[str]) -> None:
    child.send_signal(signal.SIGINT)
    with contextlib.suppress(subprocess.TimeoutExpired):
        child.communicate(timeout=10)


async def _until_my_turn(client: Client, seat: int, acts: int) -> State:
    """Act with the first legal action ``acts`` times; the state of the turn after."""
    done = 0
    acted: tuple[int, int] | None = None
    while True:
        message = await asyncio.wait_for(client.receive(), 10)
        if not isinstance(message, State):
            continue
        view = message.view
        key = (message.seq, message.round)
        if view.to_act == seat and view.legal and view.phase != "finished" and key != acted:
            if done == acts:
                return message
            acted = key
            done += 1
            await client.act(view.legal[0])


def _seen(state: State) -> tuple[object, ...]:
    view = state.view
    return (state.round, view.hand, view.bids, len(view.tricks), view.trick, view.to_act)


async def _flood(port: int, count: int) -> list[asyncio.StreamWriter]:
    """``count`` idle connections from 50 loopback addresses (held, never a byte sent)."""
    held = []
    for n in range(count):
        source = f"127.0.1.{n % 50 + 1}"
        with contextlib.suppress(OSError, TimeoutError):
            _reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 0.5
            )
            held.append(writer)
    return held


@pytest.mark.slow
def test_a_flooded_host_under_a_low_file_limit_keeps_saving(data_dir: Path) -> None:
    async def scenario() -> tuple[State, State, str]:
        child, port, code = _host(data_dir, files=256)
        held: list[asyncio.StreamWriter] = []
        try:
            held = await _flood(port, 400)
            await asyncio.sleep(1.0)  # the flood's newest connections idle half a second
            ana = await Client.connect("127.0.0.1", port, code, "Ana")
            assert ana.welcome is not None
            token, seat = ana.welcome.token, ana.welcome.seat
            await ana.send({"type": "start"})
            held += await _flood(port, 100)  # more of them while the match is on
            seen = await _until_my_turn(ana, seat, acts=12)
        finally:
            err = _kill(child)
            for writer in held:
                writer.close()
        again, port, code_again = _host(data_dir)
        try:
            assert code_again == code
            back = await Client.connect("127.0.0.1", port, code, "Ana", token=token)
            first = await _until_my_turn(back, seat, acts=0)
            await back.close()
        finally:
            _stop(again)
        return seen, first, err

    seen, first, err = asyncio.run(scenario())
    assert _seen(first) == _seen(seen)  # every card Ana saw played is in the save
    assert "Traceback" not in err
    assert len(err.splitlines()) <= 10, err  # one line per kind of fault, not a flood
    assert "too many connections" in err


def test_a_table_killed_before_the_first_bid_keeps_its_code_and_hands(data_dir: Path) -> None:
    async def scenario() -> tuple[State, State]:
        child, port, code = _host(data_dir)
        try:
            ana = await Client.connect("127.0.0.1", port, code, "Ana")
            assert ana.welcome is not None
            token, seat = ana.welcome.token, ana.welcome.seat
            await ana.send({"type": "start"})
            dealt = await _until_my_turn(ana, seat, acts=0)
        finally:
            _kill(child)
        again, port, code_again = _host(data_dir)
        try:
            assert code_again == code
            back = await Client.connect("127.0.0.1", port, code, "Ana", token=token)
            first = await _until_my_turn(back, seat, acts=0)
            await back.close()
        finally:
            _stop(again)
        return dealt, first

    dealt, first = asyncio.run(scenario())
    assert _seen(first) == _seen(dealt)


def test_while_the_hosts_app_has_the_terminal_its_log_goes_to_a_file(data_dir: Path) -> None:
    """A fault line on standard error would be drawn over the host's app: it goes to
    ``host.log`` in the data directory, one line a kind as ever."""
    from bela.cli.net import _log_line
    from bela.net.faults import FaultLog

    log = FaultLog(write=_log_line)
    for _ in range(50):
        log.report("cap:host_busy", "the host has too many connections just now")
    log.report("save", "could not save table abc")
    lines = (data_dir / "host.log").read_text().splitlines()
    assert lines == [
        "bela host: the host has too many connections just now",
        "bela host: could not save table abc",
    ]
