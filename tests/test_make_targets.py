"""``make play``, ``make test`` and ``make test-slow`` build the compiled engine before they run.

The build is automatic where a C compiler is present (``build_compiled.py`` falls back to pure
Python by itself, and says so, where not), so a newcomer's ``make test`` runs the suite on the
build that ``make play`` plays on. Read from ``make -n`` (what make would run, in order).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def planned(target: str) -> list[str]:
    """The commands ``make`` would run for ``target`` from scratch, in order."""
    result = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.splitlines()


@pytest.mark.parametrize(("target", "runs"), [("play", "bin/bela"), ("unit", "bin/pytest")])
def test_the_compiled_build_is_made_before_bela_or_the_tests_run(target: str, runs: str) -> None:
    commands = planned(target)
    build = [i for i, line in enumerate(commands) if "build_compiled.py" in line]
    run = [i for i, line in enumerate(commands) if runs in line]
    assert build and run, commands
    assert build[0] < run[0]
    assert "--require" not in commands[build[0]]  # without a compiler, pure Python, said


def test_make_test_and_test_slow_build_it_too() -> None:
    for target in ("test", "test-slow"):
        assert any("build_compiled.py" in line for line in planned(target)), target


def test_ci_installs_bela_as_a_player_would() -> None:
    """CI builds the sdist and the wheel and plays each installed in a fresh venv (issue #37)."""
    assert any("tools/install_check.py" in line for line in planned("install-check"))
    assert "make install-check" in (ROOT / ".ci" / "run").read_text()


def test_make_install_installs_the_built_package_not_an_editable_one() -> None:
    """An editable install would run pure Python until make compiled; the built one compiles."""
    install = [line for line in planned("install") if "tool install" in line or "pipx" in line]
    assert install and not any("--editable" in line for line in install)
