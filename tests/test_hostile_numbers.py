"""Every file bela reads, fed hostile numbers (issue #34): one clear line, nothing lost.

One of a good document's numbers (chosen by hypothesis) is replaced by an integer beyond
a double, a negative one, NaN, an infinity, a bool, a string, a list (``hostile_numbers``).
Whatever it is, each reader gives back what it reads or its one error, never another
exception (``OverflowError`` was the one that ended bela), and keeps the rest:

- the settings: used, or set aside whole with a one-line notice, the defaults in use;
- a puzzle pack line: a puzzle or a one-line reason, the other lines of the file kept;
- a puzzle journal line: an attempt or skipped, the other attempts kept, the file untouched;
- a coach lesson from the cache: a lesson within its bounds, or ``ValueError``;
- a match record: a record, or ``RecordError`` in one line.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.archive.history import INDEX_NAME
from bela.archive.puzzle_pack import read_lines
from bela.archive.puzzle_store import JOURNAL_NAME, PuzzleStore
from bela.archive.records import RecordError, dumps, loads, match_from_record, record_from_match
from bela.engine import Match
from bela.lab.coach import Lesson, lesson_of
from bela.settings import CONFIG_DIR_ENV, Settings, load_settings, settings_path
from hostile_numbers import with_a_hostile_number

SAMPLE = Path(__file__).parent / "puzzles" / "fixtures" / "sample.jsonl"
CHECKS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextlib.contextmanager
def _env(name: str, value: str) -> Iterator[None]:
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


def _one_line(text: str) -> bool:
    return "\n" not in text and "\r" not in text and 0 < len(text) < 1000


@functools.cache
def _puzzle_lines() -> tuple[str, ...]:
    return tuple(SAMPLE.read_text(encoding="utf-8").splitlines())


@functools.cache
def _journal_lines() -> tuple[str, ...]:
    pack = read_lines(_puzzle_lines())
    with tempfile.TemporaryDirectory() as folder:
        with PuzzleStore(Path(folder) / INDEX_NAME) as store:
            for n, p in enumerate(pack.puzzles[:3]):
                action = p.answer[0] if n != 1 else p.choices[1].actions[0]
                when = datetime(2026, 12, 1, tzinfo=UTC) + timedelta(minutes=n)
                store.record(p, action, 2.5 + n, when)
        return tuple((Path(folder) / JOURNAL_NAME).read_text().splitlines())


@functools.cache
def _match() -> Match:
    rng = random.Random(7)
    match = Match.new(7, target=163)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


@functools.cache
def _lesson() -> str:
    return json.dumps(lesson_of(_match(), 0, with_bot=False).to_json())


@functools.cache
def _record() -> str:
    return dumps(record_from_match(_match(), "normal"))


@CHECKS
@given(st.data())
def test_settings_with_a_hostile_number(data: st.DataObject) -> None:
    document = json.loads(Settings().to_json())
    text = json.dumps(data.draw(with_a_hostile_number(document))).encode()
    with tempfile.TemporaryDirectory() as folder, _env(CONFIG_DIR_ENV, folder):
        settings_path().write_bytes(text)
        loaded = load_settings()
        if loaded.notice is None:  # believed: then every value is one the app offers
            assert loaded.found and 0 <= loaded.settings.bot_delay <= 5
            return
        assert _one_line(loaded.notice) and loaded.settings == Settings()
        (aside,) = [p for p in Path(folder).iterdir() if p.name != "settings.json"]
        assert aside.read_bytes() == text  # set aside whole, never lost


@CHECKS
@given(st.data())
def test_a_pack_line_with_a_hostile_number(data: st.DataObject) -> None:
    good, other = _puzzle_lines()[:2]
    text = json.dumps(data.draw(with_a_hostile_number(json.loads(good))))
    pack = read_lines([text, other], "own-x.jsonl")
    assert json.loads(other)["id"] in {p.id for p in pack.puzzles}  # the other line is kept
    assert len(pack.puzzles) + len(pack.skipped) == 2
    assert all(_one_line(s.reason) for s in pack.skipped)


@CHECKS
@given(st.data(), st.integers(0, 2))
def test_a_journal_line_with_a_hostile_number(data: st.DataObject, at: int) -> None:
    lines = list(_journal_lines())
    lines[at] = json.dumps(data.draw(with_a_hostile_number(json.loads(lines[at]))))
    text = ("\n".join(lines) + "\n").encode()
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / JOURNAL_NAME).write_bytes(text)
        with PuzzleStore(Path(folder) / INDEX_NAME) as store:
            kept = store.attempts()
            assert store.notice is None and store.skipped in (0, 1)
            assert len(kept) + store.skipped == 3
        assert (Path(folder) / JOURNAL_NAME).read_bytes() == text  # nothing written over it
    others = [json.loads(line)["puzzle"] for n, line in enumerate(lines) if n != at]
    assert [a.puzzle for a in kept if a.puzzle in others][-2:] == others[-2:] or len(kept) == 3
    for attempt in kept:  # what is believed is within bounds
        assert 0 <= attempt.seconds <= 1e9
        assert all(0 < r.rd <= 1000 for r in (attempt.player_after, attempt.puzzle_after))


@CHECKS
@given(st.data())
def test_a_cached_lesson_with_a_hostile_number(data: st.DataObject) -> None:
    document = data.draw(with_a_hostile_number(json.loads(_lesson())))
    rounds = len(_match().rounds)
    try:
        lesson = Lesson.from_json(json.loads(json.dumps(document)), rounds)
    except ValueError as exc:
        assert _one_line(str(exc))
        return
    assert 0 <= lesson.rounds <= rounds and 0 <= lesson.seat <= 3
    assert all(0 <= s.round <= 2_000_000 and 0 <= s.order <= 3 for s in lesson.slips)
    assert sum(c for c, _x in lesson.by_role) == lesson.cards


@CHECKS
@given(st.data())
def test_a_record_with_a_hostile_number(data: st.DataObject) -> None:
    document = data.draw(with_a_hostile_number(json.loads(_record())))
    try:
        match_from_record(loads(json.dumps(document)))
    except RecordError as exc:
        assert _one_line(str(exc))
