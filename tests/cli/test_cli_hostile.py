"""The command line against hostile input and a hostile environment.

Outside text (file names, arguments) reaches the terminal only escaped and cut
short; absurd counts are refused before any work starts; and an output that
cannot be written ends in one line on stderr, never a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import bela.ai
from bela.cli import main

HUGE = 10_000_000  # characters: far beyond any sane argument
GOOGOL = "1" + "0" * 100


@pytest.fixture
def arena_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """A stand-in ``bela.lab.arena`` that records its calls, so nothing is played."""
    calls: list[dict[str, Any]] = []
    fake = ModuleType("bela.lab.arena")

    def run_arena(*args: Any, **kwargs: Any) -> str:
        calls.append(kwargs)
        return "REPORT"

    fake.run_arena = run_arena  # type: ignore[attr-defined]
    fake.render_report = lambda report: str(report)  # type: ignore[attr-defined]
    fake.report_to_dict = lambda report: {"report": report}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bela.lab.arena", fake)
    monkeypatch.setattr(bela.ai, "BOT_KINDS", ("easy", "normal", "random"))
    return calls


def error_line(argv: list[str], capsys: pytest.CaptureFixture[str], code: int = 2) -> str:
    """Run ``bela argv`` in this process; its stderr, checked to be one short error line."""
    assert main(argv) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith("\n") and captured.err.count("\n") == 1, captured.err[:2000]
    line = captured.err[:-1]
    assert "error" in line
    assert len(line) < 1000, line[:2000]
    return line


def assert_inert(line: str) -> None:
    """No character a terminal would act on: escapes, other controls, bidi overrides."""
    assert "\x1b" not in line and "\x07" not in line and "\r" not in line
    assert "\u202e" not in line and "\x9b" not in line


# --- 6: outside text is quoted, escaped and cut -------------------------------------------

HOSTILE_NAMES = [
    "\x1b[31mRED.json",
    "a\nbela: error: forged second line.json",
    "\x1b]0;pwned\x07title.json",
    "evil\u202enosj.exe",
    "\x9b2J.json",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_a_hostile_file_name_is_escaped(
    command: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = error_line([command, str(tmp_path / name)], capsys)
    assert_inert(line)
    assert any(e in line for e in ("\\x1b", "\\n", "\\x0a", "\\u202e", "\\x9b"))


def test_an_ordinary_file_name_stays_readable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "my match.json"
    line = error_line(["replay", str(path)], capsys)
    assert str(path) in line


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "--seed", "1", "--bogus\x1b[2J\nrm"],  # argparse's own message
        ["--frobnicate\x1b[31m"],
        ["replay", "--seed", "1\x1b[31m"],
        ["replay", "--seed", "1", "--round", "2\n3"],
        ["arena", "\x1b]0;x\x07", "random"],
        ["play", "--difficulty", "\x1b[5mhard"],
        ["analyze", "--seed", "1", "--round", "1", "--from-trick", "\u202e3"],
        ["\x1b[31mnonsense"],
    ],
)
def test_hostile_arguments_are_escaped(
    argv: list[str], capsys: pytest.CaptureFixture[str], arena_calls: list[dict[str, Any]]
) -> None:
    assert_inert(error_line(argv, capsys))
    assert arena_calls == []


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "x" * HUGE],
        ["analyze", "x" * HUGE],
        ["replay", "--seed", "9" * HUGE],
        ["replay", "--seed", "x" * HUGE],
        ["replay", "--seed", "1", "--round", "7" * HUGE],
        ["play", "--round", "7" * HUGE],
        ["play", "--target", "5" * HUGE],
        ["analyze", "--seed", "1", "--round", "1", "--from-trick", "3" * HUGE],
        ["arena", "random", "random", "--deals", "1" * HUGE],
        ["arena", "random", "random", "--jobs", "x" * HUGE],
        ["arena", "r" * HUGE, "random"],
        ["replay", "--seed", "1", "--" + "x" * HUGE],
        ["x" * HUGE],
    ],
    ids=lambda argv: " ".join(a if len(a) < 20 else f"<{len(a)} chars>" for a in argv),
)
def test_a_ten_million_character_argument_gives_a_short_line(
    argv: list[str], capsys: pytest.CaptureFixture[str], arena_calls: list[dict[str, Any]]
) -> None:
    start = time.perf_counter()
    error_line(argv, capsys)
    assert time.perf_counter() - start < 5
    assert arena_calls == []


def test_the_real_stderr_gets_one_escaped_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bela", "replay", str(tmp_path / "\x1b[31mRED\n.json")],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.count(b"\n") == 1 and b"\x1b" not in done.stderr
    assert b"\\x1b[31mRED\\" in done.stderr and b".json" in done.stderr


# --- 7: absurd counts are refused at once --------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "limit"),
    [
        (["arena", "random", "random", "--deals", GOOGOL], "100000"),
        (["arena", "random", "random", "--deals", "100001"], "100000"),
        (["arena", "random", "random", "--matches", GOOGOL], "10000"),
        (["arena", "random", "random", "--matches", "10001"], "10000"),
        (["arena", "random", "random", "--jobs", GOOGOL], "256"),
        (["arena", "random", "random", "--jobs", "257"], "256"),
        (["replay", "--seed", "1", "--round", GOOGOL], "1000000"),
        (["play", "--round", GOOGOL], "1000000"),
        (["analyze", "--seed", "1", "--round", GOOGOL], "1000000"),
        (["analyze", "--seed", GOOGOL, "--round", "1"], "340282366920938463463374607431768211455"),
        (["analyze", "--seed", "1", "--round", "1", "--from-trick", GOOGOL], "8"),
        (["play", "--target", GOOGOL], "1001"),
    ],
)
def test_huge_counts_are_refused_with_the_limit(
    argv: list[str],
    limit: str,
    capsys: pytest.CaptureFixture[str],
    arena_calls: list[dict[str, Any]],
) -> None:
    start = time.perf_counter()
    line = error_line(argv, capsys)
    assert time.perf_counter() - start < 5
    assert limit in line.replace(",", "")
    assert arena_calls == []


def test_the_limits_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split()).replace(",", "")
    for limit in ("100000", "10000", "256"):
        assert f"to {limit}" in text


@pytest.mark.parametrize(
    "digits", ["²", "٣", "1_000", "+5", "1e3"], ids=["superscript", "arabic", "_", "+", "e"]
)
def test_counts_are_plain_ascii_digits(
    digits: str, capsys: pytest.CaptureFixture[str], arena_calls: list[dict[str, Any]]
) -> None:
    line = error_line(["arena", "random", "random", "--deals", digits], capsys)
    assert "at least 1" in line


def test_more_jobs_than_cpus_are_clamped_with_a_notice(
    arena_calls: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bela.cli.common

    monkeypatch.setattr(bela.cli.common, "usable_cpus", lambda: 2)
    assert main(["arena", "random", "random", "--jobs", "64"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "REPORT\n"
    assert captured.err.count("\n") == 1 and "using 2" in captured.err
    assert main(["arena", "random", "random", "--jobs", "2"]) == 0
    assert capsys.readouterr().err == ""
    # the arena itself starts no more workers than CPUs; it gets what was asked
    assert [call["jobs"] for call in arena_calls] == [64, 2]


def test_the_arena_starts_no_more_workers_than_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    from bela.lab import runner

    monkeypatch.setattr(runner, "usable_cpus", lambda: 2)
    assert runner.worker_count(64, 1000) == 2
    assert runner.worker_count(64, 1) == 1
    assert runner.worker_count(1, 1000) == 1


def test_the_arena_makes_its_tasks_lazily() -> None:
    from bela.lab import arena

    tasks = arena.iter_tasks("random", "random", 1, 10**30, 10**30, 1001)
    first = next(iter(tasks))
    assert first[0] == "deal" and first[4:6] == (0, arena.DEAL_CHUNK)


# --- 8: an output that cannot be written -----------------------------------------------------

needs_dev_full = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")

OUTPUTS = [
    ["replay", "--seed", "1", "--round", "1"],
    ["replay", "--seed", "1", "--round", "1", "--json"],
    ["arena", "random", "random", "--deals", "2", "--json", "--jobs", "1"],
    ["arena", "random", "random", "--deals", "2", "--jobs", "1"],  # its bar: not on a pipe
    ["ladder", "random", "easy", "--deals", "1", "--jobs", "1"],  # the same bar
    ["analyze", "--seed", "1", "--round", "1", "--from-trick", "7", "--json"],
    ["--help"],
    ["--version"],
]


def run_bela(argv: list[str], stdout: int, buffered: bool) -> subprocess.CompletedProcess[bytes]:
    """``python -m bela argv`` with stdout on ``stdout``.

    Buffered is the usual case, where a small output fails only when flushed (at
    the latest by the interpreter at exit); unbuffered (PYTHONUNBUFFERED, set in
    some CI) fails at the first write.
    """
    # without the variables that make rich draw on a pipe as on a terminal
    unset = ("PYTHONUNBUFFERED", "FORCE_COLOR", "TTY_COMPATIBLE")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "bela", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=env,
        check=False,
    )


@needs_dev_full
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", OUTPUTS, ids=" ".join)
def test_a_full_disk_ends_in_one_line_and_exit_1(argv: list[str], buffered: bool) -> None:
    with open("/dev/full", "wb") as full:
        done = run_bela(argv, full.fileno(), buffered)
    assert done.stderr == b"bela: error: cannot write the output: No space left on device\n"
    assert done.returncode == 1


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", OUTPUTS, ids=" ".join)
def test_a_closed_pipe_ends_quietly(argv: list[str], buffered: bool) -> None:
    """``bela replay ... | head``: the reader has what it wanted; no message, exit 0."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read: every write fails with EPIPE
    try:
        done = run_bela(argv, write_end, buffered)
    finally:
        os.close(write_end)
    assert done.stderr == b""
    assert done.returncode == 0
