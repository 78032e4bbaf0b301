"""The language picker the settings and the help screen share.

Each language is listed by its own name (a player who cannot read the current
one still finds theirs), after "automatic", which follows the system.
"""

from __future__ import annotations

from textual.widgets import Select

from bela.i18n import LANGUAGE_NAMES, LANGUAGES, _

__all__ = ["language_picker"]


def language_picker(chosen: str, *, prefixed: bool = False) -> Select[str]:
    """A compact ``Select`` of "automatic" and the shipped languages, on ``chosen``.

    ``chosen`` is the saved setting ("" = automatic); ``prefixed`` starts every
    option with "Language:" (the help screen, where no label stands beside it).
    """
    head = _("Language:") + " " if prefixed else ""
    options = [
        (head + _("automatic (from the system)"), ""),
        *((head + LANGUAGE_NAMES[code], code) for code in LANGUAGES),
    ]
    return Select(options, value=chosen, allow_blank=False, compact=True, id="language")
