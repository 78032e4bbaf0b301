"""Puzzle tests: their own data directory, and no shipped pack unless a test ships one.

The shipped pack is read from an empty folder (``no_shipped_pack``; ``puzzle_fixtures.ship``
puts lines there), so no test depends on the pack the lead ships.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bela.archive.puzzle_pack as puzzle_pack


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bela-data"
    monkeypatch.setenv("BELA_DATA_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def no_shipped_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "shipped"
    folder.mkdir()
    monkeypatch.setattr(puzzle_pack, "_shipped_root", lambda: folder)
    return folder
