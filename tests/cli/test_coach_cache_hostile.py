"""The coach's cache edited by hand (issue #34): every state gives the right report, the
lesson read again from the match, and never a traceback; a table of another shape heals."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from archived import archive, random_match

from bela.archive.history import INDEX_NAME, open_history
from bela.archive.storage import data_dir
from bela.cli import main
from bela.lab.coach import Lesson, lesson_of

Edit = Callable[[dict[str, Any]], object]


def _set(path: tuple[str | int, ...], value: object) -> Edit:
    def edit(data: dict[str, Any]) -> object:
        place: Any = data
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = value
        return data

    return edit


def _bid_slip(**change: object) -> Edit:
    def edit(data: dict[str, Any]) -> object:
        slip = {
            "round": 0,
            "step": 1,
            "forced": False,
            "chosen": "dalje",
            "best": "H",
            "lost": 20,
            "samples": 8,
            **change,
        }
        data["bid_slips"] = [slip]
        return data

    return edit


HUGE = 10**400
EDITS: dict[str, Edit] = {
    "round-markup": _set(("slips", 0, "round"), "[/]"),
    "round-negative": _set(("slips", 0, "round"), -6),
    "rounds-777777": _set(("rounds",), 777_777),
    "rounds-huge": _set(("rounds",), HUGE),
    "lost-nan": _set(("lost",), float("nan")),
    "lost-float": _set(("lost",), 1.5),
    "by-role-short": _set(("by_role",), [[1, 2]]),
    "by-role-strings": _set(("by_role", 0), ["1", "2"]),
    "by-trick-huge": _set(("by_trick", 4, 1), HUGE),
    "by-role-hard-not-adding-up": _set(("by_role_hard", 1, 1), 5),
    "by-trick-hard-negative": _set(("by_trick_hard", 3, 1), -4),
    "vs-hard-negative": _set(("vs_hard",), -3),
    "order-9": _set(("slips", 0, "order"), 9),
    "played-not-a-card": _set(("slips", 0, "played"), "ZZ"),
    "best-markup": _set(("slips", 0, "best"), "[b]"),
    "hard-number": _set(("slips", 0, "hard"), 7),
    "slips-not-a-list": _set(("slips",), {"a": 1}),
    "bid-suit-z": _bid_slip(best="Z"),
    "bid-round-huge": _bid_slip(round=HUGE),
    "bid-forced-string": _bid_slip(forced="yes"),
    "seat-9": _set(("seat",), 9),
    "a-list": lambda data: [data],
    "extra-key": _set(("extra",), 1),
}


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(["coach", "--no-bot", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in err, err
    data: dict[str, Any] = json.loads(out)
    return data


def _match() -> Any:
    """A short match whose player gave points away with a card (a lesson with slips)."""
    for seed in range(60, 120):
        match = random_match(seed, target=163)
        if lesson_of(match, 0, with_bot=False).slips:
            return match
    raise AssertionError("no random match gave a card away")


@pytest.fixture
def coached(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    archive(_match())
    return _json(capsys)


def _rows() -> list[tuple[str, str]]:
    with open_history() as history:
        return list(history.connection.execute("SELECT file, data FROM coach_lessons"))


def _write(file: str, text: str) -> None:
    with open_history() as history:
        history.connection.execute("UPDATE coach_lessons SET data = ? WHERE file = ?", (text, file))


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edited_lesson_is_read_again_not_believed(
    name: str, coached: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    ((file, text),) = _rows()
    edited = EDITS[name](json.loads(text))
    _write(file, json.dumps(edited))
    assert _json(capsys) == coached
    ((_file, healed),) = _rows()  # and stored right again
    assert json.loads(healed) == json.loads(text)


def test_brackets_nested_past_the_parser_are_read_again(
    coached: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    ((file, _text),) = _rows()
    _write(file, "[" * 100_000 + "]" * 100_000)
    assert _json(capsys) == coached


def test_a_table_without_its_data_column_is_made_again(
    coached: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(data_dir() / INDEX_NAME)
    conn.execute("ALTER TABLE coach_lessons DROP COLUMN data")
    conn.commit()
    conn.close()
    assert _json(capsys) == coached
    assert len(_rows()) == 1  # healed: the lesson is stored again


def test_a_lesson_as_the_coach_writes_it_reads_back_whole() -> None:
    match = _match()
    lesson = lesson_of(match, 0, with_bot=False)
    assert Lesson.from_json(json.loads(json.dumps(lesson.to_json())), len(match.rounds)) == lesson
    with pytest.raises(ValueError):  # a lesson speaking of more rounds than the match has
        Lesson.from_json(lesson.to_json(), 0)


def test_the_json_report_shows_a_file_name_without_controls(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pathlib import Path

    path = archive(_match())
    hostile = path.with_name(path.stem + "-\x1b[2J\u202e" + path.suffix)
    Path(path).rename(hostile)
    code = main(["coach", "--no-bot", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "\x1b" not in out and "\u202e" not in out


def test_a_match_that_starts_at_a_later_deal_is_coached(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Its rounds are numbered from its first deal (``start_index``), past its count of rounds:
    a lesson of it is the coach's own and must read back."""
    import random

    from bela.engine import Match

    rng = random.Random(4)
    match = Match.new(4, target=163, start_index=40)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    archive(match)
    for _ in range(2):  # computed, then read back from the cache
        assert _json(capsys)["matches"] == 1
