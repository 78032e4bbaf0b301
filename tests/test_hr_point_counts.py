"""Croatian points agree with their number (issue #36's play test at 80 × 24).

A Croatian noun after a number takes the number's form: "1 upisani bod", "44 upisana
boda", "97 upisanih bodova". A message can only get that right for the number its
plural forms are chosen by (``ngettext``'s n); any other number written before
"bodova" reads wrong for two numbers in three ("u prosjeku 44 upisanih bodova više",
said by every bid puzzle's answer), and a signed or decimal figure (``+22``, ``5.1``)
fits no form at all. Such a figure is written as a label instead ("upisani bodovi: 44").

The plural base of a message is the placeholder that the English singular says with
"point" and the plural with "points"; this test reads every Croatian message in the
catalogue and finds a placeholder written straight before a declined "bod" that is not
that base.
"""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from bela.i18n import LOCALE_DIR

_BEFORE_POINTS = re.compile(r"\{(\w+)\} (?:[a-zčćđšž]+ )?(?:bodova|boda|bod|bodove)\b")
"""A placeholder straight before a form of "bod" (with one adjective between at most)."""


def _base(singular: str, plural: str) -> set[str]:
    """The placeholders an English plural message counts points with: "{x} … point" in
    the singular and "{x} … points" in the plural."""
    one = set(re.findall(r"\{(\w+)\} (?:[\w-]+ ){0,2}?point\b", singular))
    many = set(re.findall(r"\{(\w+)\} (?:[\w-]+ ){0,2}?points\b", plural))
    return one & many


def test_no_croatian_message_writes_a_number_before_points_it_is_not_declined_for() -> None:
    with (LOCALE_DIR / "hr" / "LC_MESSAGES" / "bela.po").open("rb") as handle:
        catalog = read_po(handle)
    wrong = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):
            allowed = _base(str(message.id[0]), str(message.id[1]))
            forms = [str(s) for s in message.string]
        else:
            allowed = set()
            forms = [str(message.string)]
        for form in forms:
            for found in _BEFORE_POINTS.finditer(form):
                if found.group(1) not in allowed:
                    wrong.append(f"{found.group(0)!r} in {form!r}")
    assert not wrong, "\n".join(wrong)
