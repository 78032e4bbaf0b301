"""How long ``bela`` takes to draw its start screen, against a bare Textual app (issue #12).

Both programs are started in a pseudo-terminal, alternately, and timed from just
before the process starts until their first screen's text shows in the terminal
output (``Croatian Bela`` for bela's start screen, ``hello`` for the bare app);
then the process is killed. The bare app (one ``Static``) is the floor any
Textual program pays: the interpreter, Textual's own imports, the driver and the
first paint. The goal (issue #12's 2x, issue #26's 1.8x) is measured in the same
run, so the figure holds on a slow or busy machine as well as on a fast one; on a busy one
take the median of several runs (``--runs 21``).

    python benchmarks/bench_first_screen.py              # 7 runs of each
    python benchmarks/bench_first_screen.py --runs 15 --save
    python benchmarks/bench_first_screen.py --imports    # also what is imported, slowest first

``--save`` starts bela with an unfinished match in its data directory, so the
start screen offers to resume it (reading the save needs pydantic and a replay).
bela runs with a fresh ``BELA_DATA_DIR``, through the ``bela`` script next to
this Python (or ``python -m bela`` with ``--module``); set ``PYTHONPATH`` to time
another checkout (``PYTHONPATH=/tmp/before/src``).

A benchmark prints figures: timing is never asserted in tests.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import random
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

HELLO_APP = textwrap.dedent(
    """
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Hello(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("hello")

    Hello().run()
    """
)
HELLO_MARKER = "hello"
BELA_MARKER = "Croatian Bela"  # the start screen's intro line

# Run in place of ``bela`` for --imports: everything the command imports before
# ``App.run()`` (which is stubbed out, so nothing is drawn and it returns at once).
IMPORTS_UP_TO_RUN = textwrap.dedent(
    """
    import textual.app
    textual.app.App.run = lambda self, *args, **kwargs: None
    import bela.cli.play  # its input is a pipe here: the app, not the plain mode, is timed
    bela.cli.play.wants_plain = lambda *args: False
    from bela.cli import main
    main([])
    """
)

_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: cursor moves, colours, modes
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC: the window title and the like
    rb"|\x1bP[^\x1b]*\x1b\\"  # DCS
    rb"|\x1b[@-_]"  # any other two-byte escape
)


def visible_text(output: bytes) -> str:
    """The text a terminal shows from ``output``, escape sequences removed."""
    return _ESCAPES.sub(b"", output).decode("utf-8", errors="replace")


def time_to_marker(
    argv: Sequence[str],
    marker: str,
    env: dict[str, str],
    *,
    size: tuple[int, int] = (100, 40),
    timeout: float = 60.0,
) -> tuple[float, float]:
    """Seconds from starting ``argv`` in a pty until ``marker`` is on its screen: wall, CPU.

    The pty is the child's controlling terminal and has ``size`` (columns,
    rows) so Textual lays out exactly as in a real window of that size. The CPU
    seconds (user + system, read from ``/proc`` when the marker shows; NaN
    elsewhere) hardly move with the machine's load, which the wall time does.
    """
    master, slave = os.openpty()
    columns, rows = size
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

    def take_terminal() -> None:  # in the child, after setsid: the pty becomes its terminal
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    output = b""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
        preexec_fn=take_terminal,  # safe: the benchmark runs no threads
        close_fds=True,
    )
    os.close(slave)
    try:
        deadline = start + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                tail = visible_text(output)[-300:]
                raise TimeoutError(f"{marker!r} not seen in {timeout} s; the screen ends: {tail!r}")
            ready, _, _ = select.select([master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal (it exited)
                chunk = b""
            if not chunk:
                tail = visible_text(output)[-300:]
                raise RuntimeError(f"{argv[0]} ended before showing {marker!r}: {tail!r}")
            output += chunk
            if marker in visible_text(output):
                return time.perf_counter() - start, cpu_seconds(process.pid)
    finally:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        process.wait()
        os.close(master)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds process ``pid`` has used so far (Linux), else NaN."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return float("nan")
    fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bela_command(use_module: bool) -> list[str]:
    """The ``bela`` console script beside this interpreter, or ``python -m bela``."""
    script = Path(sys.executable).with_name("bela")
    if use_module or not script.exists():
        return [sys.executable, "-m", "bela"]
    return [str(script)]


def write_unfinished_save(directory: Path) -> None:
    """An autosave of a match two rounds and a few cards in, as a player would leave it."""
    from bela.archive.records import dumps, record_from_match
    from bela.engine import Match

    rng = random.Random(12)
    match = Match.new(12, 1001)
    while len(match.rounds) < 2 or len(match.current.actions if match.current else ()) < 10:
        assert match.current is not None
        match = match.apply(rng.choice(match.current.legal_actions()))
    (directory / "autosave.json").write_text(dumps(record_from_match(match, "normal")))


def show_imports(env: dict[str, str], top: int) -> None:
    """``python -X importtime`` of what ``bela`` imports before the app runs, slowest first."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", IMPORTS_UP_TO_RUN],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rows: list[tuple[int, int, str]] = []
    for line in result.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) != 3 or not parts[0].strip().isdigit():
            continue
        name = parts[2].rstrip()
        depth = (len(name) - len(name.lstrip())) // 2
        rows.append((int(parts[1]), int(parts[0]), name.strip() + f"  (depth {depth})"))
    total = sum(own for _, own, _ in rows)
    print(f"\nimports before App.run(): {len(rows)} modules, {total / 1e6:.3f} s in all")
    print(f"  {'cumulative':>10}  {'self':>8}  module")
    for cumulative, own, name in sorted(rows, reverse=True)[:top]:
        print(f"  {cumulative / 1e6:>9.3f}s  {own / 1e6:>7.3f}s  {name}")
    bela = [name for _, _, name in rows if name.startswith(("bela.", "pydantic"))]
    print(f"  bela and pydantic modules: {len(bela)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each (default 7)")
    parser.add_argument("--save", action="store_true", help="bela finds a match to resume")
    parser.add_argument("--module", action="store_true", help="run `python -m bela`")
    parser.add_argument("--imports", action="store_true", help="list the slowest imports too")
    parser.add_argument("--top", type=int, default=25, help="how many imports to list")
    options = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bela-bench-") as data:
        env = dict(os.environ, BELA_DATA_DIR=data, TERM="xterm-256color")
        env.pop("NO_COLOR", None)
        # The warm-up writes .pyc files, as a player's first run does; a shell that
        # forbids them (PYTHONDONTWRITEBYTECODE, set on some CI machines) would make
        # every run compile bela's sources again, which no player's second start does.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if options.save:
            write_unfinished_save(Path(data))
        programs = {
            "bare Textual hello": ([sys.executable, "-c", HELLO_APP], HELLO_MARKER),
            "bela start screen": (bela_command(options.module), BELA_MARKER),
        }
        times: dict[str, list[float]] = {name: [] for name in programs}
        cpu: dict[str, list[float]] = {name: [] for name in programs}
        for argv, marker in programs.values():  # warm-up: caches, .pyc files
            time_to_marker(argv, marker, env)
        for run in range(options.runs):
            order = list(programs) if run % 2 == 0 else list(reversed(programs))
            for name in order:
                argv, marker = programs[name]
                wall, used = time_to_marker(argv, marker, env)
                times[name].append(wall)
                cpu[name].append(used)

        print(f"first screen, {options.runs} runs each (alternating, after a warm-up):")
        medians, cpu_medians = {}, {}
        for name, seconds in times.items():
            medians[name] = statistics.median(seconds)
            cpu_medians[name] = statistics.median(cpu[name])
            print(
                f"  {name:<20} median {medians[name]:.3f} s"
                f"  (min {min(seconds):.3f}, max {max(seconds):.3f});"
                f"  CPU median {cpu_medians[name]:.3f} s"
            )
        bela, hello = "bela start screen", "bare Textual hello"
        ratio = medians[bela] / medians[hello]
        print(f"  ratio bela / hello   {ratio:.2f}  (goal: 1.80 or less)")
        print(f"  CPU ratio            {cpu_medians[bela] / cpu_medians[hello]:.2f}")
        if options.imports:
            show_imports(env, options.top)


if __name__ == "__main__":
    main()
