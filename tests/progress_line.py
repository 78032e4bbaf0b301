"""``pytest --progress-line``: one line that says how far the suite is, instead of rows of dots.

``make test`` turns it on. In a terminal the line is rewritten in place::

    [ 812/1398]  58%  1:02 gone, about 0:45 to go   tests/tui/test_tui_play.py

elsewhere (CI logs) it is printed afresh every tenth of the way. A failure is named on its own
line the moment it happens (the details come at the end, as usual), so nobody waits for the
whole run to learn that something broke. It counts on the controller when pytest-xdist spreads
the tests over workers (each worker only runs them).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TypeVar

import pytest

__all__ = ["ProgressLine", "spread"]


class _Located(Protocol):
    @property
    def path(self) -> Path: ...


ItemT = TypeVar("ItemT", bound=_Located)


def spread(items: Sequence[ItemT]) -> list[ItemT]:
    """The tests with every folder's tests spread evenly over the run, each module whole.

    Collected as they lie, the app's slow pilot tests (``tests/tui``) came last: the line's
    "about 0:12 to go" at 90% meant a minute and a half, and at the end one pytest-xdist
    worker ran them while the other sat idle. Spread out (each folder a tenth done at each tenth
    of the tests), the rate the line goes by holds from start to end. A module's tests stay
    together and in order (its fixtures are set up once).
    """
    modules: dict[Path, list[ItemT]] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    before: dict[Path, int] = {}  # the tests of the module's folder collected before it
    in_folder: dict[Path, int] = {}
    for path, tests in modules.items():
        before[path] = in_folder.get(path.parent, 0)
        in_folder[path.parent] = before[path] + len(tests)

    def place(path: Path) -> float:  # how far into its folder's tests the module lies, 0 to 1
        return (before[path] + len(modules[path]) / 2) / in_folder[path.parent]

    return [item for path in sorted(modules, key=place) for item in modules[path]]


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    return f"{minutes}:{secs:02d}"


class ProgressLine:
    """The plugin ``tests/conftest.py`` registers for ``--progress-line``."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.reporter: pytest.TerminalReporter | None = None  # registered after this
        self.tty = False
        self.total = 0
        self.done = 0
        self.failed = 0
        self.start = time.monotonic()
        self.first = 0.0  # when the first test finished: the rate is counted from there
        self.shown_tenth = -1
        self.width = 0

    # how many there are: from the workers under xdist, else from the collection
    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self.total = max(self.total, len(ids))

    def pytest_sessionstart(self) -> None:
        self.reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        self.tty = bool(self.reporter and self.reporter.isatty)
        if self.reporter is not None:  # pytest's own "[ 40%]" would only repeat the line
            self.reporter._show_progress_info = False
        self.start = time.monotonic()

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.total = max(self.total, len(session.items))

    @pytest.hookimpl(tryfirst=True)
    def pytest_report_teststatus(self, report: pytest.TestReport) -> tuple[str, str, str] | None:
        """No dot or F for a test that ran (the line counts it and names a failure); the rest
        (errors, skips, expected failures) keep pytest's own letters."""
        if report.when == "call" and not hasattr(report, "wasxfail"):
            return report.outcome, "", ""
        return None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed:
            self.failed += 1
            self._say(f"FAILED {report.nodeid} ({report.when})", keep=True)
        if report.when != "teardown":
            return
        self.done += 1
        if self.done == 1:
            self.first = time.monotonic()
        self._show(report.nodeid.split("::", 1)[0])

    def _show(self, where: str) -> None:
        total = max(self.total, self.done)
        now = time.monotonic()
        gone = now - self.start
        share = self.done / total if total else 1.0
        # the rate from the first test on (starting the workers is not a test's time), once
        # there is enough of it to go by
        if self.done >= 2 and (self.done >= 10 or share >= 0.05):
            left = f"about {_clock((now - self.first) / (self.done - 1) * (total - self.done))}"
        else:
            left = "?"
        failed = f", {self.failed} failed" if self.failed else ""
        line = (
            f"[{self.done:>{len(str(total))}}/{total}] {share:>4.0%}  "
            f"{_clock(gone)} gone, {left} to go{failed}"
        )
        if self.tty:
            self._say(f"{line}   {where}")
        elif int(share * 10) > self.shown_tenth:
            self.shown_tenth = int(share * 10)
            self._say(line, keep=True)

    def _say(self, text: str, keep: bool = False) -> None:
        if self.reporter is None:
            return
        if self.tty:  # rewrite the line in place, cut to the terminal's width
            columns = self.reporter._tw.fullwidth - 1
            text = text[:columns]
            self.reporter.write("\r" + text.ljust(self.width))
            self.width = len(text)
            if keep:
                self.reporter.write("\n")
                self.width = 0
        else:
            self.reporter.write_line(text)

    @pytest.hookimpl(tryfirst=True)
    def pytest_terminal_summary(self) -> None:
        if self.tty and self.width and self.reporter is not None:
            self.reporter.write("\n")
            self.width = 0
