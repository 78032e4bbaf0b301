"""Where matches live on disk: the autosave of the match in progress and the archive.

The data directory is ``platformdirs.user_data_dir("bela")``, or ``$BELA_DATA_DIR``
when set (tests point it at a temporary directory). Nothing here ever deletes
or overwrites a file the user could want back: the autosave is replaced
atomically (temp file in the same directory, fsync, ``os.replace``), so a crash
mid-save leaves the previous save whole; an autosave that cannot be used is
moved aside, not removed; archived matches get a new file each.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

import platformdirs

from bela.records import MatchRecord, RecordError, dumps, loads, match_from_record

__all__ = [
    "AUTOSAVE_NAME",
    "DATA_DIR_ENV",
    "CorruptAutosaveError",
    "archive_match",
    "autosave_path",
    "clear_autosave",
    "data_dir",
    "load_autosave",
    "matches_dir",
    "save_autosave",
]

DATA_DIR_ENV: Final = "BELA_DATA_DIR"
AUTOSAVE_NAME: Final = "autosave.json"
_TEMP_PREFIX: Final = ".autosave-"
_TEMP_SUFFIX: Final = ".tmp"


class CorruptAutosaveError(RecordError):
    """The autosave could not be used and was moved aside to ``moved_to``.

    The message is one line to show the player: what was wrong and where the
    file is now. The match it held is not resumed.
    """

    def __init__(self, reason: str, moved_to: Path) -> None:
        super().__init__(
            f"the saved match could not be resumed ({reason}); the file was moved to {moved_to}"
        )
        self.reason = reason
        self.moved_to = moved_to


def data_dir() -> Path:
    """The directory bela keeps its files in (not created until something is written)."""
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("bela"))


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


def matches_dir() -> Path:
    """Finished matches, one JSON file each."""
    return data_dir() / "matches"


def _timestamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def _fsync_dir(path: Path) -> None:
    """Make a rename in ``path`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_temp(directory: Path, text: str) -> Path:
    """Write ``text`` to a new fsynced temp file in ``directory`` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=_TEMP_SUFFIX, dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise
    return Path(name)


def save_autosave(record: MatchRecord) -> Path:
    """Save the match in progress, atomically: a reader sees the old save or the new one."""
    target = autosave_path()
    temp = _write_temp(target.parent, dumps(record))
    try:
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _fsync_dir(target.parent)
    return target


def _move_aside(path: Path) -> Path:
    """Rename an unusable autosave to ``autosave.corrupt-<timestamp>.json`` (never overwriting)."""
    stamp = _timestamp()
    for attempt in range(1000):
        suffix = "" if attempt == 0 else f"-{attempt}"
        aside = path.with_name(f"autosave.corrupt-{stamp}{suffix}.json")
        try:
            # link then unlink rather than rename: a link never replaces an existing file
            os.link(path, aside)
        except FileExistsError:
            continue
        except OSError:
            if aside.exists():
                continue
            os.replace(path, aside)  # no hard links here (some filesystems); the name is new
            return aside
        os.unlink(path)
        return aside
    raise OSError(f"could not find a free name to move {path} aside")  # pragma: no cover


def load_autosave() -> MatchRecord | None:
    """The saved match in progress, or None when there is none (or it was already finished).

    The record is replayed through the engine before it is returned, so the
    caller can ``match_from_record`` it safely. A file that cannot be used (damaged,
    hand-edited, from a newer bela) is moved aside and ``CorruptAutosaveError``
    says where; the next ``save_autosave`` then starts afresh without losing it.
    """
    path = autosave_path()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise RecordError(f"{path} is a directory, not a saved match") from None
    try:
        record = loads(data)
        match_from_record(record)
    except RecordError as exc:
        raise CorruptAutosaveError(str(exc), _move_aside(path)) from None
    if record.is_finished:
        return None
    return record


def clear_autosave() -> None:
    """Forget the match in progress (after it ends, or when the player starts a new one)."""
    with contextlib.suppress(FileNotFoundError):
        autosave_path().unlink()


def archive_match(record: MatchRecord) -> Path:
    """Keep a match as ``matches/<timestamp>-<seed>.json``; an existing file is never replaced."""
    directory = matches_dir()
    temp = _write_temp(directory, dumps(record))
    stamp = _timestamp()
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
                        handle.write(dumps(record))
                        handle.flush()
                        os.fsync(handle.fileno())
                except FileExistsError:
                    continue
            _fsync_dir(directory)
            return final
        raise OSError(f"could not find a free file name in {directory}")  # pragma: no cover
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
