"""The language picker the settings and the help screen share.

Each language is listed by its own name (a player who cannot read the current
one still finds theirs), after "automatic", which follows the system.
"""

from __future__ import annotations

from textual.widgets import Select

from bela.i18n import LANGUAGE_NAMES, LANGUAGES, _

__all__ = ["LanguageRedraw", "language_picker"]


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


class LanguageRedraw:
    """For a screen drawn again in the new language when the player switches it.

    Textual recomposes only the screen on show, so one under it is marked and
    drawn again when it comes back (``on_screen_resume``). The screen says how in
    ``redraw_language`` (composing it anew, or redrawing what is made of words).
    """

    _language_stale = False

    def language_changed(self, *, now: bool) -> None:
        if now:
            self.redraw_language()
        else:
            self._language_stale = True

    def on_screen_resume(self) -> None:
        if self._language_stale:
            self._language_stale = False
            self.redraw_language()

    def redraw_language(self) -> None:
        raise NotImplementedError
