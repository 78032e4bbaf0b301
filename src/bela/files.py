"""Reading a file that may be hostile: a regular file only, of bounded size, never blocking.

A record or an autosave named on the command line, or found in the data
directory, can be anything a path can point at: ``/dev/zero`` or
``/dev/urandom`` (endless data), a FIFO (a read that waits forever, so not even
Ctrl+Q ends the app), a directory, or a 200 MB file built to exhaust memory in
the JSON parser. ``read_limited`` opens without blocking, looks at what it
opened (``fstat`` on the open descriptor, so a symlink swapped in between cannot
fool it), refuses anything but a regular file, and never reads more than
``limit`` bytes.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Final

__all__ = ["FileRefusedError", "read_limited", "size_text"]

_OPEN_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)  # a FIFO opens at once instead of waiting for a writer
    | getattr(os, "O_NOCTTY", 0)  # a terminal device never becomes our controlling terminal
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
    return f"{size} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, if it holds at most ``limit`` of them.

    Raises ``FileNotFoundError``, ``PermissionError`` and other ``OSError`` as
    ``open`` does, and ``FileRefusedError`` for a directory, device, FIFO or
    socket, or a file larger than ``limit`` (checked before reading, and again
    while reading, in case it grows).
    """
    target = Path(path)
    try:
        fd = os.open(target, _OPEN_FLAGS)
    except IsADirectoryError:
        raise FileRefusedError("it is a directory, not a file") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefusedError(f"it is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise FileRefusedError(
                f"it is too large ({size_text(info.st_size)}; the limit is {size_text(limit)})"
            )
        # A regular file never blocks, but clear O_NONBLOCK anyway for clarity of reads.
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
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
