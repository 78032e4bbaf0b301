"""Every key a player can press, in one table: the F1 help and the README both show it.

The help screen renders ``KEYS`` (``help_lines``); the README's key table is
``readme_table()`` word for word, and a test checks that it is, and that every
key bound on the table screen, the round summary and the app is listed here.
So a new key cannot be added without being documented in both places.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["KEYS", "Key", "help_lines", "readme_table"]


@dataclass(frozen=True, slots=True)
class Key:
    """One row: the key(s) as a player reads them, what they do, and Textual's key names."""

    shown: str
    what: str
    names: tuple[str, ...] = ()


KEYS: Final = (
    Key("← → (or ↑ ↓)", "move between cards, or between bids", ("left", "right", "up", "down")),
    Key(
        "1 – 8",
        "pick the card with that number (1 – 5 on the bid menu)",
        tuple(str(n) for n in range(1, 9)),
    ),
    Key(
        "Enter",
        "play the chosen card, or make the chosen bid; on a finished trick, only clear it",
        ("enter",),
    ),
    Key("h d s c", "name hearts, diamonds, spades or clubs as trump", ("h", "d", "s", "c")),
    Key("p", 'say "dalje" (pass)', ("p",)),
    Key("Mouse", "click a card to play it, click a bid to make it"),
    Key("Space", "skip the bots' wait; clear a finished trick from the table", ("space",)),
    Key("l", "look at the last trick again", ("l",)),
    Key(
        "k",
        'say "dosta" (house rule na dosta): after taking a trick, claim that mi have '
        "reached the target",
        ("k",),
    ),
    Key(
        "i",
        "hint: what the hard bot would play here and why; i again shows the numbers behind it",
        ("i",),
    ),
    Key(
        "a",
        "on a round's summary: analysis of every card against the best play with all cards seen",
        ("a",),
    ),
    Key("+ / −", "bots play faster / slower", ("plus", "equals_sign", "minus")),
    Key("n", "new match (this one stays saved, so you can come back to it)", ("n",)),
    Key("b", "the full score sheet (blok): every round, pad, štiglja and belot marked", ("b",)),
    Key(
        "F3",
        "history: every past match, step through one trick by trick, resume an unfinished one",
        ("f3",),
    ),
    Key("F4", "statistics of the matches played, with plots", ("f4",)),
    Key("F1 or ?", "rules and keys", ("f1", "question_mark")),
    Key(
        "F2 or o",
        "settings: target, bots, speed, bela, motion, theme and house rules (kept for next time)",
        ("f2", "o"),
    ),
    Key("Ctrl+P", "command palette", ("ctrl+p",)),
    Key(
        "Ctrl+Q",
        "quit (the match is saved after every action and resumes where you left it)",
        ("ctrl+q",),
    ),
)
"""In the order a newcomer needs them: playing a card first, the extras after."""


def help_lines() -> str:
    """The keys as a Markdown list, for the help screen."""
    return "\n".join(f"- **{key.shown}**: {key.what}" for key in KEYS)


def readme_table() -> str:
    """The keys as the README's Markdown table (the README must contain it exactly)."""
    rows = ["| key | what it does |", "|---|---|"]
    rows += [f"| {key.shown} | {key.what} |" for key in KEYS]
    return "\n".join(rows)
