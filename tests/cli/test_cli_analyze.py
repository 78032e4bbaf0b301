"""``bela analyze``: seeded rounds and record files, text and JSON, and bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bela.ai
from bela.archive.records import dumps, record_from_match
from bela.cli import main
from bela.cli.common import resolve_difficulty
from bela.cli.replay import play_seeded

NORMAL = resolve_difficulty("normal", bela.ai.BOT_KINDS)[0]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run([*argv, "--json"], capsys)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_a_seeded_round_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["analyze", "--seed", "42", "--round", "1"], capsys)
    assert code == 0
    for words in ("Round 1 · seed 42", "called by", "played", "best", "Points given away"):
        assert words in out, words


def test_a_seeded_round_as_json_matches_the_replay(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["analyze", "--seed", "42", "--round", "1"], capsys)
    assert data["source"] == "seed 42"
    (rnd,) = data["rounds"]
    assert rnd["number"] == 1
    replay = run_json(["replay", "--seed", "42", "--round", "1"], capsys)["rounds"][0]
    assert (rnd["trump"], rnd["caller"], rnd["dealer"]) == (
        replay["trump"],
        replay["caller"],
        replay["dealer"],
    )
    match = play_seeded(42, 1001, data["difficulty"], 1)
    played = match.deal(0).replay(match.rounds[0].actions)
    cards = [str(c) for t in played.tricks[2:] for c in t.cards]
    if played.tricks:
        assert [m["played"] for m in rnd["moves"]] == cards
        assert {m["trick"] for m in rnd["moves"]} == set(range(3, 9))
    for move in rnd["moves"]:
        assert move["costly"] == (move["lost_points"] > 0 or move["lost_written"] > 0)


def test_from_trick_moves_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(["analyze", "--seed", "7", "--round", "1", "--from-trick", "7"], capsys)
    moves = data["rounds"][0]["moves"]
    assert moves == [] or {m["trick"] for m in moves} == {7, 8}


def test_a_record_file_all_rounds_or_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match = play_seeded(13, 501, NORMAL, rounds=2)
    path = tmp_path / "match.json"
    path.write_text(dumps(record_from_match(match, NORMAL)))
    data = run_json(["analyze", str(path), "--from-trick", "6"], capsys)
    assert [r["number"] for r in data["rounds"]] == [1, 2]
    one = run_json(["analyze", str(path), "--round", "2", "--from-trick", "6"], capsys)
    assert one["rounds"] == data["rounds"][1:]


@pytest.mark.parametrize(
    "argv",
    [
        ["analyze"],
        ["analyze", "--seed", "5"],
        ["analyze", "--seed", "5", "--round", "1", "x.json"],
        ["analyze", "--seed", "5", "--round", "1", "--from-trick", "9"],
        ["analyze", "x.json", "--difficulty", "hard"],
    ],
)
def test_bad_command_lines_are_one_line_errors(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "error" in err


def test_a_round_not_in_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = play_seeded(13, 501, NORMAL, rounds=1)
    path = tmp_path / "match.json"
    path.write_text(dumps(record_from_match(match, NORMAL)))
    code, _, err = run(["analyze", str(path), "--round", "9"], capsys)
    assert code == 2
    assert "no finished round 9" in err


def test_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["analyze", str(tmp_path / "nope.json")], capsys)
    assert code == 2
    assert "no such file" in err


def test_a_network_copy_numbers_the_seats_as_the_lobby_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lobby's keys number the seats 1-4; ``bela analyze`` and ``bela replay`` of a
    network copy (read from seat 2, the engine's 1) number them the same, with the names."""
    import re

    match = play_seeded(13, 501, NORMAL, rounds=1)
    record = record_from_match(match, NORMAL).model_copy(
        update={"players": ("Ana", "Ivo", "Mara", "Luka"), "me": 1}
    )
    path = tmp_path / "network.json"
    path.write_text(dumps(record))
    for command in (["analyze", str(path), "--from-trick", "7"], ["replay", str(path)]):
        code, out, err = run(command, capsys)
        assert code == 0, err
        numbers = {int(n) for n in re.findall(r"\bseat (\d+)", out)}
        assert numbers and numbers <= {1, 2, 3, 4}, (command, numbers)
        said = " ".join(out.split())
        # the reader (seat 2) by the record's name, as the table named them (issue #35)
        for name, number in (("Ana", 1), ("Mara", 3), ("Luka", 4), ("Ivo", 2)):
            for other in range(5):
                if other != number:
                    assert f"{name} · seat {other} " not in said, (command, name, other)
        assert "Ana · seat 1 (vi)" in said and "Ivo · seat 2 (mi)" in said, command
        assert "You · " not in said, command
