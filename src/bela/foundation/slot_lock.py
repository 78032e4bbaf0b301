"""An exclusive, non-blocking lock on a file, held for as long as a window is open.

Each bela window claims a save slot (``bela.archive.storage.claim_slot``) by locking a
small file beside it. The lock is the operating system's own: ``flock`` on
Unix, ``msvcrt.locking`` on Windows. The OS drops it when the process ends, even
by ``kill -9``, so a crash never leaves a slot taken; and on Linux two locks on
the same file conflict even inside one process (they belong to the open file,
not to the process), which lets the tests play two windows in one interpreter.

This is the few lines of ``filelock`` that bela needs, without its import cost
on the way to the first screen (about 60 ms of the start screen's 300).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path

__all__ = ["SlotLock"]

_BUSY = {errno.EAGAIN, errno.EACCES, getattr(errno, "EWOULDBLOCK", errno.EAGAIN)}


class SlotLock:
    """A lock file that one open file at a time may hold."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    @property
    def is_locked(self) -> bool:
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock if it is free; False if another holder has it.

        Raises ``OSError`` when the lock file cannot be created or opened (a
        read-only or missing directory).
        """
        if self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o600)
        try:
            _lock(fd)
        except OSError as exc:
            os.close(fd)
            if exc.errno in _BUSY:
                return False
            raise
        self._fd = fd
        return True

    def release(self) -> None:
        """Let go of the lock (the file stays: removing it could race another taker)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                _unlock(fd)
            os.close(fd)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
