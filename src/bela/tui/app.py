"""The Bela app: start screen → table → round summaries → match end.

The app object holds only settings (target, seed, difficulty, bot speed, house
rules, ...) and moves between screens; the match itself lives in the table screen, and the
rules in the engine.

The table (and with it the bots) and the help screen (Markdown) are imported
when first opened, not with the app: the start screen is drawn before they are
needed (issue #12, ``benchmarks/bench_first_screen.py``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar, Final

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from bela.archive.storage import autosave_path, claim_slot, release_slot
from bela.deck import set_deck
from bela.engine import Rules
from bela.engine.deal import new_seed
from bela.foundation.native import build
from bela.foundation.untrusted import MESSAGE_LIMIT, QUOTE_LIMIT, oneline, shown
from bela.i18n import N_, _, pgettext, set_language
from bela.keys import APP_LETTERS, bind_letters
from bela.session import load_saved, shelve_unfinished, slot_notice
from bela.settings import SettingsStore
from bela.tui.commands import BelaCommands
from bela.tui.screens.start import StartScreen
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.language import LanguageRedraw
from bela.tui.widgets.too_small import MIN_HEIGHT, MIN_WIDTH
from bela.wording import set_bot_names, set_player_name

if TYPE_CHECKING:
    from bela.engine import Match
    from bela.tui.remote import RemoteSession
    from bela.tui.screens.host_choice import HostChoice
    from bela.tui.screens.online_lobby import OnlineLobby

__all__ = ["SPEEDS", "BelaApp"]

ROOMY_WIDTH: Final = 120
ROOMY_HEIGHT: Final = 40
"""From this window size on the table grows: large cards, wider panels, more of the blok."""
SPEEDS: Final = (0.0, 0.2, 0.5, 0.8, 1.2)
"""Seconds the bots wait before each card, slowest last (``+``/``-`` step through them)."""


class BelaApp(App[int]):
    """One human (seat 0) with a bot partner against two bots."""

    CSS_PATH = "bela.tcss"
    TITLE = "Bela"
    COMMANDS = App.COMMANDS | {BelaCommands}
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012 - declared so on App
        (0, "-too-narrow"),
        (MIN_WIDTH, "-wide-enough"),
        (ROOMY_WIDTH, "-wide"),  # with "-tall": the table grows (bela.tcss, "room to spare")
    ]
    VERTICAL_BREAKPOINTS = [  # noqa: RUF012 - declared so on App
        (0, "-too-short"),
        (MIN_HEIGHT, "-tall-enough"),
        (ROOMY_HEIGHT, "-tall"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1,question_mark", "help", N_("Help")),
        Binding("f3", "history", N_("History"), show=False),
        Binding("f4", "statistics", N_("Statistics"), show=False),
        Binding("f5", "coach", N_("Coach"), show=False),
        Binding("f6", "puzzles", N_("Puzzles"), show=False),
        Binding("f2", "settings", N_("Settings")),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    def __init__(
        self,
        *,
        target: int | None = None,
        seed: int | None = None,
        difficulty: str | None = None,
        start_round: int = 0,
        resume: bool | None = None,
        bot_delay: float | None = None,
        hold_delay: float | None = None,
        auto_bela: bool | None = None,
        always_declare: bool | None = None,
        reduced_motion: bool | None = None,
        rules: Rules | None = None,
        language: str | None = None,
        deck: str | None = None,
        remote: RemoteSession | None = None,
        host_choice: HostChoice | None = None,
        online_lobby: OnlineLobby | None = None,
    ) -> None:
        """``resume``: True resumes the autosave, False starts a new match at once, None
        shows the start screen (offering the autosave when there is one).

        Every setting left None is the player's saved one (``bela.settings``,
        issue #13); one given here (a command-line flag) wins for this run and is
        saved only if the player changes that setting in the app. ``target`` and
        ``difficulty`` are an unfinished match's when there is one, else the saved
        ones, else (no settings file yet) those of the match played last
        (``session.last_settings``): the start screen opens on what the player
        chose before. ``rules`` are the house rules of the next new match (a
        resumed match keeps its own).

        ``bot_delay`` is the pause before each bot action and ``hold_delay`` how long
        a finished trick stays before a bot leads the next (tests pass 0 for both).

        ``auto_bela`` announces bela for the human as soon as it may be (as most
        players always would); False asks each time. ``always_declare`` declares the
        human's zvanja for them; False asks, at their turn in the first trick, whether
        to declare them or keep them back ("šutim"). ``reduced_motion`` turns the
        trick's gathering animation off (so does ``TEXTUAL_ANIMATIONS=none``).

        ``language`` is ``--lang``: it wins over the saved language for this run;
        ``deck`` is ``--deck`` (``bela.deck``), likewise over the saved deck.

        ``remote``: a seat at a table on the network (``bela join``, issue #16); the
        app opens that table instead of the start screen, and plays no local match.
        ``host_choice``: the host's own app (``bela host``) with unfinished tables here:
        it asks which table to sit at (``screens.host_choice``), then opens that seat.
        ``online_lobby``: the public server's lobby (``bela online``): the app opens on its
        list of tables (``screens.online_lobby``), then the seat the lobby gives.
        """
        super().__init__()
        self.settings_store = SettingsStore.load()
        stored = self.settings_store.saved
        set_language(language, stored.language)
        set_deck(deck if deck is not None else stored.deck)
        self.target = target if target is not None else stored.target
        self.seed = seed if seed is not None else new_seed()
        self.difficulty = difficulty if difficulty is not None else stored.difficulty
        self._settings_given = (target is not None, difficulty is not None)
        self.played_seeds: list[int] = []
        """The seed of each match opened at the table, in order: the seeds that replay them."""
        self.start_round = start_round
        self.resume = resume
        self.bot_delay = bot_delay if bot_delay is not None else stored.bot_delay
        self._hold_delay = hold_delay
        self.auto_bela = auto_bela if auto_bela is not None else stored.auto_bela
        self.player_name = stored.player_name
        """The player's own name ("" = not given): the table, the talk, the records and a
        network table use it."""
        self.bot_names = stored.bot_names
        set_bot_names(self.bot_names)
        set_player_name(self.player_name)
        self.always_declare = (
            always_declare if always_declare is not None else stored.always_declare
        )
        self.reduced_motion = (
            reduced_motion if reduced_motion is not None else stored.reduced_motion
        )
        self.turn_bell = stored.turn_bell
        """Ring the bell for the player's turn at a network table (F2; off by default)."""
        self.rules: Rules = rules if rules is not None else stored.rules
        """The house rules of the next new match."""
        self._rules_given = rules is not None
        self.sources: dict[str, str] = {
            name: "flag"
            for name, given in (
                ("target", target),
                ("difficulty", difficulty),
                ("bot_delay", bot_delay),
                ("auto_bela", auto_bela),
                ("reduced_motion", reduced_motion),
                ("rules", rules),
                ("language", language),
                ("deck", deck),
            )
            if given is not None
        }
        """Why a setting in use is not the saved one: "flag" (given for this run),
        "unfinished" (the unfinished match's) or "last" (the match played last, before
        anything was saved). F2 says so; changing the setting there drops the entry."""
        self.slot_notice: str | None = None
        self.remote = remote
        self.online_lobby = online_lobby
        self.host_choice = host_choice
        self._notices: dict[str, Notification] = {}
        """The notice shown last on each topic (``notify``)."""
        self._superseded: set[str] = set()
        """Notices replaced before they were shown (by identity)."""

    @property
    def hold_delay(self) -> float:
        if self._hold_delay is not None:
            return self._hold_delay
        return 0.0 if self.bot_delay <= 0 else max(1.2, 2.5 * self.bot_delay)

    @property
    def motion(self) -> bool:
        """Whether to animate: not with reduced motion, nor below Textual's "full" level.

        ``TEXTUAL_ANIMATIONS=none`` or ``basic`` (Textual's own switch) turns it off too.
        """
        return not self.reduced_motion and self.animation_level == "full"

    def toggle_auto_bela(self) -> None:
        """Switch between announcing bela automatically and asking each time."""
        self.auto_bela = not self.auto_bela
        self.remember(auto_bela=self.auto_bela)
        if self.auto_bela:
            self.notify(_("Bela is now announced automatically."), timeout=3, topic="bela")
        else:
            self.notify(_("Bela is now asked for each time."), timeout=3, topic="bela")

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's own palette commands, in the player's language (``bela.tui.palette``)."""
        from bela.tui.palette import system_commands

        yield from system_commands(self, screen)

    def action_command_palette(self) -> None:
        """The palette (Ctrl+P), its prompt and "no matches" in the player's language."""
        from bela.tui.palette import BelaPalette

        if self.use_command_palette and not isinstance(self.screen, CommandPalette):
            self.push_screen(
                BelaPalette(id="--command-palette", placeholder=_("Search for commands…"))
            )

    def search_themes(self) -> None:
        """The theme list, each theme by its worded name (``palette.theme_label``)."""
        from bela.tui.palette import BelaPalette, ThemeCommands

        self.push_screen(
            BelaPalette(providers=[ThemeCommands], placeholder=_("Search for themes…"))
        )

    def table_names(self) -> tuple[str, str, str, str]:
        """The names by seat as the settings hold them: the player's ("" = not given), the bots'."""
        return (self.player_name, *self.bot_names)

    def set_names(self, player: str, bots: tuple[str, str, str]) -> None:
        """Name the player and the bots (already clean: ``settings.clean_name``), and save them.

        The bots' names take effect on every screen at once (``wording.seat_name``)."""
        self.player_name, self.bot_names = player, bots
        set_bot_names(bots)
        set_player_name(player)
        self.remember(player_name=player, bot_names=bots)
        self.notify(_("Names saved."), timeout=3, topic="names")

    def record_names(self) -> tuple[str, str, str, str] | None:
        """The names a record keeps (None while they are the defaults: its file stays as it was)."""
        from bela.settings import DEFAULT_BOT_NAMES

        if not self.player_name and self.bot_names == DEFAULT_BOT_NAMES:
            return None
        return (self.player_name or pgettext("seat", "You"), *self.bot_names)

    def toggle_always_declare(self) -> None:
        """Switch between declaring the human's zvanja for them and asking each time."""
        self.always_declare = not self.always_declare
        self.remember(always_declare=self.always_declare)
        if self.always_declare:
            self.notify(_("Your zvanja are now declared for you."), timeout=3, topic="declare")
        else:
            self.notify(
                _("You are now asked whether to declare your zvanja."), timeout=3, topic="declare"
            )

    def toggle_reduced_motion(self) -> None:
        """Switch the trick's gathering animation off or back on."""
        self.reduced_motion = not self.reduced_motion
        self.remember(reduced_motion=self.reduced_motion)
        if self.reduced_motion:
            self.notify(_("Animations off."), timeout=3, topic="motion")
        else:
            self.notify(_("Animations on."), timeout=3, topic="motion")

    @property
    def language_setting(self) -> str:
        """The saved language ("" for the system's), as the settings screen offers it."""
        return self.settings_store.saved.language

    def change_language(self, code: str) -> None:
        """Speak ``code`` ("" for the system's) from now on, save it, and redraw the words.

        The screen on show is drawn again at once where that loses nothing
        (settings, help, start; the table redraws its status and keeps its talk);
        the screens under it are drawn again when they come back
        (``LanguageRedraw``), since Textual recomposes only the screen on show.
        """
        set_language(code or None, None)
        self.remember(language=code)
        bind_letters(self, APP_LETTERS)
        for screen in self.screen_stack:
            if isinstance(screen, LanguageRedraw):
                screen.language_changed(now=screen is self.screen)
            else:
                for footer in screen.query(Footer):
                    footer.refresh(recompose=True)

    @property
    def deck_setting(self) -> str:
        """The saved deck (``bela.deck``), as the settings screen offers it."""
        return self.settings_store.saved.deck

    def change_deck(self, deck: str) -> None:
        """Show the cards as ``deck`` (French or mađarice) from now on, and save it.

        Only the cards' names and faces change, and the suits' letters with them
        (``bela.keys.letters_of``): the screens are drawn again as for a new language."""
        set_deck(deck)
        self.remember(deck=deck)
        bind_letters(self, APP_LETTERS)
        for screen in self.screen_stack:
            if isinstance(screen, LanguageRedraw):
                screen.language_changed(now=screen is self.screen)
            else:
                for footer in screen.query(Footer):
                    footer.refresh(recompose=True)

    def _use_keymap(self) -> None:
        """The player's own keys from settings.json, by binding id (Textual's keymap); a
        remap that would collide in some language is said in one line and not used."""
        from bela.keys import checked_keymap

        keymap, problems = checked_keymap(dict(self.settings_store.saved.keymap))
        if keymap:
            self.set_keymap(keymap)
        for problem in problems:
            self.notify(oneline(problem, 200), severity="warning", timeout=10)

    def change_speed(self, step: int) -> float:
        """Step the bot delay through ``SPEEDS`` (negative = faster); returns the new delay."""
        index = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - self.bot_delay))
        index = min(max(index + step, 0), len(SPEEDS) - 1)
        self.bot_delay = SPEEDS[index]
        self.remember(bot_delay=self.bot_delay)
        return self.bot_delay

    def remember(self, **values: object) -> None:
        """Save settings the player just changed (a failure is said once, and play goes on)."""
        problem = self.settings_store.change(**values)
        for name in values:
            self.sources.pop(name, None)  # what is in use is now what is saved
        if problem is not None:
            self.notify(problem, severity="warning", timeout=8)

    def set_rules(self, rules: Rules) -> None:
        """The house rules of the next new match, saved (a match in progress keeps its own)."""
        self.rules = rules
        self.remember(rules=rules)
        self._after_settings()

    def choose(self, *, target: int | None = None, difficulty: str | None = None) -> None:
        """The target or the bots of the next new match (from the palette), saved."""
        if target is not None:
            self.target = target
            self.remember(target=target)
        if difficulty is not None:
            self.difficulty = difficulty
            self.remember(difficulty=difficulty)
        self._after_settings(target, difficulty)

    def _apply_saved_theme(self) -> None:
        """Use the saved theme, then save the theme whenever the player picks another."""
        theme = self.settings_store.saved.theme
        if theme in self.available_themes:
            self.theme = theme
        else:
            self.notify(
                oneline(
                    _("The saved theme {theme} is not available here.").format(theme=shown(theme))
                ),
                timeout=6,
            )
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, theme: Theme) -> None:
        self.remember(theme=theme.name)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
        topic: str | None = None,
    ) -> None:
        """Every notice as plain text, whatever the caller asked, and through the gate.

        Notices quote file names, OS errors, the index and bots' mistakes; parsed as
        markup, a crafted save could turn one into a link that runs an app action
        (such as writing a screenshot anywhere), or crash the app with a markup
        error. The callers quote outside text with ``shown``; ``oneline`` here is the
        last net, as ``bela.cli.main``'s is for the command line: no escape
        sequence, C1 control or bidi override reaches the terminal from a notice.

        ``topic``: what the notice is about (a setting: "speed", "bela"...). A new
        notice on a topic replaces the one still shown, so pressing + five times
        leaves one notice with the speed now, not five stacked.
        """
        message = oneline(message, MESSAGE_LIMIT)
        title = oneline(title, QUOTE_LIMIT)
        if topic is None:
            super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)
            return
        previous = self._notices.get(topic)
        if previous is not None:
            if previous in self._notifications:
                self._unnotify(previous, refresh=False)
            else:  # posted but not shown yet: dropped when it arrives (``_on_notify``)
                self._superseded.add(previous.identity)
        wait = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        notice = Notification(message, title, severity, wait, markup=False)
        self._notices[topic] = notice
        self.post_message(Notify(notice))

    def _on_notify(self, event: Notify) -> None:
        """Show a notice, unless a newer one on its topic replaced it on the way."""
        if event.notification.identity in self._superseded:  # Textual's own handler is skipped
            self._superseded.discard(event.notification.identity)
            event.prevent_default()

    def on_mount(self) -> None:
        bind_letters(self, APP_LETTERS)
        if self.settings_store.notice is not None:
            self.notify(self.settings_store.notice, severity="warning", timeout=10)
        self._use_keymap()
        self._apply_saved_theme()
        self._say_if_the_build_is_stale()
        if self.host_choice is not None and self.remote is None:  # the host: which table?
            from bela.tui.screens.host_choice import HostChoiceScreen

            self.push_screen(HostChoiceScreen(self.host_choice))
            return
        if self.online_lobby is not None and self.remote is None:  # the public server's lobby
            from bela.tui.screens.online_lobby import OnlineLobbyScreen

            self.push_screen(OnlineLobbyScreen(self.online_lobby))
            return
        if self.remote is not None:  # a seat somebody hosts: no local match, no save slot
            from bela.tui.screens.net_table import NetTableScreen

            self.push_screen(NetTableScreen(self.remote))
            return
        self.slot_notice = self._claim_slot()
        if self.resume is False:
            self._use_last_settings(None)
            self.new_match(target=self.target, seed=self.seed, difficulty=self.difficulty)
            return
        if self.resume is None and os.path.lexists(autosave_path()):
            # Reading a save needs pydantic and a replay of the match: draw the start
            # screen first and read it just after (issue #12: the first screen fast).
            self.push_screen(self._start_screen(None, None, looking=True))
            self.call_after_refresh(self._look_for_saved)
            return
        saved, problem = load_saved()
        self._use_last_settings(saved)
        if self.resume and saved is not None:
            self.open_table(saved.match, saved.difficulty)
            return
        if self.resume and problem is None:
            problem = _("There is no unfinished match to resume.")
        self.push_screen(self._start_screen(saved, problem))

    def _say_if_the_build_is_stale(self) -> None:
        """A source edited since ``make compiled`` sends bela to the pure build (the compiled
        one would play the old code): slower, so the player hears why, on the first screen."""
        chosen = build()
        if chosen.reason != "stale":
            return
        self.notify(
            _(
                "Compiled build out of date ({file} changed): pure Python, slower, until make "
                "compiled."
            ).format(file=chosen.module.replace(".", "/") + ".py"),
            severity="warning",
            timeout=8,
        )

    def _look_for_saved(self) -> None:
        """Read the unfinished match once the start screen is drawn, and offer it there.

        It runs on the app's own loop: a key pressed meanwhile waits in the queue and
        reaches the screen as it is afterwards (Enter then resumes, as it would
        have had the save been shown at once).
        """
        saved, problem = load_saved()
        self._use_last_settings(saved)
        screen = self.screen
        if isinstance(screen, StartScreen):
            screen.show_saved(saved, problem, self.target, self.difficulty, self.rules)

    def _use_last_settings(self, saved: object) -> None:
        """Take the unfinished match's target and difficulty where none was given.

        Without one, the saved settings stand; only before there is a settings
        file does the match played last choose them (as before issue #13).
        """
        from bela.session import Saved, last_settings

        if all(self._settings_given):
            return
        if not isinstance(saved, Saved) and self.settings_store.found:
            return
        unfinished = isinstance(saved, Saved)
        last = last_settings(saved if isinstance(saved, Saved) else None)
        if last is None:
            return
        why = "unfinished" if unfinished else "last"
        if not self._settings_given[0]:
            self.target = last[0]
            self.sources["target"] = why
        if not self._settings_given[1]:
            self.difficulty = last[1]
            self.sources["difficulty"] = why
        if isinstance(saved, Saved) and not self._rules_given:
            # the start screen offers the unfinished match's target, bots and house
            # rules alike: one source for the three, as the settings screen says
            self.rules = saved.match.rules
            self.sources["rules"] = why

    async def action_quit(self) -> None:
        """Quit; the host's own app mid-match asks first (it is the table for everyone),
        and Ctrl+Q on that question closes."""
        from bela.tui.screens.close_table import CloseTablePrompt

        if self.remote is not None and not isinstance(self.screen, CloseTablePrompt):
            from bela.tui.screens.net_table import NetTableScreen

            table = next((s for s in self.screen_stack if isinstance(s, NetTableScreen)), None)
            if table is not None and table.asks_before_closing():

                def answered(close: bool | None) -> None:
                    if close:
                        self.exit()

                self.push_screen(CloseTablePrompt(), answered)
                return
        self.exit()

    def on_unmount(self) -> None:
        release_slot()

    def _claim_slot(self) -> str | None:
        """Take this window's save slot; say so when it is not the usual one."""
        try:
            return slot_notice(claim_slot())
        except OSError as exc:
            message = oneline(_("{error}: this window's match will not be saved").format(error=exc))
            self.notify(message, severity="warning", timeout=10)
            return message

    def _start_screen(
        self, saved: object, problem: str | None, *, looking: bool = False
    ) -> StartScreen:
        from bela.session import Saved

        screen = StartScreen(
            target=self.target,
            seed=self.seed,
            difficulty=self.difficulty,
            saved=saved if isinstance(saved, Saved) else None,
            problem=problem,
            notice=self.slot_notice,
            rules=self.rules,
            looking=looking,
        )
        return self._sized(screen)

    @property
    def current_theme(self) -> Theme:
        """Textual's, looked up directly: Textual copies every registered theme twice on each
        call, and asks once for every widget styled (its ``:dark`` and ``:light``), some
        500 times before the first screen is drawn."""
        theme = self._registered_themes.get(self.theme)
        return theme if theme is not None else super().current_theme

    def _sized(self, screen: StartScreen) -> StartScreen:
        """``screen`` with the breakpoint classes of the window's size (``-wide-enough``...).

        Textual gives a screen these classes at its first resize, after its widgets are
        styled, and then styles them all again; given before the screen is mounted, they
        are there when the widgets are styled, and Textual's own turn changes nothing.
        The first screen is drawn a tenth sooner (issue #26).
        """
        width, height = self.size
        for edges, size in (
            (self.HORIZONTAL_BREAKPOINTS, width),
            (self.VERTICAL_BREAKPOINTS, height),
        ):
            reached = [name for edge, name in sorted(edges or ()) if size >= edge]
            if reached:
                screen.add_class(reached[-1])
        return screen

    # ------------------------------------------------------------------ moving between screens

    def new_match(self, *, target: int, seed: int, difficulty: str) -> None:
        """Deal a new match with these settings and open the table."""
        start = self.start_round if seed == self.seed else 0
        changed = {
            name: value
            for name, value, before in (
                ("target", target, self.target),
                ("difficulty", difficulty, self.difficulty),
            )
            if value != before
        }
        if changed:  # chosen on the start screen: saved, unlike an unchanged flag's value
            self.remember(**changed)
        self.target, self.seed, self.difficulty = target, seed, difficulty
        kept = shelve_unfinished()
        if kept is not None:
            self.notify(kept, timeout=6)
        from bela.engine import Match

        self.open_table(Match.new(seed, target, self.rules, start_index=start), difficulty)

    def open_table(self, match: Match, difficulty: str) -> None:
        from bela.tui.screens.table import TableScreen  # with the bots: only once a match opens

        if match.seed not in self.played_seeds:
            self.played_seeds.append(match.seed)
        table = TableScreen(match, difficulty)
        if isinstance(self.screen, StartScreen):
            self.switch_screen(table)
        else:
            self.push_screen(table)

    async def action_new_match(self) -> None:
        """Leave the table (its match stays saved) for the start screen, with a fresh seed."""
        from bela.tui.screens.table import TableScreen

        while len(self.screen_stack) > 2 and not isinstance(self.screen, TableScreen):
            await self.pop_screen()
        self.seed = new_seed()
        self.start_round = 0
        saved, problem = load_saved()
        screen = self._start_screen(saved, problem)
        if len(self.screen_stack) > 1:
            await self.switch_screen(screen)
        else:
            await self.push_screen(screen)

    def action_score_sheet(self) -> None:
        """The full score sheet of the match at the table (``b``); ``b`` again closes it."""
        from bela.tui.screens.sheet import SheetScreen
        from bela.tui.screens.table import TableScreen

        if isinstance(self.screen, SheetScreen):
            self.pop_screen()
            return
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                self.push_screen(SheetScreen(screen.match, screen.difficulty))
                return
        self.notify(_("No match at the table: the history (F3) has every past one's sheet."))

    def action_history(self) -> None:
        """The past matches (F3): list, step through, resume an unfinished one."""
        from bela.tui.screens.history import HistoryScreen

        if not isinstance(self.screen, HistoryScreen):
            self.push_screen(HistoryScreen())

    def action_statistics(self) -> None:
        """What the past matches add up to, with plots (F4)."""
        from bela.tui.screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen())

    def action_coach(self) -> None:
        """Where the player's written points went, over the past matches (F5)."""
        from bela.tui.screens.coach import CoachScreen

        if not isinstance(self.screen, CoachScreen):
            self.push_screen(CoachScreen())

    def action_puzzles(self) -> None:
        """A moment of a real deal where one card or bid is clearly right (F6)."""
        from bela.tui.screens.puzzles import PuzzleScreen

        if not isinstance(self.screen, PuzzleScreen):
            self.push_screen(PuzzleScreen())

    def action_help(self) -> None:
        from bela.tui.screens.help import HelpScreen  # Markdown: loaded when first shown

        if not isinstance(self.screen, HelpScreen):
            rules, in_play = self.rules_in_play()
            target = self.target_in_play() if in_play else self.target
            self.push_screen(HelpScreen(rules, in_play, target, self.auto_bela))

    def rules_in_play(self) -> tuple[Rules, bool]:
        """The house rules of the match at the table (True), or of the next new match (False).

        Without a table ever opened its module is not loaded, and is not loaded here:
        F1 or F2 on the start screen must not wait for the bots (issue #12).
        """
        table = sys.modules.get("bela.tui.screens.table")
        if table is not None:
            for screen in reversed(self.screen_stack):
                if isinstance(screen, table.TableScreen):
                    return screen.match.rules, True
        return self.rules, False

    def target_in_play(self) -> int | None:
        """The target of the match at the table (None without one): what F1 describes."""
        table = sys.modules.get("bela.tui.screens.table")
        if table is not None:
            for screen in reversed(self.screen_stack):
                if isinstance(screen, table.TableScreen):
                    target: int = screen.match.target
                    return target
        return None

    def action_settings(self) -> None:
        from bela.tui.screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            before = (self.target, self.difficulty)

            def after(_result: None = None) -> None:
                target = self.target if self.target != before[0] else None
                difficulty = self.difficulty if self.difficulty != before[1] else None
                self._after_settings(target, difficulty)

            self.push_screen(SettingsScreen(), after)

    def _after_settings(self, target: int | None = None, difficulty: str | None = None) -> None:
        """The start screen shows the next match's house rules, and the target and bots just
        changed (None: not changed, so F2 then Esc leaves the start screen's own choice as
        it was; it used to put the saved target back)."""
        if isinstance(self.screen, StartScreen):
            self.screen.show_settings(target, difficulty, self.rules)


def run_app(
    *,
    target: int | None,
    seed: int,
    difficulty: str | None,
    start_round: int,
    resume: bool | None,
    played: list[int] | None = None,
    rules: Rules | None = None,
    language: str | None = None,
    deck: str | None = None,
) -> int:
    """Run the app in the terminal until the player quits; returns the exit code.

    ``played`` gets the seed of every match opened at the table: the command
    line names them once the terminal is its own again (the start screen lets
    the player change the seed, so the one given to the app may go unplayed).

    ``rules``: the house rules of ``bela play --rules`` (None: the saved ones), for
    this run's new matches; like ``target`` and ``difficulty`` given here, they are
    not saved unless the player changes them in the app.
    """
    app = BelaApp(
        target=target,
        seed=seed,
        difficulty=difficulty,
        start_round=start_round,
        resume=resume,
        rules=rules,
        language=language,
        deck=deck,
    )
    app.run()
    if played is not None:
        played.extend(app.played_seeds)
    return app.return_code or 0
