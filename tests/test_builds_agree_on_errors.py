"""Both builds refuse a wrong value with the same typed error and the same message (issue #26).

Compiled by mypyc, a parameter annotated ``int`` is checked at the call, before the body runs:
``Round.from_seed("7")`` raised mypyc's ``TypeError`` and ``view(True)`` answered for seat 1,
where the pure build raises the engine's ``BelaError`` saying what is wrong. The entry points
now take ``object`` and check it themselves. ``error_probe.py`` makes the same wrong calls in
the default build (compiled where it is built: ``make test`` builds it) and in the pure one,
and each line must match; no call may end in a ``TypeError`` in either.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bela.foundation import native

PROBE = Path(__file__).with_name("error_probe.py")
SRC = Path(native.__file__).resolve().parents[2]


def probe(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(SRC), env.get("PYTHONPATH"))))
    if pure:
        env[native.PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, str(PROBE)], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_the_compiled_and_the_pure_build_say_the_same_about_wrong_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    default, pure = probe(False), probe(True)
    assert pure[0] == "build pure"
    monkeypatch.delenv(native.PURE_ENV, raising=False)  # as the default probe runs
    built = native._why_pure(native.source_root()).compiled
    assert default[0] == ("build compiled" if built else "build pure")
    assert len(default) == len(pure) > 500  # the listed calls and those made from signatures
    for compiled_line, pure_line in zip(default[1:], pure[1:], strict=True):
        assert compiled_line == pure_line
        assert "| TypeError" not in pure_line
    refused = [line for line in pure[1:] if "Error: " in line]
    assert len(refused) >= 40  # the probe's calls are wrong ones, bar the few that convert
