"""Puzzle modes (issue #36): a streak ends at the first miss, a storm at three minutes; each
mode's best score is kept in the data folder (atomically, read as untrusted); the weakest
themes are ranked by first tries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bela.archive.puzzle_modes import (
    MODES_NAME,
    STORM_SECONDS,
    ModeRun,
    read_best,
    record_run,
    weakest_themes,
)


def test_a_streak_ends_at_the_first_miss() -> None:
    run = ModeRun("streak", 0.0)
    assert run.answer(True, 1.0) and run.answer(True, 1000.0)  # no clock
    assert run.answer(False, 1001.0) and run.over
    assert not run.answer(True, 1002.0)  # nothing counts after the end
    assert (run.solved, run.missed) == (2, 1)


def test_a_storm_lasts_three_minutes_and_a_miss_does_not_end_it() -> None:
    run = ModeRun("storm", 100.0)
    assert run.answer(False, 110.0) and not run.over
    assert run.answer(True, 120.0)
    assert run.left(130.0) == STORM_SECONDS - 30
    assert not run.answer(True, 100.0 + STORM_SECONDS)  # too late: not counted
    assert run.over and run.solved == 1 and run.left(1000.0) == 0


def test_the_best_score_is_kept_and_only_beaten_by_a_higher_one(tmp_path: Path) -> None:
    assert read_best(tmp_path) == {"streak": 0, "storm": 0}
    first = record_run(tmp_path, ModeRun("streak", 0.0, solved=4))
    assert (first.score, first.best_before, first.best, first.new_best) == (4, 0, 4, True)
    lower = record_run(tmp_path, ModeRun("streak", 0.0, solved=2))
    assert (lower.best, lower.new_best) == (4, False)
    record_run(tmp_path, ModeRun("storm", 0.0, solved=7))
    assert read_best(tmp_path) == {"streak": 4, "storm": 7}
    assert json.loads((tmp_path / MODES_NAME).read_text()) == {"streak": 4, "storm": 7}
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".bela-modes-")]


@given(st.one_of(st.text(max_size=50), st.binary(max_size=50).map(lambda b: b.hex())))
def test_a_damaged_or_edited_file_counts_as_no_score(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    folder = tmp_path_factory.mktemp("modes")
    (folder / MODES_NAME).write_text(text, encoding="utf-8")
    best = read_best(folder)
    assert set(best) == {"streak", "storm"} and all(0 <= v <= 1_000_000 for v in best.values())


@pytest.mark.parametrize(
    "value", ['{"streak": -3}', '{"streak": true}', '{"streak": 1e300}', '{"streak": "9"}', "[1]"]
)
def test_a_value_that_is_not_a_score_is_not_believed(tmp_path: Path, value: str) -> None:
    (tmp_path / MODES_NAME).write_text(value, encoding="utf-8")
    assert read_best(tmp_path)["streak"] == 0
    assert record_run(tmp_path, ModeRun("streak", 0.0, solved=1)).best == 1


def test_a_folder_in_the_files_place_is_an_error_and_the_score_stays(tmp_path: Path) -> None:
    (tmp_path / MODES_NAME).mkdir()
    with pytest.raises(OSError):
        record_run(tmp_path, ModeRun("streak", 0.0, solved=3))


def test_the_weakest_themes_go_by_first_tries() -> None:
    themes = {"a": ("lead",), "b": ("lead",), "c": ("lead", "save-ten"), "d": ("save-ten",)}
    themes |= {"e": ("save-ten",), "f": ("bela",)}
    attempts = [
        ("a", False),
        ("a", True),  # solved on the second try: still a miss on the first
        ("b", True),
        ("c", True),
        ("d", False),
        ("e", False),
        ("f", False),  # bela: one try only, not ranked
    ]
    weak = weakest_themes(themes, attempts)
    assert [(w.theme, w.right, w.tried) for w in weak] == [("save-ten", 1, 3), ("lead", 2, 3)]
    assert weak[0].share == pytest.approx(1 / 3)


def test_a_run_asks_only_puzzles_never_tried(tmp_path: Path) -> None:
    """Issue #36's play test: a storm started after a streak asked again the puzzle just
    missed in the streak, its answer fresh on the screen, and counted it solved. Plain
    training brings a missed puzzle back; a streak or a storm asks only new ones."""
    from puzzle_fixtures import sample_lines

    from bela.archive.puzzle_pack import read_lines
    from bela.archive.puzzle_store import RETRY_AFTER, PuzzleStore

    pack = read_lines(sample_lines())
    store = PuzzleStore(tmp_path / "history.sqlite3")
    missed, *others = pack.puzzles[: RETRY_AFTER + 2]
    store.record(missed, missed.choices[1].actions[0], 5.0)
    for puzzle in others:
        store.record(puzzle, puzzle.choices[0].actions[0], 5.0)
    assert store.next_puzzle(pack) == missed  # due again in plain training
    tried = {p.id for p in pack.puzzles[: RETRY_AFTER + 2]}
    for _ in range(20):
        asked = store.next_puzzle(pack, fresh_only=True)
        assert asked is not None and asked.id not in tried
    left = [p.id for p in pack.puzzles if p.id not in tried]
    assert store.next_puzzle(pack, fresh_only=True, skip=left) is None  # none new: the run ends
