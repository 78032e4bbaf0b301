"""The evening's series survives a host restart (issue #23).

The real command: ``bela host --no-play`` in a child process, a scripted player
plays a quick match against the bots, asks for another (još jednu), and the
second match starts with the series 1 match won. The host is then killed with
SIGKILL and started again on the same data directory: it resumes the table, and
the player sitting down again with the seat's token is told the same series, not
a series that starts again at nothing.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from bela.net.client import Client
from bela.net.protocol import Over, State


def _host(data_dir: Path) -> tuple[subprocess.Popen[str], int, str]:
    flags = ["--bots", "random", "--bot-delay", "0", "--wait", "30", "--target", "163"]
    child = subprocess.Popen(
        [sys.executable, "-m", "bela", "host", "--no-play", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, BELA_DATA_DIR=str(data_dir)),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None
    lines = []
    while line := child.stdout.readline():
        lines.append(line)
        if "Table open at" in line:
            break
    found = re.search(r"at [\d.]+:(\d+)\s+join code: (\S+)", lines[-1])
    assert found is not None, lines
    return child, int(found.group(1)), found.group(2)


async def _play_to_the_end(client: Client, seat: int) -> Over:
    acted: tuple[int, int] | None = None
    while True:
        message = await asyncio.wait_for(client.receive(), 30)
        if isinstance(message, Over):
            return message
        if isinstance(message, State):
            key = (message.seq, message.round)
            if message.view.to_act == seat and message.view.legal and key != acted:
                acted = key
                await client.act(message.view.legal[0])


async def _next_state(client: Client) -> State:
    while True:
        message = await asyncio.wait_for(client.receive(), 30)
        if isinstance(message, State):
            return message


def test_the_series_is_told_again_after_the_host_is_killed_and_resumes(data_dir: Path) -> None:
    async def scenario() -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
        child, port, code = _host(data_dir)
        try:
            ana = await Client.connect("127.0.0.1", port, code, "Ana")
            assert ana.welcome is not None
            token, seat = ana.welcome.token, ana.welcome.seat
            await ana.send({"type": "start"})
            over = await _play_to_the_end(ana, seat)
            assert over.series is not None and sum(over.series) == 1
            await ana.send({"type": "again"})  # only Ana is connected: it starts at once
            fresh = await _next_state(ana)
            while fresh.winner is not None:
                fresh = await _next_state(ana)
            assert fresh.series == over.series
            await asyncio.sleep(0.5)  # the new match's first save (it waits for nobody)
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
        again, port, code_again = _host(data_dir)
        try:
            assert code_again == code
            back = await Client.connect("127.0.0.1", port, code, "Ana", token=token)
            assert back.welcome is not None and back.welcome.seat == seat
            resumed = await _next_state(back)
            await back.close()
            return over.series, resumed.series
        finally:
            again.send_signal(signal.SIGINT)
            again.wait(10)

    before, after = asyncio.run(scenario())
    assert after == before
