"""The lab's progress bar counts deal pairs from the runner's tasks, and shows names as text."""

from __future__ import annotations

import io

import pytest

from bela.lab.progress import ProgressBar


def test_tasks_done_become_the_same_share_of_the_units(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # stderr taken for a terminal, as rich allows
    with ProgressBar(True, 100, "hard vs [red]normal") as bar:
        assert bar.progress is None  # no refresh thread before the runner's first call
        seen = []
        for done in range(4):
            bar(done, 3)
            assert bar.progress is not None
            (task,) = bar.progress.tasks
            seen.append(task.completed)
        # the label is data: its brackets are escaped, not read as a style
        assert "\\[red]" in task.description
    assert seen == [0, 33, 66, 100]
    assert bar.progress is None  # stopped on the way out


def test_a_hidden_bar_draws_nothing() -> None:
    with ProgressBar(False, 10, "x") as bar:
        bar(0, 1)
        bar(1, 1)
        assert bar.progress is None


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file or a pipe would get only the newline a transient bar ends with (issue #24, 7)."""
    for name in ("TTY_COMPATIBLE", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    with ProgressBar(True, 10, "x") as bar:
        bar(0, 1)
        bar(1, 1)
        assert bar.progress is None
    assert err.getvalue() == ""
