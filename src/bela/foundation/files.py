"""Files that must not hurt the player: hostile ones read safely, ours written safely.

Reading a file that may be hostile: a regular file only, of bounded size, never blocking.

A record or an autosave named on the command line, or found in the data
directory, can be anything a path can point at: ``/dev/zero`` or
``/dev/urandom`` (endless data), a FIFO (a read that waits forever, so not even
Ctrl+Q ends the app), a directory, or a 200 MB file built to exhaust memory in
the JSON parser. ``read_limited`` opens without blocking, looks at what it
opened (``fstat`` on the open descriptor, so a symlink swapped in between cannot
fool it), refuses anything but a regular file, and never reads more than
``limit`` bytes.

Writing and setting aside the files bela keeps (saves, the archive, settings):
``replace_atomically`` (temp file, fsync, rename: a reader sees the old file or
the new one, never half of one) and ``move_aside`` / ``rename_to_free_name`` (a
rename that never replaces an existing file). Every kind of file goes through
these few lines, so none of them gets a weaker copy.

Appending to a journal (``append_durably``: the puzzle attempts) is refused, like a
read, for anything but a regular file: opened without blocking (a FIFO would wait
for a reader forever), every byte written or the cut line taken back, and fsynced.
Writing a file the player named (``replace_regular_file``: an export) replaces only
a regular file, or makes a new one, and keeps an existing file's mode: ``/dev/full``
or ``/dev/null`` given to a root shell must stay the device it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from bela.i18n import _, ngettext

__all__ = [
    "FileRefusedError",
    "append_durably",
    "fsync_dir",
    "move_aside",
    "read_limited",
    "remove_stale_temps",
    "rename_to_free_name",
    "replace_atomically",
    "replace_regular_file",
    "size_text",
    "timestamp",
    "write_temp",
]

TEMP_SUFFIX: Final = ".tmp"

_OPEN_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once instead of waiting for a writer
    | getattr(os, "O_NOCTTY", 0)  # a terminal device never becomes our controlling terminal
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)

_APPEND_FLAGS: Final = (
    os.O_RDWR  # read too: the last byte says whether the file ends a line
    | os.O_APPEND
    | os.O_CREAT
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class FileRefusedError(OSError):
    """A path that is not a regular file, or a file over the size limit.

    An ``OSError`` so that callers which already report "cannot read it" handle it;
    ``str()`` is a short reason without the path (the caller names the file).
    """

    def __init__(self, reason: str) -> None:
        super().__init__(errno.EINVAL, reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def size_text(size: int) -> str:
    """``4 MiB``, ``512 KiB`` or ``100 bytes``: a limit or a size in words."""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return ngettext("{n} byte", "{n} bytes", size).format(n=size)


def _kind(mode: int) -> str:
    """Why a path is refused, in the player's language: the CLI and the app both show it."""
    if stat.S_ISDIR(mode):
        return _("it is a directory, not a file")
    if stat.S_ISFIFO(mode):
        return _("it is a pipe (FIFO), not a regular file")
    if stat.S_ISCHR(mode):
        return _("it is a device, not a regular file")
    if stat.S_ISBLK(mode):
        return _("it is a block device, not a regular file")
    if stat.S_ISSOCK(mode):
        return _("it is a socket, not a regular file")
    return _("it is not a regular file")


def _open_regular(path: Path, flags: int, mode: int = 0o666) -> tuple[int, os.stat_result]:
    """``path`` opened with ``flags`` (which hold ``O_NONBLOCK``: a FIFO never hangs the
    open) and its ``fstat``, if it is a regular file; ``FileRefusedError`` for anything
    else (the descriptor closed). The descriptor is made blocking again: a regular file
    never blocks, and its reads and writes then behave as everywhere else."""
    try:
        fd = os.open(path, flags, mode)
    except IsADirectoryError:
        raise FileRefusedError(_("it is a directory, not a file")) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError(_kind(info.st_mode))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, if it holds at most ``limit`` of them.

    Raises ``FileNotFoundError``, ``PermissionError`` and other ``OSError`` as
    ``open`` does, and ``FileRefusedError`` for a directory, device, FIFO or
    socket, or a file larger than ``limit`` (checked before reading, and again
    while reading, in case it grows).
    """
    fd, info = _open_regular(Path(path), _OPEN_FLAGS)
    try:
        if info.st_size > limit:
            raise FileRefusedError(
                _("it is too large ({size}; the limit is {limit})").format(
                    size=size_text(info.st_size), limit=size_text(limit)
                )
            )
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileRefusedError(f"it is too large (over {size_text(limit)})")
        return b"".join(chunks)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------- writing our own files


def timestamp() -> str:
    """Now, in UTC, for file names that sort by time: ``20261201T103000123456Z``."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


def fsync_dir(path: Path) -> None:
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


def write_temp(directory: Path, text: str, prefix: str) -> Path:
    """Write ``text`` to a new fsynced temp file in ``directory`` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=TEMP_SUFFIX, dir=directory)
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


def remove_stale_temps(directory: Path, prefix: str, older_than: float) -> int:
    """Remove ``prefix*.tmp`` files in ``directory`` last changed over ``older_than`` s ago.

    The temp files of atomic writes that a crash (``kill -9``, a power cut) cut short.
    Where no lock says the writer is gone, age does: another process may be writing
    one this very moment, so only old ones are removed. Symlinks are left alone
    (``unlink`` would remove the link, but a link is not one of our temp files), and
    nothing here raises: a file that cannot be removed is simply left. Returns how
    many were removed.
    """
    now = time.time()
    removed = 0
    with contextlib.suppress(OSError):
        # by name, not ``glob``: its import was 4 ms of the first screen's start
        for temp in directory.iterdir():
            name = temp.name
            if not (
                name.startswith(prefix)
                and name.endswith(TEMP_SUFFIX)
                and len(name) >= len(prefix) + len(TEMP_SUFFIX)
            ):
                continue
            with contextlib.suppress(OSError):
                info = temp.lstat()
                if stat.S_ISREG(info.st_mode) and now - info.st_mtime > older_than:
                    temp.unlink()
                    removed += 1
    return removed


def replace_atomically(path: Path, text: str, temp_prefix: str, mode: int | None = None) -> None:
    """Replace ``path`` by ``text``: a reader (or a crash) sees the old file or the new one.
    ``mode``: the new file's permissions (else the temp file's, owner-only)."""
    temp = write_temp(path.parent, text, temp_prefix)
    try:
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    fsync_dir(path.parent)


def rename_to_free_name(path: Path, names: Iterable[Path]) -> Path:
    """Rename ``path`` to the first of ``names`` that does not exist yet, and return it.

    Link then unlink rather than rename: a link never replaces an existing file
    (and links the name itself, not what a symlink points at). Where the
    filesystem has no hard links, a name that is still free is taken by rename.
    Raises ``FileExistsError`` when every name is taken.
    """
    for name in names:
        try:
            os.link(path, name, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError:
            if os.path.lexists(name):
                continue
            os.replace(path, name)  # no hard links here (some filesystems); the name is new
            return name
        os.unlink(path)
        return name
    raise FileExistsError(errno.EEXIST, f"no free name to rename {path.name} to")


def move_aside(path: Path, kind: str) -> Path:
    """Rename an unusable file to ``<stem>.<kind>-<timestamp>.json``, never over another."""
    stamp = timestamp()
    return rename_to_free_name(
        path,
        (
            path.with_name(f"{path.stem}.{kind}-{stamp}{'' if n == 0 else f'-{n}'}.json")
            for n in range(1000)
        ),
    )


# ---------------------------------------------------------------------- appending to a journal


def _write_all(fd: int, data: bytes) -> int:
    """Write every byte of ``data`` to ``fd``: a short count is written on from where it
    stopped (a full disk, a signal), a count of 0 is ``ENOSPC``. If a later write fails,
    the part already written is cut off again, so a journal never keeps half a line
    (only if nobody else appended in between: their line is never cut)."""
    written = 0
    start: int | None = None
    try:
        while written < len(data):
            count = os.write(fd, data[written:])
            if count <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            if start is None:
                start = os.lseek(fd, 0, os.SEEK_CUR) - count
            written += count
    except OSError:
        if start is not None:
            with contextlib.suppress(OSError):
                if os.fstat(fd).st_size == start + written:
                    os.ftruncate(fd, start)
        raise
    return os.lseek(fd, 0, os.SEEK_CUR) - len(data) if start is None else start


def append_durably(path: Path, line: bytes, mode: int = 0o644) -> tuple[int, int]:
    """Append ``line`` (one line, ending in a newline) to the regular file at ``path``
    (made if missing, with ``mode``), and fsync it before returning.

    Raises ``FileRefusedError`` for a directory, FIFO, device or socket (opened
    without blocking, so a FIFO never hangs the caller), and ``OSError`` when the
    line could not be written whole (then none of it stays). A file whose last line
    was cut (a crash, an older bela on a full disk) gets a newline first, so the cut
    line is never glued to this one. One ``write`` with ``O_APPEND`` in the usual
    case: two windows' lines never interleave.

    Returns (where the bytes written begin, how many): the caller that knows the size it
    read can tell whether another window appended in between.
    """
    created = not os.path.lexists(path)
    fd, info = _open_regular(path, _APPEND_FLAGS, mode)
    try:
        if info.st_size > 0 and os.pread(fd, 1, info.st_size - 1) != b"\n":
            line = b"\n" + line
        start = _write_all(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)
    if created:
        fsync_dir(path.parent)
    return start, len(line)


# ---------------------------------------------------------------------- a file the player named


def _new_file_mode() -> int:
    """The mode ``open`` gives a new file here: 0o666 less the umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def replace_regular_file(path: Path, text: str, temp_prefix: str) -> None:
    """Write ``text`` as the file at ``path``, atomically, if ``path`` is a regular file or
    does not exist; ``FileRefusedError`` otherwise (a device, a FIFO, a directory, a
    symlink: ``os.replace`` would put a regular file in its place, as root even over
    ``/dev/null``). An existing file keeps its mode; a new one gets the umask's.
    """
    try:
        info: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise FileRefusedError(_("it is a symbolic link, not a regular file"))
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise FileRefusedError(_kind(info.st_mode))
    wanted = stat.S_IMODE(info.st_mode) if info is not None else _new_file_mode()
    replace_atomically(path, text, temp_prefix, wanted)
