"""The command palette in the player's language: its prompt, "no matches", Textual's own commands.

Textual writes its palette in English: the prompt ("Search for commands…"), the
line shown when nothing matches, its system commands (theme, keys, screenshot,
maximize) and the theme list, which names themes by their ids ("textual-dark").
A Croatian player met those words on a screen otherwise in Croatian (issue #22).
Here the same palette says them through the catalogue, the system commands are
ours (the same actions, translated words), and a theme is shown by a name that
keeps the brand ("Nord", "Tokyo Night") and words its shade ("tamna").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from operator import attrgetter
from typing import Any

from rich.align import Align
from rich.text import Text
from textual.app import App, SystemCommand
from textual.command import CommandList, CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen
from textual.widgets.option_list import Option

from bela.i18n import _

__all__ = ["BelaPalette", "ThemeCommands", "system_commands", "theme_label"]

_BRANDS = {"ansi": None, "textual": "Textual", "atom": "Atom", "rose": "Rosé"}
"""How the first word of a theme's id is written (``ansi`` is the terminal's colours)."""


def theme_label(name: str) -> str:
    """A theme as a player reads it: ``Textual, tamna`` for ``textual-dark``, ``Nord`` for ``nord``.

    A name the app does not know (a theme added by a later Textual) is shown as its id
    with the shade worded, so no English word of ours reaches the screen.
    """
    words = name.split("-")
    shade = words[-1] if words[-1] in ("dark", "light") and len(words) > 1 else None
    if shade is not None:
        words = words[:-1]
    brand: str | None
    if words == ["ansi"]:
        brand = _("the terminal's colours")
    else:
        first = _BRANDS.get(words[0], words[0].capitalize())
        brand = " ".join([first or "", *(w.capitalize() for w in words[1:])]).strip()
    if shade == "dark":
        return _("{theme}, dark").format(theme=brand)
    if shade == "light":
        return _("{theme}, light").format(theme=brand)
    return brand


class BelaPalette(CommandPalette):
    """Textual's palette, with the line shown when nothing matches in the player's language."""

    def _start_no_matches_countdown(self, search_value: str) -> None:
        """As Textual's own (``textual.command``), the words through the catalogue."""
        self._stop_no_matches_countdown()

        def show_no_matches() -> None:
            if search_value:
                self.query_one(CommandList).add_option(
                    Option(
                        Align.center(Text(_("No matches found"), style="not bold")),
                        disabled=True,
                        id=self._NO_MATCHES,
                    )
                )
                self._list_visible = True
            else:
                self._list_visible = False

        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, show_no_matches)


class ThemeCommands(Provider):
    """Every theme by its worded name (``theme_label``); choosing one sets the app's theme."""

    @property
    def commands(self) -> list[tuple[str, Callable[[], None]]]:
        app = self.app

        def use(name: str) -> None:
            app.theme = name

        themes = sorted(app.available_themes.values(), key=attrgetter("name"))
        return [(theme_label(theme.name), partial(use, theme.name)) for theme in themes]

    async def discover(self) -> Hits:
        for name, callback in self.commands:
            yield DiscoveryHit(name, callback)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, callback in self.commands:
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback)


def system_commands(app: App[Any], screen: Screen[Any]) -> Iterable[SystemCommand]:
    """Textual's system commands (``App.get_system_commands``) with translated words.

    Quitting is left out (the app's own "Quit" in ``BelaCommands`` says the match is
    saved), and so are Textual's keys panel and screenshot, which speak English
    wherever they appear: F1 lists every key in the player's language.
    """
    yield SystemCommand(_("Theme"), _("Change the colours of the app"), app.action_change_theme)
    if screen.maximized is not None:
        yield SystemCommand(
            _("Restore"), _("Bring the enlarged part back to its size"), screen.action_minimize
        )
    elif screen.focused is not None and screen.focused.allow_maximize:
        yield SystemCommand(
            _("Enlarge"), _("Show the focused part on the whole screen"), screen.action_maximize
        )
