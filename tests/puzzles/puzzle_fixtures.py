"""Real generated puzzles for the puzzle tests, and a stand-in for the shipped pack.

``fixtures/sample.jsonl`` holds card puzzles from the lab's generator (96 guessed
deals each); ``fixtures/bids.jsonl`` bid moments the generator's judge wrote up on 16
guessed deals, clear or not (two pod mus, two calls): the pack checks a line's facts
(legality, replay, shape), never whether the judge would find it clear again.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

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


def ship(folder: Path, lines: list[str]) -> None:
    """Put ``lines`` in the shipped pack's place (gzip'd, as the lead ships it)."""
    (folder / puzzle_pack.PACK_NAME).write_bytes(gzip.compress("\n".join(lines).encode()))
