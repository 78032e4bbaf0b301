"""The app's entries in the command palette (Ctrl+P): new match, rules, hint, analysis, speed."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

__all__ = ["BelaCommands"]


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
            ("New match", "Leave this match (it stays saved) for a new one", app.action_new_match),
            ("Rules and keys", "How Bela is played here, and every key", app.action_help),
        ]
        screen = self.screen
        if isinstance(screen, TableScreen):
            faster = partial(screen.action_speed, -1)
            slower = partial(screen.action_speed, 1)
            commands += [
                ("Hint", "What the hard bot would play here, and why (i)", screen.action_hint),
                ("Last trick", "Who played what in the last trick", screen.action_last_trick),
                ("Bots faster", "Shorter pause before each bot card", faster),
                ("Bots slower", "Longer pause before each bot card", slower),
                ("Skip the wait", "Let the bots carry on at once", screen.action_skip),
            ]
        if isinstance(screen, RoundSummaryScreen):
            commands.append(
                (
                    "Analysis",
                    "Every card of this round against the best play (a)",
                    screen.action_analyse,
                )
            )
        bela = "Ask before announcing bela" if app.auto_bela else "Announce bela automatically"
        motion = "Turn animations on" if app.reduced_motion else "Reduce motion"
        commands += [
            (bela, "Whether bela is said for you or you are asked", app.toggle_auto_bela),
            (motion, "Whether a taken trick slides to its winner", app.toggle_reduced_motion),
        ]
        commands.append(("Quit", "Quit Bela (the match is saved)", app.exit))
        return commands

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
