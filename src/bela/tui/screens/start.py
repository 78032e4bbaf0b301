"""The start screen: target, difficulty, the seed (shown and editable), resume.

The house rules of the new match are one line, "Rules: standard" or their
names; F2 (or a click on the line) opens the settings screen to change them.

The seed is always on show so any match can be reported and replayed
(``bela replay --seed N``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, RadioButton, RadioSet, Static

from bela.engine import TARGETS, Rules, Suit
from bela.engine.deal import MAX_SEED, new_seed
from bela.i18n import N_, _
from bela.session import DIFFICULTIES, Saved, bot_kind
from bela.settings import rules_summary
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.language import LanguageRedraw
from bela.wording import level_name, seat_name, suit_symbol

if TYPE_CHECKING:
    from bela.tui.app import BelaApp

__all__ = ["StartScreen", "parse_seed"]


def parse_seed(text: str) -> int | None:
    """The seed typed in, or None when it is not a whole number from 0 to 2**128 - 1."""
    text = text.strip()
    if not text.isdigit():
        return None
    seed = int(text)
    return seed if seed <= MAX_SEED else None


def _difficulty_label(level: str) -> str:
    kind = bot_kind(level)
    label = level_name(level).capitalize()
    if kind != level and not (level == "normal" and kind == "heuristic"):
        label = _("{level} (plays as {kind} for now)").format(level=label, kind=level_name(kind))
    return label


def _intro() -> str:
    """Who plays with whom, by the names the player gave the bots (F2), each in the
    nominative: a name the player typed cannot be declined."""
    return _("Croatian Bela: you and {partner} are mi; {right} and {left} are vi.").format(
        partner=seat_name(2), right=seat_name(1), left=seat_name(3)
    )


_BUTTON_ROOM: Final = 72
"""The cells of the start screen's row of buttons: ``#start`` is 78 wide, less its thick
border and padding (bela.tcss)."""


def _start_labels(resume: bool) -> tuple[str, str]:
    """The Resume and New match buttons' labels: with their keys (^R, ^N) where the row of
    five buttons fits 80 columns, else without them (in hr, es, ru and ar, Resume's
    arrival pushed Quit out of the row: "Kr" at 80x24, issue #35); ^N and ^R still work,
    and the footer names ^N."""
    labels = (_("Resume (^R)"), _("New match (^N)"))
    if not resume:
        return labels
    row = [*labels, _("Rules (F1)"), _("History (F3)"), _("Quit")]
    width = sum(max(cell_len(label) + 2, 10) + 1 for label in row)  # #start .buttons Button
    return labels if width <= _BUTTON_ROOM else (_("Resume"), _("New match"))


class Choice(RadioButton):
    """A radio button marked by shape (● chosen, blank not), so it reads under ``NO_COLOR``."""

    def __init__(self, label: str | Text, *, value: bool, name: str) -> None:
        super().__init__(label, value=value, name=name)
        self.BUTTON_INNER = "●" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "●" if self.value else " "
        super().watch_value()


class Choices(RadioSet):
    """A radio set whose highlight is always the chosen button.

    Textual's ``RadioSet`` highlights its first button when mounted, whichever is
    pressed: with 1001 chosen the highlight sat on 501, the eye took it for the
    choice, and Enter or Space would have chosen 501 (issue #12). And its arrows
    moved only the highlight, so ← ← ← Enter on the start screen seemed to choose
    and then started a match to the old target (issue #22). Here ← and → choose
    (the ● moves with the highlight), ↑ and ↓ move to the row above or below, and
    Enter goes on to the next row: it never starts a match from a choice.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "", show=False),
        Binding("right", "step(1)", "", show=False),
        Binding("up", "row(-1)", "", show=False),
        Binding("down,enter", "row(1)", "", show=False),
    ]

    def action_row(self, step: int) -> None:
        """The row above or below: the start screen's order, else the next focusable
        widget (the settings screen, which lists one setting a row)."""
        screen = self.screen
        if isinstance(screen, StartScreen):
            screen.action_row(step)
        elif step < 0:
            screen.focus_previous()
        else:
            screen.focus_next()

    def action_step(self, step: int) -> None:
        if step < 0:
            self.action_previous_button()
        else:
            self.action_next_button()
        self.action_toggle_button()

    def action_next_button(self) -> None:
        """The next button; the first time (``RadioSet``'s mount handler, which would pick
        the first button), the one pressed: the highlight is placed once, and the set is
        styled once before the first paint instead of twice (issue #37's first screen)."""
        if self._selected is None:
            pressed = [i for i, b in enumerate(self.children) if getattr(b, "value", False)]
            if pressed:
                self._selected = pressed[0]
                return
        super().action_next_button()


class StartScreen(LanguageRedraw, Screen[None]):
    """Choose the match, or resume the unfinished one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "row(-1)", "", show=False),
        Binding("down", "row(1)", "", show=False),
        Binding("left", "across(-1)", "", show=False),
        Binding("right", "across(1)", "", show=False),
        Binding("ctrl+n", "start", N_("New match")),
        Binding("ctrl+r", "resume", N_("Resume"), show=False),
        Binding("ctrl+s", "reseed", N_("New seed")),
        Binding("escape", "app.quit", N_("Quit"), show=False),
    ]

    def __init__(
        self,
        *,
        target: int,
        seed: int,
        difficulty: str,
        saved: Saved | None = None,
        problem: str | None = None,
        notice: str | None = None,
        rules: Rules | None = None,
        looking: bool = False,
    ) -> None:
        """``problem``: why a save could not be used; ``notice``: which save this window uses;
        ``rules``: the house rules a new match is dealt under (shown, changed in settings);
        ``looking``: the save is being read, and ``show_saved`` will say what it holds."""
        super().__init__()
        self.looking = looking
        self.target = target if target in TARGETS else TARGETS[-1]
        self.seed = seed
        levels = list(DIFFICULTIES)
        if difficulty == "heuristic":
            difficulty = "normal"
        if difficulty not in levels:
            levels.append(difficulty)
        self.levels = tuple(levels)
        self.difficulty = difficulty
        self.saved = saved
        self.problem = problem
        self.notice = notice
        self.rules = rules if rules is not None else Rules()
        self._resumed = False

    @property
    def bela_app(self) -> BelaApp:
        from bela.tui.app import BelaApp

        app = self.app
        assert isinstance(app, BelaApp)
        return app

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="start", classes="dialog"):
            hearts, diamonds, spades, clubs = (suit_symbol(suit) for suit in Suit)
            title = f"{hearts} {diamonds}  Bela  {spades} {clubs}"  # the deck in use
            yield Static(title, id="start-title", classes="title")
            yield Static(Text(_intro()), id="start-intro")  # the bots' names: text, never markup
            # problems quote files, paths and OS errors: shown as plain text, never markup
            if self.problem:
                yield self._problem_line(self.problem)
            if self.notice:
                yield Static(self.notice, id="start-notice", markup=False)
            if self.saved is not None:
                yield self._saved_line(self.saved)
            if self.looking:
                yield Static(_("Looking for your unfinished match…"), id="start-looking")
            with Horizontal(classes="field", id="target-field"):
                yield Label(_("Play to"), classes="field-label")
                with Choices(id="target"):
                    for value in TARGETS:
                        yield Choice(str(value), value=value == self.target, name=str(value))
            with Horizontal(classes="field"):
                yield Label(_("Bots"), classes="field-label")
                with Choices(id="difficulty"):
                    for level in self.levels:
                        yield Choice(
                            Text(_difficulty_label(level)),
                            value=level == self.difficulty,
                            name=level,
                        )
            yield Static(self._rules_text(self.rules), id="start-rules", markup=False)
            with Horizontal(classes="field"):
                yield Label(_("Seed"), classes="field-label")
                yield Input(
                    str(self.seed),
                    id="seed",
                    restrict=r"[0-9]*",
                    max_length=20,
                    tooltip=_("The same seed deals the same cards: note it to replay a match."),
                )
                yield Button(_("New seed"), id="reseed")
            with Horizontal(classes="buttons"):
                if self.saved is not None:
                    yield self._resume_button()
                new_label = _start_labels(resume=self.saved is not None)[1]
                yield Button(new_label, id="new-match", variant="primary")
                yield Button(_("Rules (F1)"), id="rules")
                yield Button(_("History (F3)"), id="history")
                yield Button(_("Quit"), id="quit", variant="error")

    def redraw_language(self) -> None:
        self.call_later(self._redraw_language)

    async def _redraw_language(self) -> None:
        """Compose the screen anew in the new language; the footer comes after, as at first."""
        await self.recompose()
        await self._mount_footer()

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        """Shown for the first time: Textual would style every widget again, a moment after
        styling them all at mounting (the screen's size classes and the theme were already
        there, ``BelaApp._sized``), about 3% of the first screen's time (issue #37). Later
        resumes (back from F1, F2, a match) restyle as Textual does. Textual calls
        ``Screen``'s own handler after this one (each class's, in turn); the picture is
        what a full restyle draws (``tests/tui/test_tui_first_screen_sized.py``)."""
        if self._resumed:
            return
        self._resumed = True
        event.refresh_styles = False
        # what the full restyle did that mounting had not: the focused row's label lit
        # (``.field:focus-within .field-label``), restyled for that row alone
        focused = self.focused
        for node in focused.ancestors_with_self if focused is not None else ():
            if node.has_class("field"):
                node.update_node_styles(animate=False)

    def on_mount(self) -> None:
        # The footer (a widget per key, composed again at each focus change) costs as
        # much as the rest of the screen: it follows the first paint (issue #12).
        self.call_after_refresh(self._mount_footer)
        # an unfinished match: Resume; otherwise the first choice, so that the arrows a
        # player presses first change what is on show, not what is started unseen
        if self.saved is not None:
            self.query_one("#resume", Button).focus()
        else:
            self.query_one("#target", Choices).focus()

    async def _mount_footer(self) -> None:
        """The footer, then its keys: it draws them when the bindings change, and with the
        focus already on a choice (set before it was mounted) nothing else would say so."""
        await self.mount(Footer())
        self.refresh_bindings()

    def _rows(self) -> list[Widget]:
        """The rows the arrows move through, top to bottom: target, bots, seed, buttons."""
        first = self.query_one("#resume" if self.saved is not None else "#new-match", Button)
        return [
            self.query_one("#target", Choices),
            self.query_one("#difficulty", Choices),
            self.query_one("#seed", Input),
            first,
        ]

    def _row_of(self, widget: Widget | None) -> int | None:
        """Which row ``widget`` is in (the seed's row holds its New seed button too)."""
        if widget is None:
            return None
        if widget.id == "reseed":
            return 2
        if (
            isinstance(widget, Button)
            and widget.parent is not None
            and widget.parent.has_class("buttons")
        ):
            return 3
        for index, row in enumerate(self._rows()):
            if widget is row:
                return index
        return None

    def action_row(self, step: int) -> None:
        """↑ / ↓ (and Enter on a choice): the row above or below, in the screen's order."""
        row = self._row_of(self.focused)
        rows = self._rows()
        if row is None:
            rows[0].focus()
            return
        rows[min(max(row + step, 0), len(rows) - 1)].focus()

    def action_across(self, step: int) -> None:
        """← / → among the buttons of a row (the seed's, the bottom one); no wrapping round,
        so ← pressed too often stays on the first button instead of reaching Quit."""
        focused = self.focused
        if not isinstance(focused, Button) or focused.parent is None:
            return
        row = [w for w in focused.parent.children if isinstance(w, Button) or w.id == "seed"]
        index = row.index(focused)
        row[min(max(index + step, 0), len(row) - 1)].focus()

    def show_saved(
        self,
        saved: Saved | None,
        problem: str | None,
        target: int,
        difficulty: str,
        rules: Rules | None = None,
    ) -> None:
        """Offer the unfinished match read after the screen was drawn (or say why not).

        The screen then looks as it would have had the save been read first: the
        match's line, a Resume button with the focus, and its target and bots chosen.
        """
        self.looking = False
        for looking in self.query("#start-looking"):
            looking.remove()
        dialog = self.query_one("#start", Vertical)
        field = self.query_one("#target-field", Horizontal)
        if problem:
            dialog.mount(self._problem_line(problem), before=field)
        if saved is not None:
            self.saved = saved
            dialog.mount(self._saved_line(saved), before=field)
            new_match = self.query_one("#new-match", Button)
            new_match.label = _start_labels(resume=True)[1]
            new_match.refresh(layout=True)  # its width follows its words
            resume = self._resume_button()
            self.query_one("#start .buttons", Horizontal).mount(resume, before=new_match)
            resume.focus()
        self.show_settings(target, difficulty, rules if rules is not None else self.rules)

    @staticmethod
    def _problem_line(problem: str) -> Static:
        """Why a save could not be used: it quotes files, paths and OS errors, so never markup."""
        return Static(problem, id="start-problem", markup=False)

    def _saved_line(self, saved: Saved) -> Static:
        return Static(self._saved_text(saved), id="saved", markup=False)

    @staticmethod
    def _resume_button() -> Button:
        return Button(_start_labels(resume=True)[0], id="resume", variant="success")

    @staticmethod
    def _rules_text(rules: Rules) -> str:
        return _("House rules: {rules}   (F2: settings)").format(rules=rules_summary(rules))

    def show_settings(self, target: int | None, difficulty: str | None, rules: Rules) -> None:
        """Show what the settings screen just chose: the target, the bots (None: not changed
        there, the start screen keeps its own choice) and the house rules."""
        self.rules = rules
        self.query_one("#start-rules", Static).update(self._rules_text(rules))
        chosen = (("target", None if target is None else str(target)), ("difficulty", difficulty))
        for set_id, name in chosen:
            if name is None:
                continue
            for button in self.query_one(f"#{set_id}", RadioSet).query(RadioButton):
                if button.name == name and not button.value:
                    button.value = True

    def on_click(self, event: events.Click) -> None:
        """A click on the house-rules line opens the settings, where they are changed."""
        if event.widget is not None and event.widget.id == "start-rules":
            self.bela_app.action_settings()

    @staticmethod
    def _saved_text(saved: Saved) -> str:
        match = saved.match
        return _(
            "Unfinished match: round {n}, mi {mi} · vi {vi}, to {target} (seed {seed}, {level})."
        ).format(
            n=match.next_index + 1,
            mi=match.scores[0],
            vi=match.scores[1],
            target=match.target,
            seed=match.seed,
            level=level_name(saved.difficulty),
        )

    def _chosen(self, set_id: str) -> str | None:
        button = self.query_one(f"#{set_id}", RadioSet).pressed_button
        return button.name if button is not None else None

    def on_button_pressed(self, event: Button.Pressed) -> None:
        match event.button.id:
            case "new-match":
                self.action_start()
            case "resume":
                self.action_resume()
            case "reseed":
                self.action_reseed()
            case "rules":
                self.bela_app.action_help()
            case "history":
                self.bela_app.action_history()
            case "quit":
                self.app.exit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_reseed(self) -> None:
        self.query_one("#seed", Input).value = str(new_seed())

    def action_resume(self) -> None:
        if self.saved is not None:
            self.bela_app.open_table(self.saved.match, self.saved.difficulty)

    def action_start(self) -> None:
        seed = parse_seed(self.query_one("#seed", Input).value)
        if seed is None:
            self.notify(
                _("The seed is a whole number from 0 to {max}.").format(max=MAX_SEED),
                severity="error",
                timeout=5,
            )
            self.query_one("#seed", Input).focus()
            return
        target = int(self._chosen("target") or self.target)
        difficulty = self._chosen("difficulty") or self.difficulty
        self.bela_app.new_match(target=target, seed=seed, difficulty=difficulty)
