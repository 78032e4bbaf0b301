"""The host's log of what goes wrong: one line per kind of fault, never a flood.

A stranger can make the host fail the same way thousands of times a minute
(connections refused at a cap, an ``accept`` out of descriptors). Each kind of
fault is written once as one line, and then at most once a ``window``, with how
many more of it there were meanwhile; asyncio's own error reports (a traceback
each) come through here too, as one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TextIO

from bela.foundation.untrusted import oneline

__all__ = ["FaultLog"]

WINDOW: Final = 60.0


@dataclass(slots=True)
class FaultLog:
    """Lines for the host's operator, rate-limited by kind."""

    write: Callable[[str], None] | None = None
    """Where a line goes (None: standard error)."""
    window: float = WINDOW
    clock: Callable[[], float] = time.monotonic
    _last: dict[str, float] = field(default_factory=dict)
    _more: dict[str, int] = field(default_factory=dict)

    def report(self, kind: str, line: str) -> None:
        """Say ``line`` unless a line of this ``kind`` was said within the window."""
        now = self.clock()
        last = self._last.get(kind)
        if last is not None and now - last < self.window:
            self._more[kind] = self._more.get(kind, 0) + 1
            return
        more = self._more.pop(kind, 0)
        self._last[kind] = now
        if len(self._last) > 1000:  # kinds are ours, but stay bounded whatever comes
            self._last.clear()
        text = oneline(line, 300)
        if more:
            text += f" ({more} more like it since)"
        self._say(f"bela host: {text}")

    def _say(self, text: str) -> None:
        if self.write is not None:
            self.write(text)
            return
        stream: TextIO = sys.stderr
        with contextlib.suppress(OSError, ValueError):  # a closed or full stream
            print(text, file=stream, flush=True)

    def loop_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's error report (an ``accept`` that failed, a callback's exception) as
        one line by its kind, instead of a traceback each time."""
        exc = context.get("exception")
        message = str(context.get("message") or "error")
        kind = f"loop:{message[:60]}:{type(exc).__name__}"
        detail = f"{type(exc).__name__}: {exc}" if exc is not None else ""
        self.report(kind, f"{message} {detail}".strip())
