"""Puzzle tests: their own data directory, and real generated puzzles as fixtures.

``fixtures/sample.jsonl`` holds card puzzles from the lab's generator (96 guessed
deals each); ``fixtures/bids.jsonl`` bid puzzles from it (24 guessed deals: the
pack's checks do not depend on the count). The shipped pack is replaced by
``shipped`` where a test needs one, so no test depends on the pack the lead ships.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import bela.archive.puzzle_pack as puzzle_pack

FIXTURES = Path(__file__).parent / "fixtures"


def sample_lines() -> list[str]:
    """The generator's card puzzles, one JSON line each."""
    return (FIXTURES / "sample.jsonl").read_text(encoding="utf-8").splitlines()


def bid_lines() -> list[str]:
    """The generator's bid puzzles, one JSON line each."""
    return (FIXTURES / "bids.jsonl").read_text(encoding="utf-8").splitlines()


def sample_data() -> list[dict[str, Any]]:
    return [json.loads(line) for line in sample_lines()]


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bela-data"
    monkeypatch.setenv("BELA_DATA_DIR", str(path))
    return path


@pytest.fixture(autouse=True)
def no_shipped_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The shipped pack is read from an empty folder unless a test ships one (``ship``)."""
    folder = tmp_path / "shipped"
    folder.mkdir()
    monkeypatch.setattr(puzzle_pack, "_shipped_root", lambda: folder)
    return folder


def ship(folder: Path, lines: list[str]) -> None:
    """Put ``lines`` in the shipped pack's place (gzip'd, as the lead ships it)."""
    (folder / puzzle_pack.PACK_NAME).write_bytes(gzip.compress("\n".join(lines).encode()))
