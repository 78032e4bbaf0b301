"""The history of past matches (issue #13): list, filter, step through, resume.

``HistoryScreen`` lists every archived match newest first (date, target, bots,
house rules, result, seed), filtered by the bots' level, the result and any
text; a damaged record is listed as damaged with its reason, never hidden.
Enter opens a match in ``ReplayScreen``, which steps through it trick by trick
(← →) and round by round (↑ ↓) with the cards of all four seats beside the
score sheet; ``b`` opens its full sheet, ``s`` plots its score race (the statistics
screen), and ``r`` resumes an unfinished match that "New match" shelved.

The index (``bela.archive.history``) is refreshed in a thread worker, so the screen is
drawn at once; a first full build (many records, read and replayed) shows a
progress bar meanwhile. File names, reasons, levels and rules come from outside
(the disk and the index, which anyone can edit): each goes through the gate
(``bela.foundation.untrusted``: one line, no control a terminal acts on), every
cell is a rich ``Text`` and every ``Static`` that shows them has ``markup=False``
(``docs/security.md``).

Resuming goes through the same keep-what-is-saved path as a new match
(``resume_archived``): the match at the table stays saved and is archived, the
shelved one is written as this window's autosave, and only then is its
archive file renamed aside to ``NAME.resumed`` (not a ``.json`` record any
more, so neither the history nor the statistics offer or count it twice; it
stays on disk and ``bela replay`` still reads it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Input, ProgressBar, Select, Static

from bela.foundation.untrusted import as_text, oneline, shown
from bela.i18n import N_, _, ngettext
from bela.settings import stored_rule_name
from bela.tui.widgets import TooSmall
from bela.tui.widgets.footer import Footer
from bela.wording import (
    at_table,
    level_name,
    match_kind,
    outcome_name,
    padded,
    suit_symbol,
    you,
)

if TYPE_CHECKING:
    from bela.archive.history import MatchRow
    from bela.archive.replay_text import RoundView
    from bela.engine import Card, Match
    from bela.tui.app import BelaApp

__all__ = [
    "RESUMED_SUFFIX",
    "HistoryScreen",
    "ReplayScreen",
    "matches_shown",
    "result_text",
    "resume_archived",
]

RESUMED_SUFFIX: Final = ".resumed"
"""What a resumed archive file is renamed to end with, in place of ``.json``."""

ALL: Final = "all"
_BUILD_NOTICE_AT: Final = 20
"""Records to read before the progress bar is worth showing."""
_LEVELS: Final = ("easy", "normal", "hard", "network")
_OUTCOMES: Final = ("won", "lost", "unfinished", "damaged")
_FILE_LIMIT: Final = 160
_REASON_LIMIT: Final = 200


def result_text(row: MatchRow) -> str:
    """ "won 523:410", "unfinished 120:80", "damaged" (scores are always mi:vi)."""
    if row.scores is None:
        return outcome_name(row.outcome.value)
    return f"{outcome_name(row.outcome.value)} {row.scores[0]}:{row.scores[1]}"


def _date(row: MatchRow) -> str:
    return row.played_at.astimezone().strftime("%Y-%m-%d %H:%M")


def _rules(row: MatchRow) -> str:
    """The house rules by their one names; the index's text, so through the gate."""
    return oneline(", ".join(map(stored_rule_name, row.rules)), 200) if row.rules else _("standard")


def _haystack(row: MatchRow) -> str:
    parts = (
        row.file,
        _date(row),
        result_text(row),
        "" if row.seed is None else str(row.seed),
        row.difficulty or "",
        " ".join(row.players or ()),
        _rules(row),
        row.reason or "",
    )
    return " ".join(parts).casefold()


def matches_shown(
    rows: list[MatchRow], difficulty: str = ALL, outcome: str = ALL, text: str = ""
) -> list[MatchRow]:
    """The rows the filters let through, in their order (newest first)."""
    needle = text.strip().casefold()
    return [
        row
        for row in rows
        if (difficulty == ALL or row.difficulty == difficulty)
        and (outcome == ALL or row.outcome.value == outcome)
        and (not needle or needle in _haystack(row))
    ]


def _bela_app(screen: Screen[None]) -> BelaApp:
    from bela.tui.app import BelaApp

    app = screen.app
    assert isinstance(app, BelaApp)
    return app


async def resume_archived(app: BelaApp, file: str) -> bool:
    """Resume the unfinished archived match ``file``; True once it is at the table.

    Nothing is lost on the way: the record is read and replayed first (a bad
    one changes nothing); the match at the table (or in the autosave) is
    shelved into the archive exactly as "New match" does; the resumed match is
    saved as this window's autosave; only then is its archive file renamed
    aside, so it is not offered twice. If the save fails, nothing is renamed.
    """
    from bela.archive.history import record_path
    from bela.archive.records import match_from_record
    from bela.archive.storage import matches_dir, os_error_text, read_record
    from bela.session import autosave, shelve_unfinished

    path = record_path(matches_dir(), file)
    try:
        record = read_record(path)
        match = match_from_record(record)
    except OSError as exc:
        app.notify(
            oneline(
                _("{file} cannot be read: {error}").format(
                    file=shown(file), error=os_error_text(exc)
                )
            ),
            timeout=8,
        )
        return False
    except ValueError as exc:
        app.notify(
            oneline(_("{file} cannot be resumed: {error}").format(file=shown(file), error=exc)),
            timeout=8,
        )
        return False
    if match.is_over:
        app.notify(oneline(_("{file} is a finished match.").format(file=shown(file))), timeout=5)
        return False
    await app.action_new_match()  # leaves the table: its match stays in the autosave
    kept = shelve_unfinished()
    if kept is not None:
        app.notify(kept, timeout=6)
    problem = autosave(match, record.difficulty)
    if problem is not None:
        app.notify(
            oneline(_("{problem}; the match stays in the history").format(problem=problem)),
            severity="error",
        )
        return False
    try:
        _rename_aside(path)
    except OSError as exc:
        app.notify(
            oneline(
                _("{file} could not be marked as resumed: {error}").format(
                    file=shown(file), error=os_error_text(exc)
                )
            ),
            severity="warning",
            timeout=8,
        )
    app.open_table(match, record.difficulty)
    return True


def _rename_aside(path: Path) -> Path:
    """``X.json`` → ``X.resumed`` (``X.resumed-2``... if taken); never replaces a file."""
    from bela.foundation.files import rename_to_free_name

    stem = path.name.removesuffix(".json")
    return rename_to_free_name(
        path,
        (
            path.with_name(stem + (RESUMED_SUFFIX if n == 1 else f"{RESUMED_SUFFIX}-{n}"))
            for n in range(1, 1000)
        ),
    )


# ---------------------------------------------------------------------- the list


class HistoryScreen(Screen[None]):
    """Every archived match, newest first, with filters."""

    DEFAULT_CSS = """
    HistoryScreen #history-status { height: auto; padding: 0 1; }
    HistoryScreen #history-progress { height: 1; padding: 0 1; }
    HistoryScreen #history-progress.-done { display: none; }
    HistoryScreen #history-filters { height: 3; }
    HistoryScreen #history-filters Select { width: 22; }
    HistoryScreen #history-filters Input { width: 1fr; }
    HistoryScreen #history-table { height: 1fr; }
    HistoryScreen #history-detail { height: 2; padding: 0 1; color: $text-muted; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back")),
        Binding("r", "resume", N_("Resume")),
        Binding("slash", "find", N_("Filter")),
        Binding("f4", "app.statistics", N_("Statistics")),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[MatchRow] = []
        self.shown: list[MatchRow] = []
        self.loaded = False

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="history"):
            yield Static(_("History: reading the archive…"), id="history-status", markup=False)
            yield ProgressBar(total=None, show_eta=False, id="history-progress", classes="-done")
            with Horizontal(id="history-filters"):
                yield Select(
                    [
                        (_("All bots"), ALL),
                        *((level_name(level).capitalize(), level) for level in _LEVELS),
                    ],
                    value=ALL,
                    allow_blank=False,
                    id="history-difficulty",
                )
                yield Select(
                    [
                        (_("Any result"), ALL),
                        *((outcome_name(o).capitalize(), o) for o in _OUTCOMES),
                    ],
                    value=ALL,
                    allow_blank=False,
                    id="history-outcome",
                )
                yield Input(placeholder=_("filter: seed, date, rules, file…"), id="history-text")
            table: DataTable[Text] = DataTable(id="history-table", cursor_type="row")
            yield table
            yield Static("", id="history-detail", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#history-table", DataTable)
        # the bots' column as wide as the longest level's name in the player's language
        # ("normalni" was cut to "normal" at 80 columns, issue #35), the rules' the narrower
        levels = max(cell_len(level_name(level)) for level in ("easy", "normal", "hard"))
        bots = min(max(6, levels), 10)
        for key, name, width in (
            ("date", _("date"), 16),
            ("to", _("to"), 4),
            ("bots", _("bots"), bots),
            ("rules", _("rules"), 11 - (bots - 6)),
            ("result", _("result"), 18),
            ("seed", _("seed"), 10),
        ):
            table.add_column(name, width=width, key=key)
        table.focus()
        self._load()

    # ------------------------------------------------------------------ loading

    @work(thread=True, exclusive=True, group="history")
    def _load(self) -> None:
        """Open and refresh the index off the UI thread, then hand the frozen rows over."""
        from bela.archive.history import open_history

        try:
            with open_history(refresh=False) as history:
                known = history.connection.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
                todo = _record_count(history.matches_dir) - int(known)
                if todo >= _BUILD_NOTICE_AT:
                    self.app.call_from_thread(self._building, todo)
                history.refresh()
                rows = history.matches()
                notice = history.notice
        except Exception as exc:  # any failure is shown, and the app goes on
            self.app.call_from_thread(
                self._loaded, [], oneline(_("the history failed: {error}").format(error=exc))
            )
            return
        self.app.call_from_thread(self._loaded, rows, notice)

    def _building(self, todo: int) -> None:
        self.query_one("#history-progress", ProgressBar).remove_class("-done")
        self.query_one("#history-status", Static).update(
            ngettext(
                "History: reading {n} match record for the first time (it is replayed "
                "and checked); this happens once.",
                "History: reading {n} match records for the first time (they are replayed "
                "and checked); this happens once.",
                todo,
            ).format(n=todo)
        )

    def _loaded(self, rows: list[MatchRow], notice: str | None) -> None:
        self.rows = rows
        self.loaded = True
        self.query_one("#history-progress", ProgressBar).add_class("-done")
        self._fill()
        if notice is not None:
            self.notify(notice, severity="warning", timeout=10)

    # ------------------------------------------------------------------ the table

    def _filters(self) -> tuple[str, str, str]:
        difficulty = self.query_one("#history-difficulty", Select).value
        outcome = self.query_one("#history-outcome", Select).value
        text = self.query_one("#history-text", Input).value
        return (
            difficulty if isinstance(difficulty, str) else ALL,
            outcome if isinstance(outcome, str) else ALL,
            text,
        )

    def _fill(self) -> None:
        self.shown = matches_shown(self.rows, *self._filters())
        table = self.query_one("#history-table", DataTable)
        table.clear()
        for row in self.shown:
            style = "bold" if row.outcome.value == "won" else ""
            if row.outcome.value == "damaged":
                cells = [
                    Text(_date(row)),
                    Text(""),
                    Text(""),
                    Text(""),
                    Text(outcome_name("damaged"), "red"),
                ]
                cells.append(Text(""))
            else:
                cells = [
                    Text(_date(row)),
                    Text(str(row.target)),
                    as_text(
                        match_kind(row.difficulty, row.players, row.me) if row.difficulty else "",
                        120,
                    ),
                    Text(_rules(row), overflow="ellipsis", no_wrap=True),
                    Text(result_text(row), style),
                    Text("" if row.seed is None else str(row.seed)),
                ]
            table.add_row(*cells, key=row.file)
        total = len(self.rows)
        status = ngettext("History: {n} match", "History: {n} matches", total).format(n=total)
        if len(self.shown) != total:
            status += _(", {n} shown").format(n=len(self.shown))
        status += _(", newest first · Enter: step through one · r: resume")
        self.query_one("#history-status", Static).update(status)
        self._detail()

    def current(self) -> MatchRow | None:
        """The highlighted match, if any."""
        table = self.query_one("#history-table", DataTable)
        if not self.shown or table.cursor_row < 0 or table.cursor_row >= len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def _detail(self) -> None:
        row = self.current()
        text = Text()
        if row is not None:
            # the file's name and the reason come from the disk and the index: text from
            # outside, made one safe line each (no escape reaches the terminal)
            text.append(as_text(row.file, _FILE_LIMIT, style="bold"))
            if row.reason is not None:
                text.append("\n")
                text.append(as_text(row.reason, _REASON_LIMIT))
            elif row.rounds or row.rules:
                text.append(
                    "\n"
                    + ngettext(
                        "{n} round · rules {rules}", "{n} rounds · rules {rules}", row.rounds
                    ).format(n=row.rounds, rules=_rules(row))
                )
        elif self.loaded:
            text.append(
                _("No match here yet.") if not self.rows else _("No match fits the filters.")
            )
        self.query_one("#history-detail", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._detail()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.open_current()

    def on_select_changed(self, event: Select.Changed) -> None:
        if self.loaded:
            self._fill()

    def on_input_changed(self, event: Input.Changed) -> None:
        if self.loaded:
            self._fill()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#history-table", DataTable).focus()

    def open_current(self) -> None:
        row = self.current()
        if row is None:
            return
        if row.reason is not None:
            self.notify(
                oneline(
                    _("{file}: damaged ({reason})").format(
                        file=shown(row.file), reason=oneline(row.reason, _REASON_LIMIT)
                    )
                ),
                severity="warning",
                timeout=8,
            )
            return
        self.app.push_screen(ReplayScreen(row))

    def action_close(self) -> None:
        self.dismiss(None)

    def action_find(self) -> None:
        self.query_one("#history-text", Input).focus()

    async def action_resume(self) -> None:
        row = self.current()
        if row is None:
            return
        if row.outcome.value != "unfinished":
            self.notify(_("Only an unfinished match can be resumed."), timeout=4)
            return
        await resume_archived(_bela_app(self), row.file)


def _record_count(directory: Path) -> int:
    try:
        return sum(
            1
            for entry in os.scandir(directory)
            if entry.name.endswith(".json") and not entry.name.startswith(".")
        )
    except OSError:
        return 0


# ---------------------------------------------------------------------- one match


def _sorted(cards: list[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (int(c.suit), -int(c.rank)))


_SHEET_ROOM: Final = 28
"""The cells a line of the replay's score sheet has: its box is 30 wide, less the border."""


class ReplayScreen(Screen[None]):
    """One archived match, step by step: the deal, then each trick, round after round."""

    DEFAULT_CSS = """
    ReplayScreen #replay { height: 1fr; }
    ReplayScreen #replay-step { width: 1fr; padding: 0 1; }
    ReplayScreen #replay-sheet-box { width: 30; border: round $foreground 30%; }  /* _SHEET_ROOM */
    ReplayScreen #replay-sheet { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Back")),
        Binding("left", "step(-1)", N_("Trick ←")),
        Binding("right", "step(1)", N_("Trick →")),
        Binding("up", "round(-1)", N_("Round ↑")),
        Binding("down", "round(1)", N_("Round ↓")),
        Binding("b", "sheet", N_("Blok")),
        Binding("s", "race", N_("Score race")),
        Binding("r", "resume", N_("Resume")),
        # not in the footer, which has no room left at 80 columns: F1 lists it
        Binding("m", "bot_seat", N_("Bot in my seat"), show=False),
        Binding("v", "review", N_("Review"), show=False),
    ]

    def __init__(self, row: MatchRow, start: tuple[int, int] | None = None) -> None:
        """``start``: (round index, trick) to open at, as the coach's examples do."""
        super().__init__()
        self.row = row
        self.start = start
        self.match: Match | None = None
        self.difficulty = row.difficulty or "normal"
        self.players: tuple[str, ...] | None = None
        """A network match's names by seat (its record's), shown from seat ``me``'s side."""
        self.me: int | None = None
        self.views: list[RoundView] = []
        self.steps: list[tuple[int, int]] = []
        """(round view, trick): trick 0 is the deal and the bids, k the k-th trick."""
        self.at = 0

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Horizontal(id="replay"):
            yield Static("", id="replay-step")
            with VerticalScroll(id="replay-sheet-box"):
                yield Static("", id="replay-sheet")
        yield Footer()

    def on_mount(self) -> None:
        from bela.archive.history import record_path
        from bela.archive.records import match_from_record
        from bela.archive.replay_text import match_rounds
        from bela.archive.storage import matches_dir, os_error_text, read_record

        try:
            record = read_record(record_path(matches_dir(), self.row.file))
            self.match = match_from_record(record)
        except OSError as exc:
            self._problem(
                _("{file} cannot be read: {error}").format(
                    file=shown(self.row.file), error=os_error_text(exc)
                )
            )
            return
        except ValueError as exc:
            self._problem(
                _("{file} is damaged: {error}").format(file=shown(self.row.file), error=exc)
            )
            return
        self.difficulty = record.difficulty
        self.players, self.me = record.players, record.me
        self.views = match_rounds(self.match)
        for index, view in enumerate(self.views):
            tricks = len(view.round.tricks)
            self.steps += [(index, trick) for trick in range(tricks + 1)]
        if self.start is not None:
            wanted_round, wanted_trick = self.start
            for position, view in enumerate(self.views):
                if view.index == wanted_round and (position, wanted_trick) in self.steps:
                    self.at = self.steps.index((position, wanted_trick))
        self._show()

    def _problem(self, text: str) -> None:
        self.query_one("#replay-step", Static).update(as_text(text))

    @property
    def step(self) -> tuple[int, int]:
        return self.steps[self.at] if self.steps else (0, 0)

    def action_step(self, delta: int) -> None:
        if self.steps:
            self.at = min(max(self.at + delta, 0), len(self.steps) - 1)
            self._show()

    def action_round(self, delta: int) -> None:
        """To the deal of the previous (or next) round; ↑ inside a round goes to its deal."""
        if not self.steps:
            return
        index, trick = self.step
        wanted = index + delta if delta > 0 or trick == 0 else index
        wanted = min(max(wanted, 0), len(self.views) - 1)
        self.at = self.steps.index((wanted, 0))
        self._show()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_sheet(self) -> None:
        from bela.tui.screens.sheet import SheetScreen

        if self.match is not None:
            self.app.push_screen(SheetScreen(self.match, self.difficulty))

    def action_race(self) -> None:
        """The statistics, with this match's score race plotted."""
        from bela.tui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self.row.file))

    def action_bot_seat(self) -> None:
        """The round on screen again, with the hard bot playing the reader's cards."""
        from bela.session import bot_kind
        from bela.tui.screens.bot_seat import BotSeatScreen

        if self.match is None or not self.views:
            return
        view = self.views[self.step[0]]
        if view.written is None:  # the round still being played has nothing to compare
            self.notify(_("Only a finished round can be played again by the bot."), timeout=4)
            return
        seat = 0 if self.me is None else self.me
        level = bot_kind(self.difficulty)
        self.app.push_screen(BotSeatScreen(self.match, view.index, level, seat, self.players))

    def action_review(self) -> None:
        """The round on screen reviewed card by card against the hard bot, from the reader's
        information."""
        from bela.lab.card_review import reviewable_rounds
        from bela.tui.screens.review import ReviewScreen

        if self.match is None or not self.views:
            return
        view = self.views[self.step[0]]
        if view.index not in reviewable_rounds(self.match):
            self.notify(_("This round has no cards of yours to review."), timeout=4)
            return
        seat = 0 if self.me is None else self.me
        self.app.push_screen(ReviewScreen(self.match, view.index, seat))

    async def action_resume(self) -> None:
        if self.match is None or self.match.is_over:
            self.notify(_("Only an unfinished match can be resumed."), timeout=4)
            return
        await resume_archived(_bela_app(self), self.row.file)

    # ------------------------------------------------------------------ drawing

    def step_text(self) -> Text:
        """What the step on show says: the round, the trick, and the four seats' cards."""
        from bela.archive.replay_text import card_text, cards_text, summary
        from bela.engine import Call, cards_in
        from bela.table_text import SEAT_NAMES, TEAM_NAMES

        assert self.match is not None
        index, trick_no = self.step
        view = self.views[index]
        rnd = view.round
        lines: list[Text] = []
        from bela.engine.rules import QUICK_TARGET

        if self.match.target == QUICK_TARGET:  # three deals, not a race to 163
            head = _("Seed {seed} · brza 163 (three deals) · bots {level}")
        else:
            head = _("Seed {seed} · to {target} · bots {level}")
        head = head.format(
            seed=self.match.seed, target=self.match.target, level=level_name(self.difficulty)
        )
        lines.append(Text(head, style="italic"))
        trump = ""
        if rnd.trump is not None and rnd.caller is not None:
            trump = _(" · trump {symbol} ({name})").format(
                symbol=suit_symbol(rnd.trump), name=SEAT_NAMES[rnd.caller]
            )
        lines.append(
            Text(
                _("Round {n} of {total} · dealer {dealer}{trump}").format(
                    n=view.number, total=len(self.views), dealer=SEAT_NAMES[rnd.dealer], trump=trump
                ),
                style="bold",
            )
        )
        tricks = rnd.tricks
        played_before: set[int] = set()
        for done in tricks[: max(trick_no - 1, 0)]:
            played_before.update(int(card) for card in done.cards)
        if trick_no == 0:
            bids = ", ".join(
                f"{SEAT_NAMES[seat]}: "
                + (suit_symbol(bid.suit) if isinstance(bid, Call) else _("dalje"))
                for seat, bid in rnd.bids
            )
            lines.append(Text(_("The deal · bids: {bids}").format(bids=bids or _("none yet"))))
        else:
            trick = tricks[trick_no - 1]
            lines.append(
                Text(
                    _("Trick {n} of {total} · led by {leader} · won by {name} (+{points})").format(
                        n=trick_no,
                        total=len(tricks),
                        leader=SEAT_NAMES[trick.leader],
                        name=SEAT_NAMES[trick.winner],
                        points=trick.points,
                    )
                )
            )
        lines.append(Text(""))
        for seat in range(4):
            hand = [
                card
                for card in cards_in(rnd.deal_hands[seat] | rnd.deal_talons[seat])
                if int(card) not in played_before
            ]
            name = f"{SEAT_NAMES[seat]} ({TEAM_NAMES[seat % 2]})"
            line = Text(padded(name, 10) + " ")  # a space after a long name too
            if trick_no == 0:
                talon = set(int(c) for c in cards_in(rnd.deal_talons[seat]))
                dealt = [c for c in _sorted(hand) if int(c) not in talon]
                line.append_text(cards_text(dealt))
                line.append("  " + _("talon") + " ")
                line.append_text(cards_text(_sorted([c for c in hand if int(c) in talon])))
            else:
                trick = tricks[trick_no - 1]
                place = (seat - trick.leader) % 4
                card = trick.cards[place]
                line.append_text(card_text(card, bold=True))
                line.append("  · " if len(str(card)) > 2 else "   · ")
                line.append_text(
                    Text(" ").join(card_text(c, bold=c == card) for c in _sorted(hand))
                )
                if seat == trick.winner:
                    line.append("  ✓")
            lines.append(line)
        lines.append(Text(""))
        last = trick_no == len(tricks)
        if last and rnd.result is not None and view.written is not None:
            lines.append(Text(summary(rnd.result, view.written), style="bold"))
        elif last and rnd.result is None:
            lines.append(Text(_("The match was left here, unfinished (r resumes it)."), "italic"))
        lines.append(
            Text(
                _("step {n} of {total} · ← → tricks · ↑ ↓ rounds").format(
                    n=self.at + 1, total=len(self.steps)
                ),
                "dim",
            )
        )
        text = Text("\n").join(lines)
        return text

    def sheet_text(self) -> Text:
        """The score sheet up to the round on show, that round's line in reverse."""
        from bela.archive.replay_text import TEAM_NAMES, sheet_marks
        from bela.engine.rules import QUICK_TARGET

        assert self.match is not None
        index, _step = self.step
        t0, t1 = TEAM_NAMES[0], TEAM_NAMES[1]  # team 0's column is "vi" for a reader in seat 1
        head = f"{'#':>2} {t0:>4} {t1:>4} {'Σ' + t0:>4} {'Σ' + t1:>4}"
        if cell_len(f"{head} {_('note')}") <= _SHEET_ROOM:
            head = f"{head} {_('note')}"  # else left out: hr "bilješka" was cut to "bilj…"
        lines = [Text(head, "bold")]
        sums = [0, 0]
        for played in self.match.rounds[: self.views[index].index + 1]:
            sums = [sums[0] + played.written[0], sums[1] + played.written[1]]
            marks = ", ".join(sheet_marks(played, self.match.rules))
            style = "reverse" if played.index == self.views[index].index else ""
            lines.append(
                Text(
                    f"{played.index + 1:>2} {played.written[0]:>4} {played.written[1]:>4} "
                    f"{sums[0]:>4} {sums[1]:>4} {marks}",
                    style,
                    no_wrap=True,
                    overflow="ellipsis",
                )
            )
        lines.append(
            Text(
                (
                    _("brza 163 · now {mi}:{vi}")
                    if self.match.target == QUICK_TARGET
                    else _("to {target} · now {mi}:{vi}")
                ).format(target=self.match.target, mi=sums[you() % 2], vi=sums[1 - you() % 2]),
                "italic",
            )
        )
        return Text("\n").join(lines)  # one line a round: the CSS cuts the marks short

    def _show(self) -> None:
        with at_table(self.players, self.me):  # a network match: names, from the reader's seat
            self.query_one("#replay-step", Static).update(self.step_text())
            self.query_one("#replay-sheet", Static).update(self.sheet_text())
        self.query_one("#replay-sheet-box", VerticalScroll).scroll_end(animate=False)
