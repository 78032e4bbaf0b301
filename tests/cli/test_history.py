"""The history index (bela.archive.history): built from the records, rebuilt when lost or wrong.

The records are the truth; every test compares the index with them, or with an
index built afresh from them.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from archived import archive, random_match
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.archive.history import INDEX_NAME, INDEX_VERSION, History, Outcome, open_history
from bela.archive.records import dumps, record_from_match
from bela.archive.storage import matches_dir
from bela.engine import Rules


def snapshot(history: History) -> list[tuple[object, ...]]:
    """Every match row with its round rows: what must survive a rebuild unchanged."""
    return [(row, tuple(history.rounds(row.file))) for row in history.matches()]


@pytest.fixture
def archived(data_dir: Path) -> dict[str, int | None]:
    """Six matches: finished and unfinished, three targets, two levels, a house rule."""
    made: dict[str, int | None] = {}
    for seed, steps, target, level in (
        (1, None, 501, "easy"),
        (2, None, 701, "normal"),
        (3, 150, 1001, "normal"),
        (4, 10, 501, "hard"),
        (5, None, 1001, "hard"),
    ):
        match = random_match(seed, steps, target)
        made[archive(match, level).name] = match.winner
    visi = random_match(6, None, 501, Rules(visi=True))
    made[archive(visi, "easy").name] = visi.winner
    return made


def test_the_index_lists_every_record_newest_first(archived: dict[str, int | None]) -> None:
    with open_history() as history:
        rows = history.matches()
        assert history.rebuilt and history.notice is None
        assert history.path is not None and history.path.name == INDEX_NAME
    assert {row.file for row in rows} == set(archived)
    assert [row.played_at for row in rows] == sorted((row.played_at for row in rows), reverse=True)
    for row in rows:
        winner = archived[row.file]
        expected = (
            Outcome.UNFINISHED if winner is None else Outcome.WON if winner == 0 else Outcome.LOST
        )
        assert row.outcome is expected
        assert row.reason is None and row.scores is not None
    unfinished = [row for row in rows if row.outcome is Outcome.UNFINISHED]
    assert {row.seed for row in unfinished} == {3, 4}
    assert [row.rules for row in rows if row.seed == 6] == [("visi",)]
    assert all(row.rules == () for row in rows if row.seed != 6)


def test_rows_hold_what_the_records_say(archived: dict[str, int | None]) -> None:
    from bela.archive.storage import read_record

    with open_history() as history:
        for row in history.matches():
            record = read_record(matches_dir() / row.file)
            assert (row.seed, row.target, row.difficulty) == (
                record.seed,
                record.target,
                record.difficulty,
            )
            assert row.scores == record.scores and row.winner == record.winner
            finished = [entry for entry in record.rounds if entry.result is not None]
            rounds = history.rounds(row.file)
            assert row.rounds == len(rounds) == len(finished)
            sums = [0, 0]
            for line, entry in zip(rounds, finished, strict=True):
                assert entry.result is not None
                sums = [sums[0] + entry.result.written[0], sums[1] + entry.result.written[1]]
                assert (line.index, line.dealer, line.caller) == (
                    entry.index,
                    entry.dealer,
                    entry.result.caller,
                )
                assert line.written == entry.result.written and line.sums == tuple(sums)
                assert (line.fell, line.stiglja, line.redeal) == (
                    entry.result.fell,
                    entry.result.stiglja,
                    entry.result.redeal,
                )
            assert tuple(sums) == record.scores


def test_filters_and_limit(archived: dict[str, int | None]) -> None:
    with open_history() as history:
        every = history.matches()
        assert [r.file for r in history.matches(limit=2)] == [r.file for r in every[:2]]
        hard = history.matches(difficulty="hard")
        assert {r.seed for r in hard} == {4, 5}
        unfinished = history.matches(outcome=Outcome.UNFINISHED)
        assert {r.seed for r in unfinished} == {3, 4}
        assert [r.seed for r in history.matches(difficulty="hard", outcome=Outcome.UNFINISHED)] == [
            4
        ]
        assert history.matches(outcome=Outcome.DAMAGED) == []


def test_a_deleted_index_is_rebuilt_with_the_same_rows(archived: dict[str, int | None]) -> None:
    with open_history() as history:
        before = snapshot(history)
        path = history.path
    assert path is not None
    path.unlink()
    with open_history() as history:
        assert history.rebuilt
        assert snapshot(history) == before


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "pages", "tail", "empty-tables"],
)
def test_a_damaged_index_is_rebuilt_with_the_same_rows(
    archived: dict[str, int | None], damage: str
) -> None:
    with open_history() as history:
        before = snapshot(history)
        path = history.path
    assert path is not None
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"this is no database \x00\xff" * 100)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    elif damage == "pages":  # the header survives, the pages after it do not
        path.write_bytes(data[:4096] + b"\xa5" * (len(data) - 4096))
    elif damage == "tail":  # only the last pages (rounds): what quick_check is there for
        cut = len(data) - len(data) // 4
        path.write_bytes(data[:cut] + b"\xa5" * (len(data) - cut))
    else:  # a database, but not ours
        path.unlink()
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE unrelated (x)")
    with open_history() as history:
        assert history.rebuilt and history.notice is None
        assert snapshot(history) == before
    with open_history() as history:  # and it stays rebuilt
        assert not history.rebuilt


def test_an_index_of_an_older_version_is_rebuilt(archived: dict[str, int | None]) -> None:
    with open_history() as history:
        before = snapshot(history)
        path = history.path
    assert path is not None
    with sqlite3.connect(path) as conn:  # what an older bela left: its version, other columns
        conn.execute("DROP TABLE matches")
        conn.execute("CREATE TABLE matches (file TEXT, size INTEGER, mtime_ns INTEGER)")
        conn.execute("UPDATE schema_version SET version = ?", (INDEX_VERSION - 1,))
    with open_history() as history:
        assert history.rebuilt
        assert snapshot(history) == before
        version = history.connection.execute("SELECT version FROM schema_version").fetchall()
        assert version == [(INDEX_VERSION,)]


def test_refresh_reads_only_new_and_changed_files(data_dir: Path) -> None:
    first = archive(random_match(1))
    with open_history() as history:
        assert [r.file for r in history.matches()] == [first.name]
        assert not history.refresh().changed  # nothing new: nothing read
        second = archive(random_match(2, 40), "easy")
        report = history.refresh()
        assert (report.read, report.removed, report.damaged) == (1, 0, 0)
        assert {r.file for r in history.matches()} == {first.name, second.name}
        # the same file played on (a new size and mtime): read again
        second.write_text(dumps(record_from_match(random_match(2), "easy")))
        os.utime(second, ns=(time.time_ns(), time.time_ns() + 10**9))
        assert history.refresh().read == 1
        row = history.match(second.name)
        assert row is not None and row.outcome is not Outcome.UNFINISHED
        first.unlink()
        report = history.refresh()
        assert (report.read, report.removed) == (0, 1)
        assert [r.file for r in history.matches()] == [second.name]
        assert history.rounds(first.name) == []


def test_a_later_window_finds_what_an_earlier_one_indexed(data_dir: Path) -> None:
    archive(random_match(1))
    with open_history() as history:
        before = snapshot(history)
    with open_history(refresh=False) as history:
        assert not history.rebuilt and snapshot(history) == before
        assert not history.refresh().changed


def test_damaged_records_are_listed_with_their_reason(data_dir: Path) -> None:
    good = archive(random_match(1))
    directory = matches_dir()
    (directory / "20260101T000000000000Z-7.json").write_text("{not json")
    honest = record_from_match(random_match(2), "normal")
    edited = honest.model_copy(update={"scores": (honest.scores[0] + 1, honest.scores[1])})
    (directory / "edited.json").write_text(dumps(edited))
    (directory / "newer.json").write_text('{"schema_version": 99}')
    (directory / "folder.json").mkdir()
    (directory / "dangling.json").symlink_to(directory / "nowhere")
    (directory / "big.json").write_bytes(b" " * (3 << 20))
    (directory / ".archive-x.tmp").write_text("a temp file, not a record")
    (directory / "notes.txt").write_text("not a record either")
    with open_history() as history:
        rows = {row.file: row for row in history.matches()}
        damaged = {name: row.reason for name, row in rows.items() if row.reason is not None}
    assert set(rows) == {good.name, *damaged}
    assert set(damaged) == {
        "20260101T000000000000Z-7.json",
        "edited.json",
        "newer.json",
        "folder.json",
        "dangling.json",
        "big.json",
    }
    for name, reason in damaged.items():
        assert rows[name].outcome is Outcome.DAMAGED
        assert reason and "\n" not in reason and len(reason) <= 200, name
        assert rows[name].seed is None and rows[name].scores is None
    assert "not complete JSON" in str(damaged["20260101T000000000000Z-7.json"])
    assert "replay" in str(damaged["edited.json"])
    assert "newer bela" in str(damaged["newer.json"])
    # the date of a damaged archive file still comes from its name
    assert rows["20260101T000000000000Z-7.json"].played_at.year == 2026


def test_a_record_repaired_later_is_read_again(data_dir: Path) -> None:
    path = matches_dir() / "later.json"
    path.parent.mkdir(parents=True)
    path.write_text("{")
    with open_history() as history:
        assert history.matches()[0].outcome is Outcome.DAMAGED
        path.write_text(dumps(record_from_match(random_match(3), "easy")))
        history.refresh()
        (row,) = history.matches()
        assert row.outcome is not Outcome.DAMAGED and row.seed == 3


def test_an_unusable_index_file_degrades_to_memory_with_a_notice(data_dir: Path) -> None:
    archive(random_match(1))
    (data_dir / INDEX_NAME).mkdir()  # sqlite cannot open a directory, even as root
    with open_history() as history:
        assert history.path is None
        assert history.notice is not None and "in memory" in history.notice
        assert "\n" not in history.notice
        assert [row.seed for row in history.matches()] == [1]


def test_a_read_only_index_degrades_to_memory_when_it_must_be_written(data_dir: Path) -> None:
    archive(random_match(1))
    open_history().close()
    archive(random_match(2))
    path = data_dir / INDEX_NAME
    path.chmod(0o444)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    history = History(matches_dir(), conn, path=path, rebuilt=False)
    with history:
        history.refresh()  # storing the new file fails: read-only
        assert history.notice is not None and history.path is None
        assert {row.seed for row in history.matches()} == {1, 2}


def test_no_archive_no_index_file(data_dir: Path) -> None:
    with open_history() as history:
        assert history.matches() == [] and history.notice is None
    assert not (data_dir / INDEX_NAME).exists()


_WINDOW = """
import sys
from bela.archive.history import open_history
with open_history() as history:
    print(len(history.matches()), history.notice)
"""


def test_two_windows_refresh_at_once(data_dir: Path) -> None:
    """Two processes build the same index at the same moment: both succeed, on disk."""
    for seed in range(6):
        archive(random_match(seed))
    env = {**os.environ, "BELA_DATA_DIR": str(data_dir)}
    windows = [
        subprocess.Popen(
            [sys.executable, "-c", _WINDOW], env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [window.communicate(timeout=60)[0] for window in windows]
    assert [window.returncode for window in windows] == [0, 0]
    assert outputs == ["6 None\n", "6 None\n"]
    with open_history(refresh=False) as history:
        assert len(history.matches()) == 6 and not history.refresh().changed


def test_a_refresh_waits_for_another_writer(data_dir: Path) -> None:
    archive(random_match(1))
    open_history().close()
    archive(random_match(2))
    blocker = sqlite3.connect(data_dir / INDEX_NAME, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN IMMEDIATE")  # another window is storing rows
    threading.Timer(0.3, lambda: blocker.execute("COMMIT")).start()
    with open_history() as history:
        assert history.notice is None and len(history.matches()) == 2
    blocker.close()


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["add", "unfinished", "damage", "remove", "refresh"]),
            st.integers(0, 50),
        ),
        max_size=12,
    )
)
def test_incremental_refreshes_equal_a_fresh_build(
    monkeypatch: pytest.MonkeyPatch, steps: list[tuple[str, int]]
) -> None:
    """Whatever happens to the archive between refreshes, the index ends as a rebuild would."""
    with tempfile.TemporaryDirectory() as temp:
        monkeypatch.setenv("BELA_DATA_DIR", temp)
        kept = open_history()
        for op, seed in steps:
            files = sorted(matches_dir().glob("*.json")) if matches_dir().is_dir() else []
            if op == "add":
                archive(random_match(seed))
            elif op == "unfinished":
                archive(random_match(seed, seed * 3), "easy")
            elif op == "damage" and files:
                files[seed % len(files)].write_text("{" * (seed + 1))
            elif op == "remove" and files:
                files[seed % len(files)].unlink()
            elif op == "refresh":
                kept.refresh()
        kept.refresh()
        incremental = snapshot(kept)
        kept.close()
        with open_history(Path(temp), refresh=False) as again:  # what the file holds
            assert snapshot(again) == incremental
        with _fresh_build(Path(temp)) as rebuilt:
            assert snapshot(rebuilt) == incremental


def _fresh_build(directory: Path) -> History:
    (directory / INDEX_NAME).unlink(missing_ok=True)
    history = open_history(directory)
    assert history.rebuilt
    return history


def test_a_file_name_that_is_not_utf8_is_listed_escaped(data_dir: Path) -> None:
    good = archive(random_match(1))
    raw = os.fsencode(matches_dir()) + b"/bad-\xff\xfe.json"
    with open(raw, "wb") as handle:
        handle.write(dumps(record_from_match(random_match(2), "easy")).encode())
    with open_history() as history:
        rows = {row.file: row for row in history.matches()}
        assert not history.refresh().changed  # the escaped name is found again
    assert set(rows) == {good.name, "bad-\\xff\\xfe.json"}
    assert rows["bad-\\xff\\xfe.json"].seed == 2  # read by its real name


def test_an_archive_that_cannot_be_listed_keeps_what_was_indexed(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive(random_match(1))
    open_history().close()

    def refuse(path: object) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "scandir", refuse)
    with open_history() as history:
        assert [row.seed for row in history.matches()] == [1]
        assert history.notice is not None and "Permission denied" in history.notice


def test_records_of_both_versions_list_the_rules_they_were_played_under(data_dir: Path) -> None:
    """A version-1 record meant bela with the second card; a version-2 one says every rule."""
    import shutil

    matches_dir().mkdir(parents=True)
    old = Path(__file__).parent / "records_v1"
    for name in ("visi_501.json", "unfinished_1001.json"):
        shutil.copy(old / name, matches_dir() / name)
    new = archive(random_match(7, rules=Rules(stiglja_bonus=100, no_bela=True)))
    with open_history() as history:
        rows = {row.file: row for row in history.matches()}
    assert rows["visi_501.json"].rules == ("visi", "bela_on_second")
    assert rows["unfinished_1001.json"].rules == ("bela_on_second",)
    assert rows["unfinished_1001.json"].outcome is Outcome.UNFINISHED
    assert rows[new.name].rules == ("no_bela", "stiglja_bonus=100")


def test_a_damage_reason_is_said_in_the_language_of_the_reader(data_dir: Path) -> None:
    """The index keeps a reason as its message and values (``RecordError.stored``): a
    record found damaged while the player read English is listed in Croatian once they
    switch, with the seats numbered 1-4 as everywhere a player reads them."""
    from bela.i18n import set_language

    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "newer.json").write_text('{"schema_version": 99}')
    honest = record_from_match(random_match(2), "normal")
    moved = honest.rounds[0].model_copy(update={"dealer": (honest.rounds[0].dealer + 1) % 4})
    dealt = honest.model_copy(update={"rounds": (moved, *honest.rounds[1:])})
    (directory / "dealer.json").write_text(dumps(dealt))
    set_language("en")
    with open_history() as history:  # indexed in English
        english = {row.file: row.reason for row in history.matches()}
    try:
        set_language("hr")
        with open_history() as history:
            croatian = {row.file: row.reason for row in history.matches()}
    finally:
        set_language("en")
    assert "newer bela" in str(english["newer.json"])
    assert str(croatian["newer.json"]).startswith("ovaj je zapis napisala novija bela")
    real, said = honest.rounds[0].dealer + 1, moved.dealer + 1
    assert english["dealer.json"] == (
        f"round 1 is dealt by seat {real}, not seat {said} as the record says"
    )
    assert croatian["dealer.json"] == (
        f"rundu 1 dijeli mjesto {real}, a ne mjesto {said} kako piše u zapisu"
    )
