"""Every key a player can press, in one table: the F1 help and the README both show it.

The help screen renders ``KEYS`` (``help_lines``); the README's key table is
``readme_table()`` word for word, and a test checks that it is, and that every
key bound on the table screen, the round summary and the app is listed here.
So a new key cannot be added without being documented in both places.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bela.i18n import N_, _

__all__ = ["KEYS", "Key", "help_lines", "key_table", "readme_table"]


@dataclass(frozen=True, slots=True)
class Key:
    """One row: the key(s) as a player reads them, what they do, and Textual's key names."""

    shown: str
    what: str
    names: tuple[str, ...] = ()


KEYS: Final = (
    Key(
        N_("← → (or ↑ ↓)"),
        N_("move between cards, or between bids"),
        ("left", "right", "up", "down"),
    ),
    Key(
        "1 – 8",
        N_("pick the card with that number (1 – 5 on the bid menu)"),
        tuple(str(n) for n in range(1, 9)),
    ),
    Key(
        N_("Enter"),
        N_("play the chosen card, or make the chosen bid; on a finished trick, only clear it"),
        ("enter",),
    ),
    Key("h d s c", N_("name hearts, diamonds, spades or clubs as trump"), ("h", "d", "s", "c")),
    Key("p", N_('say "dalje" (pass)'), ("p",)),
    Key(N_("Mouse"), N_("click a card to play it, click a bid to make it")),
    Key(N_("Space"), N_("skip the bots' wait; clear a finished trick from the table"), ("space",)),
    Key("l", N_("look at the last trick again"), ("l",)),
    Key(
        "k",
        N_(
            'say "dosta" (house rule na dosta): after taking a trick, claim that mi have '
            "reached the target"
        ),
        ("k",),
    ),
    Key(
        "i",
        N_("hint: what the hard bot would play here and why; i again shows the numbers behind it"),
        ("i",),
    ),
    Key(
        "a",
        N_(
            "on a round's summary: analysis of every card against the best play with all cards seen"
        ),
        ("a",),
    ),
    Key(
        "m",
        N_(
            "on a round's summary or a round of the history: the same deal with the hard bot "
            "in your seat, side by side with how you played it"
        ),
        ("m",),
    ),
    Key("+ / −", N_("bots play faster / slower"), ("plus", "equals_sign", "minus")),
    Key("n", N_("new match (this one stays saved, so you can come back to it)"), ("n",)),
    Key("b", N_("the full score sheet (blok): every round, pad, štiglja and belot marked"), ("b",)),
    Key(
        "F3",
        N_("history: every past match, step through one trick by trick, resume an unfinished one"),
        ("f3",),
    ),
    Key("F4", N_("statistics of the matches played, with plots"), ("f4",)),
    Key(
        "F5",
        N_("the coach: where your written points went, and your three costliest habits"),
        ("f5",),
    ),
    Key(N_("F1 or ?"), N_("rules and keys"), ("f1", "question_mark")),
    Key(
        N_("F2 or o"),
        N_(
            "settings: target, bots, speed, bela, motion, theme and house rules (kept for next time)"  # noqa: E501
        ),
        ("f2", "o"),
    ),
    Key("Ctrl+P", N_("command palette"), ("ctrl+p",)),
    Key(
        "Ctrl+Q",
        N_("quit (the match is saved after every action and resumes where you left it)"),
        ("ctrl+q",),
    ),
)
"""In the order a newcomer needs them: playing a card first, the extras after."""


def help_lines() -> str:
    """The keys as a Markdown list, for the help screen."""
    return "\n".join(f"- **{_(key.shown)}**: {_(key.what)}" for key in KEYS)


def key_table() -> str:
    """The keys as a Markdown table in the current language (``README.hr.md`` holds the hr one)."""
    rows = ["| " + _("key") + " | " + _("what it does") + " |", "|---|---|"]
    rows += [f"| {_(key.shown)} | {_(key.what)} |" for key in KEYS]
    return "\n".join(rows)


def readme_table() -> str:
    """The keys as the README's Markdown table (the README must contain it exactly).

    English, as the README is; ``README.hr.md`` has its own table.
    """
    rows = ["| key | what it does |", "|---|---|"]
    rows += [f"| {key.shown} | {key.what} |" for key in KEYS]
    return "\n".join(rows)
