"""``bela arena`` end to end with the real arena, on a tiny number of deals."""

from __future__ import annotations

import json

import pytest

from bela.cli import main


def test_a_tiny_arena_as_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "easy", "random", "--deals", "2", "--seed", "3", "--jobs", "1", "--json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    report = json.loads(first)
    assert (report["bot_a"], report["bot_b"], report["deal_pairs"], report["seed"]) == (
        "easy",
        "random",
        2,
        3,
    )


def test_a_tiny_arena_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "normal", "random", "--deals", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "normal" in out and "random" in out and "written points" in out
