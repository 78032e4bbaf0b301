"""The compiled build and the pure one answer identically (issue #26).

``differential_trace.py`` runs twice, in two processes: once as bela starts by default (the
mypyc-compiled engine, search and heuristic player where ``make compiled`` built them) and once
with ``BELA_PURE=1``. Every seeded round's legal sets, views and scores, every solver
position's values, and every decision of the bots' seeded rounds must match line for line.
``make test-slow`` compares a sample; ``make differential`` compares 10,000 rounds, 2,000
positions and 100 bot rounds (``BELA_DIFFERENTIAL=full``) and insists that the compiled build
is there (a missing compiler must not pass as "both builds agree").
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bela.foundation import native

TRACE = Path(__file__).with_name("differential_trace.py")
SRC = Path(native.__file__).resolve().parents[2]
FULL = os.environ.get("BELA_DIFFERENTIAL") == "full"
ROUNDS, POSITIONS, BOTS = (10_000, 2_000, 100) if FULL else (400, 100, 10)


def trace(pure: bool, *args: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(SRC), env.get("PYTHONPATH"))))
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, str(TRACE), *args], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_pure_forced_by_the_environment_loads_no_extension() -> None:
    head = trace(True)[0]
    assert head == f"build pure Python ({native.PURE_ENV} is set) py"


def test_the_default_build_is_the_compiled_one_when_it_is_built() -> None:
    head = trace(False)[0]
    if FULL or native.compiled_files("bela.engine.round", SRC):
        # make differential insists on it; a stale build says so here ("make compiled")
        assert head == "build engine and search compiled with mypyc so", head
    else:
        assert head == "build pure Python (not compiled: make compiled needs a C compiler) py"


@pytest.mark.slow
def test_compiled_and_pure_builds_give_identical_answers() -> None:
    args = ("--rounds", str(ROUNDS), "--positions", str(POSITIONS), "--bots", str(BOTS))
    compiled, pure = trace(False, *args), trace(True, *args)
    assert len(compiled) == len(pure) == 1 + ROUNDS + POSITIONS + BOTS
    for mine, theirs in zip(compiled[1:], pure[1:], strict=True):
        if mine != theirs:  # show the whole item from each build, to see where they part
            kind, seed, _ = mine.split()
            full = ("--only", kind, "--seed", seed)
            pairs = zip(trace(False, *full), trace(True, *full), strict=False)
            diff = [(a, b) for a, b in pairs if a != b]
            raise AssertionError(f"{kind} {seed}: compiled != pure at {diff[:1]}")
