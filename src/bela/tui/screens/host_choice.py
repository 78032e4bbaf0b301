"""The host's choice of table, in the app: resume an unfinished one, or start a new one.

``bela host`` on a data directory with unfinished tables opens every one of them
for its players whatever the host chooses; which one the host's own app sits at
is asked here, when the app starts (``--resume CODE`` and ``--new`` choose it
for scripts, without asking). Each table is one line: its join code, target,
players, score and when it was last played, the newest first. Enter (or its
number) resumes the table under the cursor, ``n`` starts a new table. A choice
the host cannot make (``bela host --target 163`` for a match to 501) is said
in one line and the list stays, so the host can choose again.

The players' names come from the table's save, written by the players: shown as
plain text, never markup.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from bela.foundation.untrusted import oneline
from bela.i18n import N_, _
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer

if TYPE_CHECKING:
    from bela.tui.remote import RemoteSession

__all__ = ["HostChoice", "HostChoiceScreen", "UnfinishedTable", "last_played_words", "table_line"]

_NEW: str = "new"
"""The option id of "a new table" (a table's own option id is its join code)."""


@dataclass(frozen=True, slots=True)
class UnfinishedTable:
    """An unfinished table as the host's choice shows it."""

    code: str
    target: int
    names: tuple[str | None, ...]
    scores: tuple[int, int]
    last_played: float | None
    """When its save was last written (seconds since the epoch), None if unknown."""


class ChoiceError(ValueError):
    """The host's choice cannot be made; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class HostChoice:
    """What the host chooses among, and how the choice is made.

    ``choose(code)`` sits the host's app at the unfinished table ``code`` (None: at a
    new table) and returns its session; it raises ``ChoiceError`` with the reason when
    that cannot be (the list stays, to choose again)."""

    tables: tuple[UnfinishedTable, ...]
    choose: Callable[[str | None], RemoteSession]


def last_played_words(when: float | None, now: float | None = None) -> str:
    """When a table was last played, as the list says it: the time today, else the date."""
    if when is None:
        return "-"
    now = time.time() if now is None else now
    moment, today = time.localtime(when), time.localtime(now)
    if moment[:3] == today[:3]:
        return _("today {time}").format(time=time.strftime("%H:%M", moment))
    return time.strftime("%Y-%m-%d %H:%M", moment)


def table_line(number: int, table: UnfinishedTable, now: float | None = None) -> Text:
    """One table in the list: its number, code, target, each pair with its score (issue
    #33: "23 : 411" did not say which pair had which), and when it was last played."""
    from bela.net.phrases import seated_pairs

    pair0, pair1 = seated_pairs(table.names)
    line = _(
        "{number}. {code} · to {target} · {pair0} {score0} : {score1} {pair1} · {when}"
    ).format(
        number=number,
        code=table.code,
        target=table.target,
        pair0=pair0,
        pair1=pair1,
        score0=table.scores[0],
        score1=table.scores[1],
        when=last_played_words(table.last_played, now),
    )
    return Text(line)  # the names are the players' own text: never markup


class HostChoiceScreen(Screen[None]):
    """The list of unfinished tables and a new one; the chosen table's seat opens."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", N_("New table")),
        *(Binding(str(k), f"pick({k})", N_("Resume"), show=False) for k in range(1, 10)),
    ]

    def __init__(self, choice: HostChoice) -> None:
        super().__init__()
        self.choice = choice
        self.chosen: str | None = None
        """What was chosen: a table's code, ``"new"``, or None while the list is up."""

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="host-choice", classes="dialog"):
            yield Static(_("Unfinished tables here"), classes="title")
            yield Static(
                _(
                    "Enter or its number resumes a table, n starts a new one. Every "
                    "unfinished table stays open for its players either way."
                )
            )
            options: list[Option] = [
                Option(table_line(number, table), id=table.code)
                for number, table in enumerate(self.choice.tables, 1)
            ]
            options.append(Option(Text(_("n. A new table")), id=_NEW))
            yield OptionList(*options, id="tables")
            yield Static(id="choice-problem")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(None if event.option.id == _NEW else event.option.id)

    def action_new(self) -> None:
        self._choose(None)

    def action_pick(self, number: int) -> None:
        tables = self.choice.tables
        if 1 <= number <= len(tables):
            self._choose(tables[number - 1].code)

    def _choose(self, code: str | None) -> None:
        if self.chosen is not None:
            return  # chosen already: the table is opening
        try:
            session = self.choice.choose(code)
        except ChoiceError as exc:
            self.query_one("#choice-problem", Static).update(Text(f"✗ {oneline(exc, 300)}"))
            return
        self.chosen = _NEW if code is None else code
        from bela.tui.app import BelaApp
        from bela.tui.screens.net_table import NetTableScreen

        app = self.app
        if isinstance(app, BelaApp):
            app.remote = session  # the app is that seat now (Ctrl+Q asks mid-match)
        app.switch_screen(NetTableScreen(session))


def unfinished_tables(tables: Sequence[UnfinishedTable]) -> tuple[UnfinishedTable, ...]:
    """The tables as listed: the last played first (an unknown time last)."""
    return tuple(sorted(tables, key=lambda t: -(t.last_played or 0.0)))
