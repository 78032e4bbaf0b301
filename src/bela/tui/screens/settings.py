"""Settings (F2 or ``o``): what the player chose, changed here and saved at once (issue #13).

The screen shows what is saved in ``settings.json`` (``bela.settings``). Where
the app uses something else for now, a line says which setting and why: a
command-line flag for this run, or the unfinished match's target, bots and
house rules that the start screen offers (issue #22: it showed those as if they
were saved). Every change takes effect at once and is saved. The house rules
are those of the next new match: a match in progress keeps the rules it was
dealt under (its record holds them), and the screen says which those are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, RadioSet, Select, Static

from bela.deck import DECKS, GERMAN, current_deck
from bela.engine import QUICK_TARGET, TARGETS, Rules
from bela.foundation.native import build
from bela.foundation.untrusted import shown_path
from bela.i18n import LANGUAGE_NAMES, N_, _, current_language, pgettext
from bela.session import DIFFICULTIES
from bela.settings import (
    NAME_LIMIT,
    RULE_CHOICES,
    clean_bot_name,
    clean_name,
    rule_label,
    rules_summary,
    settings_path,
)
from bela.tui.palette import theme_label
from bela.tui.screens.start import Choice, Choices
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.language import LanguageRedraw, language_picker
from bela.wording import level_name

if TYPE_CHECKING:
    from bela.tui.app import BelaApp

__all__ = ["SettingsScreen", "Tick"]

_RULE_PREFIX: Final = "rule-"
_NAME_PREFIX: Final = "name-"
_NAME_ROWS: Final = (
    (0, N_("You")),
    (2, N_("Partner")),
    (1, N_("Right")),
    (3, N_("Left")),
)
"""The name fields by seat, as the player sees the table: himself, opposite, right, left."""


def deck_label(deck: str) -> str:
    """A deck as the settings offer it: its name and its suits' symbols."""
    if deck == GERMAN:
        return _("mađarice (German suits) {symbols}").format(symbols="❤◉❦♁")
    return _("French {symbols}").format(symbols="♥♦♠♣")


def _speed_label(delay: float) -> str:
    return _("instant") if delay == 0 else _("{seconds:.1f}s").format(seconds=delay)


class Tick(Checkbox):
    """A check box marked by shape (✓ on, blank off), so it reads under ``NO_COLOR``.

    Textual's own draws the same X either way and tells them apart by colour only.
    """

    def __init__(self, label: str, *, value: bool, id: str) -> None:
        super().__init__(label, value=value, id=id, compact=True)
        self.BUTTON_INNER = "✓" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "✓" if self.value else " "
        super().watch_value()


class SettingsScreen(LanguageRedraw, ModalScreen[None]):
    """Target, bots, speed, bela, motion, theme and the house rules; saved as they change."""

    DEFAULT_CSS = """
    SettingsScreen #settings {
        width: 78;
        padding: 0 1;
    }
    SettingsScreen .setting {
        height: 1;
        margin-bottom: 1;
    }
    SettingsScreen .setting-label {
        width: 10;
    }
    SettingsScreen .setting RadioSet {
        layout: horizontal;
        width: auto;
    }
    SettingsScreen .setting RadioButton {
        width: auto;
        margin-right: 1;
    }
    SettingsScreen Tick, SettingsScreen Tick:focus {
        border: none !important;
        height: 1;
    }
    SettingsScreen #set-theme {
        width: 40;
    }
    SettingsScreen .setting Input {
        width: 24;
    }
    SettingsScreen .setting-heading {
        text-style: bold;
        margin-top: 1;
    }
    SettingsScreen #settings-where, SettingsScreen #settings-in-play {
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f2,o", "close", N_("Back"))]

    @property
    def bela_app(self) -> BelaApp:
        from bela.tui.app import BelaApp

        app = self.app
        assert isinstance(app, BelaApp)
        return app

    def compose(self) -> ComposeResult:
        app = self.bela_app
        saved = app.settings_store.saved
        rules, in_play = app.rules_in_play()
        yield TooSmall()
        with VerticalScroll(id="settings", classes="dialog"):
            yield Static(_("Settings"), classes="title")
            where = _("Saved at once in {path}.").format(path=shown_path(settings_path()))
            yield Static(Text(where), id="settings-where")
            yield Static(Text("\n".join(self._differences())), id="settings-differ")
            with Horizontal(classes="setting"):
                yield Label(_("Language"), classes="setting-label")
                yield language_picker(app.language_setting)
            with Horizontal(classes="setting"):
                # Statics, not Labels, from here on: below the fold of the scrolling screen
                yield Static(_("Cards"), classes="setting-label")
                with Choices(id="set-deck", compact=True):
                    for deck in DECKS:
                        yield Choice(deck_label(deck), value=deck == saved.deck, name=deck)
            with Horizontal(classes="setting"):
                yield Label(_("Play to"), classes="setting-label")
                with Choices(id="set-target", compact=True):
                    for value in TARGETS:
                        label = (
                            _("{target} (3 deals)").format(target=value)
                            if value == QUICK_TARGET
                            else str(value)
                        )
                        yield Choice(label, value=value == saved.target, name=str(value))
            with Horizontal(classes="setting"):
                yield Label(_("Bots"), classes="setting-label")
                with Choices(id="set-difficulty", compact=True):
                    for level in DIFFICULTIES:
                        chosen = level == saved.difficulty
                        yield Choice(level_name(level).capitalize(), value=chosen, name=level)
            if not build().compiled:
                # installed without a C compiler: the hard bot searches a share of its deals
                # (bela.ai.hard.PURE_SHARE), a weaker player than the compiled build's
                yield Static(
                    Text(
                        _(
                            "Pure Python build: the hard bot searches fewer guessed deals "
                            "than on the compiled build, a lighter search."
                        )
                    ),
                    id="settings-lighter-hard",
                )
            with Horizontal(classes="setting"):
                yield Label(_("Bot speed"), classes="setting-label")
                with Choices(id="set-speed", compact=True):
                    from bela.tui.app import SPEEDS

                    nearest = min(SPEEDS, key=lambda delay: abs(delay - saved.bot_delay))
                    for delay in SPEEDS:
                        yield Choice(_speed_label(delay), value=delay == nearest, name=str(delay))
            with Horizontal(classes="setting"):
                yield Static(_("Theme"), classes="setting-label")
                themes = sorted(app.available_themes)
                yield Select(
                    [(theme_label(name), name) for name in themes],
                    value=app.theme if app.theme in themes else Select.NULL,
                    allow_blank=False,
                    compact=True,
                    id="set-theme",
                )
            yield Tick(
                _("Announce bela for me (else I am asked)"), value=saved.auto_bela, id="set-bela"
            )
            yield Tick(
                _("Declare my zvanja for me (else I am asked)"),
                value=saved.always_declare,
                id="set-declare",
            )
            yield Tick(
                _("Reduce motion (no sliding tricks)"),
                value=saved.reduced_motion,
                id="set-motion",
            )
            yield Tick(
                _("Ring the bell for my turn at a network table"),
                value=saved.turn_bell,
                id="set-bell",
            )
            yield Static(_("House rules, for the next new match"), classes="setting-heading")
            if in_play:
                text = _("The match at the table keeps its own: {rules}.").format(
                    rules=rules_summary(rules)
                )
                yield Static(Text(text), id="settings-in-play")
            for choice in RULE_CHOICES:
                on = getattr(saved.rules, choice.field) == choice.value
                yield Tick(rule_label(choice), value=on, id=_RULE_PREFIX + choice.field)
            yield Static(_("Names at the table (Enter keeps a name)"), classes="setting-heading")
            names = app.table_names()
            for seat, label in _NAME_ROWS:
                with Horizontal(classes="setting"):
                    # a Static, not a Label: below the fold of the scrolling screen at 80 x 24
                    yield Static(_(label), classes="setting-label")
                    yield Input(
                        names[seat],
                        placeholder=_("your name") if seat == 0 else "",
                        max_length=NAME_LIMIT,
                        compact=True,
                        id=f"{_NAME_PREFIX}{seat}",
                    )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#set-target", RadioSet).focus()
        self.query_one("#settings-differ", Static).display = bool(self._differences())

    def _differences(self) -> list[str]:
        """One line for each setting in use that is not the saved one: which, and why."""
        from bela.tui.app import BelaApp

        app = self.app
        if not isinstance(app, BelaApp):
            return []
        saved = app.settings_store.saved

        def on_off(value: bool) -> str:
            return pgettext("setting", "on") if value else pgettext("setting", "off")

        shown = {
            "target": (_("Play to"), str(app.target), str(saved.target)),
            "difficulty": (
                _("Bots"),
                level_name(app.difficulty).capitalize(),
                level_name(saved.difficulty).capitalize(),
            ),
            "rules": (_("House rules"), rules_summary(app.rules), rules_summary(saved.rules)),
            "bot_delay": (
                _("Bot speed"),
                _speed_label(app.bot_delay),
                _speed_label(saved.bot_delay),
            ),
            "auto_bela": (
                _("Announce bela for me"),
                on_off(app.auto_bela),
                on_off(saved.auto_bela),
            ),
            "reduced_motion": (
                _("Reduce motion"),
                on_off(app.reduced_motion),
                on_off(saved.reduced_motion),
            ),
            "deck": (_("Cards"), deck_label(current_deck()), deck_label(saved.deck)),
            # --lang: the language in use, and that the picker below is the saved one
            "language": (
                _("Language"),
                LANGUAGE_NAMES.get(current_language(), current_language()),
                LANGUAGE_NAMES.get(saved.language, saved.language)
                if saved.language
                else _("automatic (from the system)"),
            ),
        }
        lines = []
        for name, (setting, now, kept) in shown.items():
            why = app.sources.get(name)
            if why is None or now == kept:
                continue
            values = {"setting": setting, "value": now, "saved": kept}
            if why == "flag":
                line = _(
                    "{setting}: {value} in this run, given on the command line (saved: {saved})."
                )
            elif why == "unfinished":
                line = _(
                    "{setting}: {value} on the start screen, the unfinished match's "
                    "(saved: {saved})."
                )
            else:
                line = _("{setting}: {value} on the start screen, as in the match played last.")
            lines.append(line.format(**values))
        return lines

    def _show_differences(self) -> None:
        lines = self._differences()
        differ = self.query_one("#settings-differ", Static)
        differ.update(Text("\n".join(lines)))
        differ.display = bool(lines)

    def _chosen(self, set_id: str) -> str | None:
        button = self.query_one(f"#{set_id}", RadioSet).pressed_button
        return button.name if button is not None else None

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        """Apply and save a choice, only when it differs from what the app has.

        (A value given on the command line stays unsaved until the player changes it.)
        """
        event.stop()
        app = self.bela_app
        name = event.pressed.name
        if name is None:
            return
        saved = app.settings_store.saved
        match event.radio_set.id:
            case "set-target" if int(name) != saved.target or int(name) != app.target:
                app.target = int(name)
                app.remember(target=app.target)
            case "set-difficulty" if name != saved.difficulty or name != app.difficulty:
                app.difficulty = name
                app.remember(difficulty=name)
            case "set-deck" if name != saved.deck or name != current_deck():
                app.change_deck(name)
            case "set-speed" if float(name) != saved.bot_delay or float(name) != app.bot_delay:
                app.bot_delay = float(name)
                app.remember(bot_delay=app.bot_delay)
        self._show_differences()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        event.stop()
        app = self.bela_app
        box = event.checkbox.id or ""
        if box == "set-bela":
            if event.value != app.auto_bela:
                app.toggle_auto_bela()
            else:
                app.remember(auto_bela=event.value)  # in use already; now saved as well
        elif box == "set-declare":
            if event.value != app.always_declare:
                app.toggle_always_declare()
            else:
                app.remember(always_declare=event.value)
        elif box == "set-motion":
            if event.value != app.reduced_motion:
                app.toggle_reduced_motion()
            else:
                app.remember(reduced_motion=event.value)
        elif box == "set-bell":
            app.turn_bell = event.value
            app.remember(turn_bell=event.value)
        elif box.startswith(_RULE_PREFIX):
            rules = self._rules()
            if rules != app.rules or rules != app.settings_store.saved.rules:
                app.set_rules(rules)
        self._show_differences()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._keep_name(event.input)

    def on_input_blurred(self, event: Input.Blurred) -> None:
        event.stop()
        self._keep_name(event.input)

    def _keep_name(self, field: Input) -> None:
        """Save a name typed in a name field; a bad one is refused in one line and undone."""
        if not (field.id or "").startswith(_NAME_PREFIX):
            return
        seat = int((field.id or "")[len(_NAME_PREFIX) :])
        app = self.bela_app
        names = list(app.table_names())
        try:
            name = clean_name(field.value, empty=True) if seat == 0 else clean_bot_name(field.value)
        except ValueError as exc:
            app.notify(str(exc), severity="error", timeout=6, topic="names")
            field.value = names[seat]
            return
        field.value = name
        if name != names[seat]:
            names[seat] = name
            app.set_names(names[0], (names[1], names[2], names[3]))

    def _rules(self) -> Rules:
        """The house rules as ticked."""
        values: dict[str, bool | int] = {}
        for choice in RULE_CHOICES:
            if self.query_one(f"#{_RULE_PREFIX}{choice.field}", Checkbox).value:
                values[choice.field] = choice.value
        return Rules(**values)

    def on_select_changed(self, event: Select.Changed) -> None:
        """A theme picked here is saved like one picked from the command palette."""
        event.stop()
        if event.select.id == "language":
            if isinstance(event.value, str) and event.value != self.bela_app.language_setting:
                self.bela_app.change_language(event.value)
            return
        if isinstance(event.value, str) and event.value != self.app.theme:
            self.app.theme = event.value

    def redraw_language(self) -> None:
        self.refresh(recompose=True)

    def action_close(self) -> None:
        self.dismiss(None)
