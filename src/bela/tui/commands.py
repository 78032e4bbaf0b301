"""The app's entries in the command palette (Ctrl+P): new match, rules, hint, analysis, speed.

The settings are here too (target, bots, each house rule): each is applied and
saved at once, as on the settings screen (F2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

from bela.engine import TARGETS, Rules
from bela.i18n import _
from bela.wording import level_name

if TYPE_CHECKING:
    from bela.tui.app import BelaApp

__all__ = ["BelaCommands"]


def _setting_commands(app: BelaApp) -> list[tuple[str, str, Callable[[], Any]]]:
    """A command for each target, each level of the bots, and each house rule (on or off)."""
    from bela.session import DIFFICULTIES
    from bela.settings import RULE_CHOICES, rule_label

    def choose(**values: Any) -> Callable[[], None]:
        def apply() -> None:
            app.choose(**values)

        return apply

    commands: list[tuple[str, str, Callable[[], Any]]] = []
    for target in TARGETS:
        if target != app.target:
            commands.append(
                (
                    _("Play to {target}").format(target=target),
                    _("The target of the next new match"),
                    choose(target=target),
                )
            )
    for level in DIFFICULTIES:
        if level != app.difficulty:
            commands.append(
                (
                    _("Bots: {level}").format(level=level_name(level)),
                    _("How well the bots of the next match play"),
                    choose(difficulty=level),
                )
            )
    for rule in RULE_CHOICES:
        on = getattr(app.rules, rule.field) == rule.value
        default = getattr(Rules(), rule.field)
        rules = replace(app.rules, **{rule.field: default if on else rule.value})  # type: ignore[arg-type]
        if on:
            name = _("House rule off: {rule}").format(rule=rule_label(rule))
        else:
            name = _("House rule on: {rule}").format(rule=rule_label(rule))
        commands.append(
            (
                name,
                _("For the next new match (--rules {name})").format(name=rule.name),
                partial(app.set_rules, rules),
            )
        )
    return commands


class BelaCommands(Provider):
    """Commands that make sense on the current screen."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        from bela.tui.app import BelaApp
        from bela.tui.screens.summary import RoundSummaryScreen
        from bela.tui.screens.table import TableScreen

        app = self.app
        if not isinstance(app, BelaApp):  # pragma: no cover - the provider is only ours
            return []
        commands: list[tuple[str, str, Callable[[], Any]]] = [
            (
                _("New match"),
                _("Leave this match (it stays saved) for a new one"),
                app.action_new_match,
            ),
            (_("Rules and keys"), _("How Bela is played here, and every key"), app.action_help),
            (
                _("History"),
                _("Every past match: step through one, resume one (F3)"),
                app.action_history,
            ),
            (
                _("Statistics"),
                _("The matches played, added up, with plots (F4)"),
                app.action_statistics,
            ),
            (
                _("Coach"),
                _("Where your written points went, and your costliest habits (F5)"),
                app.action_coach,
            ),
            (
                _("Puzzles"),
                _("One card or bid is clearly right: find it, and see why (F6)"),
                app.action_puzzles,
            ),
        ]
        screen = self.screen
        if isinstance(screen, TableScreen):
            faster = partial(screen.action_speed, -1)
            slower = partial(screen.action_speed, 1)
            commands += [
                (
                    _("Hint"),
                    _("What the hard bot would play here, and why (i)"),
                    screen.action_hint,
                ),
                (
                    _("Last trick"),
                    _("Who played what in the last trick"),
                    screen.action_last_trick,
                ),
                (_("Score sheet"), _("The full blok: every round (b)"), app.action_score_sheet),
                (_("Bots faster"), _("Shorter pause before each bot card"), faster),
                (_("Bots slower"), _("Longer pause before each bot card"), slower),
                (_("Skip the wait"), _("Let the bots carry on at once"), screen.action_skip),
            ]
        if isinstance(screen, RoundSummaryScreen) and screen.match is not None:
            commands.append(
                (
                    _("Analysis"),
                    _("Every card of this round against the best play (a)"),
                    screen.action_analyse,
                )
            )
        if isinstance(screen, RoundSummaryScreen) and screen.level is not None:
            commands.append(
                (
                    _("Bot in my seat"),
                    _("The same deal with the hard bot playing your cards (m)"),
                    screen.action_bot_seat,
                )
            )
        bela = (
            _("Ask before announcing bela") if app.auto_bela else _("Announce bela automatically")
        )
        declare = (
            _("Ask before declaring zvanja")
            if app.always_declare
            else _("Declare zvanja automatically")
        )
        motion = _("Turn animations on") if app.reduced_motion else _("Reduce motion")
        commands += [
            (bela, _("Whether bela is said for you or you are asked"), app.toggle_auto_bela),
            (
                declare,
                _("Whether your zvanja are declared for you or you may keep them back"),
                app.toggle_always_declare,
            ),
            (motion, _("Whether a taken trick slides to its winner"), app.toggle_reduced_motion),
            (
                _("Settings"),
                _("Target, bots, speed, theme, house rules (F2)"),
                app.action_settings,
            ),
        ]
        commands += _setting_commands(app)
        commands.append((_("Quit"), _("Quit Bela (the match is saved)"), app.exit))
        return commands

    def _settings(self) -> set[str]:
        """The names of the settings' own commands (left out of the list before typing)."""
        from bela.tui.app import BelaApp

        app = self.app
        if not isinstance(app, BelaApp):  # pragma: no cover - the provider is only ours
            return set()
        return {name for name, _help, _apply in _setting_commands(app)}

    async def discover(self) -> Hits:
        """The everyday commands; each setting's own is found by typing (there are many)."""
        settings = self._settings()
        for name, help_text, callback in self._commands():
            if name not in settings:
                yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
