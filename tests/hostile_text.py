"""Hostile strings for the gate's properties (issue #24), and the two checks on what is shown.

Each hostile string starts with a marker of its own (``⟦3.17⟧``) and a markup tag, then
anything: escape sequences (OSC that retitles, CSI that clears), C1 controls, bidi
overrides, more tags, and at times ten thousand characters. Wherever a view shows
the string it must show the tag literally, right after the marker (cut short at
most): markup read as markup would have eaten it. And nothing a terminal acts on
may be in any output at all, whether the view shows the string or not.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from hypothesis import strategies as st

TAGS = ("[/]", "[blink]", "[conceal]", "[link=file:x]", "[@click=app.quit]", "[bold]", "[/x]")
"""Markup tags: styles bela never uses, a link, an action, and two that raise MarkupError."""

SEQUENCES = (
    "\x1b]0;pwned\x07",  # OSC: the terminal's title
    "\x1b]8;;file:///etc/hosts\x1b\\",  # OSC 8: a hyperlink
    "\x1b[2J",  # CSI: clear the screen
    "\x1b[31m",
    "\x9b2J",  # C1 CSI
    "\x9d0;pwned\x9c",  # C1 OSC ... ST
    "\x85",  # C1 next line
    "\u202e",  # right-to-left override
    "\u2066",  # left-to-right isolate
    "\x07\r\n\t\x00\x7f",
    "\u2028",
)

_PIECE = st.one_of(
    st.sampled_from(SEQUENCES),
    st.sampled_from(TAGS),
    st.text(max_size=6),
    st.characters(min_codepoint=0x80, max_codepoint=0x9F),
    st.characters(min_codepoint=0x202A, max_codepoint=0x202E),
    st.characters(min_codepoint=0x2066, max_codepoint=0x2069),
)


_SERIAL = itertools.count()


@dataclass(frozen=True)
class Hostile:
    marker: str
    tag: str
    text: str

    def __str__(self) -> str:
        return self.text


def hostile(number: int, *, file_name: bool = False) -> st.SearchStrategy[Hostile]:
    """A hostile string with marker ``⟦number⟧``; ``file_name``: one a file may be named."""

    def build(tag: str, pieces: list[str], huge: bool) -> Hostile:
        # a marker no earlier example used: a view may still show those (the table talk)
        marker = f"⟦{number}.{next(_SERIAL)}⟧"
        tail = "".join(pieces) + ("\x1b[1m" + "W" * 10_000 if huge else "")
        text = marker + tag + tail
        if file_name:  # no / or NUL, and a name the file system takes (255 bytes)
            tag = tag.replace("/", "∕")
            text = text.replace("/", "∕").replace("\x00", "")
            text = text.encode("utf-8", "surrogatepass")[:200].decode("utf-8", "ignore")
            text += ".json"
        return Hostile(marker, tag, text)

    return st.builds(build, st.sampled_from(TAGS), st.lists(_PIECE, max_size=6), st.booleans())


def acted_on(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on (a newline ends a line: allowed)."""
    return [
        char
        for char in text
        if char != "\n" and unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs")
    ]


def assert_inert(text: str, where: str) -> None:
    found = acted_on(text)
    assert not found, f"{where}: {found[:5]!r} reached the output"


def assert_literal(text: str, items: list[Hostile], where: str, *, shown: bool = False) -> None:
    """Every marker in ``text`` is followed by its tag (or the start of it, where the view
    cut it short); with ``shown``, each item's whole tag is somewhere in ``text``."""
    flat = text.replace("\n", "")  # a narrow column may wrap: tags hold no spaces
    for item in items:
        whole = False
        for found in re.finditer(re.escape(item.marker), flat):
            after = flat[found.end() : found.end() + len(item.tag)]
            cut = re.split(r"[…\s│|]", after)[0]  # where the view cut it short, if it did
            assert item.tag.startswith(cut), f"{where}: {item.tag!r} read as markup: {after!r}"
            whole = whole or after == item.tag
        if shown:
            assert whole, f"{where}: {item.marker}{item.tag} is not shown"
