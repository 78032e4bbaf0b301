"""Every test gets its own config directory: the player's saved settings never leak in or out.

Without this, a test run would read (and the app would write) the settings of
whoever runs the tests, and a setting saved by one test would change the next.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bela-config"
    monkeypatch.setenv("BELA_CONFIG_DIR", str(path))
    return path
