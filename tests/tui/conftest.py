"""Every app test gets its own data directory (never the user's) and colour as usual."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bela-data"
    monkeypatch.setenv("BELA_DATA_DIR", str(path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return path


@pytest.fixture(autouse=True)
def reasons_on_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The puzzles' reasons are worked out on a thread in app tests (no worker process per
    test: ``test_the_reasons_are_worked_out_in_a_worker_process`` runs that path)."""
    from bela.tui.screens import puzzles

    monkeypatch.setattr(puzzles, "USE_PROCESS", False)
