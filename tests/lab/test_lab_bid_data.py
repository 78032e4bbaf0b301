"""The bid lab: labelled situations are reproducible, and the fit writes usable weights."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from bela.ai.normal.bidding import parse_bid_weights
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


def _synthetic(path: Path, deals: int) -> None:
    """Situations with made-up values: the trump jack is worth 60 over dalje, else a loss."""
    rng = Random(5)
    with open(path, "w", encoding="utf-8") as f:
        for deal in range(deals):
            for passes in range(4):
                hand = rng.sample(range(32), 6)
                values: dict[str, float] = {}
                for suit in range(4):
                    values[str(suit)] = (60.0 if suit * 8 + 4 in hand else -30.0) + rng.random()
                if passes < 3:
                    values["dalje"] = 0.0
                row = {
                    "seed": 1,
                    "deal": deal,
                    "seat": passes,
                    "dealer": 3,
                    "passes": passes,
                    "forced": passes == 3,
                    "hand": hand,
                    "samples": 1,
                    "values": values,
                }
                f.write(json.dumps(row) + "\n")


def test_bela_lab_bid_fit_learns_a_plain_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sklearn")  # the lab extra; the shipped player never needs it
    data = tmp_path / "bids.jsonl"
    weights = tmp_path / "w.json"
    _synthetic(data, 60)
    assert main(["lab", "bid-fit", str(data), "--out", str(weights)]) == 0
    report = capsys.readouterr().out
    assert "held-out situations" in report
    fitted = parse_bid_weights(json.loads(weights.read_text()))
    # the jack is what the made-up values reward, in every place
    jack = fitted.features.index("trump_jack")
    assert all(w[jack] > 20 for _, w in fitted.call)
    assert fitted.forced[jack] > 20


def test_bela_lab_bid_fit_says_one_line_for_a_file_that_is_not_bid_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sklearn")
    data = tmp_path / "junk.jsonl"
    data.write_text('{"deal": 1}\n')
    assert main(["lab", "bid-fit", str(data), "--out", str(tmp_path / "w.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not bid data" in err
    assert not (tmp_path / "w.json").exists()
