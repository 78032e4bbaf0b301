"""The pack's generation run (bela.lab.pack_run)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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


def test_a_run_adds_its_own_finds_and_another_runs_lines_to_the_known_keys(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each part is judged with the keys known by then: this run's finds at once, and another
    run's file read again when it changed, even caught in the middle of a line."""
    from bela.lab import pack_run

    lines = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()]
    mine, theirs = lines[0], lines[1]
    key = {p["id"]: f.key for p in lines if (f := facts_of(p)) is not None}
    other = tmp_path / "other.jsonl"
    other.write_text("")
    seen: list[frozenset[Any]] = []

    def generate(seeds: Any, sink: Any, settings: Any, **_: Any) -> int:
        seen.append(settings.known)
        part = len(seen)
        if part == 1:
            sink([mine])
            other.write_text(json.dumps(theirs)[:40])  # the other run, caught mid-line
        elif part == 2:
            other.write_text(json.dumps(theirs) + "\n")
        return 0

    monkeypatch.setattr(pack_run, "generate", generate)
    monkeypatch.setattr(pack_run, "PART", 1)
    out = tmp_path / "run.jsonl"
    args = [str(out), "--seed", "1", "--deals", "4", "--reread", "0", "--known", str(other)]
    assert main(args) == 0
    assert len(seen) == 4
    assert key[mine["id"]] not in seen[0] and key[mine["id"]] in seen[1]
    assert key[theirs["id"]] not in seen[1] and key[theirs["id"]] in seen[2]


def test_a_run_refuses_a_cheap_keep_that_is_no_chance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.jsonl"
    with pytest.raises(SystemExit):
        main([str(out), "--seed", "1", "--deals", "1", "--cheap-keep", "1.5"])
    assert "--cheap-keep: a chance from 0 to 1" in capsys.readouterr().err
    assert not out.exists()
