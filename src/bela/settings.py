"""The player's settings, remembered between runs (issue #13).

Target, difficulty, bot speed, automatic bela, theme, reduced motion and the
house rules live in ``settings.json`` in the user's config directory
(``platformdirs.user_config_dir("bela")``, or ``$BELA_CONFIG_DIR`` when set, as
tests do). The file is small and versioned (``schema_version``).

Why plain ``json`` and hand-written checks rather than pydantic, which the
records use: the settings are read before the start screen is drawn, and
pydantic costs that first paint a noticeable import (issue #12; a test checks
that ``bela`` reaches its start screen without importing it). Nine fields of
plain types are checked in a few lines.

Nothing here ever raises into the app, and nothing is ever deleted:

- a file that cannot be used (damaged, wrong types, written by a newer bela,
  special or unreadable) is renamed aside as
  ``settings.<kind>-<timestamp>.json`` and the app starts on the defaults, with
  one line saying so;
- a file that cannot even be moved aside is left where it is, and nothing is
  saved over it for this run;
- saving is atomic (temp file in the same directory, fsync, ``os.replace``); a
  failure is returned as one line for the app to show once.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Final

import platformdirs

from bela.deck import DECKS, FRENCH
from bela.engine.rules import DEFAULT_RULES, STIGLJA_BONUSES, TARGETS, Rules
from bela.foundation.files import (
    move_aside,
    read_limited,
    remove_stale_temps,
    replace_atomically,
)
from bela.foundation.numbers import load_json, number_in, whole_in
from bela.foundation.untrusted import oneline, shown, shown_path
from bela.i18n import LANGUAGES, N_, _, in_every_language, ngettext

__all__ = [
    "CONFIG_DIR_ENV",
    "DEFAULT_BOT_NAMES",
    "DEFAULT_THEME",
    "DIFFICULTIES",
    "MAX_BOT_DELAY",
    "NAME_LIMIT",
    "RULE_CHOICES",
    "SCHEMA_VERSION",
    "SETTINGS_NAME",
    "Loaded",
    "NewerSettingsError",
    "RuleChoice",
    "Settings",
    "SettingsError",
    "SettingsStore",
    "clean_bot_name",
    "clean_name",
    "config_dir",
    "load_settings",
    "parse_settings",
    "rule_label",
    "rule_names",
    "rules_summary",
    "save_settings",
    "saved_bot_names",
    "saved_deck",
    "saved_language",
    "saved_player_name",
    "settings_path",
    "stored_rule_name",
]

CONFIG_DIR_ENV: Final = "BELA_CONFIG_DIR"
SETTINGS_NAME: Final = "settings.json"
SCHEMA_VERSION: Final = 1
SIZE_LIMIT: Final = 64 * 1024
STALE_TEMP_SECONDS: Final = 60.0
"""A settings temp file older than this is a cut-short save's (a save takes milliseconds)."""
_TEMP_PREFIX: Final = ".settings."
"""A settings file is about 500 bytes; anything over this is not one."""

DIFFICULTIES: Final = ("easy", "normal", "hard")
MAX_BOT_DELAY: Final = 5.0
"""The longest pause before a bot's card a file may ask for (the app offers up to 1.2 s)."""
DEFAULT_THEME: Final = "textual-dark"
_THEME_LIMIT: Final = 64
NAME_LIMIT: Final = 16
"""The longest name a player or a bot may have (characters): it fits the table's seat badges."""
DEFAULT_BOT_NAMES: Final = ("Ivo", "Marko", "Ana")
"""The bots at seats 1 (right), 2 (partner) and 3 (left) until the player names them."""


def clean_name(text: str, *, empty: bool = False) -> str:
    """A name as the app keeps it: printable characters only, trimmed, 1 to ``NAME_LIMIT`` long.

    Names are the player's own text: they are shown as text, never as markup.
    ``empty``: "" is allowed (the player's own name, not set). ``ValueError`` with a
    one-line message in the player's language otherwise.
    """
    cleaned = "".join(ch for ch in text if ch.isprintable()).strip()
    if (cleaned or not empty) and not 1 <= len(cleaned) <= NAME_LIMIT:
        raise ValueError(
            _("a name is 1 to {limit} characters, not {text}").format(
                limit=NAME_LIMIT, text=shown(text, 30)
            )
        )
    return cleaned


def clean_bot_name(text: str) -> str:
    """A bot's name as ``clean_name`` keeps it, and not the table's word for the player
    ("You", "Ti", "Tú", ... in any shipped language): three seats called "You" would
    make every sentence about them a riddle. ``ValueError`` in one line otherwise."""
    name = clean_name(text)
    if name.casefold() in {w.casefold() for w in in_every_language("seat", "You")}:
        raise ValueError(
            _("a bot cannot be called {name}: that is what the table calls you").format(
                name=shown(name, 30)
            )
        )
    return name


@dataclass(frozen=True, slots=True)
class RuleChoice:
    """One house rule as the app offers it: its field, its ``--rules`` id, and words.

    ``short`` is the rule's one name wherever a match's rules are listed (start
    screen, score panel, blok, history, replay, arena); ``label`` says what it does
    where it is switched (settings, palette, help). ``name`` is for ``--rules`` only.
    """

    field: str
    name: str
    label: str
    short: str
    value: bool | int = True
    """The value the rule sets (``stiglja_bonus`` is 100, every other field True)."""


RULE_CHOICES: Final = (
    RuleChoice(
        "bela_on_second",
        "bela-second",
        N_("Bela said with the second of trump {king} and {queen}"),
        N_("bela with the second card"),
    ),
    RuleChoice(
        "no_zvanja", "no-zvanja", N_("No zvanja (no declarations, nor belot)"), N_("no zvanja")
    ),
    RuleChoice(
        "no_bela", "no-bela", N_("No bela (trump {king} and {queen} score nothing)"), N_("no bela")
    ),
    RuleChoice(
        "bela_always_counts",
        "bela-always",
        N_("Bela se uvijek piše (fallers keep bela)"),
        N_("bela se uvijek piše"),
    ),
    RuleChoice(
        "stiglja_bonus",
        "stiglja-100",
        N_("Štiglja is worth 100, not 90"),
        N_("štiglja 100"),
        100,
    ),
    RuleChoice("dosta", "dosta", N_("Na dosta (a right claim ends the match)"), N_("na dosta")),
    RuleChoice("visi", "visi", N_("Visi (an exact tie hangs)"), N_("visi")),
    RuleChoice(
        "tens_over_kings",
        "tens-over-kings",
        N_("Four tens beat four {kings} and {queens}"),
        N_("tens over kings"),
    ),
    RuleChoice(
        "clockwise",
        "clockwise",
        N_("Play goes clockwise (seats drawn the other way)"),
        N_("clockwise"),
    ),
    RuleChoice(
        "hide_played_tricks",
        "hide-tricks",
        N_("No looking at played tricks (l is off)"),
        N_("no looking back"),
    ),
    RuleChoice(
        "no_forced_trump",
        "no-forced-trump",
        N_("No forced trump (a foreign variant)"),
        N_("no forced trump"),
    ),
)
"""Every house rule, with the name ``bela play --rules`` takes (a test keeps them equal)."""


def rule_label(choice: RuleChoice) -> str:
    """What a house rule does (``RuleChoice.label``) in the player's language, its cards
    named in the deck in use: "trump K and Q" are hr mađarice's "adutski K i B", "four
    kings and queens" their "četiri kralja i babe" (issue #35)."""
    from bela.engine.cards import Rank
    from bela.wording import rank_plural, rank_text

    return _(choice.label).format(
        king=rank_text(Rank.KING),
        queen=rank_text(Rank.QUEEN),
        kings=rank_plural(Rank.KING),
        queens=rank_plural(Rank.QUEEN),
    )


def rule_names(rules: Rules) -> list[str]:
    """The one name of each house rule that differs from the standard game, in the
    player's language (``RuleChoice.short``), in the order the settings list them."""
    return [_(c.short) for c in RULE_CHOICES if getattr(rules, c.field) == c.value]


def stored_rule_name(stored: str) -> str:
    """A rule as the history's index keeps it (``dosta``, ``stiglja_bonus=100``: the engine's
    field names, ``Rules.changed``) by its one name; an unknown one (from a newer bela) as it is."""
    field_name, _sep, value = stored.partition("=")
    for choice in RULE_CHOICES:
        if choice.field == field_name and (not value or value == str(choice.value)):
            return _(choice.short)
    return stored


def rules_summary(rules: Rules) -> str:
    """The house rules in a few words: ``standard``, or the names of those that differ."""
    names = rule_names(rules)
    return ", ".join(names) if names else _("standard")


@dataclass(frozen=True, slots=True)
class Settings:
    """What the player chose last; ``Settings()`` is a first run's."""

    target: int = 1001
    difficulty: str = "normal"
    bot_delay: float = 0.5
    auto_bela: bool = True
    always_declare: bool = True
    player_name: str = ""
    """The player's own name at a network table and in the records ("" = not given)."""
    bot_names: tuple[str, str, str] = DEFAULT_BOT_NAMES
    """The bots' names at seats 1, 2 (the partner) and 3, wherever a seat is named."""
    """Zvanja declared for the player; False asks at his first card whether to keep them back."""
    theme: str = DEFAULT_THEME
    reduced_motion: bool = False
    turn_bell: bool = False
    """Ring the terminal's bell when it becomes the player's turn at a network table, and
    again when the turn has waited ``NetTableScreen.BELL_AGAIN`` seconds."""
    rules: Rules = field(default=DEFAULT_RULES)
    language: str = ""
    """A shipped language's code (``bela.i18n.LANGUAGES``), or "" for the system's."""
    deck: str = FRENCH
    """The cards as a person sees them (``bela.deck``): ``french`` or ``german`` (mađarice)."""
    keymap: tuple[tuple[str, str], ...] = ()
    """The player's own keys, by binding id (``{"hint": "f12"}`` in the file): written by
    hand, checked when the app starts (``bela.keys.checked_keymap``)."""

    def to_json(self) -> str:
        """The file's text: every field, the house rules by their ``Rules`` field names."""
        data: dict[str, object] = {"schema_version": SCHEMA_VERSION}
        for item in fields(self):
            if item.name == "keymap":
                data[item.name] = dict(self.keymap)
            elif item.name != "rules":
                data[item.name] = getattr(self, item.name)
        data["rules"] = {item.name: getattr(self.rules, item.name) for item in fields(Rules)}
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


class SettingsError(ValueError):
    """A settings file that cannot be used; the message is the reason, one line, in the
    language in use when the file is read (it goes into the notice the player reads)."""


def _is_bool(value: object) -> bool:
    return value is True or value is False


def _is_name(value: str, *, empty: bool = False, bot: bool = False) -> bool:
    """A name as ``clean_name`` (``clean_bot_name``) keeps it, already clean (a file holds
    what the app wrote)."""
    try:
        return (clean_bot_name(value) if bot else clean_name(value, empty=empty)) == value
    except ValueError:
        return False


def _check_rules(raw: object) -> Rules:
    if not isinstance(raw, dict):
        raise SettingsError(_("'rules' is not an object"))
    known = {item.name for item in fields(Rules)}
    unknown = sorted(str(key) for key in raw if key not in known)
    if unknown:
        raise SettingsError(_("unknown house rule {name}").format(name=shown(unknown[0])))
    values: dict[str, bool | int] = {}
    for name, value in raw.items():
        if name == "stiglja_bonus":
            if whole_in(value, 0, 1000) not in STIGLJA_BONUSES:
                raise SettingsError(
                    _("stiglja_bonus is 90 or 100, not {value}").format(value=shown(value))
                )
        elif not _is_bool(value):
            raise SettingsError(
                _("house rule {rule} is true or false, not {value}").format(
                    rule=name, value=shown(value)
                )
            )
        values[name] = value
    return Rules(**values)


_KEYMAP_LIMIT: Final = 64


def _check_keymap(raw: object) -> tuple[tuple[str, str], ...]:
    """The keymap's shape: an object of short one-line strings. Which ids and keys can be
    used is the app's to say (``bela.keys.checked_keymap``), a remap at a time."""
    if not isinstance(raw, dict) or len(raw) > _KEYMAP_LIMIT:
        raise SettingsError(
            ngettext(
                "'keymap' is not an object of at most {count} key",
                "'keymap' is not an object of at most {count} keys",
                _KEYMAP_LIMIT,
            ).format(count=_KEYMAP_LIMIT)
        )
    for name, value in raw.items():
        if not (isinstance(value, str) and 0 < len(value) <= 32 and value.isprintable()):
            raise SettingsError(
                _("keymap {name} cannot be {value}").format(name=shown(name), value=shown(value))
            )
        if not (0 < len(name) <= 32 and name.isprintable()):
            raise SettingsError(
                _("keymap has the unusable binding id {name}").format(name=shown(name))
            )
    return tuple((str(k), str(v)) for k, v in raw.items())


def parse_settings(data: bytes) -> Settings:
    """Settings from a file's bytes, every value checked; raises ``SettingsError``.

    A key left out takes its default (a hand-edited file may be short); an unknown
    key, a wrong type or a value out of range makes the whole file unusable: a
    half-believed file would be harder to explain than defaults.
    """
    try:
        raw = load_json(data)
    except ValueError as exc:
        raise SettingsError(
            _("it is not JSON ({reason})").format(reason=oneline(exc, 80))
        ) from None
    if not isinstance(raw, dict):
        raise SettingsError(_("it is not a JSON object"))
    version = raw.get("schema_version")
    if whole_in(version, 1, 2**31) is None:
        raise SettingsError(
            _("schema_version is {value}, not a version").format(value=shown(version))
        )
    assert isinstance(version, int)
    if version > SCHEMA_VERSION:
        raise NewerSettingsError(
            _(
                "it was written by a newer bela (schema_version {version}; this one reads {known})"
            ).format(version=version, known=SCHEMA_VERSION)
        )
    defaults = Settings()
    values: dict[str, object] = {}
    for key, value in raw.items():
        if key == "schema_version":
            continue
        if key == "target":
            ok = whole_in(value, 1, 2**31) in TARGETS
        elif key == "difficulty":
            ok = value in DIFFICULTIES
        elif key == "bot_delay":
            ok = number_in(value, 0, MAX_BOT_DELAY) is not None
        elif key in ("auto_bela", "always_declare", "reduced_motion", "turn_bell"):
            ok = _is_bool(value)
        elif key == "theme":
            ok = isinstance(value, str) and 0 < len(value) <= _THEME_LIMIT and value.isprintable()
        elif key == "language":
            ok = value == "" or value in LANGUAGES
        elif key == "deck":
            ok = value in DECKS
        elif key == "player_name":
            ok = isinstance(value, str) and _is_name(value, empty=True)
        elif key == "bot_names":
            ok = (
                isinstance(value, list)
                and len(value) == 3
                and all(isinstance(v, str) and _is_name(v, bot=True) for v in value)
            )
            if ok:
                assert isinstance(value, list)
                values[key] = tuple(clean_name(v) for v in value)
                continue
        elif key == "rules":
            values["rules"] = _check_rules(value)
            continue
        elif key == "keymap":
            values["keymap"] = _check_keymap(value)
            continue
        else:
            raise SettingsError(_("unknown setting {name}").format(name=shown(key)))
        if not ok:
            raise SettingsError(
                _("{setting} cannot be {value}").format(setting=key, value=shown(value))
            )
        values[key] = float(value) if key == "bot_delay" else value
    return replace(defaults, **values)  # type: ignore[arg-type]


class NewerSettingsError(SettingsError):
    """A file from a newer bela: set aside like a damaged one (this bela cannot read it)."""


def config_dir() -> Path:
    """Where the settings live (not created until they are first saved)."""
    override = os.environ.get(CONFIG_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_config_dir("bela"))


def settings_path() -> Path:
    return config_dir() / SETTINGS_NAME


@dataclass(frozen=True, slots=True)
class Loaded:
    """What ``load_settings`` found: the settings, a notice to show, and whether to save."""

    settings: Settings
    notice: str | None = None
    writable: bool = True
    """False when a file that could not be used could not be moved aside either."""
    found: bool = False
    """Whether the settings came from a file (a first run, or one after a bad file, has none)."""


def saved_language() -> str | None:
    """The language in the settings file, or None; reads only, never moves a bad file aside.

    The command line needs the language before it parses its arguments (its
    ``--help`` is translated), long before the app loads the settings for good.
    """
    try:
        raw = load_json(read_limited(settings_path(), SIZE_LIMIT))
    except (OSError, ValueError):
        return None
    language = raw.get("language") if isinstance(raw, dict) else None
    return language if isinstance(language, str) and language in LANGUAGES else None


def saved_deck() -> str | None:
    """The deck in the settings file (``bela.deck``), or None; reads only, like
    ``saved_language`` (the command line draws its cards in it unless ``--deck`` says)."""
    try:
        raw = load_json(read_limited(settings_path(), SIZE_LIMIT))
    except (OSError, ValueError):
        return None
    deck = raw.get("deck") if isinstance(raw, dict) else None
    return deck if isinstance(deck, str) and deck in DECKS else None


def saved_bot_names() -> tuple[str, str, str]:
    """The bots' names in the settings file, else the defaults; reads only, like
    ``saved_language`` (``bela replay``, ``analyze`` and ``puzzles`` name the seats with
    them, as the app does)."""
    try:
        data = read_limited(settings_path(), SIZE_LIMIT)
        return parse_settings(data).bot_names
    except (OSError, SettingsError):
        return DEFAULT_BOT_NAMES


def saved_player_name() -> str:
    """The player's name in the settings file, or ""; reads only, like ``saved_language``
    (the command line's ``bela host`` and ``bela join`` name the player with it)."""
    try:
        data = read_limited(settings_path(), SIZE_LIMIT)
        return parse_settings(data).player_name
    except (OSError, SettingsError):
        return ""


def load_settings() -> Loaded:
    """The saved settings, or the defaults (with a one-line notice when a file was unusable).

    Temp files of saves that a kill cut short are removed first, as the autosave's are
    when its slot is claimed; with no lock on the settings, only those old enough that
    no other window can still be writing them (``STALE_TEMP_SECONDS``).
    """
    path = settings_path()
    remove_stale_temps(path.parent, _TEMP_PREFIX, STALE_TEMP_SECONDS)
    try:
        data = read_limited(path, SIZE_LIMIT)
    except FileNotFoundError:
        return Loaded(Settings())
    except OSError as exc:
        return _set_aside(path, "unreadable", oneline(exc.strerror or exc, 120))
    try:
        return Loaded(parse_settings(data), found=True)
    except NewerSettingsError as exc:
        return _set_aside(path, "newer", str(exc))
    except SettingsError as exc:
        return _set_aside(path, "corrupt", str(exc))


def _set_aside(path: Path, kind: str, reason: str) -> Loaded:
    try:
        aside = move_aside(path, kind)
    except OSError as exc:
        why = oneline(exc.strerror or exc, 120)
        return Loaded(
            Settings(),
            oneline(
                _(
                    "Settings in {path} could not be used ({reason}) nor moved aside ({why}): "
                    "playing on the defaults, and this run's changes are not saved."
                ).format(path=shown_path(path), reason=reason, why=why)
            ),
            writable=False,
        )
    return Loaded(
        Settings(),
        oneline(
            _(
                "Settings could not be used ({reason}); the file was moved to {path} "
                "and the defaults are in use."
            ).format(reason=reason, path=shown_path(aside))
        ),
    )


def save_settings(settings: Settings) -> str | None:
    """Write the settings atomically; returns a one-line problem, or None when saved."""
    path = settings_path()
    try:
        replace_atomically(path, settings.to_json(), _TEMP_PREFIX)
    except OSError as exc:
        why = oneline(exc.strerror or exc, 120)
        return oneline(
            _("could not save the settings in {path}: {why}").format(
                path=shown_path(path.parent), why=why
            )
        )
    return None


class SettingsStore:
    """The settings on disk for one run: what is saved, and whether saving still works.

    The app changes one setting at a time (``change``): only that one is written,
    on top of what the file held, so a setting given on the command line for one
    run is not saved unless the player changes it in the app. A failure to save
    is reported once (the same problem is not repeated after every change).
    """

    def __init__(self, loaded: Loaded) -> None:
        self.saved = loaded.settings
        self.notice = loaded.notice
        self.writable = loaded.writable
        self.found = loaded.found
        self._problem: str | None = None

    @classmethod
    def load(cls) -> SettingsStore:
        return cls(load_settings())

    def change(self, **values: object) -> str | None:
        """Save these settings; returns a problem to show, only the first time it happens."""
        updated = replace(self.saved, **values)  # type: ignore[arg-type]
        if updated == self.saved:
            return None
        self.saved = updated
        if not self.writable:
            return None  # already said at startup
        problem = save_settings(updated)
        if problem == self._problem:
            return None
        self._problem = problem
        return problem
