"""``bela host`` with an unfinished table (issue #23, point 7).

It lists the unfinished tables and says which one it resumes; ``--new`` starts a
new table (the unfinished one stays open for its players); an option that would
not apply to the table resumed (``--target 163`` for a match to 501) is an
error, never silently ignored.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bela.net.client import Client
from bela.net.protocol import State


def _host(data_dir: Path, *flags: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``bela host --no-play`` with ``flags``; it and what it printed up to the address
    (or everything, if it ended)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "bela", "host", "--no-play", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=dict(os.environ, BELA_DATA_DIR=str(data_dir)),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.stdout is not None
    lines = []
    while line := child.stdout.readline():
        lines.append(line.rstrip("\n"))
        if "Table open at" in line:
            break
    return child, lines


def _address(lines: list[str]) -> tuple[int, str]:
    found = re.search(r"at [\d.]+:(\d+)\s+join code: (\S+)", lines[-1])
    assert found is not None, lines
    return int(found.group(1)), found.group(2)


@pytest.mark.slow
def test_bela_host_lists_resumes_or_starts_new_and_ignores_no_option(data_dir: Path) -> None:
    flags = ["--bots", "random", "--bot-delay", "0", "--target", "501"]
    first, lines = _host(data_dir, *flags)
    port, code = _address(lines)

    async def sit_and_start(port: int) -> str:
        ana = await Client.connect("127.0.0.1", port, code, "Ana")
        assert ana.welcome is not None
        await ana.send({"type": "start"})
        while not isinstance(await asyncio.wait_for(ana.receive(), 10), State):
            pass
        await ana.close()
        return ana.welcome.token

    try:
        token = asyncio.run(sit_and_start(port))
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    # a new target without --new: one line saying so, nothing hosted
    refused, said = _host(data_dir, "--target", "163")
    assert refused.wait(10) == 2
    assert len(said) == 1 and "--target 163" in said[0] and "--new" in said[0]
    assert code in said[0] and "501" in said[0]
    # no options: the unfinished table is listed and resumed, and that is said
    again, said = _host(data_dir)
    try:
        assert any(code in line and "Ana" in line and "501" in line for line in said)
        assert any(line.startswith("Resuming the table " + code) for line in said)
        assert _address(said)[1] == code
    finally:
        again.send_signal(signal.SIGINT)
        again.wait(10)
    # --new: a new table under a new code, and the old one still open for Ana
    new, said = _host(data_dir, "--new", "--target", "163")
    try:
        port, new_code = _address(said)
        assert new_code != code
        assert any("new table" in line for line in said)

        async def back() -> int:
            ana = await Client.connect("127.0.0.1", port, code, "Ana", token=token)
            assert ana.welcome is not None
            await ana.close()
            return ana.welcome.seat

        assert asyncio.run(back()) == 0
    finally:
        new.send_signal(signal.SIGINT)
        new.wait(10)
