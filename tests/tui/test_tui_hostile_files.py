"""The app against hostile files (issue #34): F6 over a pack and a journal holding numbers no
double holds, an answer with a FIFO as the journal, F5 over an edited coach cache. The app
goes on in every case: it says what it could not use, in one line."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from tui_pilot import make_app

from bela.archive.puzzle_pack import read_lines
from bela.archive.puzzle_store import JOURNAL_NAME, PuzzleStore
from bela.tui.screens.puzzles import PuzzleScreen

SAMPLE = Path(__file__).with_name("puzzles_sample.jsonl")
HUGE = 10**400


async def wait_for(pilot: Pilot[Any], check: Any, tries: int = 600) -> None:
    for _ in range(tries):
        await pilot.pause(0.02)
        if check():
            return
    raise AssertionError("timed out waiting")


def _own_files(data_dir: Path) -> list[str]:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    bad = json.loads(lines[0])
    bad["rating"] = HUGE
    worse = json.loads(lines[1])
    worse["choices"][0]["written"] = -HUGE
    (data_dir / "puzzles").mkdir(parents=True)
    (data_dir / "puzzles" / "mine.jsonl").write_text(
        "\n".join([json.dumps(bad), json.dumps(worse), *lines[2:]]) + "\n", encoding="utf-8"
    )
    return lines


async def test_f6_over_huge_numbers_in_the_pack_and_the_journal(
    data_dir: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    from bela.archive import puzzle_pack

    empty = tmp_path / "shipped"
    empty.mkdir()
    monkeypatch.setattr(puzzle_pack, "_shipped_root", lambda: empty)
    lines = _own_files(data_dir)
    pack = read_lines(lines[2:])
    with PuzzleStore(data_dir / "history.sqlite3") as store:
        store.record(pack.puzzles[0], pack.puzzles[0].answer[0], 3.0)
    journal = data_dir / JOURNAL_NAME
    good = journal.read_text()
    hostile = {**json.loads(good), "seconds": HUGE}
    journal.write_text(good + json.dumps(hostile) + "\n")
    app = make_app(resume=None)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        await pilot.press("f6")
        await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen))
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        await wait_for(pilot, lambda: screen.puzzle is not None)
        assert screen.pack is not None and len(screen.pack.skipped) == 2
        assert screen.store is not None and len(screen.store.attempts()) == 1
        assert app.is_running


async def test_a_fifo_as_the_journal_refuses_the_answer_and_the_app_goes_on(
    data_dir: Path, tmp_path: Path, monkeypatch: Any
) -> None:
    from bela.archive import puzzle_pack

    empty = tmp_path / "shipped"
    empty.mkdir()
    monkeypatch.setattr(puzzle_pack, "_shipped_root", lambda: empty)
    (data_dir / "puzzles").mkdir(parents=True)
    (data_dir / "puzzles" / "mine.jsonl").write_bytes(SAMPLE.read_bytes())
    journal = data_dir / JOURNAL_NAME
    os.mkfifo(journal)

    # A guard, not a timing: should the answer wait for a reader (as it once did, so hard
    # that not even Ctrl+Q worked), one comes after a minute and the test fails below
    # instead of hanging for ever.
    def late_reader() -> None:
        fd = os.open(journal, os.O_RDONLY | os.O_NONBLOCK)
        os.close(fd)

    guard = threading.Timer(60, late_reader)
    guard.daemon = True
    guard.start()
    try:
        app = make_app(resume=None)
        async with app.run_test(size=(100, 36)) as pilot:
            await pilot.pause()
            await pilot.press("f6")
            await wait_for(pilot, lambda: isinstance(app.screen, PuzzleScreen))
            screen = app.screen
            assert isinstance(screen, PuzzleScreen)
            await wait_for(pilot, lambda: screen.puzzle is not None)
            puzzle = screen.puzzle
            assert puzzle is not None
            screen.answer(puzzle.answer[0])
            await pilot.pause()
            assert screen.outcome is None  # not kept, and said
            notices = [str(n.message) for n in app._notifications]
            assert any("could not be kept" in m and "FIFO" in m for m in notices), notices
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, PuzzleScreen))
    finally:
        guard.cancel()
    assert os.path.exists(journal) and not os.path.isfile(journal)  # still the FIFO


async def test_f5_over_an_edited_coach_cache_reads_the_match_again(monkeypatch: Any) -> None:
    import random

    import bela.lab.coach as coach_module
    from bela.archive.coach_cache import store_lessons
    from bela.archive.history import open_history
    from bela.archive.records import record_from_match
    from bela.archive.storage import archive_match
    from bela.engine import Match
    from bela.lab.coach import lesson_of
    from bela.tui.screens.coach import CoachScreen

    def quick(task: Any) -> Any:  # the coach without the hard bot: the cache is the point
        match, seat, _with_bot = task
        return lesson_of(match, seat, with_bot=False).to_json()

    monkeypatch.setattr(coach_module, "lesson_task", quick)
    match = None
    for seed in range(60, 120):
        rng = random.Random(seed)
        match = Match.new(seed, target=163)
        while match.current is not None:
            match = match.apply(rng.choice(match.current.legal_actions()))
        if lesson_of(match, 0, with_bot=False).slips:
            break
    assert match is not None
    path = archive_match(record_from_match(match, "normal"))
    lesson = lesson_of(match, 0, with_bot=False).to_json()
    edited = json.loads(json.dumps(lesson))
    edited["slips"][0]["played"] = "ZZ"  # not a card: its example would end the app
    edited["rounds"] = "[/]"
    with open_history() as history:
        store_lessons(history.connection, [(path.name, edited)], True)
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        await pilot.press("f5")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        screen = app.screen
        assert isinstance(screen, CoachScreen)
        await wait_for(pilot, lambda: screen.report is not None, tries=1200)
        assert screen.report.rounds == lesson["rounds"]
        assert screen.report.lost == lesson["lost"]
        assert app.is_running
