"""Saves and records that could hurt the player: special files, huge files, unreadable
saves, two windows on one data directory, leftovers of a crash (issue #11)."""

from __future__ import annotations

import errno
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from played_matches import played

from bela.archive import storage
from bela.archive.records import (
    RECORD_SIZE_LIMIT,
    RECORD_VALUE_LIMIT,
    MatchRecord,
    RecordError,
    dumps,
    loads,
    match_from_record,
    record_from_match,
)
from bela.archive.storage import (
    AutosaveBlockedError,
    CorruptAutosaveError,
    archive_match,
    autosave_path,
    claim_slot,
    keep_what_is_saved,
    load_autosave,
    matches_dir,
    release_slot,
    save_autosave,
)
from bela.foundation.files import FileRefusedError, read_limited
from bela.session import autosave, shelve_unfinished


def record(seed: int, steps: int | None = None) -> MatchRecord:
    return record_from_match(played(seed, steps), "normal")


@pytest.fixture(autouse=True)
def no_slot_left_behind() -> Iterator[None]:
    yield
    release_slot()


def finishes_within(seconds: float, call: Callable[[], object]) -> object:
    """Run ``call`` in a thread; fail (instead of hanging the suite) if it blocks."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still blocked after {seconds} s"
    return outcome[0]


# ---------------------------------------------------------------------- special files (4, 5)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_without_reading_it(device: str, tmp_path: Path) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} does not exist here")
    link = tmp_path / "record.json"
    link.symlink_to(device)
    for path in (Path(device), link):
        with pytest.raises(FileRefusedError, match="device"):
            read_limited(path, 1000)


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "record.json"
    os.mkfifo(fifo)  # nobody ever writes to it: reading it would wait forever
    outcome = finishes_within(5, lambda: read_limited(fifo, 1000))
    assert isinstance(outcome, FileRefusedError) and "FIFO" in str(outcome)


def test_a_fifo_or_device_as_the_autosave_is_moved_aside(data_dir: Path) -> None:
    data_dir.mkdir(parents=True)
    os.mkfifo(autosave_path())
    outcome = finishes_within(5, load_autosave)
    assert isinstance(outcome, CorruptAutosaveError)
    assert "FIFO" in str(outcome)
    assert not os.path.lexists(autosave_path())
    (aside,) = data_dir.glob("autosave.corrupt-*.json")
    assert aside.is_fifo()  # kept as it was, not deleted
    if os.path.exists("/dev/zero"):
        autosave_path().symlink_to("/dev/zero")
        outcome = finishes_within(5, load_autosave)
        assert isinstance(outcome, CorruptAutosaveError) and "device" in str(outcome)
        assert Path("/dev/zero").exists()  # the link moved aside, not what it points at


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(RECORD_SIZE_LIMIT + 1)  # sparse: no disk used
    with pytest.raises(FileRefusedError, match="too large"):
        storage.read_record(big)
    assert len(read_limited(big, RECORD_SIZE_LIMIT + 1)) == RECORD_SIZE_LIMIT + 1


def test_a_record_with_a_huge_unknown_array_is_refused_before_parsing() -> None:
    good = dumps(record(3, steps=20))
    hostile = good.replace("{", '{"junk": [' + ",".join(["0"] * (RECORD_VALUE_LIMIT + 1)) + "],", 1)
    assert len(hostile) < RECORD_SIZE_LIMIT
    with pytest.raises(RecordError, match="far more values than any match"):
        loads(hostile)
    with pytest.raises(RecordError, match="too large"):
        loads(b" " * (RECORD_SIZE_LIMIT + 1))


def test_a_long_real_match_fits_the_limits_with_room() -> None:
    text = dumps(record_from_match(played(11, target=1001), "normal"))
    values = text.count(",") + text.count("[") + text.count("{")
    assert len(text) * 20 < RECORD_SIZE_LIMIT and values * 20 < RECORD_VALUE_LIMIT


# ---------------------------------------------------------------------- text from files (6)


@pytest.mark.parametrize(
    "key",
    [
        "k" * 10_000_000,
        "\x1b]0;pwned\x07\x1b[2J\x1b[41m",
        "line one\nbela: error: forged",
        "[@click=app.screenshot('pwned.svg','/tmp')]CLICK[/]",
    ],
)
def test_a_hostile_key_is_quoted_escaped_and_short(key: str) -> None:
    import json

    data = json.loads(dumps(record(4, steps=5)))
    data[key] = 1
    text = json.dumps(data)
    if len(text) > RECORD_SIZE_LIMIT:
        with pytest.raises(RecordError, match="too large"):
            loads(text)
        data = json.loads(dumps(record(4, steps=5)))
        data["rules"][key[: RECORD_SIZE_LIMIT // 2]] = True
        text = json.dumps(data)
    with pytest.raises(RecordError) as caught:
        loads(text)
    message = str(caught.value)
    assert len(message) < 300
    assert "\n" not in message and "\x1b" not in message and "\x07" not in message
    assert "extra inputs are not permitted" in message


def test_a_hostile_action_text_is_escaped() -> None:
    text = dumps(record(4, steps=5)).replace('"action": "AS"', '"action": "\\u001b[2Jx"', 1)
    with pytest.raises(RecordError) as caught:
        match_from_record(loads(text))
    assert "\x1b" not in str(caught.value) and "\\x1b[2Jx" in str(caught.value)


# ---------------------------------------------------------------------- unreadable saves (2, 10)


def _unreadable(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    """Simulate mode 000 (tests run as root, who may read anything)."""
    real = storage.read_limited

    def refuse(target: str | os.PathLike[str], limit: int) -> bytes:
        if Path(target) == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(target))
        return real(target, limit)

    monkeypatch.setattr(storage, "read_limited", refuse)


def test_an_unreadable_save_is_moved_aside_unread_before_a_new_match(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_autosave(record(5, steps=30))
    original = autosave_path().read_bytes()
    _unreadable(monkeypatch, autosave_path())
    problem = shelve_unfinished()
    assert problem is not None and "cannot be read" in problem and "moved to" in problem
    (aside,) = data_dir.glob("autosave.unreadable-*.json")
    assert aside.read_bytes() == original
    assert autosave(played(6, steps=3), "normal") is None
    assert aside.read_bytes() == original


def test_an_unreadable_save_that_cannot_be_moved_is_never_saved_over(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_autosave(record(5, steps=30))
    original = autosave_path().read_bytes()
    release_slot()
    storage._known_unclaimed.clear()  # a new process: it has not read this save
    _unreadable(monkeypatch, autosave_path())

    def no_rename(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "link", no_rename)
    monkeypatch.setattr(os, "replace", no_rename)
    problem = shelve_unfinished()
    assert problem is not None and "cannot be moved aside" in problem
    with pytest.raises(AutosaveBlockedError):
        save_autosave(record(6, steps=3))
    message = autosave(played(6, steps=3), "normal")
    assert message is not None and "nothing will be saved over it" in message
    assert autosave_path().read_bytes() == original


def test_a_corrupt_save_that_cannot_be_moved_says_so_not_permission_denied(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir.mkdir(parents=True)
    autosave_path().write_text("{damaged")

    def no_rename(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "link", no_rename)
    monkeypatch.setattr(os, "replace", no_rename)
    with pytest.raises(AutosaveBlockedError) as caught:
        load_autosave()
    message = str(caught.value)
    assert "not complete JSON" in message and "cannot be moved aside" in message
    assert autosave_path().read_text() == "{damaged"


def test_a_failing_save_says_the_same_thing_every_time(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_autosave(record(7, steps=2))
    real_mkstemp = tempfile.mkstemp

    def read_only(*args: object, prefix: str = "", suffix: str = "", dir: object = None) -> object:
        name = os.path.join(str(dir), f"{prefix}{random.random()}{suffix}")
        raise PermissionError(errno.EACCES, "Permission denied", name)

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    first = autosave(played(7, steps=3), "normal")
    second = autosave(played(7, steps=4), "normal")
    assert first is not None and first == second
    assert ".tmp" not in first and "Permission denied" in first
    monkeypatch.setattr(tempfile, "mkstemp", real_mkstemp)
    assert autosave(played(7, steps=5), "normal") is None


# ---------------------------------------------------------------------- finished matches (9)


def test_a_finished_match_left_in_the_autosave_is_archived_before_a_new_one(
    data_dir: Path,
) -> None:
    finished = record(12)
    assert finished.is_finished
    save_autosave(finished)
    release_slot()
    storage._known_unclaimed.clear()
    assert load_autosave() is None  # not offered for resuming...
    kept = keep_what_is_saved()
    assert kept is not None and loads(kept.read_text()) == finished  # ...but never lost
    save_autosave(record(13, steps=3))
    assert [loads(p.read_text()) for p in matches_dir().glob("*.json")] == [finished]


def test_a_finished_match_already_archived_is_not_archived_twice(data_dir: Path) -> None:
    finished = record(12)
    archive_match(finished)
    save_autosave(finished)  # a crash between archiving and clearing the autosave
    storage._known_unclaimed.clear()
    assert keep_what_is_saved() is None
    assert len(list(matches_dir().glob("*.json"))) == 1


def test_a_new_match_over_an_unread_save_keeps_it(data_dir: Path) -> None:
    """Even a caller that never looked (a second program, a bug) cannot replace a match."""
    first = record(14, steps=40)
    save_autosave(first)
    storage._known_unclaimed.clear()
    save_autosave(record(15, steps=2))
    (kept,) = matches_dir().glob("*-14.json")
    assert loads(kept.read_text()) == first


def test_the_same_match_played_on_replaces_its_own_save(data_dir: Path) -> None:
    save_autosave(record(16, steps=10))
    storage._known_unclaimed.clear()
    save_autosave(record(16, steps=11))
    assert not matches_dir().exists()


# ---------------------------------------------------------------------- crash leftovers (11)


def test_temp_files_of_a_cut_short_save_are_removed_when_the_slot_is_claimed(
    data_dir: Path,
) -> None:
    save_autosave(record(17, steps=5))
    leftovers = [
        data_dir / ".autosave.json.abc123.tmp",
        data_dir / ".autosave-k3j2h1.tmp",  # bela 0.1's name
    ]
    for path in leftovers:
        path.write_text("half a save")
    other_window = data_dir / ".autosave-2.json.xyz.tmp"
    other_window.write_text("another window's save in progress")
    claim_slot()
    assert not any(path.exists() for path in leftovers)
    assert other_window.exists()
    assert load_autosave() == record(17, steps=5)


# ---------------------------------------------------------------------- two windows (3)


HOLD_SLOT = textwrap.dedent(
    """
    import sys, time
    from bela.archive.storage import claim_slot, save_autosave
    from bela.archive.records import loads
    slot = claim_slot()
    print(slot.number, flush=True)
    if len(sys.argv) > 1:
        save_autosave(loads(open(sys.argv[1], encoding="utf-8").read()))
        print("saved", flush=True)
    sys.stdin.readline()
    """
)


@pytest.fixture
def other_window(data_dir: Path) -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """Start another bela process that claims a slot and holds it until told to stop."""
    started: list[subprocess.Popen[str]] = []

    def start(*args: str) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            [sys.executable, "-c", HOLD_SLOT, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "BELA_DATA_DIR": str(data_dir)},
        )
        started.append(process)
        return process

    yield start
    for process in started:
        if process.stdin is not None:
            process.stdin.close()
        process.wait(10)


def test_a_second_window_saves_its_own_match(
    other_window: Callable[..., subprocess.Popen[str]], data_dir: Path, tmp_path: Path
) -> None:
    theirs = record(18, steps=30)
    source = tmp_path / "theirs.json"
    source.write_text(dumps(theirs))
    first = other_window(str(source))
    assert first.stdout is not None
    assert first.stdout.readline().strip() == "1"
    assert first.stdout.readline().strip() == "saved"
    slot = claim_slot()  # this process is the second window
    assert slot.number == 2 and slot.path.name == "autosave-2.json"
    assert load_autosave() is None
    mine = record(19, steps=5)
    save_autosave(mine)
    assert loads((data_dir / "autosave.json").read_text()) == theirs
    assert loads((data_dir / "autosave-2.json").read_text()) == mine


def test_a_closed_second_windows_match_is_adopted_by_the_next_window(
    other_window: Callable[..., subprocess.Popen[str]], data_dir: Path, tmp_path: Path
) -> None:
    blocker = other_window()
    assert blocker.stdout is not None and blocker.stdout.readline().strip() == "1"
    assert claim_slot().number == 2
    left = record(20, steps=25)
    save_autosave(left)
    release_slot()  # the second window closes with its match unfinished
    assert blocker.stdin is not None
    blocker.stdin.close()
    blocker.wait(10)  # ... then the first, which had nothing saved
    slot = claim_slot()
    assert slot.number == 1 and slot.adopted == data_dir / "autosave-2.json"
    assert load_autosave() == left
    assert not (data_dir / "autosave-2.json").exists()


def test_a_killed_window_leaves_its_slot_free(
    other_window: Callable[..., subprocess.Popen[str]],
) -> None:
    crashed = other_window()
    assert crashed.stdout is not None and crashed.stdout.readline().strip() == "1"
    assert claim_slot().number == 2
    release_slot()
    crashed.kill()  # kill -9: no chance to release anything
    crashed.wait(10)
    assert claim_slot().number == 1
