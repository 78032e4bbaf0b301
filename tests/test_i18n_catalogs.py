"""The translations (issue #15): complete, faithful to their placeholders, compiled as written.

The messages are extracted from the source here, the way ``make messages`` does
(Babel's Python extractor, its default keywords), so a string marked in the code
but missing from a catalog fails here, not on a player's screen. Each ``.po`` is
read with Babel; each committed ``.mo`` with the standard library, the way bela
reads it.
"""

from __future__ import annotations

import functools
import gettext
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import bela
from bela.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

SOURCE = Path(bela.__file__).parent
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
"""English is the source: the messages in the code are the English text."""
Key = tuple[str | None, str]


@functools.cache
def extracted() -> dict[Key, tuple[str, ...]]:
    """(context, msgid) -> the message's English forms, for every marked string in bela.

    Read when a test first asks (about a second): not at collection, which every pytest-xdist
    worker does whether or not it runs these tests.
    """
    found: dict[Key, tuple[str, ...]] = {}
    method_map = [("**.py", "python")]
    for _file, _line, message, _comments, context in extract_from_dir(
        str(SOURCE), method_map=method_map, options_map={"**.py": {"encoding": "utf-8"}}
    ):
        forms = (message,) if isinstance(message, str) else tuple(message)
        found[(context, forms[0])] = forms
    return found


def _catalog(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        return read_po(po, locale=lang)


def _messages(catalog: Catalog) -> Iterator[Message]:
    for message in catalog:
        if message.id:
            yield message


def _key(message: Message) -> Key:
    ident = message.id if isinstance(message.id, str) else message.id[0]
    return (message.context, ident)


_PERCENT = re.compile(r"%(?:\((\w+)\))?[#0 +-]?\d*(?:\.\d+)?([diouxXeEfFgGcrsa%])")


def placeholders(text: str) -> list[str]:
    """The ``{name:spec}`` fields and ``%(name)s`` / ``%s`` conversions, sorted."""
    fields = [
        f"{{{name}{':' + spec if spec else ''}}}"
        for _literal, name, spec, _conv in string.Formatter().parse(text)
        if name is not None
    ]
    fields += [f"%({name}){kind}" for name, kind in _PERCENT.findall(text) if kind != "%"]
    return sorted(fields)


def test_the_source_marks_messages_and_english_needs_no_catalog() -> None:
    assert len(extracted()) > 400
    assert not (LOCALE_DIR / "en").exists()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    catalog = _catalog(lang)
    entries = {_key(m): m for m in _messages(catalog)}
    missing = sorted(str(key) for key in extracted() if key not in entries)
    assert not missing, f"{lang}: not in the catalog (run make messages): {missing[:5]}"
    untranslated = []
    for key in extracted():
        message = entries[key]
        forms = (message.string,) if isinstance(message.string, str) else message.string
        if message.fuzzy or not all(forms):
            untranslated.append(key)
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_are_the_languages_own(lang: str) -> None:
    """Croatian and Russian have three forms, Arabic six, Chinese one: every form is there."""
    catalog = _catalog(lang)
    expected = {"hr": 3, "ru": 3, "es": 3, "zh": 1, "ar": 6}[lang]
    assert catalog.num_plurals == expected
    plural = [m for m in _messages(catalog) if m.pluralizable]
    assert plural
    for message in plural:
        assert len(message.string) == expected, message.id


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_every_placeholder(lang: str) -> None:
    """A dropped or renamed ``{name}`` would lose a number, or crash ``str.format``."""
    wrong = []
    for message in _messages(_catalog(lang)):
        if isinstance(message.id, str):
            pairs = [(message.id, message.string)]
        else:  # every form names what the plural English names
            pairs = [(message.id[1], form) for form in message.string]
        for english, translated in pairs:
            if translated and placeholders(english) != placeholders(translated):
                wrong.append((english, translated))
    assert not wrong, f"{lang}: placeholders differ: {wrong[:3]}"


def test_placeholders_are_read_as_python_reads_them() -> None:
    assert placeholders("{card} beats {win:>3} ({seconds:.1f} s)") == [
        "{card}",
        "{seconds:.1f}",
        "{win:>3}",
    ]
    assert placeholders("argument %(argument_name)s: %(message)s, %s, 100%%") == [
        "%()s",
        "%(argument_name)s",
        "%(message)s",
    ]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_says_what_the_po_says(lang: str) -> None:
    """The committed ``.mo`` is what bela reads: ``make compile-messages`` after editing a .po."""
    mo_path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with mo_path.open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = []
    for message in _messages(_catalog(lang)):
        ident = message.id if isinstance(message.id, str) else message.id[0]
        if message.context is None and isinstance(message.id, str):
            got = compiled.gettext(ident)
            want = message.string
        elif message.context is None:
            got = compiled.ngettext(message.id[0], message.id[1], 1)
            want = message.string[compiled.plural(1)]  # type: ignore[attr-defined]
        else:
            got = compiled.pgettext(message.context, ident)
            want = message.string
        if got != want:
            stale.append(ident)
    assert not stale, f"{lang}: bela.mo is out of date for {stale[:3]} (make compile-messages)"
