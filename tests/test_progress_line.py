"""``pytest --progress-line`` (make test): a readable line of progress, not rows of dots.

Each case runs a small suite of 20 passing tests and one failing one in a fresh pytest, with
the plugin registered as ``tests/conftest.py`` registers it, and reads what a CI log shows.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).parent

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from progress_line import ProgressLine

def pytest_configure(config):
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(ProgressLine(config), "progress-line")
"""

SUITE = """
import pytest

@pytest.mark.parametrize("n", range(20))
def test_passes(n):
    assert n >= 0

def test_fails():
    assert 1 == 2
"""


def run_suite(tmp_path: Path, *args: str) -> str:
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_small.py").write_text(SUITE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    # only the plugins the small suite needs: loading every installed one (hypothesis, Textual's
    # snapshots, asyncio...) in the pytest and in each of its workers took most of the time
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    plugins = ["-p", "xdist.plugin"] if "-n" in args else []
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *plugins, "-q"]
    done = subprocess.run(
        [*command, *args, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 1, done.stdout + done.stderr  # the one failure
    return done.stdout


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "xdist"])
def test_a_log_gets_a_line_every_tenth_and_each_failure_at_once(
    tmp_path: Path, workers: list[str]
) -> None:
    out = run_suite(tmp_path, *workers)
    lines = out.splitlines()
    progress = [line for line in lines if re.match(r"\[ *\d+/", line)]
    pattern = r"\[ ?\d+/21\] +\d+%  \d+:\d\d gone, (about \d+:\d\d|\?) to go(, 1 failed)?"
    assert all(re.fullmatch(pattern, line) for line in progress), progress
    assert 10 <= len(progress) <= 11  # once per tenth of the way, not once per test
    assert progress[-1].startswith("[21/21] 100%")
    assert progress[-1].endswith(", 1 failed")
    assert any(line.startswith("FAILED") and "test_fails (call)" in line for line in lines)
    # no rows of dots, no "[ 40%]"
    assert not any(re.search(r"^[.F]+( |$)|\[ *\d+%\]", line) for line in lines)
    assert "1 failed, 20 passed" in out  # pytest's own summary and details stay


def test_every_folder_is_spread_over_the_run_and_each_module_stays_whole() -> None:
    """``make test``'s order: the slow app tests (one folder) no longer all come last, so the
    line's rate, and with it "about M:SS to go", holds to the end."""
    from types import SimpleNamespace

    from progress_line import spread

    # folder: its modules' test counts (tests/ itself is ""); rules has few modules of many cases
    layout = {"ai": [4, 4, 4], "rules": [40, 2, 30], "tui": [3] * 12, "": [3, 3]}
    items = [
        SimpleNamespace(path=Path("tests", folder, f"test_{m}.py"), n=n)
        for folder, counts in layout.items()
        for m, count in enumerate(counts)
        for n in range(count)
    ]
    ordered = spread(items)
    assert sorted(map(id, ordered)) == sorted(map(id, items))  # each test once
    modules = [item.path for item in ordered]
    runs = [path for i, path in enumerate(modules) if i == 0 or modules[i - 1] != path]
    assert len(runs) == len(set(runs))  # a module's tests together...
    for path in set(modules):  # ...and in their order
        mine = [i.n for i in ordered if i.path == path]
        assert mine == sorted(mine)
    for share in (0.25, 0.5, 0.75):  # so much of the tests run: about as much of each folder's,
        run = ordered[: int(len(ordered) * share)]  # as near as its modules, kept whole, allow
        for folder, counts in layout.items():
            done = sum(1 for item in run if item.path.parent == Path("tests", folder))
            near = max(counts) / sum(counts) / 2 + 0.15
            assert abs(done / sum(counts) - share) <= near, (share, folder, done)
