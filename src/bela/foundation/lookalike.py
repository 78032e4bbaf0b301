"""Names that read the same: a skeleton to compare them by (issue #33).

At a table a name is how people tell who is who: a hand is shown to "Ana" because the
player reads "Ana" in the list. A watcher named with a Cyrillic "А", a zero-width space,
another case or a full-width letter reads as Ana too, so names are compared by their
*skeleton*, after Unicode's confusable detection (UTS #39) in small: compatibility forms
folded (NFKC: full-width and styled letters), case folded, invisible format characters
(zero-width spaces and joiners, bidi marks) and spaces dropped, accents kept apart from
their letter and dropped, and the Cyrillic and Greek letters that are drawn like Latin
ones read as those. Two names with one skeleton are one name at a table.

It errs towards "the same": a name refused as a look-alike is a small cost to a player,
a hand shown to the wrong person is not.
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["same_name", "skeleton"]

_LIKE_LATIN: Final = str.maketrans(
    {
        # Cyrillic drawn as Latin (lower case: the skeleton is case folded first)
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "ѕ": "s",
        "ԁ": "d",
        "һ": "h",
        "ԛ": "q",
        "ԝ": "w",
        "ӏ": "l",
        "ү": "y",
        # Greek drawn as Latin
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "i",
        "κ": "k",
        "μ": "u",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ω": "w",
        "ζ": "z",
        # Latin look-alikes of Latin
        "ı": "i",
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ð": "d",
        "ɡ": "g",
        "ſ": "s",
        "ß": "ss",
        "æ": "ae",
        "œ": "oe",
    }
)


def skeleton(name: str) -> str:
    """What ``name`` reads as: two names with one skeleton cannot both be at a table."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    parts = unicodedata.normalize("NFKD", folded)
    kept = "".join(
        ch
        for ch in parts
        if not unicodedata.combining(ch)  # accents: "Ána" reads as "Ana"
        and unicodedata.category(ch) not in ("Cf", "Cc", "Zl", "Zp")  # invisible ones
    )
    text = kept.translate(_LIKE_LATIN)
    return "".join(text.split())  # spaces of any kind count for nothing: "A na" is "Ana"


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` would be read as one name."""
    return skeleton(a) == skeleton(b)
