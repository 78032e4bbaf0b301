"""The data directory: atomic autosave, resume after a crash, corrupt saves, the archive."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from played_matches import played

from bela.ai import make_bot
from bela.ai.driver import bot_action
from bela.archive import storage
from bela.archive.records import dumps, loads, match_from_record, record_from_match
from bela.archive.storage import (
    CorruptAutosaveError,
    archive_match,
    autosave_path,
    clear_autosave,
    data_dir,
    load_autosave,
    matches_dir,
    save_autosave,
)


def test_the_data_dir_comes_from_the_environment(data_dir: Path) -> None:
    assert storage.data_dir() == data_dir
    assert autosave_path() == data_dir / "autosave.json"
    assert matches_dir() == data_dir / "matches"


def test_without_the_variable_the_platform_dir_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BELA_DATA_DIR")
    assert data_dir().name == "bela"


def test_nothing_saved_means_nothing_to_resume(data_dir: Path) -> None:
    assert load_autosave() is None
    assert not data_dir.exists()


def test_save_then_load_resumes_at_the_exact_point() -> None:
    match = played(5, steps=60)
    save_autosave(record_from_match(match, "normal"))
    record = load_autosave()
    assert record is not None
    resumed = match_from_record(record)
    assert resumed.rounds == match.rounds and resumed.scores == match.scores
    assert resumed.current is not None and match.current is not None
    assert resumed.current.actions == match.current.actions
    # the bots carry on exactly as they would have without the interruption
    bot = make_bot("random")
    assert bot_action(resumed, bot) == bot_action(match, bot)


def test_each_save_replaces_the_last_and_leaves_no_temp_files(data_dir: Path) -> None:
    for steps in (1, 10, 40):
        save_autosave(record_from_match(played(8, steps=steps), "normal"))
    assert sorted(p.name for p in data_dir.iterdir()) == ["autosave.json"]
    record = load_autosave()
    assert record is not None
    assert sum(len(r.actions) for r in record.rounds) == 40


def test_a_leftover_temp_file_from_an_interrupted_save_is_harmless(data_dir: Path) -> None:
    good = record_from_match(played(9, steps=30), "normal")
    save_autosave(good)
    # a crash after writing part of the next save: its temp file stays behind
    (data_dir / ".autosave-crashed.tmp").write_text(dumps(good)[:100])
    assert load_autosave() == good
    later = record_from_match(played(9, steps=31), "normal")
    save_autosave(later)
    assert load_autosave() == later


def test_a_save_that_fails_midway_keeps_the_previous_one(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = record_from_match(played(10, steps=20), "normal")
    save_autosave(good)

    def broken_replace(src: object, dst: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", broken_replace)
        with pytest.raises(OSError, match="disk full"):
            save_autosave(record_from_match(played(10, steps=21), "normal"))
    assert sorted(p.name for p in data_dir.iterdir()) == ["autosave.json"]
    assert load_autosave() == good


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b'{"schema_version": 1, "rules": {',
        b"\x00\x01garbage",
        b'{"schema_version": 99}',
        b"[1, 2, 3]",
    ],
)
def test_a_corrupt_autosave_is_moved_aside_not_deleted(data_dir: Path, content: bytes) -> None:
    data_dir.mkdir(parents=True)
    autosave_path().write_bytes(content)
    with pytest.raises(CorruptAutosaveError) as caught:
        load_autosave()
    moved = caught.value.moved_to
    assert moved.parent == data_dir
    assert moved.name.startswith("autosave.corrupt-") and moved.suffix == ".json"
    assert moved.read_bytes() == content
    assert not autosave_path().exists()
    assert str(moved) in str(caught.value) and "\n" not in str(caught.value)
    assert load_autosave() is None


def test_an_edited_autosave_is_moved_aside(data_dir: Path) -> None:
    record = record_from_match(played(11, steps=40), "normal")
    text = dumps(record).replace('"seed": 11', '"seed": 12')
    data_dir.mkdir(parents=True)
    autosave_path().write_text(text)
    with pytest.raises(CorruptAutosaveError) as caught:
        load_autosave()
    assert caught.value.moved_to.read_text() == text


def test_two_corrupt_saves_in_a_row_keep_both(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    moved = []
    for content in ("first", "second"):
        autosave_path().write_text(content)
        with pytest.raises(CorruptAutosaveError) as caught:
            load_autosave()
        moved.append(caught.value.moved_to)
    assert moved[0] != moved[1]
    assert [p.read_text() for p in moved] == ["first", "second"]


def test_a_finished_match_is_not_offered_for_resuming() -> None:
    match = played(12)
    assert match.is_over
    save_autosave(record_from_match(match, "normal"))
    assert load_autosave() is None


def test_clear_autosave_is_idempotent(data_dir: Path) -> None:
    clear_autosave()
    save_autosave(record_from_match(played(13, steps=3), "normal"))
    clear_autosave()
    clear_autosave()
    assert load_autosave() is None
    assert list(data_dir.iterdir()) == []


def test_archived_matches_get_one_file_each_and_never_overwrite(data_dir: Path) -> None:
    record = record_from_match(played(14), "normal")
    first = archive_match(record)
    second = archive_match(record)
    assert first != second
    assert first.parent == second.parent == data_dir / "matches"
    assert first.name.endswith(f"-{record.seed}.json")
    for path in (first, second):
        assert loads(path.read_bytes()) == record
    assert sorted(p.name for p in (data_dir / "matches").iterdir()) == sorted(
        [first.name, second.name]
    )


def test_archiving_without_hard_links_still_never_overwrites(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError("hard links not supported")

    monkeypatch.setattr(os, "link", no_links)
    record = record_from_match(played(15), "normal")
    paths = {archive_match(record) for _ in range(3)}
    assert len(paths) == 3
    assert all(loads(p.read_text()) == record for p in paths)
    assert len(list(paths.pop().parent.iterdir())) == 3
