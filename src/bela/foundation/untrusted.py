"""Untrusted text as data: quoted, printable, one line, and short.

Text that came from a file (a record's keys and values), a path, an OS error,
the environment or the user can hold anything: terminal escape sequences that
retitle or clear the terminal, newlines that split a "one-line" message, ten
million characters, or Textual/Rich markup such as ``[@click=...]``. Every
message that quotes such text goes through ``shown`` (for plain-text output)
and is handed to Textual/Rich only as plain ``Text`` or with ``markup=False``.

This module has no dependencies so that the engine's neighbours, the command
line and the app can all use it.
"""

from __future__ import annotations

import os
import unicodedata
from typing import Final

__all__ = ["MESSAGE_LIMIT", "QUOTE_LIMIT", "oneline", "shown", "shown_path"]

QUOTE_LIMIT: Final = 80
"""The most characters of one quoted piece of untrusted text that a message shows."""

MESSAGE_LIMIT: Final = 400
"""The most characters of a whole message built around untrusted text."""

_ELLIPSIS: Final = "…"
# A backslash stays as it is: doubling it would garble every Windows path, and a
# literal "\x1b" typed into a name does the terminal no harm.
_NAMED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(char: str) -> str:
    """A visible stand-in for a character a terminal would act on, or the character itself."""
    named = _NAMED.get(char)
    if named is not None:
        return named
    # Cc: C0/C1 controls (ESC, CR, LF, BEL, ...). Cf: format characters, among them the
    # bidirectional overrides that make text read differently from how it is stored.
    # Zl/Zp: line and paragraph separators. Cs: lone surrogates from bad file names.
    if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        code = ord(char)
        if code <= 0xFF:
            return f"\\x{code:02x}"
        if code <= 0xFFFF:
            return f"\\u{code:04x}"
        return f"\\U{code:08x}"
    return char


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + _ELLIPSIS


def oneline(text: object, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` made safe to print as one line: controls escaped, cut to ``limit`` characters.

    For messages that are ours but carry pieces of outside text (an ``OSError``'s
    ``str`` holds the file name); it does not add quotes.
    """
    raw = str(text)
    # Escaping can only lengthen the text, so cut first (generously) to keep a huge
    # input from costing time and memory, then escape, then cut exactly.
    head = raw[: limit + 1]
    escaped = "".join(_escape_char(char) for char in head)
    if len(raw) > len(head):
        escaped += _ELLIPSIS * 2  # force a cut below even if escaping shortened nothing
    return _cut(escaped, limit)


def shown(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for a message: in quotes, controls escaped, cut to ``limit`` characters."""
    return "'" + oneline(text, limit).replace("'", "\\'") + "'"


def shown_path(path: str | os.PathLike[str]) -> str:
    """A file name for a message: unquoted when ordinary, quoted and escaped when not.

    Keeps everyday messages readable (``/home/ana/.local/share/bela/autosave.json``)
    while a name with control characters or of absurd length cannot reach the
    terminal as it is.
    """
    text = os.fspath(path)
    cleaned = oneline(text, 2 * QUOTE_LIMIT)
    if cleaned == text and "'" not in text:
        return text
    return shown(text, 2 * QUOTE_LIMIT)
