"""The bid lab: labelled situations are reproducible, and the fit writes usable weights."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bela.cli import main
from bela.lab.bid_data import BidDataConfig, deal_situations, generate

TINY = BidDataConfig(samples=2)


def test_a_deal_gives_the_same_situations_from_the_same_seed() -> None:
    first = deal_situations(7, 3, TINY)
    assert first == deal_situations(7, 3, TINY)
    assert first != deal_situations(8, 3, TINY)
    for k, row in enumerate(first):
        assert row["passes"] == k  # every seat that speaks, in order, up to the first call
        assert len(row["hand"]) == 6
        keys = set(row["values"])
        suits = {"0", "1", "2", "3"}
        assert keys == (suits if row["forced"] else suits | {"dalje"})


@pytest.mark.slow
def test_a_run_is_cut_at_the_same_place_whatever_the_jobs() -> None:
    one = list(generate(11, 5, TINY, jobs=1))
    two = list(generate(11, 5, TINY, jobs=2))
    assert one == two
    assert len(one) == 5
    assert one[0] == deal_situations(11, 0, TINY)[0]


def test_bela_lab_bid_data_writes_lines_and_never_overwrites(tmp_path: Path) -> None:
    out_file = tmp_path / "bids.jsonl"
    args = ["lab", "bid-data", "--situations", "3", "--samples", "2", "--jobs", "1"]
    assert main([*args, "--out", str(out_file)]) == 0
    rows = [json.loads(line) for line in out_file.read_text().splitlines()]
    assert len(rows) == 3
    before = out_file.read_text()
    code = main([*args, "--out", str(out_file)])
    assert code == 2
    assert out_file.read_text() == before


def test_bela_lab_bid_fit_without_the_lab_extra_says_how_to_get_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fitting needs numpy and scikit-learn; `make lab-check` runs it with them."""
    monkeypatch.setitem(sys.modules, "sklearn", None)  # as on an install without the extra
    data = tmp_path / "bids.jsonl"
    data.write_text('{"deal": 1}\n')
    assert main(["lab", "bid-fit", str(data), "--out", str(tmp_path / "w.json")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'croatian-bela[lab]'" in err
    assert not (tmp_path / "w.json").exists()


def test_the_bid_choice_benchmark_compares_bots_on_labelled_situations(tmp_path: Path) -> None:
    """benchmarks/bench_bid_choices.py reads what bid-data writes (a change to either
    would otherwise go unnoticed until someone reruns the figures in docs/bots.md)."""
    data = tmp_path / "bids.jsonl"
    rows = list(generate(3, 8, TINY, jobs=1))
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    bench = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_bid_choices.py"
    done = subprocess.run(
        [sys.executable, str(bench), str(data), "normal", "easy"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("8 situations")
    assert [line.split()[0] for line in lines[1:]] == ["normal", "easy"]
    assert "vs normal +0.00 ± 0.00" in lines[1]
