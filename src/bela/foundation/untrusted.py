"""The one gate for text from outside: quoted, printable, one line, short, never markup.

Text that came from a file (a record's keys and values, the history index), a
path, an OS error, the network (a player's name, a chat line, a host's reason),
the environment or the user can hold anything: terminal escape sequences that
retitle or clear the terminal (ESC, CSI, OSC), C1 controls that some terminals
obey as ESC does, bidirectional overrides that make a name read as another,
newlines that split a "one-line" message, ten million characters, or
Textual/Rich markup such as ``[@click=...]`` or ``[/]``. Every such text reaches
the screen or the terminal through one of these:

- ``oneline(text)`` / ``shown(text)`` / ``shown_path(path)``: plain text for a
  terminal or a message, controls made visible (``\x1b``, ``\u202e``) and cut
  to a length; ``shown`` adds quotes, ``shown_path`` leaves ordinary paths bare;
- ``as_text(text)``: the same as a Rich ``Text`` (which Rich and Textual never
  read as markup), for tables, rules, titles and ``Static`` widgets;
- ``as_markup(text)``: the same with Rich markup escaped, for the few places
  that take a markup string (a progress bar's description, a markup template);
- ``json_for_terminal(json_text)``: ``--json`` output, the same JSON with every
  such character written as a ``\\uXXXX`` escape.

Standard library only at import time, so the engine's neighbours, the command
line and the app's first screen can all use it; Rich is imported by the two
functions that build Rich objects, when they are first called.
"""

from __future__ import annotations

import os
import re
import unicodedata
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from rich.style import Style
    from rich.text import Text

__all__ = [
    "MESSAGE_LIMIT",
    "NAME_LIMIT",
    "QUOTE_LIMIT",
    "as_markup",
    "as_text",
    "json_for_terminal",
    "oneline",
    "shown",
    "shown_path",
]

QUOTE_LIMIT: Final = 80
"""The most characters of one quoted piece of untrusted text that a message shows."""

MESSAGE_LIMIT: Final = 400
"""The most characters of a whole message built around untrusted text."""

NAME_LIMIT: Final = 24
"""The most characters of a player's name as shown (what a record or the network allows)."""

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


def as_text(text: object, limit: int = MESSAGE_LIMIT, style: str | Style = "") -> Text:
    """``text`` as a Rich ``Text`` of one safe line (``oneline``): never read as markup.

    For every Rich or Textual place that shows outside text: a table cell, a
    ``Rule`` or table title (which read a plain ``str`` as markup), a ``Static``.
    """
    from rich.text import Text

    return Text(oneline(text, limit), style=style)


def as_markup(text: object, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` as one safe line (``oneline``) with Rich markup escaped, for a markup string.

    Only where an API takes markup and nothing else (a progress bar's column
    template); everywhere else ``as_text`` is the safer form.
    """
    return _escape_markup(oneline(text, limit))


_BRACKET: Final = re.compile(r"(\\*)\[")


def _escape_markup(text: str) -> str:
    """``text`` escaped so that Rich's markup shows every character of it.

    ``rich.markup.escape`` escapes only brackets that would open a tag, and leaves a
    backslash before any other bracket, which Rich then eats (``\\[`` shows ``[``).
    Here each bracket is escaped the way Rich's parser reads it there: before a tag,
    the backslashes are doubled and one more escapes the tag; before anything else,
    one more backslash stands for the one Rich removes. Trailing backslashes are
    doubled so a tag a template puts after the text stays a tag.
    """
    from rich.markup import RE_TAGS

    def bracket(match: re.Match[str]) -> str:
        slashes = match.group(1)
        if RE_TAGS.match(text, match.start()):
            return slashes * 2 + "\\["
        return slashes + "\\[" if slashes else "["

    escaped = _BRACKET.sub(bracket, text)
    trailing = len(escaped) - len(escaped.rstrip("\\"))
    return escaped + "\\" * trailing


_NOT_PRINTABLE_ASCII: Final = re.compile("[^\n\x20-\x7e]")


def _json_escape(char: str) -> str:
    if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs") and char != "\n":
        # the ASCII escape of the one character (a surrogate pair above U+FFFF)
        return "".join(f"\\u{unit:04x}" for unit in _utf16_units(char))
    return char


def _utf16_units(char: str) -> list[int]:
    data = char.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


def json_for_terminal(text: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with every character a terminal
    would act on written as its ``\\uXXXX`` escape: the same JSON, safe to print.

    ``json.dumps`` escapes only C0 controls; a C1 control, a bidirectional override
    or a lone surrogate (a file name that is not UTF-8) inside a string would reach
    the terminal raw, or fail to encode. Letters of every language stay as they are.
    """
    return _NOT_PRINTABLE_ASCII.sub(lambda found: _json_escape(found.group()), text)
