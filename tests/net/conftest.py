"""Every network test gets its own data directory: the host's saves and archive stay there."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bela-data"
    monkeypatch.setenv("BELA_DATA_DIR", str(path))
    return path
