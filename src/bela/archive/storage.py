"""Where matches live on disk: the autosave of the match in progress and the archive.

The data directory is ``platformdirs.user_data_dir("bela")``, or ``$BELA_DATA_DIR``
when set (tests point it at a temporary directory). Nothing here ever deletes
or overwrites a file the user could want back:

- the autosave is replaced atomically (temp file in the same directory, fsync,
  ``os.replace``), so a crash mid-save leaves the previous save whole, and the
  temp files of a save that a crash cut short are removed the next time that
  save slot is claimed;
- a save this process has not read (or written) is never replaced blindly: the
  first save of a new match first keeps what is there (an unfinished or finished
  match goes to the archive, a damaged one is moved aside, one that cannot even
  be read is moved aside unread), and refuses to save if it cannot;
- archived matches get a new file each;
- every file is read with ``bela.foundation.files.read_limited``: regular files only, at most
  ``RECORD_SIZE_LIMIT`` bytes, never blocking on a FIFO.

Two windows on one data directory each **claim a save slot** (``claim_slot``),
held with an OS file lock (``bela.foundation.slot_lock``) for as long as the window
is open: the first window
saves in ``autosave.json``, a second one in ``autosave-2.json``, and so on, so
neither overwrites the other's match. A later window that finds the main slot
empty takes over the newest unfinished match a closed second window left behind.

``bela.archive.records`` (and with it pydantic) is imported only once a record is read
or written: claiming a slot and finding no save, as a first start does, loads
neither, so the start screen is drawn sooner (issue #12).
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

import platformdirs

from bela.archive.record_basics import RECORD_SIZE_LIMIT, RecordError
from bela.foundation.files import (
    TEMP_SUFFIX,
    FileRefusedError,
    fsync_dir,
    move_aside,
    read_limited,
    remove_stale_temps,
    replace_atomically,
    timestamp,
    write_temp,
)
from bela.foundation.slot_lock import SlotLock
from bela.foundation.untrusted import oneline, shown_path

if TYPE_CHECKING:
    from bela.archive.records import MatchRecord

__all__ = [
    "AUTOSAVE_NAME",
    "DATA_DIR_ENV",
    "SLOT_COUNT",
    "AutosaveBlockedError",
    "CorruptAutosaveError",
    "SaveSlot",
    "SlotsBusyError",
    "archive_match",
    "autosave_path",
    "claim_slot",
    "clear_autosave",
    "current_slot",
    "data_dir",
    "keep_what_is_saved",
    "load_autosave",
    "matches_dir",
    "os_error_text",
    "read_record",
    "release_slot",
    "save_autosave",
]

DATA_DIR_ENV: Final = "BELA_DATA_DIR"
AUTOSAVE_NAME: Final = "autosave.json"
SLOT_COUNT: Final = 9
"""How many windows may play at once from one data directory, each with its own save."""

_ARCHIVE_TEMP_PREFIX: Final = ".archive-"
_LEGACY_TEMP_PREFIX: Final = ".autosave-"  # bela 0.1 named every autosave temp file so
_STALE_ARCHIVE_TEMP_SECONDS: Final = 3600.0


def os_error_text(exc: OSError) -> str:
    """What went wrong, without the file name (the caller says which file): one safe line."""
    return oneline(exc.strerror or exc, 120)


class CorruptAutosaveError(RecordError):
    """The autosave could not be used and was moved aside to ``moved_to``.

    The message is one line to show the player: what was wrong and where the
    file is now. The match it held is not resumed.
    """

    def __init__(self, reason: str, moved_to: Path) -> None:
        super().__init__(
            f"the saved match could not be resumed ({reason}); "
            f"the file was moved to {shown_path(moved_to)}"
        )
        self.reason = reason
        self.moved_to = moved_to


class AutosaveBlockedError(RecordError):
    """There is a save that cannot be used and cannot be moved aside either.

    It stays exactly where it is, and nothing is saved over it: the match being
    played goes on unsaved until the player fixes the file or its directory.
    """

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"{shown_path(path)} {reason}; it is left as it is and nothing will be saved over it"
        )
        self.path = path


def data_dir() -> Path:
    """The directory bela keeps its files in (not created until something is written)."""
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("bela"))


def matches_dir() -> Path:
    """Finished matches, one JSON file each."""
    return data_dir() / "matches"


def _slot_name(number: int) -> str:
    return AUTOSAVE_NAME if number == 1 else f"autosave-{number}.json"


# ---------------------------------------------------------------------- save slots


@dataclass(eq=False)
class SaveSlot:
    """The autosave file this process (one window) owns, and the lock that says so.

    ``lock`` is None when no lock could be taken because the data directory cannot
    be written: then no save can be written there either, so nobody is overwritten.
    """

    number: int
    path: Path
    lock: SlotLock | None
    adopted: Path | None = None
    """An unfinished match a closed window left in another slot, moved into this one."""
    waiting: tuple[Path, ...] = ()
    """Unfinished matches of closed windows still in other slots (this one was taken)."""
    known: set[Path] = field(default_factory=set)

    @property
    def is_main(self) -> bool:
        return self.number == 1


_current: SaveSlot | None = None


def _lock_for(directory: Path, number: int) -> SlotLock:
    return SlotLock(directory / f".{_slot_name(number)}.lock")


def _try_lock(lock: SlotLock) -> bool:
    return lock.acquire()


def current_slot() -> SaveSlot | None:
    """The slot this process claimed for the current data directory, if any."""
    if _current is not None and _current.path.parent == data_dir():
        return _current
    return None


class SlotsBusyError(OSError):
    """Every save slot of the data directory is held by an open window."""


def claim_slot() -> SaveSlot:
    """Take the first free save slot of the data directory for this process (idempotent).

    Raises ``SlotsBusyError`` when all ``SLOT_COUNT`` slots are held by other
    windows. Where the data directory cannot hold a lock file (read-only, or not
    a directory), the main slot is used without a lock: saving fails there too,
    so no other window's save can be overwritten.
    """
    global _current
    claimed = current_slot()
    if claimed is not None:
        return claimed
    release_slot()
    directory = data_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        slot = _first_free_slot(directory)
    except SlotsBusyError:
        raise
    except OSError:
        slot = SaveSlot(1, directory / AUTOSAVE_NAME, None)
    _current = slot
    if slot.lock is not None:
        _remove_stale_temps(slot)
        if slot.is_main:
            _adopt_orphans(slot)
    return slot


def _first_free_slot(directory: Path) -> SaveSlot:
    for number in range(1, SLOT_COUNT + 1):
        lock = _lock_for(directory, number)
        if _try_lock(lock):
            return SaveSlot(number, directory / _slot_name(number), lock)
    raise SlotsBusyError(f"{SLOT_COUNT} bela windows are already open on {shown_path(directory)}")


def release_slot() -> None:
    """Let go of this process's slot (when its window closes)."""
    global _current
    slot, _current = _current, None
    if slot is not None and slot.lock is not None:
        with contextlib.suppress(OSError):
            slot.lock.release()


def autosave_path() -> Path:
    """This window's autosave: its claimed slot, or ``autosave.json`` when none is claimed."""
    slot = current_slot()
    return slot.path if slot is not None else data_dir() / AUTOSAVE_NAME


def _remove_stale_temps(slot: SaveSlot) -> None:
    """Temp files of saves that a crash cut short: ours to remove, since we hold the slot."""
    directory = slot.path.parent
    with contextlib.suppress(OSError):
        for temp in directory.glob(f".{slot.path.name}.*{TEMP_SUFFIX}"):
            with contextlib.suppress(OSError):
                temp.unlink()
        if slot.is_main:  # bela 0.1's temp names, from before there were slots
            for temp in directory.glob(f"{_LEGACY_TEMP_PREFIX}*{TEMP_SUFFIX}"):
                if ".json." not in temp.name:
                    with contextlib.suppress(OSError):
                        temp.unlink()
    # another window may be archiving this very second: only old ones are stale
    remove_stale_temps(directory / "matches", _ARCHIVE_TEMP_PREFIX, _STALE_ARCHIVE_TEMP_SECONDS)


def _adopt_orphans(slot: SaveSlot) -> None:
    """Bring the newest match a closed second window left behind into the empty main slot."""
    directory = slot.path.parent
    free: list[tuple[float, Path]] = []
    locks: list[SlotLock] = []
    try:
        for number in range(2, SLOT_COUNT + 1):
            path = directory / _slot_name(number)
            if not path.is_file():
                continue
            lock = _lock_for(directory, number)
            if not _try_lock(lock):
                continue  # its window is still open
            locks.append(lock)
            with contextlib.suppress(OSError):
                free.append((path.stat().st_mtime, path))
        free.sort(reverse=True)
        if free and not os.path.lexists(slot.path):
            _, newest = free.pop(0)
            with contextlib.suppress(OSError):
                os.rename(newest, slot.path)  # both slots are ours, and the main one is empty
                slot.adopted = newest
        slot.waiting = tuple(path for _, path in free)
    finally:
        for lock in locks:
            lock.release()


# ---------------------------------------------------------------------- writing


def _known() -> set[Path]:
    """The saves this process has read or written: the ones it may replace."""
    slot = current_slot()
    return slot.known if slot is not None else _known_unclaimed


_known_unclaimed: set[Path] = set()


def save_autosave(record: MatchRecord) -> Path:
    """Save the match in progress, atomically: a reader sees the old save or the new one.

    A save is replaced only by its own continuation, or once this process has
    written or cleared it: the first save of a new match over another match
    keeps that match first (``keep_what_is_saved``), and raises
    ``AutosaveBlockedError`` (saving nothing) if it cannot.
    """
    target = autosave_path()
    from bela.archive.records import dumps

    if target not in _known():
        keep_what_is_saved(replacement=record)
    replace_atomically(target, dumps(record), f".{target.name}.")
    _known().add(target)
    return target


def _continues(new: MatchRecord, old: MatchRecord) -> bool:
    """Whether ``new`` is ``old`` played on (the same match, with at least its actions)."""
    same_match = (new.seed, new.target, new.rules, new.first_dealer, new.start_index) == (
        old.seed,
        old.target,
        old.rules,
        old.first_dealer,
        old.start_index,
    )
    if not same_match or len(new.rounds) < len(old.rounds):
        return False
    return all(
        later.actions[: len(earlier.actions)] == earlier.actions
        for earlier, later in zip(old.rounds, new.rounds, strict=False)
    )


def read_record(path: Path) -> MatchRecord:
    """Read and validate a record file (not yet replayed), refusing special and huge files.

    ``OSError`` (with ``FileRefusedError`` for a FIFO, device, directory or
    oversized file) when it cannot be read; ``RecordError`` when it is no record.
    """
    data = read_limited(path, RECORD_SIZE_LIMIT)
    from bela.archive.records import loads  # only now: with no save, pydantic is never loaded

    return loads(data)


def _unusable(path: Path, reason: str, kind: str) -> RecordError:
    """Move an unusable save aside; the error to raise says where, or that it could not."""
    try:
        moved = move_aside(path, kind)
    except OSError as exc:
        return AutosaveBlockedError(
            path, f"cannot be used ({reason}) and cannot be moved aside ({os_error_text(exc)})"
        )
    return CorruptAutosaveError(reason, moved)


def _read_save(path: Path) -> MatchRecord | None:
    """The replayable record a save holds, or None where there is no file.

    An unusable file is moved aside (``CorruptAutosaveError``, and the slot is
    then empty and ours), or left alone if even that fails (``AutosaveBlockedError``).
    """
    known = _known()
    try:
        record = read_record(path)
        from bela.archive.records import match_from_record  # loaded by read_record already

        match_from_record(record)
    except (FileNotFoundError, NotADirectoryError):  # (the data "directory" is a file)
        known.add(path)
        return None
    except FileRefusedError as exc:
        error = _unusable(path, exc.reason, "corrupt")
    except OSError as exc:
        error = _unusable(path, f"it cannot be read: {os_error_text(exc)}", "unreadable")
    except RecordError as exc:
        error = _unusable(path, str(exc), "corrupt")
    else:
        return record
    if isinstance(error, CorruptAutosaveError):
        known.add(path)
    raise error


def load_autosave() -> MatchRecord | None:
    """The saved match in progress, or None when there is none (or it was already finished).

    The record is replayed through the engine before it is returned, so the
    caller can ``match_from_record`` it safely. A file that cannot be used (damaged,
    hand-edited, from a newer bela, unreadable, not a regular file) is moved aside
    and ``CorruptAutosaveError`` says where; the next ``save_autosave`` then starts
    afresh without losing it. One that cannot be moved aside either raises
    ``AutosaveBlockedError`` and stays, and no save replaces it.
    """
    record = _read_save(autosave_path())
    if record is None or record.is_finished:
        return None
    return record


def keep_what_is_saved(replacement: MatchRecord | None = None) -> Path | None:
    """Before a new match takes this window's save, keep the match that is there.

    An unfinished match, or a finished one that never reached the archive, is
    archived (``matches/``, replayable with ``bela replay FILE``), unless
    ``replacement`` is that same match played on; a damaged, unreadable or
    special file is moved aside. Returns the archived file, or None. Raises
    ``CorruptAutosaveError`` (moved aside: say where) or ``AutosaveBlockedError``
    (it could not be moved: do not save).
    """
    path = autosave_path()
    record = _read_save(path)
    if record is None:
        return None
    kept = None
    continued = replacement is not None and _continues(replacement, record)
    if not continued and not (record.is_finished and _already_archived(record)):
        kept = archive_match(record)
    _known().add(path)
    return kept


def _already_archived(record: MatchRecord) -> bool:
    """Whether the archive holds this very record (a crash between archiving and clearing)."""
    with contextlib.suppress(OSError):
        for path in matches_dir().glob(f"*-{record.seed}*.json"):
            with contextlib.suppress(OSError, RecordError):
                if read_record(path) == record:
                    return True
    return False


def clear_autosave() -> None:
    """Forget the match in progress (after it ends and is archived)."""
    path = autosave_path()
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    _known().add(path)


def archive_match(record: MatchRecord) -> Path:
    """Keep a match as ``matches/<timestamp>-<seed>.json``; an existing file is never replaced."""
    from bela.archive.records import dumps

    directory = matches_dir()
    text = dumps(record)
    temp = write_temp(directory, text, _ARCHIVE_TEMP_PREFIX)
    stamp = timestamp()
    try:
        for attempt in range(1000):
            suffix = "" if attempt == 0 else f"-{attempt}"
            final = directory / f"{stamp}-{record.seed}{suffix}.json"
            try:
                os.link(temp, final)
            except FileExistsError:
                continue
            except OSError:
                # no hard links on this filesystem: claim the name exclusively, then fill it
                try:
                    with open(final, "x", encoding="utf-8") as handle:
                        handle.write(text)
                        handle.flush()
                        os.fsync(handle.fileno())
                except FileExistsError:
                    continue
            fsync_dir(directory)
            return final
        raise OSError(f"could not find a free file name in {directory}")  # pragma: no cover
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
