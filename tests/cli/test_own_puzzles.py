"""Your puzzles: the costly moments of the player's own matches, judged as the pack's are,
kept in ``<data dir>/puzzles/yours.jsonl`` and asked under the theme ``yours``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from archived import archive, random_match

from bela.archive.own_puzzles import OWN_FILE, keep_own_puzzles
from bela.archive.puzzle_pack import load_pack, read_lines
from bela.cli import main
from bela.engine import Rules
from bela.lab.card_review import review_round
from bela.lab.own_puzzles import OWN_LOSS, puzzles_of_review
from bela.lab.puzzle_gen import SHIP_GAP, SHIP_SHARE

SEED = 39
"""Seed 39's brza 163 played at random: its first round has costly moments the judge finds
clear (a lead at trick 5, a card at trick 6)."""


def test_costly_moments_the_judge_finds_clear_become_puzzles_of_the_theme_yours() -> None:
    match = random_match(SEED, target=163)
    review = review_round(match, 0, 0)
    lines = puzzles_of_review(match, review)
    assert lines, "seed 39's first round has clear costly moments"
    costly = {c.step: c for c in review.cards if c.judged and c.loss >= OWN_LOSS}
    played = match.rounds[0].actions
    for line in lines:
        (puzzle,) = read_lines([json.dumps(line)]).puzzles  # the pack reads it as any line
        assert "yours" in puzzle.themes and puzzle.seat == 0
        card = costly[len(puzzle.actions)]  # the moment is one of the player's costly cards
        assert [str(a) for a in puzzle.actions] == [str(a) for a in played[: card.step]]
        assert card.hard != card.played
        assert card.played not in {str(a.card) for a in puzzle.answer}  # the player missed it
        first, second = puzzle.choices[0], puzzle.choices[1]
        assert first.best >= SHIP_SHARE - 1e-9 and first.written - second.written >= SHIP_GAP
    # under house rules a round is not a puzzle's deal (puzzles are dealt by the default rules)
    ruled = random_match(SEED, target=163, rules=Rules(visi=True))
    assert puzzles_of_review(ruled, review_round(ruled, 0, 0)) == []


def test_kept_once_in_the_data_dir_and_asked_under_their_theme(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = random_match(SEED, target=163)
    lines = puzzles_of_review(match, review_round(match, 0, 0))
    assert keep_own_puzzles(data_dir, lines) == len(lines)
    assert keep_own_puzzles(data_dir, lines) == 0  # the same round reviewed again adds nothing
    assert keep_own_puzzles(data_dir, [{"format": 1, "id": "zz"}]) == 0  # nor a bad line
    kept = (data_dir / "puzzles" / OWN_FILE).read_text(encoding="utf-8").splitlines()
    assert [json.loads(k)["id"] for k in kept] == [line["id"] for line in lines]
    pack = load_pack(data_dir)
    assert {p.id for p in pack.puzzles if "yours" in p.themes} == {x["id"] for x in lines}
    assert main(["puzzles", "--theme", "yours", "--json", "--count", "10"]) == 0
    out = capsys.readouterr().out
    assert {p["id"] for p in json.loads(out)} == {x["id"] for x in lines}


def test_bela_review_keeps_them_and_says_where_they_are(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = archive(random_match(SEED, target=163))
    assert main(["review", str(path), "--round", "1"]) == 0
    out = capsys.readouterr().out
    assert "costly moments of yours became puzzles: bela puzzles --theme yours" in out
    assert (data_dir / "puzzles" / OWN_FILE).exists()
    assert main(["review", str(path), "--round", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["new_puzzles"] == 0  # kept already


def test_a_queue_that_cannot_be_written_is_said_and_the_review_printed(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (data_dir / "puzzles" / OWN_FILE).mkdir(parents=True)  # a folder in the file's place
    path = archive(random_match(SEED, target=163))
    assert main(["review", str(path), "--round", "1"]) == 0
    out, err = capsys.readouterr()
    assert "Round 1: accuracy" in out and "became puzzles" not in out
    assert err.count("\n") == 1 and "your puzzles were not kept" in err
