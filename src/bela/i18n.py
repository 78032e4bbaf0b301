"""The language bela speaks: gettext catalogs in ``bela/locale``, chosen once per run.

Every word a person reads goes through ``_`` (or ``ngettext`` for a count,
``pgettext`` when one English word needs two translations). The catalogs are
standard gettext: ``locale/<lang>/LC_MESSAGES/bela.po`` (what translators edit,
see docs/translating.md) compiled to ``bela.mo`` (what is read here). Both are
committed, and a test checks that every ``.mo`` says what its ``.po`` says, so a
fresh clone plays in every language without a build step; ``make messages``
extracts, updates and compiles them with Babel (a dev tool, never imported here).

Why a module of our own rather than ``gettext.install``: the language can change
while the app runs (settings, help screen), so ``_`` looks the catalog up at
each call instead of being bound once into builtins; and the choice follows a
fixed order: ``--lang``, then the settings, then ``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, then English. Loading is lazy (the first ``_`` call
reads one small ``.mo``), so importing this costs the start screen nothing.

Strings defined at import time (key tables, bindings, choices) are marked with
``N_`` (for the extractor only) and translated where they are shown.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Final

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "_",
    "current_language",
    "english",
    "environment_language",
    "is_rtl",
    "language_of",
    "ngettext",
    "npgettext",
    "pgettext",
    "set_language",
]

DOMAIN: Final = "bela"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
DEFAULT_LANGUAGE: Final = "en"
LANGUAGES: Final = ("en", "hr", "es", "ru", "zh", "ar")
"""The languages shipped, in the order the settings offer them."""
LANGUAGE_NAMES: Final = {
    "en": "English",
    "hr": "Hrvatski",
    "es": "Español",
    "ru": "Русский",
    "zh": "中文",
    "ar": "العربية",
}
"""Each language by its own name: a player who cannot read the current one finds theirs."""
RTL: Final = frozenset({"ar"})
ENV_VARIABLES: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_language: str = DEFAULT_LANGUAGE
_catalog: _gettext.NullTranslations | None = None


def language_of(value: str | None) -> str | None:
    """The shipped language a locale name means (``hr_HR.UTF-8`` -> ``hr``), or None.

    Accepts the forms people type and environments carry: ``hr``, ``HR``,
    ``hr_HR``, ``hr-HR``, ``hr_HR.UTF-8``, ``sr@latin``; ``C`` and ``POSIX`` mean
    no preference (None), as does anything not shipped.
    """
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if code in ("c", "posix", ""):
        return None
    base = code.split("_")[0]
    return base if base in LANGUAGES else None


def environment_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the environment asks for, in gettext's order, or None.

    ``LANGUAGE`` is a colon-separated list of preferences: its first shipped entry
    wins. The first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides
    the rest (as the C library does: a set ``LC_ALL`` hides ``LANG``).
    """
    env = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        value = env.get(name, "")
        if not value:
            continue
        if name == "LANGUAGE":
            for entry in value.split(":"):
                found = language_of(entry)
                if found is not None:
                    return found
            continue
        return language_of(value)
    return None


def set_language(
    lang: str | None = None, setting: str | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """Choose the language: ``lang`` (``--lang``), else ``setting``, else the environment.

    Returns the language chosen (one of ``LANGUAGES``). A value that is not
    shipped falls through to the next source rather than failing: the command
    line checks ``--lang`` itself and says so.
    """
    global _language, _catalog
    chosen = language_of(lang) or language_of(setting) or environment_language(environ)
    chosen = chosen or DEFAULT_LANGUAGE
    if chosen != _language:
        _catalog = None
    _language = chosen
    return chosen


def current_language() -> str:
    return _language


def is_rtl(lang: str | None = None) -> bool:
    """Whether the language is written right to left (Arabic)."""
    return (lang or _language) in RTL


def _load() -> _gettext.NullTranslations:
    global _catalog
    if _catalog is None:
        _catalog = _gettext.translation(
            DOMAIN, localedir=LOCALE_DIR, languages=[_language], fallback=True
        )
    return _catalog


def _(message: str) -> str:
    """``message`` in the current language (English, the msgid, when untranslated)."""
    return _load().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` (Croatian and Russian have three); format ``n`` in yourself.

    A signed count takes its noun's form from its size: "−2 boda" as "2 boda", "−1 point".
    The catalogs' plural formulas are C expressions written for n ≥ 0 (Python's ``%`` of a
    negative number gives other remainders), so the sign is taken off here, once, for all."""
    return _load().ngettext(singular, plural, abs(n))


def pgettext(context: str, message: str) -> str:
    """``message`` where the same English needs different words (``context`` tells which)."""
    return _load().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """``ngettext`` with a context; the form by ``n``'s size, as there."""
    return _load().npgettext(context, singular, plural, abs(n))


def in_every_language(context: str, message: str) -> frozenset[str]:
    """``message`` (with ``context``) in every shipped language, English included: for a
    word no name may take in any of them (a bot called "You", "Ti" or "Tú")."""
    words = {message}
    for lang in LANGUAGES:
        catalog = _gettext.translation(
            DOMAIN, localedir=LOCALE_DIR, languages=[lang], fallback=True
        )
        words.add(catalog.pgettext(context, message))
    return frozenset(words)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now (translate where shown)."""
    return message


@contextmanager
def english() -> Iterator[None]:
    """English for a while, whatever the player's language: ``--json`` output and records
    carry the same words in every language (stable for programs that read them), and in
    every deck: the French deck's words ("diamonds", not mađarice's "bells", ``bela.deck``)."""
    from bela.deck import current_deck, set_deck

    global _language, _catalog
    saved = (_language, _catalog)
    deck = current_deck()
    _language, _catalog = DEFAULT_LANGUAGE, None
    set_deck(None)
    try:
        yield
    finally:
        _language, _catalog = saved
        set_deck(deck)
