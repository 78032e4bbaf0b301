"""The load benchmark still plays against today's host (it speaks the protocol by its own
frames, so a protocol change could leave it waiting for ever without any other test noticing)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_net.py"


@pytest.mark.slow
def test_the_load_benchmark_plays_a_few_actions() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--tables", "1", "--seconds", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    applied = next(line for line in done.stdout.splitlines() if "actions applied:" in line)
    assert int(applied.split(":")[1].split()[0]) > 0
