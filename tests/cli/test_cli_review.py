"""``bela review``: every card of the player's labelled by the hard bot's values from the
player's own information (``bela.lab.card_review``), on real records, with real output."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from archived import archive, hard_in_seat_zero, random_match

from bela.cli import main
from bela.engine import Play
from bela.lab.card_review import LABELS, label_of
from bela.lab.coach import lesson_of


def _review(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(["review", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def _seat_cards(path: Path, index: int, seat: int) -> list[str]:
    from bela.archive.records import match_from_record
    from bela.archive.storage import read_record

    match = match_from_record(read_record(path))
    played = next(r for r in match.rounds if r.index == index)
    rnd = match.deal(index)
    cards = []
    for action in played.actions:
        if isinstance(action, Play) and rnd.to_act == seat:
            cards.append(str(action.card))
        rnd.push(action)
    return cards


def test_every_card_of_the_players_is_labelled_by_what_it_gave_away(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = archive(random_match(33, target=163))
    data = _review([str(path), "--round", "1"], capsys)
    (round_one,) = data["rounds"]
    assert round_one["round"] == 1 and data["seat"] == 0
    cards = round_one["cards"]
    assert [c["played"] for c in cards] == _seat_cards(path, 0, 0)
    judged = [c for c in cards if c["label"] != "only"]
    assert judged, "a random player has choices to make"
    for card in judged:
        values = card["values"]
        assert card["played"] in values and card["hard"] in values
        assert values[card["hard"]] == max(values.values())  # the hard bot's card is its best
        loss = max(values.values()) - values[card["played"]]
        assert card["loss"] == pytest.approx(loss, abs=0.11)
        assert card["label"] == label_of(card["loss"])
    for card in cards:
        if card["label"] == "only":  # one legal card: nothing to judge
            assert card["values"] == {} and card["loss"] == 0 and card["choices"] == 1
        else:
            assert card["choices"] == len(card["values"]) >= 2
    accuracy = sum(100 * math.exp(-c["loss"] / 30) for c in judged) / len(judged)
    assert round_one["accuracy"] == pytest.approx(accuracy, abs=0.2)
    worst = max(judged, key=lambda c: c["loss"])
    assert worst["loss"] > LABELS[0][1]  # seed 33's first round has a costly card
    assert round_one["key_moment"] == {"trick": worst["trick"], "order": worst["order"]}


def test_a_card_the_hard_bot_plays_from_the_same_view_is_best(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # the hard bot itself in seat 0: the double dummy says one of its cards gave 8 points
    # away with all cards seen, but from the seat's information each card is the best
    match = hard_in_seat_zero(4)
    assert any(s.lost > 0 for s in lesson_of(match, 0, with_bot=False).slips)
    data = _review([str(archive(match))], capsys)
    (review,) = data["rounds"]
    assert {c["label"] for c in review["cards"]} <= {"best", "only"}
    assert review["accuracy"] == 100.0 and data["accuracy"] == 100.0
    assert review["key_moment"] is None


def test_the_text_names_the_labels_the_key_moment_and_its_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = archive(random_match(33, target=163))
    assert main(["review", str(path), "--round", "1"]) == 0
    out = capsys.readouterr().out
    assert "Round 1: accuracy" in out
    assert "Accuracy over the match" not in out  # one round asked for is not the match
    assert "Key moment: trick" in out and "the hard bot plays" in out
    assert "What each card would have written there, on the same deals:" in out
    assert any(word in out for word in ("mistake", "blunder", "inaccuracy"))


def test_the_whole_match_ends_with_its_accuracy_as_the_app_says_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    match = random_match(33, target=163)  # three rounds, to its end
    path = archive(match)
    data = _review([str(path)], capsys)
    judged = [c for r in data["rounds"] for c in r["cards"] if c["label"] != "only"]
    accuracy = sum(100 * math.exp(-c["loss"] / 30) for c in judged) / len(judged)
    assert data["match"]["accuracy"] == pytest.approx(accuracy, abs=0.2)
    assert data["match"]["rounds"] == 3 and data["match"]["finished"] is True
    assert data["accuracy"] == data["match"]["accuracy"]
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    words = f"Accuracy over the match: {data['match']['accuracy']:.0f}% (3 rounds reviewed)"
    assert words in [line.strip() for line in out.splitlines()]
    one = _review([str(path), "--round", "2"], capsys)
    assert one["match"] is None  # one round is not the match


def test_the_text_in_croatian(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "hr_HR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "BELA_LANG"):
        monkeypatch.delenv(name, raising=False)
    path = archive(random_match(33, target=163))
    assert main(["review", str(path), "--round", "1"]) == 0
    out = capsys.readouterr().out
    assert "Runda 1: točnost" in out and "Ključni trenutak" in out
    assert not any(w in out for w in ("accuracy", "Key moment", "mistake", "the hard bot"))


def test_a_round_without_cards_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = archive(random_match(33, target=163))
    assert main(["review", str(path), "--round", "40"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "round 40 has no cards to review" in err
    assert main(["review", str(path.with_name("missing.json"))]) == 2
    assert "no such file" in capsys.readouterr().err
