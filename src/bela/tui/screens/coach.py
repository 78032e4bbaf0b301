"""The coach's report (F5): where the player's written points went, with a trend plot.

The lessons come from the history database when they are stored, and are read
from the matches otherwise (``bela.coach_reading.gather_lessons``: the solver, and
the hard bot with only the player's view), in a thread with a progress bar. The
three costliest habits are buttons: each opens its example in the history's
step-through, at the round and trick where the card was played (at the deal and
the bids for a bid: ``BidSlip.trick`` is 0).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, ProgressBar, Static

from bela.i18n import N_, _
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer

__all__ = ["CoachScreen"]

LAST_MATCHES = 100
"""The matches the screen reads, newest first (``bela coach --last`` for another number)."""


class CoachScreen(Screen[None]):
    """The coach's report over the last ``LAST_MATCHES`` finished matches."""

    DEFAULT_CSS = """
    CoachScreen #coach { height: 1fr; padding: 0 1; }
    CoachScreen #coach-plot { height: 14; }
    CoachScreen .habit { margin: 0 0 0 2; min-width: 20; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", N_("Back"))]

    def __init__(self) -> None:
        super().__init__()
        self.report: Any = None
        self.examples: dict[str, tuple[str, int, int]] = {}
        """Button id → (record file, round index, trick) of each habit's example."""

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="coach"):
            yield Static(_("The coach reads your matches…"), id="coach-text")
            yield ProgressBar(id="coach-progress", show_eta=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#coach", VerticalScroll).focus()
        self._read()

    @work(thread=True, exclusive=True, group="coach")
    def _read(self) -> None:
        from bela.archive.history import open_history
        from bela.coach_reading import gather_lessons
        from bela.foundation.untrusted import oneline
        from bela.lab.coach import report
        from bela.lab.coach_text import render_report

        def progress(done: int, total: int) -> None:
            self.app.call_from_thread(self._progress, done, total)

        try:
            with open_history() as history:
                lessons = gather_lessons(history, LAST_MATCHES, True, 1, progress=progress)
                matches_dir = history.matches_dir
            result = report(lessons) if lessons else None
            shown = None if result is None else render_report(result, True)
        except Exception as exc:  # any failure is said, and the app goes on
            message = oneline(_("the coach failed: {error}").format(error=exc))
            self.app.call_from_thread(self._failed, message)
            return
        self.app.call_from_thread(self._show, result, shown, matches_dir)

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#coach-progress", ProgressBar).update(total=total, progress=done)

    def _failed(self, message: str) -> None:
        self.query_one("#coach-text", Static).update(Text(message))
        self.query_one("#coach-progress", ProgressBar).display = False

    def _show(self, result: Any, shown: Any, matches_dir: Any) -> None:
        from bela.lab.coach_text import habit_name
        from bela.tui.screens.stats import _plot_widget, _whole_ticks

        self.report = result
        self.query_one("#coach-progress", ProgressBar).display = False
        text = self.query_one("#coach-text", Static)
        if result is None:
            text.update(Text(_("No finished match yet: the coach needs one to read.")))
            return
        text.update(shown)
        scroll = self.query_one("#coach", VerticalScroll)
        for number, habit in enumerate(result.habits, start=1):
            if habit.example is None:
                continue
            file, slip = habit.example
            ident = f"habit-{number}"
            self.examples[ident] = (file, slip.round, slip.trick)
            label = _("Show the example of habit {n}: {habit}").format(
                n=number, habit=habit_name(habit.kind)
            )
            scroll.mount(Button(Text(label), id=ident, classes="habit"))
        plot = _plot_widget()
        values = [v for _k, v in result.trend]
        if plot is not None and len(values) > 1:
            widget: Any = plot(id="coach-plot")
            scroll.mount(widget)
            plt = widget.plt
            plt.title(_("Given away a round against the hard bot, match by match"))
            numbers = list(range(1, len(values) + 1))
            plt.plot(numbers, values)
            plt.xticks(_whole_ticks(numbers))  # matches are whole: no "1.5" on the axis
            plt.xlabel(_("finished match, oldest first"))
            widget.refresh()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id in self.examples:
            file, index, trick = self.examples[event.button.id]
            self.open_example(file, index, trick)

    def open_example(self, file: str, index: int, trick: int) -> None:
        """The history's step-through of ``file`` at round ``index``, trick ``trick``."""
        from bela.archive.history import open_history
        from bela.tui.screens.history import ReplayScreen

        with open_history(refresh=False) as history:
            row = history.match(file)
        if row is None:
            self.notify(_("That match is no longer in the archive."), timeout=4)
            return
        self.app.push_screen(ReplayScreen(row, start=(index, trick)))

    def action_close(self) -> None:
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "coach")
