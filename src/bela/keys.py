"""Every key a player can press, in one table per language: the F1 help and the README show it.

Most keys are the same everywhere (arrows, 1-8, Enter, Space, F1-F4). The
letters are not: a Croatian player names trump by the suits' own initials, h
(herc), k (karo), p (pik), t (tref), so "dalje" and "dosta" need other letters
there than in English, where p passes and k says dosta. ``LETTERS`` holds each
language's letters for every lettered action; ``bind_letters`` binds a screen's
letters in the language in use (again when the player switches it), and a test
checks that in no language two actions of one moment (``Letter.moments``) share
a letter. With the mađarice deck (``bela.deck``) the suits' letters follow the German
suits' names (``GERMAN_SUIT_LETTERS``: hr s u t ž), checked the same way.

The help screen renders ``help_lines()`` in the language in use; the README's
tables are ``readme_table()`` and ``readme_letters_table()`` word for word, and a
test checks that they are, and that every key bound anywhere at the table is
listed here. So a new key cannot be added without being documented in both places.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bela.deck import GERMAN, current_deck
from bela.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, current_language

if TYPE_CHECKING:
    from textual.dom import DOMNode

__all__ = [
    "APP_LETTERS",
    "GERMAN_SUIT_LETTERS",
    "KEYS",
    "LETTERS",
    "MOMENTS",
    "Key",
    "Letter",
    "bid_keys",
    "bind_letters",
    "checked_keymap",
    "help_lines",
    "key_table",
    "letter",
    "letters_of",
    "readme_letters_table",
    "readme_table",
]


@dataclass(frozen=True, slots=True)
class Letter:
    """A lettered action: the Textual action it runs, its footer word, and the moments
    (``MOMENTS``) in which its letter must mean nothing else."""

    action: str
    label: str
    moments: frozenset[str]
    show: bool = False


MOMENTS: Final = ("bidding", "playing", "summary", "lobby", "over", "puzzle")
"""The moments a key can act in: naming trump, playing, a round's summary, a network
lobby, a network table whose match is over, a puzzle (F6)."""

_TABLE: Final = frozenset({"bidding", "playing"})
_ANYWHERE: Final = frozenset(MOMENTS)
_AT_TABLES: Final = _ANYWHERE - {"puzzle"}
_NAMING: Final = frozenset({"bidding", "puzzle"})
_PUZZLE: Final = frozenset({"puzzle"})

ACTIONS: Final = {
    "hearts": Letter("bid(0)", N_("Hearts"), _NAMING),
    "diamonds": Letter("bid(1)", N_("Diamonds"), _NAMING),
    "spades": Letter("bid(2)", N_("Spades"), _NAMING),
    "clubs": Letter("bid(3)", N_("Clubs"), _NAMING),
    "pass": Letter("bid(4)", N_("Dalje"), _NAMING),
    "dosta": Letter("claim", N_("Dosta"), frozenset({"playing"})),
    "last_trick": Letter("last_trick", N_("Last trick"), _TABLE, show=True),
    "hint": Letter("hint", N_("Hint"), _TABLE, show=True),
    "new_match": Letter("app.new_match", N_("New match"), _TABLE),
    "analysis": Letter("analyse", N_("Analysis"), frozenset({"summary"}), show=True),
    "bot_seat": Letter("bot_seat", N_("Bot in my seat"), frozenset({"summary"}), show=True),
    "review": Letter("review", N_("Review"), frozenset({"summary"}), show=True),
    "sheet": Letter("score_sheet", N_("Blok"), _ANYWHERE),
    "settings": Letter("settings", N_("Settings"), _ANYWHERE),
    "start": Letter("start", N_("Start"), frozenset({"lobby"}), show=True),
    "talk": Letter("talk", N_("Talk"), _AT_TABLES, show=True),
    # a network table's own: another match at the end, a watcher shown a hand, the host's
    # controls (w, x and z stay out of the footer at 80 columns; the table talk names them)
    "again": Letter("again", N_("Još jednu"), frozenset({"over"}), show=True),
    "show_hand": Letter("show_hand", N_("Show a watcher"), _TABLE),
    "move": Letter("control('move')", N_("Move players"), frozenset({"lobby"}), show=True),
    "to_bot": Letter("control('bot')", N_("Seat to a bot"), _TABLE),
    "pause": Letter("pause", N_("Pause"), _TABLE),
    # the puzzles (F6): the suits and dalje answer a bid puzzle as they bid at the table
    "puzzle_next": Letter("next_puzzle", N_("Next"), _PUZZLE, show=True),
    "puzzle_theme": Letter("theme", N_("Theme"), _PUZZLE, show=True),
    "puzzle_daily": Letter("daily", N_("Daily"), _PUZZLE, show=True),
    "puzzle_rating": Letter("rating", N_("Rating"), _PUZZLE, show=True),
    # after a miss: play on from the moment on the deal where the player's card loses most
    # (the explanation names the letter; the footer has no room for it at 80 columns)
    "puzzle_play": Letter("play_out", N_("Play it out"), _PUZZLE),
    "puzzle_modes": Letter("modes", N_("Streak or storm"), _PUZZLE),
}
"""Every lettered action, by the id ``LETTERS`` gives its letter under."""

APP_LETTERS: Final = ("sheet", "settings")
"""The lettered actions the app binds (on every screen)."""

_LATIN: Final = {
    "hearts": "h",
    "diamonds": "d",
    "spades": "s",
    "clubs": "c",
    "pass": "p",
    "dosta": "k",
    "last_trick": "l",
    "hint": "i",
    "new_match": "n",
    "analysis": "a",
    "bot_seat": "m",
    "review": "v",
    "sheet": "b",
    "settings": "o",
    "start": "g",
    "talk": "t",
    "again": "r",
    "show_hand": "w",
    "move": "m",
    "to_bot": "x",
    "pause": "z",
    "puzzle_next": "n",
    "puzzle_theme": "t",
    "puzzle_daily": "y",  # todaY's (d is diamonds)
    "puzzle_rating": "r",
    "puzzle_play": "g",  # Go on playing (p is dalje)
    "puzzle_modes": "m",
}
"""English's letters. Russian, Chinese and Arabic use them too: their suit names do not
start with a letter a terminal sends without switching the keyboard layout."""

LETTERS: Final[dict[str, dict[str, str]]] = {
    "en": _LATIN,
    # herc, karo, pik, tref; d for dalje, s for doSta, r for razgovor (t is tref)
    "hr": {
        **_LATIN,
        "hearts": "h",
        "diamonds": "k",
        "spades": "p",
        "clubs": "t",
        "pass": "d",
        "dosta": "s",
        "talk": "r",
        "again": "j",  # još jednu (r is razgovor)
        "puzzle_theme": "v",  # vrsta zadatka (t is tref)
        "puzzle_daily": "z",  # zadatak dana
        "puzzle_rating": "r",  # rejting (razgovor is not on the puzzles)
        "puzzle_play": "i",  # odigraj
    },
    # corazones, diamantes, picas, tréboles; s for paSo, h for hablar (t is tréboles)
    "es": {
        **_LATIN,
        "hearts": "c",
        "diamonds": "d",
        "spades": "p",
        "clubs": "t",
        "pass": "s",
        "talk": "h",
        "puzzle_theme": "e",  # tema (t is tréboles)
        "puzzle_daily": "y",  # el de hoY
        # puzzle_play: g, seGuir jugando (j is hoJas with mađarice)
    },
    "ru": _LATIN,
    "zh": _LATIN,
    "ar": _LATIN,
}
"""Each language's letter for every action in ``ACTIONS``."""


_GERMAN_LATIN: Final = {"hearts": "h", "diamonds": "e", "spades": "v", "clubs": "a"}
"""English's letters for mađarice's suits: hearts, bElls (b is the blok), leaVes (l is
the last trick), acorns; Russian, Chinese and Arabic use them too, as they use English's
letters for the French suits."""

GERMAN_SUIT_LETTERS: Final[dict[str, dict[str, str]]] = {
    "en": _GERMAN_LATIN,
    # srce, bUndeva (b is the blok), lisT (l is the last trick, i the hint), žir
    "hr": {"hearts": "s", "diamonds": "u", "spades": "t", "clubs": "ž"},
    # corazones, cAscabeles, hoJas (h is hablar), bellotaS... t (b, e, l, o are taken)
    "es": {"hearts": "c", "diamonds": "a", "spades": "j", "clubs": "t"},
    "ru": _GERMAN_LATIN,
    "zh": _GERMAN_LATIN,
    "ar": _GERMAN_LATIN,
}
"""With mađarice (``bela.deck``), the suits' letters follow the German suits' names
(issue #35); every other letter stays the language's. A test checks these for clashes
in every moment as it does ``LETTERS``."""


def letters_of(language: str | None = None, deck: str | None = None) -> dict[str, str]:
    """The letters of ``language`` (the one in use when None) with the suits' letters of
    ``deck`` (the one in use when None)."""
    code = language or current_language()
    table = LETTERS.get(code, _LATIN)
    if (deck or current_deck()) == GERMAN:
        return {**table, **GERMAN_SUIT_LETTERS.get(code, _GERMAN_LATIN)}
    return table


def letter(action: str, language: str | None = None) -> str:
    """The letter for ``action`` (an ``ACTIONS`` id) in ``language`` (the one in use)."""
    return letters_of(language)[action]


def bid_keys(language: str | None = None, deck: str | None = None) -> tuple[str, ...]:
    """The bid menu's keys in its order: the four suits (♥ ♦ ♠ ♣, or mađarice's), then dalje,
    in ``language`` and ``deck`` (those in use when None). The one source of the bid letters:
    the app binds them, and every command line reads them (``bela.bid_reading``)."""
    table = letters_of(language, deck)
    return tuple(table[a] for a in ("hearts", "diamonds", "spades", "clubs", "pass"))


def bind_letters(node: DOMNode, actions: Iterable[str]) -> None:
    """Bind ``actions``' letters on ``node`` in the language in use (call again after the
    player switches language: the letters bound before go, every other binding stays,
    the command palette's ``ctrl+p`` that Textual adds to the app at start-up included)."""
    bindings = node._bindings.copy()
    before: dict[str, str] = getattr(node, "_bela_letters", {})
    for key, action in before.items():
        kept = [b for b in bindings.key_to_bindings.get(key, []) if b.action != action]
        if kept:
            bindings.key_to_bindings[key] = kept
        else:
            bindings.key_to_bindings.pop(key, None)
    from textual.binding import Binding

    table = letters_of()
    added: dict[str, str] = {}
    for action in actions:
        spec = ACTIONS[action]
        # the binding's id is the action's (``ACTIONS``): the player's keymap in settings.json
        # remaps it by that id (``App.set_keymap``, checked first by ``checked_keymap``)
        binding = Binding(table[action], spec.action, spec.label, show=spec.show, id=action)
        bindings.key_to_bindings.setdefault(table[action], []).append(binding)
        added[table[action]] = spec.action
    setattr(node, "_bela_letters", added)  # noqa: B010 - a note on a Textual node
    node._bindings = bindings
    node.refresh_bindings()


_KEY_NAME: Final = re.compile(r"[a-z0-9_]+(\+[a-z0-9_]+)*|[A-Z]")
"""One key as Textual names it: ``x``, ``f12``, ``ctrl+b``, ``question_mark``, ``X``."""

_OTHER_KEYS: Final = (
    *(f"f{n}" for n in range(5, 11)),  # a network table's quick phrases (F5-F10)
    "escape",
    "tab",
    "shift+tab",
)
"""Keys the tables and screens bind that no row of ``KEYS`` names (besides those it does)."""


def checked_keymap(keymap: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The player's remaps (settings.json's ``keymap``: a binding id, the ``ACTIONS`` id,
    to a key) that can be used, and a one-line reason for each that cannot.

    A remap is used only when, in every language, its key does nothing else in any moment
    the action acts in (the same check as the shipped letters', ``Letter.moments``) and
    is none of the fixed keys (``KEYS``: arrows, 1-8, Enter, F1-F6, ...). One that is
    refused changes nothing: the action keeps its own letter. Remaps are taken in the
    order of ``ACTIONS``, each checked against those taken before it.
    """
    fixed = {name for key in KEYS for name in key.names} | set(_OTHER_KEYS)
    taken: dict[str, str] = {}
    problems: list[str] = []
    for action in sorted(keymap, key=lambda a: list(ACTIONS).index(a) if a in ACTIONS else -1):
        key = keymap[action]
        if action not in ACTIONS:
            problems.append(
                _("keymap: {id} is not a binding id (the README lists them); it is ignored").format(
                    id=repr(action[:40])
                )
            )
            continue
        if not _KEY_NAME.fullmatch(key) or len(key) > 32:
            problems.append(
                _(
                    "keymap: {key} for {id} is not one key's name (like f12, x or ctrl+b); "
                    "it is ignored"
                ).format(key=repr(key[:40]), id=action)
            )
            continue
        clash = _clash(action, key, taken, fixed)
        if clash is not None:
            problems.append(clash)
            continue
        taken[action] = key
    return taken, problems


def _clash(action: str, key: str, taken: Mapping[str, str], fixed: set[str]) -> str | None:
    """Why ``key`` cannot be ``action``'s, in the words of the player's language, or None."""
    label = _(ACTIONS[action].label)
    if key in fixed:
        return _(
            "keymap: {key} cannot be {action}: it is one of the table's own keys; {action} "
            "keeps its letter"
        ).format(key=key, action=label)
    for code in LANGUAGES:
        table = {**letters_of(code), **taken}
        for other, spec in ACTIONS.items():
            if other == action or table[other] != key:
                continue
            if spec.moments & ACTIONS[action].moments:
                return _(
                    "keymap: {key} cannot be {action}: in {language} it is {taken} already; "
                    "{action} keeps its letter"
                ).format(key=key, action=label, language=LANGUAGE_NAMES[code], taken=_(spec.label))
    return None


@dataclass(frozen=True, slots=True)
class Key:
    """One row: the key(s) as a player reads them, what they do, and Textual's key names.

    ``letters`` names ``ACTIONS`` whose letters (in the language in use) are
    keys of the row too: ``shown`` places them at ``{keys}`` (all of it when empty).
    """

    shown: str
    what: str
    names: tuple[str, ...] = ()
    letters: tuple[str, ...] = ()
    german: str = ""
    """What the row does in the words of mađarice (``bela.deck``), where they differ."""

    def says(self) -> str:
        """What the row does, in the language and the deck in use."""
        return _(self.german if self.german and current_deck() == GERMAN else self.what)

    def keys_shown(self, language: str | None = None) -> str:
        """The keys as the player reads them in ``language`` (the one in use when None)."""
        shown = _(self.shown) if language is None and self.shown else self.shown
        if not self.letters:
            return shown
        table = letters_of(language)
        keys = " ".join(table[a] for a in self.letters)
        return shown.format(keys=keys) if shown else keys

    def key_names(self, language: str | None = None) -> tuple[str, ...]:
        """Textual's names for the row's keys in ``language``."""
        table = letters_of(language)
        return (*self.names, *(table[a] for a in self.letters))


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
    Key(
        "",
        N_("name hearts, diamonds, spades or clubs as trump"),
        letters=("hearts", "diamonds", "spades", "clubs"),
        german=N_("name hearts, bells, leaves or acorns as trump (mađarice)"),
    ),
    Key("", N_('say "dalje" (pass)'), letters=("pass",)),
    Key(N_("Mouse"), N_("click a card to play it, click a bid to make it")),
    Key(N_("Space"), N_("skip the bots' wait; clear a finished trick from the table"), ("space",)),
    Key("", N_("look at the last trick again"), letters=("last_trick",)),
    Key(
        "",
        N_(
            'say "dosta" (house rule na dosta) on your lead after taking a trick: offered once '
            "the points counted reach the target, and asked once before it counts (the key "
            "again says it, Enter plays on); short of the target it only says how many points "
            "are missing"
        ),
        letters=("dosta",),
    ),
    Key(
        "",
        N_("hint: what the hard bot would play here and why; again shows the numbers behind it"),
        letters=("hint",),
    ),
    Key(
        "",
        N_(
            "on a round's summary: analysis of every card against the best play with all cards seen"
        ),
        letters=("analysis",),
    ),
    Key(
        "",
        N_(
            "on a round's summary or a round of the history: the same deal with the hard bot "
            "in your seat, side by side with how you played it"
        ),
        letters=("bot_seat",),
    ),
    Key(
        "",
        N_(
            "on a round's summary or a round of the history: a review of every card you "
            "played, against the hard bot from your cards"
        ),
        letters=("review",),
    ),
    Key("+ / −", N_("bots play faster / slower"), ("plus", "equals_sign", "minus")),
    Key(
        "",
        N_("new match (this one stays saved, so you can come back to it)"),
        letters=("new_match",),
    ),
    Key(
        "",
        N_("the full score sheet (blok): every round, pad, štiglja and belot marked"),
        letters=("sheet",),
    ),
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
    Key(
        "F6",
        N_("puzzles: find the one card or bid that is clearly right, rated as chess puzzles are"),
        ("f6",),
    ),
    Key(
        "",
        N_(
            "on the puzzles: the next puzzle, a theme, the daily puzzle, your rating's history, "
            "a streak or a storm, playing on after a miss"
        ),
        letters=(
            "puzzle_next",
            "puzzle_theme",
            "puzzle_daily",
            "puzzle_rating",
            "puzzle_modes",
            "puzzle_play",
        ),
    ),
    Key(N_("F1 or ?"), N_("rules and keys"), ("f1", "question_mark")),
    Key(
        N_("F2 or {keys}"),
        N_(
            "settings: target, bots, speed, bela, motion, theme and house rules (kept for next time)"  # noqa: E501
        ),
        ("f2",),
        letters=("settings",),
    ),
    Key("", N_("at a network table: start the match (in the lobby)"), letters=("start",)),
    Key("", N_("at a network table: write a line to the table"), letters=("talk",)),
    Key(
        "",
        N_("at a network table, once the match is over: ask for another (još jednu)"),
        letters=("again",),
    ),
    Key(
        "",
        N_("at a network table: choose a watcher who may see your hand; again hides it"),
        letters=("show_hand",),
    ),
    Key(
        "",
        N_(
            "the host of a network table: before the start, the key and two seats move players; "
            "during the match, the key and a seat hand an away player's seat to a bot"
        ),
        letters=("move", "to_bot"),
    ),
    Key("", N_("the host of a network table: pause the table, and go on"), letters=("pause",)),
    Key("Ctrl+P", N_("command palette"), ("ctrl+p",)),
    Key(
        "Ctrl+Q",
        N_("quit (the match is saved after every action and resumes where you left it)"),
        ("ctrl+q",),
    ),
)
"""In the order a newcomer needs them: playing a card first, the extras after."""


def help_lines() -> str:
    """The keys as a Markdown list in the language in use, for the help screen."""
    return "\n".join(f"- **{key.keys_shown()}**: {key.says()}" for key in KEYS)


def key_table() -> str:
    """The keys as a Markdown table in the current language (``README.hr.md`` holds the hr one)."""
    rows = ["| " + _("key") + " | " + _("what it does") + " |", "|---|---|"]
    rows += [f"| {key.keys_shown()} | {key.says()} |" for key in KEYS]
    return "\n".join(rows)


def readme_table() -> str:
    """The keys as the README's Markdown table (the README must contain it exactly).

    English, as the README is; ``README.hr.md`` has its own table.
    """
    rows = ["| key | what it does |", "|---|---|"]
    rows += [f"| {key.keys_shown('en')} | {key.what} |" for key in KEYS]
    return "\n".join(rows)


def readme_letters_table() -> str:
    """Each language's letters side by side, for the README (it must contain this exactly)."""
    head = "| | " + " | ".join(f"{LANGUAGE_NAMES[code]} (`{code}`)" for code in LANGUAGES) + " |"
    rows = [head, "|---" * (len(LANGUAGES) + 1) + "|"]
    for action, spec in ACTIONS.items():
        keys = " | ".join(LETTERS[code][action] for code in LANGUAGES)
        rows.append(f"| {spec.label} | {keys} |")
    german = {"hearts": "Hearts", "diamonds": "Bells", "spades": "Leaves", "clubs": "Acorns"}
    for action, name in german.items():
        keys = " | ".join(letters_of(code, GERMAN)[action] for code in LANGUAGES)
        rows.append(f"| {name} (mađarice) | {keys} |")
    return "\n".join(rows)
