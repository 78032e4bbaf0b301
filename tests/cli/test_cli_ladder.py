"""``bela ladder`` end to end on tiny runs: the table, the JSON's keys, bad input in one line."""

from __future__ import annotations

import json

import pytest

from bela.cli import main

TINY = ["--deals", "2", "--seed", "3", "--jobs", "1"]


def test_the_json_has_stable_keys_and_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "random", "easy", *TINY, "--json"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    assert list(data) == [
        "bots",
        "seed",
        "deal_pairs",
        "caps",
        "rules",
        "model",
        "ratings",
        "pairs",
    ]
    assert list(data["model"]) == [
        "name",
        "outcome",
        "elo_scale",
        "anchor",
        "prior_draws_per_pair",
        "interval",
        "bootstrap_resamples",
    ]
    assert [list(r) for r in data["ratings"]] == [
        ["rank", "bot", "elo", "ci95_low", "ci95_high", "deal_pairs", "score"]
    ] * 2
    (pair,) = data["pairs"]
    assert list(pair) == [
        "bot_a",
        "bot_b",
        "deal_pairs",
        "a_wins",
        "ties",
        "b_wins",
        "a_score",
        "written_points_per_deal_a_minus_b",
    ]
    assert (pair["bot_a"], pair["bot_b"], pair["deal_pairs"]) == ("random", "easy", 2)
    assert pair["a_wins"] + pair["ties"] + pair["b_wins"] == 2
    assert data["model"]["anchor"] == "random" and data["bots"] == ["random", "easy"]
    assert sorted(r["bot"] for r in data["ratings"]) == ["easy", "random"]


def test_the_table_names_every_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "random", "easy", "normal", *TINY, "--cap", "normal=1"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # as read, whatever the wrapping
    for word in ("random", "easy", "normal", "Elo", "95% CI", "normal: at most 1"):
        assert word in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["ladder", "random"], "two or more bots"),
        (["ladder", "random", "random"], "named twice"),
        (["ladder", "random", "easy", "--cap", "hard=3"], "not in the ladder"),
        (["ladder", "random", "easy", "--cap", "easy"], "a cap is BOT=N"),
        (["ladder", "random", "easy", "--cap", "easy=0"], "a cap is BOT=N"),
        (["ladder", "random", "easy", "--deals", "0"], "at least 1"),
        (["ladder", *["random"] * 13], "at most 12 bots"),
        # four bots, six pairs: 600,000 deal pairs (each pair's --deals is capped at 100,000)
        (["ladder", "random", "easy", "normal", "normal-v1", "--deals", "100000"], "600,000"),
    ],
)
def test_bad_input_is_one_line_and_plays_nothing(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and words in captured.err


def test_an_unknown_bot_is_named_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "random", "[red]\x1b[31mx", *TINY]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown bot" in err and "\x1b" not in err
