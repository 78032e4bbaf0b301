"""The key-space benchmark runs and counts (issue #36: how many puzzles a pack can hold)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_puzzle_keys import _chao1  # noqa: E402


def test_chao1_adds_the_unseen_from_the_seen_once_and_twice() -> None:
    seen = Counter({"a": 1, "b": 1, "c": 1, "d": 1, "e": 2, "f": 2, "g": 5})
    assert _chao1(seen) == 7 + 4 * 4 / (2 * 2)
    assert _chao1(Counter({"a": 3, "b": 4})) == 2  # nothing seen once: nothing unseen


def test_the_benchmark_prints_the_keys_of_a_few_deals_and_of_the_pack() -> None:
    sample = ROOT / "tests" / "puzzles" / "fixtures" / "sample.jsonl"
    bench = str(ROOT / "benchmarks" / "bench_puzzle_keys.py")
    out = subprocess.run(
        [sys.executable, bench, "--deals", "12", "--lines", str(sample)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out.startswith("12 deals, ")
    assert out.count("holds at most about") == 2
    assert "puzzles.jsonl.gz: " in out and "sample.jsonl: 11 keys" in out
