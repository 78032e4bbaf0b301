"""Fitting normal's bid model: needs the lab extra (numpy, scikit-learn).

Run by ``make lab-check``, which installs the extra; ``make test`` (a fresh clone
with the dev extra only) checks instead that ``bela lab bid-fit`` says in one
line how to get it.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import pytest

from bela.ai.normal.bidding import parse_bid_weights
from bela.cli import main


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
    data = tmp_path / "junk.jsonl"
    data.write_text('{"deal": 1}\n')
    assert main(["lab", "bid-fit", str(data), "--out", str(tmp_path / "w.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not bid data" in err
    assert not (tmp_path / "w.json").exists()
