"""The puzzles (F6, and "Puzzles" in the palette): find the one card or bid that is clearly right.

The screen draws the puzzle's moment with the table's own widgets (the seats'
badges, the trick, the bid menu, the hand, the table talk with the bids and the
tricks so far), seen from the puzzle's seat at the bottom (``bela.tui.puzzle_table``),
and takes the answer with the keys of the table: ←/→ or 1-8 and Enter for a card,
the suits' letters and dalje's (or the bid menu) for a bid. The answer is kept at
once (``bela.archive.puzzle_store``: a journal flushed to the disk, and the history
database), and the explanation takes the screen: right or wrong, the averages over
the guessed deals, a typical deal, the real deal, the rating and the streak
(``bela.tui.puzzle_explain``, with the command line's sentences from
``bela.puzzle_words``).

The pack is read in a thread: every line is replayed through the engine before it
is believed (``bela.archive.puzzle_pack``), and a line that is not a puzzle is
skipped and counted, never shown.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from datetime import UTC, date, datetime
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any, ClassVar, Final

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Container, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from bela.engine import Action, Card, Phase, Play, Round
from bela.i18n import N_, _, ngettext
from bela.keys import bind_letters, letter
from bela.tui.model import bid_options
from bela.tui.puzzle_table import (
    bid_menu,
    from_seat,
    hand_model,
    legal_cards,
    seat_models,
    seen_lines,
    status_text,
    trick_model,
)
from bela.tui.screens.table_parts import CHOOSE_BINDINGS, choose_first, no_such_card
from bela.tui.widgets import BidMenu, Hand, SeatBadge, TooSmall, TrickView
from bela.tui.widgets.footer import Footer
from bela.tui.widgets.language import LanguageRedraw
from bela.tui.widgets.table_talk import TableTalk

if TYPE_CHECKING:
    from textual.timer import Timer

    from bela.archive.puzzle_modes import ModeRun, RunResult
    from bela.archive.puzzle_pack import Pack, Puzzle
    from bela.archive.puzzle_store import Outcome, PuzzleStore
    from bela.lab.puzzle_reasons import Reasons

__all__ = ["PUZZLE_LETTERS", "ModeScreen", "PuzzleScreen", "RatingScreen", "ThemeScreen"]

PUZZLE_LETTERS: Final = (
    "hearts",
    "diamonds",
    "spades",
    "clubs",
    "pass",
    "puzzle_next",
    "puzzle_theme",
    "puzzle_daily",
    "puzzle_rating",
    "puzzle_play",
    "puzzle_modes",
)
"""The lettered actions of the puzzles (``bela.keys``), in the player's language."""


_PACKS: dict[tuple[str, tuple[tuple[str, int, int], ...]], Pack] = {}
"""The pack read last, by its data folder and its own files: F6 again opens at once, and a file
added, changed or removed since (``bela puzzles generate`` in another terminal) is read anew."""


def own_files(directory: Path) -> tuple[tuple[str, int, int], ...]:
    """The player's puzzle files as (name, size, modification time): what the pack depends on
    besides the shipped one (which does not change while bela runs)."""
    from bela.archive.puzzle_pack import own_dir

    try:
        entries = sorted(os.scandir(own_dir(directory)), key=lambda e: e.name)
    except OSError:
        return ()
    out: list[tuple[str, int, int]] = []
    for entry in entries:
        if entry.name.endswith(".jsonl"):
            with contextlib.suppress(OSError):
                stat = entry.stat()
                out.append((entry.name, stat.st_size, stat.st_mtime_ns))
    return tuple(out)


_POOL_LOCK = threading.Lock()
_POOL: list[Any] = []
"""The one worker process the reasons are worked out in (made at the first answer)."""


def warm_up() -> None:
    """Start the reasons' worker process and its imports before the first answer (where no
    process can be started, the reasons will be worked out on a thread)."""
    from bela.puzzle_words import reasons_ready

    global USE_PROCESS
    if not USE_PROCESS or sys.__stderr__ is None:
        return
    try:
        _in_process(reasons_ready)
    except Exception:  # any failure to start means: no process here
        _drop_pool()
        USE_PROCESS = False


def _in_process(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in the worker process (``ProcessPoolExecutor``'s errors raised as they
    come; ``worked_out`` says what each means)."""
    from concurrent.futures import ProcessPoolExecutor

    # the app has replaced sys.stderr with an object whose descriptor is no file:
    # multiprocessing hands its helper processes the real one
    with _POOL_LOCK, contextlib.redirect_stderr(sys.__stderr__):
        if not _POOL:
            import multiprocessing

            from bela.lab.runner import start_method

            context = multiprocessing.get_context(start_method())
            _POOL.append(ProcessPoolExecutor(max_workers=1, mp_context=context))
        future = _POOL[0].submit(fn, *args)
    return future.result()


def worked_out(puzzle: Puzzle, action: Action) -> Reasons | None:
    """``bela.puzzle_words.puzzle_reasons`` in a worker process of its own.

    The exact solver runs compiled and holds Python's lock for long stretches: on a thread
    of the app it froze the screen for up to half a second at a time (measured on a loaded
    two-core machine). A process leaves the app's thread free; the thread that waits for it
    sleeps. Where no process can be started, it runs on the calling thread instead.
    """
    from concurrent.futures.process import BrokenProcessPool

    from bela.puzzle_words import puzzle_reasons

    global USE_PROCESS
    if USE_PROCESS and sys.__stderr__ is not None:
        try:
            result: Reasons | None = _in_process(puzzle_reasons, puzzle, action)
            return result
        except BrokenProcessPool:
            _drop_pool()  # the process died: the next answer starts a fresh one
        except (OSError, RuntimeError, ValueError):
            # no process can be started here (under a test runner that captures the
            # terminal, forkserver refuses its descriptors): the thread it is, from now on
            _drop_pool()
            USE_PROCESS = False
    return puzzle_reasons(puzzle, action)


def _drop_pool() -> None:
    """Stop the worker process (if any), without waiting for it."""
    with _POOL_LOCK:
        for pool in _POOL:
            pool.shutdown(wait=False, cancel_futures=True)
        _POOL.clear()


USE_PROCESS = True
"""Whether ``worked_out`` uses a worker process (False once one could not be started)."""


def today() -> date:
    """The date of the daily puzzle: the same day for everyone, by UTC."""
    return datetime.now(UTC).date()


class PuzzleScreen(LanguageRedraw, Screen[None]):
    """One puzzle at a time: the moment, the answer, then why."""

    DEFAULT_CSS = """
    PuzzleScreen #puzzle-card { height: auto; max-height: 9; border: round $foreground 30%;
        padding: 0 1; }
    PuzzleScreen #puzzle-answer { height: 1fr; padding: 0 1; display: none; }
    PuzzleScreen.-answered #puzzle-answer { display: block; }
    PuzzleScreen.-answered #main { display: none; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *CHOOSE_BINDINGS,
        Binding("escape", "close", N_("Back")),
    ]

    def __init__(self, pack: Pack | None = None, store: PuzzleStore | None = None) -> None:
        """``pack`` and ``store``: given by tests; by default the shipped pack with the
        player's own files, and the attempts kept beside the history database."""
        super().__init__()
        self.pack = pack
        self.store = store
        self.puzzle: Puzzle | None = None
        self.moment: Round | None = None
        self.daily_of: date | None = None
        """The date whose daily puzzle is on show (None for any other puzzle)."""
        self.theme: str | None = None
        """The theme the next puzzles are drawn from (None: every theme)."""
        self.cursor = 0
        self.bid_cursor = 0
        self.unchosen = False
        self.answered: Action | None = None
        self.outcome: Outcome | None = None
        """What the store made of the answer (None before it, or when it could not be kept)."""
        self.asked_at = 0.0
        self.reasons: Reasons | None = None
        """Why the answer is right, once worked out (``_explain``, off the UI's thread)."""
        self.playing_out = False
        """Playing on from the moment on the deal where the player's card loses most."""
        self.run: ModeRun | None = None
        """A streak or a storm under way (``bela.archive.puzzle_modes``)."""
        self.run_result: RunResult | None = None
        """The run that ended with the answer on show (said above the explanation)."""
        self.clock: Timer | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield Static(id="status")
                with Center():
                    yield SeatBadge(id="seat-2", classes="badge top")
                with Horizontal(id="middle"):
                    yield SeatBadge(id="seat-3", classes="badge side")
                    with Container(id="centre"):
                        yield TrickView(id="trick")
                        yield BidMenu(id="bids")
                    yield SeatBadge(id="seat-1", classes="badge side")
                yield Static(id="message")
                with Center():
                    yield SeatBadge(id="seat-0", classes="badge you")
                with Center():
                    yield Hand(id="hand")
            with Vertical(id="side"):
                yield Static(id="puzzle-card")
                log = TableTalk(id="log")
                log.border_title = _("So far")
                yield log
        with VerticalScroll(id="puzzle-answer"):
            yield Static(id="puzzle-explain")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        bind_letters(self, PUZZLE_LETTERS)
        self.query_one("#bids", BidMenu).display = False
        if self.pack is None or self.store is None:
            self._say(_("Reading the puzzles…"))
            self._load()
        else:
            self._ready()

    @work(thread=True, exclusive=True, group="puzzles")
    def _load(self) -> None:
        """Read the pack (each line replayed through the engine: the slow part) off the UI."""
        from bela.archive.puzzle_pack import load_pack
        from bela.archive.storage import data_dir

        if self.pack is not None:
            pack = self.pack
        else:
            directory = data_dir()
            key = (str(directory), own_files(directory))
            pack = _PACKS.get(key) or load_pack(directory)
            _PACKS.clear()  # one pack kept: the one of the data folder as it is now
            _PACKS[key] = pack
        self.app.call_from_thread(self._loaded, pack)

    def _loaded(self, pack: Pack) -> None:
        """The pack is read: open the attempts here, on the UI's thread (SQLite's connection
        stays with the thread that made it)."""
        from bela.archive.history import INDEX_NAME
        from bela.archive.puzzle_store import PuzzleStore
        from bela.archive.storage import data_dir

        self.pack = pack
        if self.store is None:
            directory = data_dir()
            with contextlib.suppress(OSError):  # the store says what it cannot write
                directory.mkdir(parents=True, exist_ok=True)
            self.store = PuzzleStore(directory / INDEX_NAME)
        self._ready()

    def _ready(self) -> None:
        pack = self.pack
        assert pack is not None
        if pack.skipped:
            count = len(pack.skipped)
            self.notify(
                ngettext(
                    "{n} line of the puzzle files is not a puzzle: left out.",
                    "{n} lines of the puzzle files are not puzzles: left out.",
                    count,
                ).format(n=count),
                timeout=6,
            )
        self.action_next_puzzle()
        self._warm()

    @work(thread=True, group="warm-up")
    def _warm(self) -> None:
        """Start the reasons' worker process while the player reads the first puzzle."""
        warm_up()

    def on_unmount(self) -> None:
        self.workers.cancel_group(self, "puzzles")
        _drop_pool()  # the reasons' worker process goes with the screen (F6 starts it again)
        if self.run is not None:  # a run left half-way still counts for the best score
            from bela.archive.puzzle_modes import record_run
            from bela.archive.storage import data_dir

            with contextlib.suppress(OSError):
                record_run(data_dir(), self.run)
        if self.store is not None:
            self.store.close()

    # ------------------------------------------------------------------ puzzles

    def show(self, puzzle: Puzzle, daily: date | None = None) -> None:
        """Ask ``puzzle`` (``daily``: the date it is the daily puzzle of)."""
        self.puzzle, self.daily_of = puzzle, daily
        self.moment = puzzle.moment()
        self.answered = None
        self.reasons, self.playing_out, self.run_result = None, False, None
        self.workers.cancel_group(self, "reasons")
        # the cursor starts on the first card that may be played, as at the table
        cards = hand_model(self.moment, puzzle.seat, None)
        legal = cards.legal or frozenset()
        self.cursor = next((i for i, c in enumerate(cards.cards) if c in legal), 0)
        self.bid_cursor = 0
        self.unchosen = False
        self.set_class(False, "-answered")
        log = self.query_one("#log", TableTalk)
        log.clear()
        log.entries.clear()
        from bela.table_talk import round_lines

        with from_seat(puzzle.seat):
            for line in round_lines(puzzle.deal(), puzzle.actions):
                log.say(line)
        self.asked_at = time.monotonic()
        self.refresh_view()
        self.query_one("#hand", Hand).focus()

    def action_next_puzzle(self) -> None:
        """A puzzle near the player's rating (of the theme chosen, if one is)."""
        if self.pack is None or self.store is None:
            return
        # a streak or a storm asks only puzzles never tried: one whose answer the player
        # has been shown would count as solved
        running = self.run is not None
        puzzle = self.store.next_puzzle(self.pack, self.theme, fresh_only=running)
        if puzzle is None:
            if running:
                self._end_run()
            self._none_left()
            return
        self.show(puzzle)

    def _none_left(self) -> None:
        if self.pack is not None and not self.pack.puzzles:
            text = _("No puzzles here: the pack is not installed and you have none of your own.")
        elif self.theme is not None:
            from bela.puzzle_words import theme_name

            text = _("Every puzzle of the theme {theme} is solved. {key}: another theme.").format(
                theme=theme_name(self.theme), key=letter("puzzle_theme")
            )
        else:
            text = _("Every puzzle is solved. Well played!")
        if self.puzzle is None:
            self._say(text)
        else:
            self.notify(text, timeout=6)

    def action_daily(self) -> None:
        """The daily puzzle: the same for everyone on the date."""
        if self.pack is None or self.store is None:
            return
        day = today()
        puzzle = self.store.daily(self.pack, day)
        if puzzle is None:
            self.notify(_("No daily puzzle: the shipped pack is not installed."), timeout=6)
            return
        self.show(puzzle, daily=day)

    def action_theme(self) -> None:
        """Choose the theme the next puzzles come from."""
        if self.pack is None or self.store is None:
            return
        self.app.push_screen(ThemeScreen(self.pack, self.store, self.theme), self._themed)

    def _themed(self, theme: str | None) -> None:
        if theme is None:
            return  # closed without choosing
        self.theme = theme or None
        self.action_next_puzzle()

    def action_rating(self) -> None:
        """The player's rating over time, the streaks and each theme's count."""
        if self.pack is not None and self.store is not None:
            self.app.push_screen(RatingScreen(self.pack, self.store))

    def action_close(self) -> None:
        self.dismiss(None)

    # ------------------------------------------------------------------ answering (keys)

    def _bidding(self) -> bool:
        return self.moment is not None and self.moment.phase is Phase.BIDDING

    def _open(self) -> bool:
        """Whether an answer is awaited (a puzzle on show, not answered yet), or the player's
        card while playing on."""
        if self.playing_out:
            rnd, puzzle = self.moment, self.puzzle
            return (
                rnd is not None
                and puzzle is not None
                and rnd.phase is Phase.PLAYING
                and rnd.to_act == puzzle.seat
            )
        return self.moment is not None and self.answered is None

    def action_move(self, step: int) -> None:
        if not self._open():
            return
        if self._bidding():
            self.bid_cursor = (self.bid_cursor + step) % len(bid_options())
        else:
            held = len(self._cards())
            if held:
                self.cursor = (self.cursor + step) % held
            self.unchosen = False
        self._clear_error()
        self.refresh_view()

    def action_pick(self, index: int) -> None:
        if not self._open():
            return
        if self._bidding():
            if index < len(bid_options()):
                self.bid_cursor = index
        elif index < len(self._cards()):
            self.cursor, self.unchosen = index, False
        else:
            self.unchosen = True
            self.refresh_view()
            self._say(no_such_card(index, len(self._cards())), error=True)
            return
        self._clear_error()
        self.refresh_view()

    def action_choose(self) -> None:
        """Enter: answer with the chosen card or bid; once answered, the next puzzle."""
        if self.playing_out and self._open():
            cards = self._cards()
            if cards and not self.unchosen:
                self.play_on(Play(cards[self.cursor]))
            elif cards:
                self._say(choose_first(len(cards)), error=True)
        elif self.answered is not None:
            self.action_next_puzzle()
        elif not self._open():
            return
        elif self._bidding():
            self.action_bid(self.bid_cursor)
        elif self.unchosen:
            self._say(choose_first(len(self._cards())), error=True)
        else:
            cards = self._cards()
            if cards:
                self.answer(Play(cards[self.cursor]))

    def action_bid(self, index: int) -> None:
        """A suit's letter or dalje's: the bid, on a bid puzzle."""
        if not self._open():
            return
        if not self._bidding():
            self._say(_("This puzzle asks for a card: ←/→ or 1-8, then Enter."), error=True)
            return
        action = bid_options()[index]
        rnd = self.moment
        assert rnd is not None
        if action not in rnd.legal_actions():
            self._say(_("Pod mus: you must name trump, dalje is not allowed."), error=True)
            return
        self.answer(action)

    def on_hand_card_clicked(self, event: Hand.CardClicked) -> None:
        if self._open() and not self._bidding():
            self.cursor, self.unchosen = event.index, False
            self.action_choose()

    def on_bid_menu_chosen(self, event: BidMenu.Chosen) -> None:
        self.action_bid(event.index)

    def _cards(self) -> tuple[Card, ...]:
        rnd, puzzle = self.moment, self.puzzle
        if rnd is None or puzzle is None:
            return ()
        return hand_model(rnd, puzzle.seat, None).cards

    def answer(self, action: Action) -> None:
        """Keep ``action`` as the answer, and explain."""
        puzzle, store, rnd = self.puzzle, self.store, self.moment
        assert puzzle is not None and store is not None and rnd is not None
        if isinstance(action, Play) and action.card not in legal_cards(rnd):
            self._say(_("That card may not be played here: the dimmed ones may not."), error=True)
            return
        if isinstance(action, Play) and rnd.can_announce_bela(int(action.card)):
            action = Play(action.card, True)  # bela is said, as the table says it by default
        seconds = time.monotonic() - self.asked_at
        try:
            outcome = store.record(puzzle, action, seconds, daily=self.daily_of)
        except OSError as exc:
            from bela.archive.storage import os_error_text

            self.notify(
                _("Your answer could not be kept: {error}").format(error=os_error_text(exc)),
                severity="error",
                timeout=8,
            )
            outcome = None
        self.answered, self.outcome = action, outcome
        if self.run is not None:
            self.run.answer(puzzle.is_right(action), time.monotonic())
            if self.run.over:
                self._end_run()
        self._show_explanation()
        scroll = self.query_one("#puzzle-answer", VerticalScroll)
        scroll.scroll_home(animate=False)
        if puzzle.kind == "card":
            self._explain(puzzle, action)

    def _show_explanation(self) -> None:
        from bela.tui.puzzle_explain import explanation

        puzzle, action = self.puzzle, self.answered
        assert puzzle is not None and action is not None
        pending = self.reasons is None and puzzle.kind == "card"
        text = explanation(puzzle, action, self.outcome, self.reasons, pending=pending)
        if self.run_result is not None:
            from bela.puzzle_words import run_over

            text = Text("\n").join([Text(run_over(self.run_result), style="bold reverse"), text])
        self.query_one("#puzzle-explain", Static).update(text)
        self.set_class(True, "-answered")
        self.query_one("#puzzle-answer", VerticalScroll).focus()

    @work(thread=True, exclusive=True, group="reasons")
    def _explain(self, puzzle: Puzzle, action: Action) -> None:
        """Work out why (fresh guessed deals, each solved exactly: a quarter of a second of
        CPU on average, up to two seconds at the second trick) off the UI, then show it."""
        reasons = worked_out(puzzle, action)
        self.app.call_from_thread(self._explained, puzzle, action, reasons)

    def _explained(self, puzzle: Puzzle, action: Action, reasons: Reasons | None) -> None:
        if puzzle is not self.puzzle or action != self.answered or self.playing_out:
            return  # the player has moved on
        self.reasons = reasons
        scroll = self.query_one("#puzzle-answer", VerticalScroll)
        at = scroll.scroll_y
        self._show_explanation()
        scroll.scroll_to(y=at, animate=False)

    # ------------------------------------------------------------------ modes

    def action_modes(self) -> None:
        """Choose a streak or a storm."""
        from bela.archive.puzzle_modes import read_best
        from bela.archive.storage import data_dir

        if self.pack is not None and self.store is not None:
            self.app.push_screen(ModeScreen(read_best(data_dir())), self._moded)

    def _moded(self, mode: str | None) -> None:
        from bela.archive.puzzle_modes import ModeRun

        if not mode:
            return
        if self.run is not None:
            self._end_run()
        self.run = ModeRun(mode, time.monotonic())
        if mode == "storm":
            self.clock = self.set_interval(1.0, self._tick)
        self.action_next_puzzle()

    def _tick(self) -> None:
        """A storm's clock: the heading counts down; at zero the storm is over."""
        run = self.run
        if run is None:
            return
        if run.expired(time.monotonic()):
            self._end_run()
            if self.answered is not None and not self.playing_out:
                self._show_explanation()
        self.refresh_view()

    def _end_run(self) -> None:
        """Keep the run's score (the best of each mode, in the data folder) and say it."""
        from bela.archive.puzzle_modes import RunResult, record_run
        from bela.archive.storage import data_dir, os_error_text
        from bela.puzzle_words import run_over

        run = self.run
        if run is None:
            return
        self.run = None
        if self.clock is not None:
            self.clock.stop()
            self.clock = None
        try:
            result = record_run(data_dir(), run)
        except OSError as exc:
            self.notify(
                _("Your best score could not be kept: {error}").format(error=os_error_text(exc)),
                severity="error",
                timeout=8,
            )
            result = RunResult(run.mode, run.solved, run.solved, run.solved)
        self.run_result = result
        self.notify(run_over(result), timeout=8)
        if self.answered is None:
            self._say(run_over(result))

    # ------------------------------------------------------------------ playing on

    def action_play_out(self) -> None:
        """After a miss: play on from the moment, on the guessed deal where the player's card
        loses most against the answer, the bots playing the other seats (as Bridge Master
        lets a player replay a hand with the cards placed against them)."""
        from bela.ai.hard import rebuild_round
        from bela.search.sampling import knowledge_of

        puzzle, reasons, chosen = self.puzzle, self.reasons, self.answered
        if puzzle is None or reasons is None or chosen is None or self.playing_out:
            return
        if puzzle.is_right(chosen):
            return
        view = puzzle.moment().view(puzzle.seat)
        self.moment = rebuild_round(view, knowledge_of(view), reasons.worst)
        self.playing_out = True
        self.set_class(False, "-answered")
        self.unchosen = False
        cards = hand_model(self.moment, puzzle.seat, None)
        legal = cards.legal or frozenset()
        self.cursor = next((i for i, c in enumerate(cards.cards) if c in legal), 0)
        from bela.puzzle_words import action_name

        with from_seat(puzzle.seat):
            self.query_one("#log", TableTalk).say(
                _(
                    "Playing on: the others hold the cards of the deal where your {card} loses "
                    "most. The bots play their seats."
                ).format(card=action_name(chosen))
            )
        self.refresh_view()
        self.query_one("#hand", Hand).focus()

    def play_on(self, action: Play) -> None:
        """The player's card while playing on; the bots then play until it is the player's
        turn again or the round is over."""
        from bela.ai import make_bot
        from bela.table_talk import action_lines

        rnd, puzzle = self.moment, self.puzzle
        assert rnd is not None and puzzle is not None
        if action.card not in legal_cards(rnd):
            self._say(_("That card may not be played here: the dimmed ones may not."), error=True)
            return
        if rnd.can_announce_bela(int(action.card)):
            action = Play(action.card, True)
        bot = make_bot("normal")
        rng = Random(puzzle.seed)
        log = self.query_one("#log", TableTalk)
        with from_seat(puzzle.seat):
            next_action: Action = action
            while True:
                seat = rnd.to_act
                assert seat is not None
                after = rnd.apply(next_action)
                for line in action_lines(rnd, next_action, seat, after):
                    log.say(line)
                rnd = after
                if rnd.phase is not Phase.PLAYING or rnd.to_act == puzzle.seat:
                    break
                who = rnd.to_act
                assert who is not None
                next_action = bot.act(rnd.view(who), rng)
        self.moment = rnd
        cards = hand_model(rnd, puzzle.seat, None)
        legal = cards.legal or frozenset()
        self.cursor = next((i for i, c in enumerate(cards.cards) if c in legal), 0)
        self.refresh_view()
        if rnd.result is not None:
            team = puzzle.seat % 2
            ours, theirs = rnd.result.points[team], rnd.result.points[1 - team]
            with from_seat(puzzle.seat):
                text = _(
                    "Played out: we write {ours} and they write {theirs}. Enter: the next puzzle."
                ).format(ours=ours, theirs=theirs)
                log.say(text)
            self._say(text)

    # ------------------------------------------------------------------ drawing

    def _clear_error(self) -> None:
        """A new choice puts the standing prompt back in place of a refusal."""
        self.query_one("#message", Static).set_class(False, "-error")

    def _say(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(Text(text))
        message.set_class(error, "-error")

    def redraw_language(self) -> None:
        self.query_one("#log", TableTalk).border_title = _("So far")
        bind_letters(self, PUZZLE_LETTERS)
        for footer in self.query(Footer):
            footer.refresh(recompose=True)
        if self.puzzle is not None and self.answered is not None and not self.playing_out:
            self._show_explanation()
        self.refresh_view()

    def refresh_view(self) -> None:
        puzzle, rnd = self.puzzle, self.moment
        if puzzle is None or rnd is None:
            return
        me = puzzle.seat
        from bela.puzzle_words import question

        with from_seat(me):
            self.query_one("#status", Static).update(
                Text("\n").join(
                    [Text(self._heading(puzzle), style="bold"), Text(status_text(rnd, me))]
                )
            )
            for where, model in seat_models(rnd, me).items():
                self.query_one(f"#seat-{where}", SeatBadge).model = model
            card = [Text(question(puzzle), style="bold"), *map(Text, seen_lines(rnd, me))]
        bidding = self._bidding()
        bids = self.query_one("#bids", BidMenu)
        trick = self.query_one("#trick", TrickView)
        bids.display, trick.display = bidding, not bidding
        if bidding:
            bids.model = bid_menu(rnd, self.bid_cursor)
        trick.model = trick_model(rnd, me)
        cursor = None if self.unchosen else self.cursor
        self.query_one("#hand", Hand).model = hand_model(rnd, me, cursor)
        self.query_one("#puzzle-card", Static).update(Text("\n").join(card))
        if self.run_result is not None and self.answered is None:
            return  # the run's end stays said under the trick
        if not self.query_one("#message", Static).has_class("-error") or self.answered:
            self._say(self._prompt(bidding))

    def _heading(self, puzzle: Puzzle) -> str:
        store = self.store
        if self.playing_out:
            return _("Playing on: the deal where your card loses most")
        if self.run is not None:
            from bela.puzzle_words import run_status

            return run_status(self.run, time.monotonic())
        rating = round(store.player().rating) if store is not None else 1500
        if self.daily_of is not None:
            return _("Daily puzzle of {date} · your rating {rating}").format(
                date=self.daily_of.isoformat(), rating=rating
            )
        if self.theme is not None:
            from rich.cells import cell_len

            from bela.puzzle_words import theme_name

            theme = theme_name(self.theme)
            heading = _("Puzzle: {theme} · your rating {rating}").format(theme=theme, rating=rating)
            # a long theme ("giving points to the partner") leaves the rating out where the
            # status is narrow (54 cells at 80 x 24), so that the heading stays one line
            # and the trump and whose turn it is stay in sight below it
            width = self.query_one("#status", Static).size.width
            if width and cell_len(heading) > width:
                heading = _("Puzzle: {theme}").format(theme=theme)
            return heading
        return _("Puzzle · your rating {rating}").format(rating=rating)

    def _prompt(self, bidding: bool) -> str:
        """The standing line under the trick: the keys that answer, in the player's language
        (the table's own words where it says the same)."""
        if bidding:
            from bela.keys import bid_keys
            from bela.table_talk import forced_call

            keys = bid_keys()
            suits = " ".join(keys[:4])
            if self.moment is not None and forced_call(self.moment):
                return _(
                    "Pod mus: the others all said dalje, so you must name trump ({suits})."
                ).format(suits=suits)
            return _("Your turn: name trump ({suits}) or say dalje ({key}).").format(
                suits=suits, key=keys[4]
            )
        return _("Choose your card with ←/→ or 1-8, then Enter.")


class ModeScreen(ModalScreen[str | None]):
    """A streak or a storm, each with the best score kept; dismissed with the mode chosen,
    or None when closed without a choice."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", N_("Back"))]

    def __init__(self, best: dict[str, int]) -> None:
        super().__init__()
        self.best = best

    def compose(self) -> ComposeResult:
        from bela.puzzle_words import mode_label

        options = [Option(Text(mode_label(m, n)), id=m) for m, n in self.best.items()]
        with Vertical(classes="dialog"):
            yield Static(_("Which puzzle mode?"), classes="title")
            yield OptionList(*options, id="modes")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#modes", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)


class ThemeScreen(ModalScreen[str | None]):
    """The themes with their puzzles and the player's solved ones; dismissed with the theme
    chosen ("" for every theme), or None when closed without a choice."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", N_("Back"))]

    def __init__(self, pack: Pack, store: PuzzleStore, current: str | None) -> None:
        super().__init__()
        self.pack, self.store, self.current = pack, store, current

    def compose(self) -> ComposeResult:
        from bela.puzzle_words import theme_name

        stats = self.store.by_theme(self.pack)
        options = [Option(Text(_("Every theme ({n})").format(n=len(self.pack.puzzles))), id="")]
        for theme, counts in stats.items():
            label = _("{theme}: {solved} of {n} solved").format(
                theme=theme_name(theme), solved=counts.solved, n=counts.puzzles
            )
            options.append(Option(Text(label), id=theme))
        with Vertical(classes="dialog"):
            yield Static(_("Puzzles of which theme?"), classes="title")
            yield OptionList(*options, id="themes")
        yield Footer()

    def on_mount(self) -> None:
        themes = self.query_one("#themes", OptionList)
        themes.focus()
        if self.current is not None:
            for index in range(themes.option_count):
                if themes.get_option_at_index(index).id == self.current:
                    themes.highlighted = index

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id or "")

    def action_close(self) -> None:
        self.dismiss(None)


class RatingScreen(Screen[None]):
    """The player's puzzle rating over time (plotted), the streaks, and each theme's count."""

    DEFAULT_CSS = """
    RatingScreen #rating { height: 1fr; padding: 0 1; }
    RatingScreen #rating-plot { height: 14; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "close", N_("Back"))]

    def __init__(self, pack: Pack, store: PuzzleStore) -> None:
        super().__init__()
        self.pack, self.store = pack, store

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with VerticalScroll(id="rating"):
            yield Static(self.summary(), id="rating-text")
        yield Footer()

    def summary(self) -> Text:
        from bela.puzzle_words import streak_text, theme_name

        store = self.store
        player = store.player()
        lines = [
            Text(
                _("Your puzzle rating: {rating} (± {rd})").format(
                    rating=round(player.rating), rd=round(2 * player.rd)
                ),
                style="bold",
            ),
            Text(streak_text(store.streak())),
            Text(
                ngettext("{n} puzzle solved.", "{n} puzzles solved.", store.solved_count()).format(
                    n=store.solved_count()
                )
                + " "
                + ngettext(
                    "{n} daily puzzle solved.", "{n} daily puzzles solved.", store.daily_solved()
                ).format(n=store.daily_solved())
            ),
        ]
        from bela.archive.puzzle_modes import read_best, weakest_themes
        from bela.archive.storage import data_dir
        from bela.puzzle_words import mode_label, weak_lines

        for mode, best in read_best(data_dir()).items():
            lines.append(Text(mode_label(mode, best)))
        weak = weakest_themes(
            {p.id: p.themes for p in self.pack.puzzles},
            [(a.puzzle, a.right) for a in store.attempts()],
        )
        lines.extend(
            Text(line, style="bold" if i == 0 else "") for i, line in enumerate(weak_lines(weak))
        )
        for theme, counts in store.by_theme(self.pack).items():
            lines.append(
                Text(
                    "  "
                    + _("{theme}: {solved} of {n} solved, {tried} tried").format(
                        theme=theme_name(theme),
                        solved=counts.solved,
                        n=counts.puzzles,
                        tried=counts.tried,
                    )
                )
            )
        return Text("\n").join(lines)

    def on_mount(self) -> None:
        from bela.tui.screens.stats import _plot_widget, _whole_ticks

        history = self.store.history()
        scroll = self.query_one("#rating", VerticalScroll)
        scroll.focus()
        values = [round(rating) for _when, rating in history]
        if len(values) < 2:
            scroll.mount(Static(Text(_("The plot comes after your second rated puzzle."))))
            return
        plot = _plot_widget()
        if plot is None:
            scroll.mount(Static(rating_text(values), id="rating-plot-text"))
            return
        widget = plot(id="rating-plot")
        scroll.mount(widget)
        plt = widget.plt  # type: ignore[attr-defined]
        plt.title(_("Your puzzle rating, puzzle by puzzle"))
        numbers = list(range(1, len(values) + 1))
        plt.plot(numbers, values)
        plt.xticks(_whole_ticks(numbers))
        plt.yticks(_whole_ticks(values, 6))  # whole ratings: no "1392.5" on the axis
        plt.xlabel(_("rated puzzle, oldest first"))
        widget.refresh()

    def action_close(self) -> None:
        self.dismiss(None)


def rating_text(values: list[int], most: int = 12) -> Text:
    """The rating's history without a plot: the latest ``most`` ratings with a bar each."""
    shown = values[-most:]
    low, high = min(shown), max(shown)
    span = max(high - low, 1)
    lines = [Text(_("Your puzzle rating, puzzle by puzzle:"), style="bold")]
    first = len(values) - len(shown) + 1
    for number, value in enumerate(shown, start=first):
        bar = "█" * (1 + round(29 * (value - low) / span))
        lines.append(Text(f"{number:>4} {value:>5} {bar}"))
    return Text("\n").join(lines)
