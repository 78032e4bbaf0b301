"""The lab's progress bar on stderr, driven by ``map_tasks``'s ``progress(done, total)``.

The bar counts what a person counts (deal pairs, matches), not the runner's
tasks, so each run tells it how many units it has; ``done`` tasks of ``total``
become that share of the units. It starts its refresh thread only at the first
call, which ``map_tasks`` makes after its worker processes are forked.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from bela.foundation.untrusted import as_markup

__all__ = ["ProgressBar"]


class ProgressBar:
    """A transient rich bar of ``units`` on stderr, or nothing when ``show`` is False or
    stderr is not a terminal.

    Use as a context manager around ``map_tasks`` and pass the instance as its
    ``progress``; the label is shown as plain text (bot names are user input).
    """

    def __init__(self, show: bool, units: int, label: str) -> None:
        self.units = units
        self.label = label
        self.progress: Progress | None = None
        self.task_id: Any = None
        self.show = show

    def __call__(self, done: int, total: int) -> None:
        if not self.show:
            return
        if self.progress is None:
            console = Console(stderr=True)
            if not console.is_terminal:
                # a file or a pipe gets no bar, only the newline a transient bar ends with,
                # which would come before a one-line error (a full disk) or the report
                self.show = False
                return
            self.progress = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            )
            # the column reads the description as markup: the label (bot names) is data
            self.task_id = self.progress.add_task(as_markup(self.label, 120), total=self.units)
            self.progress.start()
        completed = self.units if done >= total else (self.units * done) // max(total, 1)
        self.progress.update(self.task_id, completed=completed)

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
