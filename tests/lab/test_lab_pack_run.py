"""The pack's generation run (bela.lab.pack_run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bela.lab.pack_run import known_keys, main
from bela.lab.puzzle_figures import facts_of

SAMPLE = Path(__file__).parents[1] / "puzzles" / "fixtures" / "sample.jsonl"


def test_the_known_keys_are_the_card_puzzles_keys() -> None:
    lines = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
    keys = {f.key for f in map(facts_of, lines) if f is not None}
    assert keys and known_keys([SAMPLE]) == keys


@pytest.mark.slow
def test_a_run_appends_card_puzzles_to_its_file(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    out.write_text('{"kept": "what was there"}\n')
    assert main([str(out), "--seed", "6300009", "--deals", "2"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0] == {"kept": "what was there"}
    assert len(lines) > 1
    assert all(p["kind"] == "card" and p["seed"] in (6300009, 6300010) for p in lines[1:])
    assert all(set(p["misses"]) and p["rating"] for p in lines[1:])


def test_a_run_reads_a_known_file_again_when_it_changed(tmp_path: Path) -> None:
    from bela.lab.pack_run import _stamps

    other = tmp_path / "other.jsonl"
    other.write_text("")
    first = _stamps([other, tmp_path / "missing.jsonl"])
    assert first == _stamps([other, tmp_path / "missing.jsonl"])
    other.write_text(SAMPLE.read_text())
    assert _stamps([other, tmp_path / "missing.jsonl"]) != first
