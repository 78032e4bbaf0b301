"""A seat at a table on the network: the same table, drawn from what the host sends.

The local table (``screens.table``) holds the ``Match``; this one holds only
the last ``State`` the host sent for our seat, and draws it with the same
widgets: our seat at the bottom, partner on top, the others at the sides.
Keys are the local table's (arrows, 1-8, Enter, h d s c p, k, ``i`` for a hint,
``l`` for the last trick; ``screens.table_parts``), plus table talk: ``t`` to type a
line, F5-F10 for the quick phrases ("dobro", "bela!", ...). The zvanja moment, the
bela callout and each round's summary come up as at the local table, worked out
from what this seat was sent (``bela.tui.net_moments``); so is the hint, in a
thread on this machine.

Before the match starts the centre shows the seats: 1-4 to sit down at another
one (partners sit opposite), and the host starts with ``g``. Everything the host
sends (names, chat, reasons) is shown as plain text, never markup.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from functools import partial
from random import Random
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Input, Static

from bela.engine import QUICK_TARGET, Card, CompletedTrick, SeatView, Suit
from bela.foundation.untrusted import NAME_LIMIT, oneline
from bela.i18n import N_, _
from bela.keys import bid_keys, bind_letters, letter
from bela.net.client import NotBela
from bela.net.phrases import ROUND_CODES, render, team_names
from bela.net.protocol import (
    QUICK_PHRASES,
    Lobby,
    Notice,
    Over,
    Refused,
    RoundEndInfo,
    RoundInfo,
    Said,
    SeatInfo,
    ServerMessage,
    State,
    WatcherList,
    Welcome,
)
from bela.net.seat_view import played_round_of, round_record_of, seat_view_of
from bela.tui.model import (
    BidModel,
    HandModel,
    SeatModel,
    SheetModel,
    SheetRow,
    TrickModel,
    hand_order,
)
from bela.tui.net_moments import (
    bela_callout,
    first_trick_talk,
    turned_names,
    turned_record,
    turned_trick,
    zvanja_due,
    zvanja_talk_of,
)
from bela.tui.remote import RemoteSession, SeatLost
from bela.tui.screens.table_parts import (
    CHOOSE_BINDINGS,
    TABLE_LETTERS,
    HintBook,
    choose_first,
    mark_huge,
    no_such_bid,
    no_such_card,
    table_layout,
)
from bela.tui.standing import deal_heading
from bela.tui.widgets import BidMenu, Hand, ScoreSheet, SeatBadge, TrickView
from bela.tui.widgets.table_talk import TableTalk
from bela.tui.widgets.trick import place_of
from bela.tui.widgets.zvanja import ZvanjaPanel
from bela.wording import level_name, mark_words, suit_name, suit_symbol

if TYPE_CHECKING:
    from textual.timer import Timer

    from bela.ai.hard import Advice
    from bela.net.protocol import TrickInfo, ViewInfo
    from bela.tui.zvanja_talk import ZvanjaTalk

__all__ = ["NetTableScreen", "bid_choices", "closing", "lobby_title", "seat_models"]


def closing(session: RemoteSession, over: bool) -> tuple[bool, bool]:
    """How the seat goes when the player closes the table: ``(leave, quit_app)``.

    Mid-match the seat waits for the player (``quit``: their token brings them back).
    After the match, at the public server, the seat is given up (``leave``): else a player
    who starts ``bela online`` again within the minute the server keeps a finished table
    (for još jednu) is sent back to that table, not to the lobby (the acceptance run found
    it, for all four players). At a friends' table the seat stays for još jednu; a
    watcher has no seat to give up."""
    if not over:
        return False, True
    return session.opener is not None and not session.watch, False


_BIDS: Final = ("call H", "call D", "call S", "call C", "dalje")
_PHRASE_KEYS: Final = ("f5", "f6", "f7", "f8", "f9", "f10")
_SHOWING: Final = {"no_watcher": False, "nobody_sees_hand": False, "one_watcher": True}
"""Refusals of ``show`` and whether a watcher sees our hand after them."""


def _sheet_note(row: RoundInfo, ours: int) -> str:
    """A sheet line's marks in this player's language and from their team's side ("pad
    mi"); the host's English note for a host that sends no marks."""
    if not row.marks:
        return oneline(row.note, 120)  # the host's text: through the gate
    return ", ".join(mark_words(code, ours) for code in row.marks)


def _players(state: State) -> list[str]:
    """The players' names by seat, as the table talk and the moments name them."""
    return [_name(info, seat) for seat, info in enumerate(state.seats)]


def place(seat: int, me: int) -> int:
    """Where ``seat`` is drawn: 0 bottom (us), then in the order of play."""
    return (seat - me) % 4


def _seat_name(info: SeatInfo) -> str | None:
    """The name the host sent for a seat, through the gate: the client trusts no host, and
    a name with ESC, C1 or bidi controls would act on the terminal from every badge."""
    return oneline(info.name, NAME_LIMIT) if info.name else None


def _name(info: SeatInfo, seat: int) -> str:
    name = _seat_name(info) or _("bot {seat}").format(seat=seat + 1)  # 1-4, as the lobby
    if info.kind == "bot" and _seat_name(info):
        return _("{name} (bot)").format(name=name)
    if info.kind == "away":
        return _("{name} (away)").format(name=name)
    return name


def _note(view: ViewInfo, seat: int) -> str:
    if view.phase == "bidding" or view.trump is None:
        for bidder, bid in view.bids:
            if bidder == seat:
                return (
                    _("dalje")
                    if bid == "dalje"
                    else _("calls {symbol}").format(symbol=suit_symbol(Suit.parse(bid[5:])))
                )
        return ""
    notes = []
    if view.caller == seat:
        notes.append(_("called {symbol}").format(symbol=suit_symbol(Suit.parse(view.trump))))
    if seat in view.bela_announced:
        notes.append(_("bela!"))
    return " · ".join(notes)


def _deal_number(state: State) -> int:
    """Which deal of a brza 163 is on show: the deals written so far (a redeal is none),
    and one more while it is still being played. A deal that has just ended is on the
    sheet already: the last of three says "deal 3 of 3", never "deal 4" of a tie."""
    written = sum(1 for r in state.sheet if "redeal" not in r.marks)
    return written if state.ended is not None or state.winner is not None else written + 1


def _series(series: tuple[int, int], me: int) -> str:
    """The evening's matches won, from this player's team's side."""
    return _("Matches won this evening: mi {ours}, vi {theirs}.").format(
        ours=series[me % 2], theirs=series[1 - me % 2]
    )


def _you(name: str) -> str:
    """Our own seat's name, marked so the player finds it."""
    return _("{name} (you)").format(name=name)


def seat_models(state: State, watching: bool = False) -> list[SeatModel]:
    """The four badges, by place on the screen (0 bottom; a watcher has no "you")."""
    view, me = state.view, state.seat
    models = []
    for seat in range(4):
        models.append(
            SeatModel(
                seat=place(seat, me),
                name=_you(_name(state.seats[seat], seat))
                if seat == me and not watching
                else _name(state.seats[seat], seat),
                team="mi" if seat % 2 == me % 2 else "vi",
                cards_left=view.hand_sizes[seat],
                dealer=view.dealer == seat,
                to_act=view.to_act == seat,
                note=_note(view, seat),
            )
        )
    return sorted(models, key=lambda m: m.seat)


def bid_choices(view: ViewInfo, cursor: int) -> BidModel:
    options = []
    for key, bid in zip(bid_keys(), _BIDS, strict=True):
        if bid == "dalje":
            label = _("Dalje (pass)") if bid in view.legal else _("Dalje ✗")
        else:
            suit = Suit.parse(bid[5:])
            label = f"{suit_symbol(suit)} {suit_name(suit).capitalize()}"
        options.append((key, label, bid in view.legal))
    forced = "dalje" not in view.legal
    prompt = _("Pod mus: all passed\nYou must name trump") if forced else _("Trump or dalje?")
    return BidModel(tuple(options), cursor, prompt)


def lobby_title(target: int, bots: str, clock: float | None = None) -> str:
    """The lobby's first line: the target, the bots' level by its name (not its id), and
    the clock when the table has one (on this line: the lobby has few to spare at 80x24;
    without one nothing is said, nobody is rushed, as at any table at home)."""
    if clock is not None:
        return _("Table to {target} · empty seats: {level} bots · {seconds} s a turn").format(
            target=target, level=level_name(bots), seconds=f"{clock:g}"
        )
    return _("Table to {target} · empty seats: {level} bots").format(
        target=target, level=level_name(bots)
    )


TABLE_CLOSED = N_("The table has closed after its match; Ctrl+Q quits.")
"""Said once the host has let a finished table go: its još jednu can no longer start."""


class NetTableScreen(Screen[None]):
    """Our seat at a table somebody hosts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *CHOOSE_BINDINGS,
        Binding("escape", "stop_talk", N_("Back to the cards"), show=False),
        # the public server's: invite an account by name before the start ("+": a symbol,
        # so it takes no letter any language gives a meaning at the table)
        Binding("plus", "invite", N_("Invite")),
        *(
            # not in the footer (with the hint and the last trick, F1 help would not fit
            # 80 columns): the talk line names them
            Binding(key, f"phrase({n})", phrase, show=False)
            for n, (key, phrase) in enumerate(zip(_PHRASE_KEYS, QUICK_PHRASES, strict=True))
        ),
    ]
    BELL_AGAIN: ClassVar[float] = 8.0
    """Seconds our turn waits before the bell rings once more (with the setting on)."""

    def on_resize(self, event: events.Resize) -> None:
        mark_huge(self, event.size.width, event.size.height)

    def __init__(self, session: RemoteSession) -> None:
        super().__init__()
        self.session = session
        self.state: State | None = None
        self.lobby: Lobby | None = None
        self.cursor = 0
        self.unchosen = False
        """A number key named a card this seat does not hold: Enter plays nothing until
        a card is chosen (as at the local table)."""
        self.bid_cursor = 4
        self.leader = False
        self.over: Over | None = None
        self._seen_seq = -1
        self.seat_view: SeatView | None = None
        """The engine's view rebuilt from the last ``State`` (None if it could not be)."""
        self._last_taken: tuple[TrickInfo, int] | None = None
        """The last trick taken and its number (the previous round's, early in a round)."""
        self._zvanja_heard: int | None = None
        """The round whose zvanja moment has been shown (once a round)."""
        self._summarised: int | None = None
        """The round whose summary has been shown."""
        self._moments: deque[Callable[[], Screen[None] | None]] = deque()
        """Moments waiting to be shown over the table, one at a time, in order."""
        self._hints = HintBook()
        self.rated = False
        self.closed = False
        """The host has let the table go after its match (no još jednu here any more)."""
        """A rated match at the public server is in play (its ``rated_match`` notice):
        no hint and no analysis until it has ended."""
        self._heard = 0
        self._showing = False
        self._watchers: tuple[str, ...] = ()
        """Who watches, by name, as the host last said (``WatcherList``)."""
        self._pending: tuple[str, int | None] | None = None
        """A host's control waiting for its seat keys (``m`` 1-4 1-4, ``x`` 1-4)."""
        self._paused = False
        self._declare_heard: int | None = None
        """The round in which this player was asked whether to declare their zvanja."""
        self._declaring = False
        """The question is on show (our zvanja moment waits for its answer)."""
        self._bell_again: Timer | None = None
        """Whether a watcher sees our hand (``w`` shows it or hides it again)."""
        """The number of the newest line of table talk shown (``Said.n``)."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        sheet = ScoreSheet(id="sheet")
        sheet.border_title = "mi / vi"  # the teams' own names in every language
        yield from table_layout(
            clockwise=False,
            sheet=sheet,
            centre=[Static(id="lobby")],
            side=[
                Input(
                    id="say",
                    placeholder=_("talk · F5-F10 phrases"),
                    max_length=160,
                )
            ],
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """In the footer, only the keys that do something now: the lobby's start, the
        table's play, hint and last trick (a hidden key does nothing: it would not)."""
        if self.session.watch:  # a watcher only watches (and may look at the last trick)
            return action == "last_trick" and self.state is not None
        if action == "invite":  # at the public server, before the start
            return self.session.opener is not None and self.state is None
        if action == "show_hand":
            return self.state is not None and self.over is None
        if action == "control":  # the host's: moves before the start, a bot after it
            wanted = "move" if self.state is None else "bot"
            return self.leader and parameters == (wanted,) and self.over is None
        if action == "pause":
            return self.leader and self.state is not None and self.over is None
        if action == "start":  # only the one who starts sees the key
            return self.state is None and self.leader
        if action == "choose":  # Enter: "Play", and "Bid" while trump is named
            return self.state is not None and self.state.view.phase != "bidding"
        if action == "choose_bid":
            return self.state is not None and self.state.view.phase == "bidding"
        if action == "hint":
            return self.state is not None and not self.rated
        if action == "last_trick":
            return self.state is not None
        if action == "again":  # another match, once this one is over
            return self.over is not None
        return True

    def on_mount(self) -> None:
        bind_letters(
            self,
            (*TABLE_LETTERS, "start", "talk", "again", "show_hand", "move", "to_bot", "pause"),
        )
        self.query_one("#say", Input).display = False
        self.query_one("#bids", BidMenu).display = False
        self._say(
            _("Joining {address}…").format(address=f"{self.session.host}:{self.session.port}"),
            "hint",
        )
        self._listen()

    # ------------------------------------------------------------------ the line

    @work(exclusive=True, group="net-listen")
    async def _listen(self) -> None:
        session = self.session
        try:
            if session.client is None:
                await session.connect()
        except ConnectionError as exc:
            if self.app.is_web:  # a browser page: what the app prints on exit is never seen
                said = _("Could not sit down at the table: {reason}").format(
                    reason=oneline(exc, 200)
                )
                self.query_one("#lobby", Static).update(Text(said))
                self._say(said, "error")
                return
            self.app.exit(
                return_code=2, message=_("bela: error: {message}").format(message=oneline(exc))
            )
            return
        if session.watch:
            self._log(
                _("Watching the table {code}: the bids, the tricks and the score.").format(
                    code=session.code
                )
            )
        else:
            self._log(
                _("Seated at seat {seat}. Table code {code}.").format(
                    seat=(session.seat or 0) + 1, code=session.code
                )
            )
        for line in session.invite:
            self._log(line)
        while True:
            try:
                message = await session.receive()
            except NotBela as exc:
                # a broken or hostile host: sitting down again would be sent the same, so
                # the line is closed (the seat's token is kept) and the table stays on show
                await session.close()
                self._log(oneline(exc, 200))
                self._say(
                    _("The connection to the host is closed: {reason}").format(
                        reason=oneline(exc, 160)
                    ),
                    "error",
                )
                return
            except SeatLost as lost:  # our seat went to a newer line of ours: no fight
                self._say(
                    _("This window has left the table: {reason}").format(reason=oneline(lost, 120)),
                    "error",
                )
                return
            except ConnectionError as exc:
                if self.over is not None:
                    # between matches: back at the table for još jednu while it is still
                    # there; once the host has let it go, the result simply stays on show
                    try:
                        await session.reconnect()
                    except SeatLost:
                        self.closed = True
                        self._say(_(TABLE_CLOSED), "hint")
                        return
                    continue
                self._log(
                    _("Connection lost ({reason}); sitting down again…").format(
                        reason=oneline(exc, 120)
                    )
                )
                self._say(_("Connection lost: reconnecting with your seat's token…"), "error")
                try:
                    await session.reconnect()
                except SeatLost as lost:
                    self._say(
                        _("Could not get back to the table: {reason}").format(
                            reason=oneline(lost, 120)
                        ),
                        "error",
                    )
                    return
                self._log(_("Back at the table."))
                continue
            self.handle(message)

    def handle(self, message: ServerMessage) -> None:
        """One message from the host: redraw, or tell the player."""
        if isinstance(message, Welcome):
            self.leader = message.leader
            self.refresh_bindings()
        elif isinstance(message, Lobby):
            self.lobby = message
            if message.seat is not None:  # we may have moved to another seat
                self.session.seat = message.seat
            self.leader = not self.session.watch and message.leader == self.session.seat
            self.refresh_bindings()  # "g Start" is the leader's alone
            self._draw_lobby()
        elif isinstance(message, State):
            if not self.session.watch:
                self.session.seat = message.seat
            self._take_state(message)
        elif isinstance(message, Refused):
            if message.code in _SHOWING:  # the host knows whether a watcher sees our hand
                self._showing = _SHOWING[message.code]
            if message.code in ("already_paused", "not_paused"):  # the host knows best
                self._paused = message.code == "already_paused"
            reason = render(message.reason, message.code, message.args)
            self._say(f"✗ {oneline(reason, 200)}", "error")
        elif isinstance(message, Said):
            if message.n is not None:
                if message.n <= self._heard:
                    return  # said again for a player who came back: already shown here
                self._heard = message.n
            self._log(f"{oneline(message.name, 24)}: {oneline(message.text, 160)}")
        elif isinstance(message, WatcherList):
            self._watchers = message.names
        elif isinstance(message, Notice):
            if message.code in ("paused", "resumed"):
                self._paused = message.code == "paused"
            if message.code == "rated_match":
                self.rated = True
                self.refresh_bindings()
            if (
                message.code in ("hand_shown", "hand_hidden")
                and message.args is not None
                and message.args.get("name") == self._own_name()  # names are unique here
            ):
                self._showing = message.code == "hand_shown"
            if message.code == "watching" and not self.session.watch and not self.rated:
                # a rated match shows no hand to a watcher: the key would only be refused
                self._log(_("(w: choose a watcher who may see your hand; w again hides it.)"))
            said = self._worded(message.text, message.code, message.args)
            self._log(oneline(said, 300))
        elif isinstance(message, Over):
            if self.over is not None and self.over.record.get("seed") == message.record.get("seed"):
                return  # sent again on sitting down again after the end: already shown
            self.over = message
            self.rated = False  # the match has ended: hints and analysis again
            self._match_over(message)

    def _take_state(self, state: State) -> None:
        before = self.state
        if self.over is not None and state.winner is None:
            self._new_match()
            before = None  # a new match: its first state
        self.state = state
        if before is None or (before.view.phase == "bidding") != (state.view.phase == "bidding"):
            # the match has started (the table's keys, not the lobby's), or trump was named
            # or a new deal began (Enter's word: "Bid" while naming trump, else "Play")
            self.refresh_bindings()
        if before is None and self.leader and not self.rated:  # a rated match: neither
            self._log(
                _(
                    "Host's keys: z pauses and resumes, x and a seat 1-4 hands an away "
                    "player's seat to a bot."
                )
            )
        if state.last:
            last = self._worded(state.last, state.last_code, state.last_args)
            ended = state.last_code in ROUND_CODES
            self._log(Text(oneline(last, 300), style="bold" if ended else ""))
        if before is None or before.round != state.round:
            self._log(Text(_("— Round {n} —").format(n=state.round + 1), style="bold"))
        view = state.view
        try:
            self.seat_view = seat_view_of(view, state.seat)
        except ValueError:  # a frame that validates but describes no round: no moments, no hint
            self.seat_view = None
        if view.tricks:
            self._last_taken = (view.tricks[-1], len(view.tricks))
        if view.to_act == state.seat and (before is None or before.view.to_act != state.seat):
            self._open_turn(view)
            self._ring(state)
        if before is not None and before.round == state.round:
            for seat in state.view.silent:
                if seat not in before.view.silent:
                    self._log(self._silent_line(state, seat))
        self.refresh_view()
        if not self.session.watch and not self._declare_asked(state):
            self._queue_moments(state)  # a watcher reads the table talk: no pop-ups to pile up

    def _always_declare(self) -> bool:
        """The setting "declare my zvanja for me" (on unless the player turned it off)."""
        return bool(getattr(self.app, "always_declare", True))

    def _declare_asked(self, state: State) -> bool:
        """Ask whether to declare our zvanja or keep them back ("šutim"), as the local table
        does: with the setting off, once a round, at our turn in the first trick (the
        host says when it may be said). True while the question is up or due: our zvanja
        moment waits for the answer, as it would at home."""
        if self._declaring:
            return True
        if self.session.watch or self._always_declare() or self._declare_heard == state.round:
            return False
        view = state.view
        if not view.own_zvanja or view.phase != "playing" or view.tricks:
            return False  # nothing to keep back, or the first trick is over
        if not (view.may_stay_silent and view.to_act == state.seat):
            return True  # our turn to answer is still to come: our moment waits for it
        from bela.net.seat_view import zvanje_of
        from bela.tui.screens.prompts import DeclarePrompt

        self._declare_heard, self._declaring = state.round, True
        zvanja = [zvanje_of(z) for z in view.own_zvanja]
        self.app.push_screen(DeclarePrompt(zvanja), partial(self._after_declare, state.round))
        return True

    def _after_declare(self, round_index: int, declare: bool | None) -> None:
        self._declaring = False
        state = self.state
        if state is None or state.round != round_index:
            return
        if declare is False and state.view.may_stay_silent:
            self._act("šutim")  # the host's next state says who now has the zvanja
            return
        self._queue_moments(state)

    def _silent_line(self, state: State, seat: int) -> str:
        """The table talk's line for a "šutim", as the local table says it (the seat's
        name, "šutim", and the zvanja that count now, if any)."""
        name = oneline(_players(state)[seat], 32)
        said = _("{name}: šutim (zvanja kept back, they do not count).").format(name=name)
        team = state.view.zvanja_team
        if team is None:
            return said
        points = sum(z.points for _seat, shown in state.view.shown_zvanja for z in shown)
        if self.session.watch:
            named = oneline(team_names(_players(state))[team], 60)
            return said + " " + _("Zvanja for {pair}: {points}.").format(pair=named, points=points)
        if team == state.seat % 2:
            return said + " " + _("Zvanja for us: {points}.").format(points=points)
        return said + " " + _("Zvanja for them: {points}.").format(points=points)

    # ------------------------------------------------------------------ moments

    def _names(self, state: State) -> tuple[str, ...]:
        """The seats' names as drawn in the moments: the player first ("You")."""
        return turned_names([oneline(n, 32) for n in _players(state)], state.seat)

    def _queue_moments(self, state: State) -> None:
        """The zvanja moment and the round's summary, as the local table shows them."""
        view = self.seat_view
        if view is not None and self._zvanja_heard != state.round and zvanja_due(view):
            self._zvanja_heard = state.round
            talk = zvanja_talk_of(view, _players(state))
            if talk is not None:
                self._moments.append(partial(self._zvanja_screen, talk, state.round))
        ended = state.ended
        if ended is not None and self._summarised != ended.index:
            self._summarised = ended.index
            self._moments.append(partial(self._summary_screen, state, ended))
        self._next_moment()

    def _zvanja_screen(self, talk: ZvanjaTalk, round_index: int) -> Screen[None] | None:
        from bela.tui.screens.zvanja import ZvanjaScreen

        state = self.state
        if state is None or state.round != round_index or self.over is not None:
            return None  # its moment has passed (a summary was up meanwhile)
        return ZvanjaScreen(talk)

    def _summary_screen(self, state: State, ended: RoundEndInfo) -> Screen[None]:
        from bela.tui.screens.summary import RoundSummaryScreen

        me = state.seat
        record = turned_record(round_record_of(ended, state.view.dealer), me)
        tricks = state.view.tricks
        last_team = (tricks[-1].winner - me) % 2 if len(tricks) == 8 else None
        scores = (state.scores[me % 2], state.scores[1 - me % 2])
        return RoundSummaryScreen(
            record,
            (scores, state.target),
            last_team,
            names=self._names(state),
            # all 8 tricks public: analysable, but not during a rated match
            played=None if self.rated else played_round_of(state.view, ended),
            seats=(_players(state), me),
            deal=sum(1 for r in state.sheet if "redeal" not in r.marks),
        )

    def _next_moment(self) -> None:
        """Show the next moment waiting, unless something is already over the table."""
        while self._moments and self.app.screen is self:
            screen = self._moments.popleft()()
            if screen is not None:
                self.app.push_screen(screen)

    def on_screen_resume(self) -> None:
        """Back to the table (a moment, the help, closed): the next moment, if any."""
        self._next_moment()

    def _open_turn(self, view: ViewInfo) -> None:
        self.unchosen = False
        if view.phase == "bidding":
            self.bid_cursor = 4 if "dalje" in view.legal else 0
        elif view.phase == "playing":
            cards = self.hand_cards()
            legal = self._legal_cards(view)
            if not 0 <= self.cursor < len(cards) or cards[self.cursor] not in legal:
                self.cursor = next((i for i, c in enumerate(cards) if c in legal), 0)

    def _ring(self, state: State) -> None:
        """The bell for our turn (the setting "ring the bell", F2), and once more when the
        turn is still ours ``BELL_AGAIN`` seconds later: a player who looked away hears it."""
        if self.session.watch or not getattr(self.app, "turn_bell", False):
            return
        if not self.my_turn():
            return
        self.app.bell()
        if self._bell_again is not None:
            self._bell_again.stop()
        self._bell_again = self.set_timer(self.BELL_AGAIN, partial(self._ring_again, state))

    def _ring_again(self, asked: State) -> None:
        self._bell_again = None
        state = self.state
        if (
            state is not None
            and state.round == asked.round
            and state.view.to_act == asked.view.to_act
            and len(state.view.bids) == len(asked.view.bids)
            and len(state.view.hand) == len(asked.view.hand)
            and self.my_turn()
            and getattr(self.app, "turn_bell", False)
        ):
            self.app.bell()

    def _new_match(self) -> None:
        """Još jednu: another match has started at this table; this one's moments are done."""
        self.over = None
        self._showing = False  # the host ended every watcher's sight of a hand with the match
        self._zvanja_heard = self._summarised = None
        self._last_taken = None
        self._moments.clear()
        self._log(Text(_("— Još jednu: a new match —"), style="bold"))
        self.refresh_bindings()

    def action_control(self, do: str) -> None:
        """The host's ``m`` (move two seats' players, before the start) or ``x`` (a bot
        takes the seat of a player who is away): the seats follow as keys 1-4."""
        self._pending = (do, None)
        self._say(
            _("Move: press the seat (1-4) to move, then the seat to move them to.")
            if do == "move"
            else _("A bot for which seat? Press 1-4 (a player who is away)."),
            "hint",
        )

    def _control_seat(self, index: int) -> None:
        assert self._pending is not None
        do, first = self._pending
        if do == "move" and first is None:
            self._pending = (do, index)
            self._say(
                _("Move seat {seat} to which seat? Press 1-4.").format(seat=index + 1), "hint"
            )
            return
        self._pending = None
        if do == "move":
            self._send({"type": "control", "do": "move", "seat": first, "to": index})
        else:
            self._send({"type": "control", "do": "bot", "seat": index})

    def action_pause(self) -> None:
        self._paused = not self._paused
        self._send({"type": "control", "do": "pause" if self._paused else "resume"})

    def _show_series(self, series: tuple[int, int], me: int) -> None:
        self.query_one("#sheet", ScoreSheet).border_subtitle = _(
            "matches {ours} : {theirs}"
        ).format(ours=series[me % 2], theirs=series[1 - me % 2])

    def action_show_hand(self) -> None:
        """Let a watcher the player picks by name see our hand, or take it back."""
        if self._showing:
            self._send({"type": "show", "on": False})
            return
        if not self._watchers:
            self._say(_("Nobody is watching who could see your hand."), "error")
            return
        from bela.tui.screens.watcher_choice import WatcherChoiceScreen

        def chosen(name: str | None) -> None:
            if name is not None:
                self._send({"type": "show", "on": True, "watcher": name})

        self.app.push_screen(WatcherChoiceScreen(self._watchers), chosen)

    def _own_name(self) -> str | None:
        """Our name as the host seated us (it may have numbered it: "Ana (2)")."""
        seat = self.session.seat
        seats = self.state.seats if self.state is not None else None
        if seats is None and self.lobby is not None:
            seats = self.lobby.seats
        return seats[seat].name if seats is not None and seat is not None else None

    def action_again(self) -> None:
        if self.over is None:
            return
        if self.closed:  # let go after the match: "try again in a moment" would never work
            self._say(_(TABLE_CLOSED), "hint")
            return
        self._send({"type": "again"})
        self._say(_("You asked for another match: it starts when everybody agrees."), "hint")

    def _worded(self, text: str, code: str | None, args: Mapping[str, str | int] | None) -> str:
        """A host's phrase for this reader: from our seat, or for a watcher, who has none,
        with the teams by their players' names (never "you" or "we")."""
        if not self.session.watch:
            me = self.state.seat if self.state is not None else self.session.seat
            return render(text, code, args, me)
        teams = team_names(_players(self.state)) if self.state is not None else None
        return render(text, code, args, None, teams)

    def _watcher_over(self, over: Over) -> None:
        """The end of the match, as a watcher reads it: who won, by their names."""
        state = self.state
        if state is None:
            return
        teams = team_names(_players(state))
        winner = over.winner
        self._log(
            Text(
                _("The match is over: {pair} win, {won} : {lost}.").format(
                    pair=oneline(teams[winner], 60),
                    won=over.scores[winner],
                    lost=over.scores[1 - winner],
                ),
                style="bold",
            )
        )
        self._say(_("The match is over. Ctrl+Q quits."), "hint")
        self.refresh_bindings()

    def _match_over(self, over: Over) -> None:
        if self.session.watch:
            self._watcher_over(over)
            return
        me = self.session.seat or 0
        won = over.winner == me % 2
        ours, theirs = over.scores[me % 2], over.scores[1 - me % 2]
        self._log(
            Text(
                (
                    _("The match is over: we win, {ours} : {theirs}.")
                    if won
                    else _("The match is over: they win, {ours} : {theirs}.")
                ).format(ours=ours, theirs=theirs),
                style="bold",
            )
        )
        if over.series is not None:  # this match counted (the last state came before it)
            self._log(Text(_series(over.series, me), style="bold"))
            self._show_series(over.series, me)
        kept = self._keep_record(over)
        self._say(  # the keys before the file's long name: at 80x24 the end is cut off
            _("Match over ({ours} : {theirs}). {key}: još jednu, Ctrl+Q quits. {kept}").format(
                ours=ours, theirs=theirs, kept=kept, key=letter("again")
            ),
            "hint",
        )
        self.refresh_bindings()

    def _keep_record(self, over: Over) -> str:
        """Every player keeps the match: the record goes to this player's archive too."""
        from bela.net.seat_session import keep_record

        return keep_record(self.session, over)

    # ------------------------------------------------------------------ drawing

    def _say(self, text: str, kind: str = "info") -> None:
        message = self.query_one("#message", Static)
        message.update(Text(text))
        message.set_class(kind == "error", "-error")

    def _log(self, entry: str | Text) -> None:
        self.query_one("#log", TableTalk).say(entry)

    def _draw_lobby(self) -> None:
        lobby = self.lobby
        if lobby is None or self.state is not None:
            return
        # the sheet says the table's target before the first round, not the default one
        self.query_one("#sheet", ScoreSheet).model = SheetModel(target=lobby.target)
        lines = [Text(lobby_title(lobby.target, lobby.bots, lobby.clock), style="bold")]
        me = self.session.seat or 0
        for seat, info in enumerate(lobby.seats):
            who = _seat_name(info) or _("— open —")
            if seat == self.session.seat:
                who = _you(who)
            # the key and the seat's number are the same: key 1 is seat 1; the team as
            # the badges say it (short: the title and the four seats fit 8 rows at 80x24)
            if seat % 2 == me % 2:
                line = _("[{key}] mi: {player}").format(key=seat + 1, player=who)
            else:
                line = _("[{key}] vi: {player}").format(key=seat + 1, player=who)
            lines.append(Text(line))
        for seat, info in enumerate(lobby.seats):
            self.query_one(f"#seat-{place(seat, me)}", SeatBadge).model = SeatModel(
                seat=place(seat, me),
                name=_you(_seat_name(info) or _("open"))
                if seat == me and not self.session.watch
                else (_seat_name(info) or _("open")),
                team="mi" if seat % 2 == me % 2 else "vi",
                cards_left=0,
                dealer=False,
                to_act=False,
                note=_("seated") if info.name else _("a bot if nobody sits"),
            )
        lobby_view = self.query_one("#lobby", Static)
        lobby_view.display = True
        # one row a line, whatever the names: a long or wide one (24 CJK characters are 48
        # cells) ends in an ellipsis instead of wrapping the seats below out of sight
        lobby_view.styles.text_wrap = "nowrap"
        lobby_view.styles.text_overflow = "ellipsis"
        lobby_view.update(Text("\n").join(lines))
        self.query_one("#trick", TrickView).display = False
        if self.session.watch:
            self._say(_("You are watching: the match starts when the host says."), "hint")
        elif self.leader:
            self._say(
                _(
                    "1-4: move to an open seat (partners sit opposite, 1+3 and 2+4). "
                    "{key}: start the match."
                ).format(key=letter("start")),
                "hint",
            )
        else:
            self._say(
                _(
                    "1-4: move to an open seat (partners sit opposite, 1+3 and 2+4). "
                    "The host starts the match."
                ),
                "hint",
            )

    def hand_cards(self) -> tuple[Card, ...]:
        if self.state is None:
            return ()
        view = self.state.view
        trump = Suit.parse(view.trump) if view.trump else None
        return hand_order([Card.parse(c) for c in view.hand], trump)

    @staticmethod
    def _legal_cards(view: ViewInfo) -> frozenset[Card]:
        return frozenset(
            Card.parse(a.removesuffix(" bela"))
            for a in view.legal
            if a not in _BIDS and a != "dosta"
        )

    def my_turn(self) -> bool:
        state = self.state
        return (
            not self.session.watch
            and state is not None
            and state.view.to_act == state.seat
            and state.view.phase != "finished"
            and self.over is None
        )

    def refresh_view(self) -> None:
        state = self.state
        if state is None:
            return
        view, me = state.view, state.seat
        self.query_one("#lobby", Static).display = False
        trump = Suit.parse(view.trump) if view.trump else None
        mine, theirs = me % 2, 1 - me % 2
        names = _players(state)
        if view.to_act is None:
            turn = _("round over")
        elif view.to_act == me and not self.session.watch:  # a watcher has no turn
            turn = _("your turn")
        else:
            turn = _("{name}'s turn").format(name=names[view.to_act])
        if trump is None or view.caller is None:
            trump_text = _("Trump not named yet")
        elif view.caller == me:
            trump_text = _("Trump {symbol} {suit}, your call").format(
                symbol=suit_symbol(trump), suit=suit_name(trump)
            )
        else:
            trump_text = _("Trump {symbol} {suit}, called by {name}").format(
                symbol=suit_symbol(trump), suit=suit_name(trump), name=names[view.caller]
            )
        # the dealer by name alone: "(away)" or "(bot)" would push the line past 80 columns
        dealer = oneline(_seat_name(state.seats[view.dealer]) or names[view.dealer], 16)
        if state.target == QUICK_TARGET:  # brza 163: which of its three deals, not "(to 163)"
            deal = _deal_number(state)
            head = _("{progress} · dealer {name} · mi {mi} · vi {vi}").format(
                progress=deal_heading(deal),
                name=dealer,
                mi=state.scores[mine],
                vi=state.scores[theirs],
            )
        else:
            head = _("Round {n} · dealer {name} · mi {mi} · vi {vi} (to {target})").format(
                n=state.round + 1,
                name=dealer,
                mi=state.scores[mine],
                vi=state.scores[theirs],
                target=state.target,
            )
        self.query_one("#status", Static).update(
            Text("\n").join(
                [
                    Text(head, style="bold"),
                    Text(f"{trump_text} · {turn}"),
                ]
            )
        )
        # under the house rule "clockwise" the next player sits on the left, as at home
        clockwise = view.rules.clockwise
        for model in seat_models(state, self.session.watch):
            where = place_of(model.seat, clockwise)
            self.query_one(f"#seat-{where}", SeatBadge).model = model
        self._refresh_moments(state)
        bidding = view.phase == "bidding" and self.my_turn()
        bids = self.query_one("#bids", BidMenu)
        trick = self.query_one("#trick", TrickView)
        trick.clockwise = clockwise
        bids.display, trick.display = bidding, not bidding
        if bidding:
            bids.model = bid_choices(view, self.bid_cursor)
        trick.model = self._trick_model(view, me, trump)
        self.query_one("#hand", Hand).model = self._hand_model(view, trump)
        rows = tuple(
            SheetRow(
                r.index + 1, r.written[mine], r.written[theirs], oneline(_sheet_note(r, mine), 40)
            )
            for r in state.sheet
        )
        deal = 0
        if state.target == QUICK_TARGET:  # brza 163: the sheet counts its three deals
            deal = _deal_number(state)
        sheet = self.query_one("#sheet", ScoreSheet)
        sheet.model = SheetModel(
            rows, (state.scores[mine], state.scores[theirs]), state.target, state.hanging, deal
        )
        if state.series is not None:  # the evening's matches, under the sheet
            self._show_series(state.series, me)
        if self.my_turn():
            self._say(self._turn_prompt(bidding), "hint")
        elif view.to_act is not None:
            self._say(_("Waiting for {name}…").format(name=names[view.to_act]), "hint")

    def _turn_prompt(self, bidding: bool) -> str:
        """The standing hint on this seat's turn, with the keys of the player's language;
        dosta is offered only once the points counted reach the target."""
        if bidding:
            keys = bid_keys()
            return _("Your turn: name trump ({suits}) or say dalje ({key}).").format(
                suits=" ".join(keys[:4]), key=keys[4]
            )
        points = self._counted()
        if self.state is not None and points is not None and points >= self.state.target:
            return _(
                "Your lead: ←/→ or 1-8, Enter plays. Or {key}: say dosta (we have {points})."
            ).format(key=letter("dosta"), points=points)
        return _("Your turn: ←/→ or 1-8, Enter plays.")

    def _counted(self) -> int | None:
        """What our team has counted for a dosta now, when this seat may say it (else None)."""
        from bela.ai.base import counted_points

        state, view = self.state, self.seat_view
        if state is None or view is None or not state.view.can_claim:
            return None
        return counted_points(view, view.seat % 2)

    def _refresh_moments(self, state: State) -> None:
        """The zvanja on show during the first trick, "bela!" by its card (as at home)."""
        view = self.seat_view
        names = _players(state)
        talk = first_trick_talk(view, names) if view is not None else None
        self.query_one("#zvanja", ZvanjaPanel).talk = talk
        said = bela_callout(view) if view is not None else None
        self.query_one("#trick", TrickView).callout = (
            None if said is None else place(said, state.seat)
        )

    def _trick_model(self, view: ViewInfo, me: int, trump: Suit | None) -> TrickModel:
        if view.trick or not view.tricks:
            leader = view.trick_leader if view.trick_leader is not None else 0
            cards = tuple(
                (place((leader + i) % 4, me), Card.parse(c)) for i, c in enumerate(view.trick)
            )
            waiting = None if view.to_act is None else place(view.to_act, me)
            return TrickModel(cards, waiting=waiting, trump=trump)
        last = view.tricks[-1]  # the trick just taken stays in sight until the next card
        cards = tuple(
            (place((last.leader + i) % 4, me), Card.parse(c)) for i, c in enumerate(last.cards)
        )
        return TrickModel(cards, winner=place(last.winner, me), trump=trump)

    def _hand_model(self, view: ViewInfo, trump: Suit | None) -> HandModel:
        cards = self.hand_cards()
        if view.phase == "bidding":
            return HandModel(cards, face_down=2)
        fresh = frozenset(Card.parse(c) for c in view.talon) if not view.tricks else frozenset()
        if not self.my_turn() or view.phase != "playing":
            return HandModel(cards, fresh=fresh, trump=trump)
        self.cursor = min(max(self.cursor, 0), max(len(cards) - 1, 0))
        cursor = None if self.unchosen else self.cursor
        return HandModel(cards, self._legal_cards(view), cursor, fresh=fresh, trump=trump)

    # ------------------------------------------------------------------ acting

    def _send(self, message: dict[str, object]) -> None:
        self._post(message)

    @work(group="net-send")
    async def _post(self, message: dict[str, object]) -> None:
        if not await self.session.send(message):
            self._say(_("Not connected right now: try again in a moment."), "error")

    def _act(self, action: str) -> None:
        if not self.my_turn():
            self._say(_("Wait for your turn."), "hint")
            return
        self._send({"type": "act", "action": action})

    def action_choose_bid(self) -> None:
        self.action_choose()

    def action_choose(self) -> None:
        if self.state is None:
            return
        if self.state.view.phase == "bidding":
            self.action_bid(self.bid_cursor)
        elif self.unchosen:
            self._say(choose_first(len(self.hand_cards())), "error")
        else:
            self._play(self.cursor)

    def _play(self, index: int) -> None:
        state = self.state
        cards = self.hand_cards()
        if state is None or not 0 <= index < len(cards):
            return
        card = str(cards[index])
        legal = state.view.legal
        self._act(f"{card} bela" if f"{card} bela" in legal else card)

    def action_move(self, step: int) -> None:
        if self.state is not None and self.state.view.phase == "bidding":
            self.bid_cursor = (self.bid_cursor + step) % len(_BIDS)
        elif self.hand_cards():
            self.cursor = (self.cursor + step) % len(self.hand_cards())
            self.unchosen = False
        self.refresh_view()

    def action_pick(self, index: int) -> None:
        if self._pending is not None and index < 4:
            self._control_seat(index)
            return
        if self.state is None:
            if index < 4:
                self._send({"type": "sit", "seat": index})
            return
        if self.state.view.phase == "bidding":
            if index >= len(_BIDS):  # not the last choice (dalje): Enter would pass unasked
                self._say(no_such_bid(index), "error")
                return
            self.bid_cursor = index
        elif index < len(self.hand_cards()):
            self.cursor = index
            self.unchosen = False
        elif self.my_turn():
            self.unchosen = True
            self.refresh_view()
            self._say(no_such_card(index, len(self.hand_cards())), "error")
            return
        self.refresh_view()

    def action_bid(self, index: int) -> None:
        if self.state is None or self.state.view.phase != "bidding":
            return
        self._act(_BIDS[index])

    def action_claim(self) -> None:
        """Dosta at a network seat: short of the target only how many points are missing,
        at or past it asked once (``DostaPrompt``, Enter plays on) and sent once confirmed."""
        from bela.tui.screens.prompts import DostaPrompt, short_of_dosta

        state, points = self.state, self._counted()
        if state is None or points is None:
            return
        if points < state.target:
            self._say(short_of_dosta(points, state.target), "hint")
            return
        asked = state

        def answered(say_it: bool | None) -> None:
            if say_it and self.state is asked:
                self._act("dosta")

        self.app.push_screen(DostaPrompt(points, state.target), answered)

    def action_last_trick(self) -> None:
        """Show the most recent finished trick (the previous round's last, early in a round)."""
        from bela.tui.screens.prompts import LastTrickScreen

        state = self.state
        if state is None:
            return
        if state.view.rules.hide_played_tricks:
            self._say(_("House rule: played tricks are not looked at again."), "hint")
            return
        if self._last_taken is None:
            self._say(_("No trick has been played yet."), "hint")
            return
        info, number = self._last_taken
        trick = CompletedTrick(
            info.leader, tuple(Card.parse(c) for c in info.cards), info.winner, info.points
        )
        turned = turned_trick(trick, state.seat)
        self.app.push_screen(
            LastTrickScreen(
                turned, number, names=self._names(state), clockwise=state.view.rules.clockwise
            )
        )

    def action_hint(self) -> None:
        """What the hard bot would do here, and why: worked out here, from this seat's view
        alone (the host never searches for a player), in a thread so the table stays live."""
        state, view = self.state, self.seat_view
        if self.rated:
            return
        if state is None or not self.my_turn():
            self._say(_("A hint is for your own turn."), "hint")
            return
        if view is None:
            self._say(_("No hint here: the table's state could not be read."), "error")
            return
        if self._hints.known(state) is None:
            self._say(_("Thinking about a hint…"), "hint")
        self._hint(state, view)

    @work(thread=True, exclusive=True, group="hint")
    def _hint(self, state: State, view: SeatView) -> None:
        from bela.ai.hard import advise

        advice = self._hints.known(state)
        if advice is None:
            # no match seed here: the position itself seeds the search's guesses
            advice = advise(view, Random(f"{state.round}:{state.seq}:{state.seat}"))
        self.app.call_from_thread(self._show_hint, state, advice)

    def _show_hint(self, asked: State, advice: Advice) -> None:
        if self.state is not asked:
            return  # the game moved on while the hint was being worked out
        self._say(self._hints.words(asked, advice), "hint")

    def action_start(self) -> None:
        if self.state is None:
            self._send({"type": "start"})

    def action_invite(self) -> None:
        """Ask for a player's name and invite them to this table (the public server answers
        in the table talk: invited, or why not)."""
        from bela.tui.screens.online_pages import NamePrompt

        def answered(name: str | None) -> None:
            if name:
                self._send({"type": "invite", "name": name})

        self.app.push_screen(
            NamePrompt(_("Whom do you invite to this table? (a player's name)")), answered
        )

    def action_talk(self) -> None:
        field = self.query_one("#say", Input)
        field.display = True
        field.focus()

    def action_stop_talk(self) -> None:
        """Escape while typing: the line is dropped, the keys play cards again."""
        field = self.query_one("#say", Input)
        field.value = ""
        field.display = False
        self.set_focus(None)

    def action_phrase(self, index: int) -> None:
        self._send({"type": "chat", "text": QUICK_PHRASES[index]})

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        event.input.display = False
        self.set_focus(None)
        if text:
            self._send({"type": "chat", "text": text[:160]})

    def on_hand_card_clicked(self, message: Hand.CardClicked) -> None:
        self.cursor = message.index
        self.unchosen = False
        self._play(message.index)

    def on_bid_menu_chosen(self, message: BidMenu.Chosen) -> None:
        self.bid_cursor = message.index
        self.action_bid(message.index)

    async def on_unmount(self) -> None:
        self.workers.cancel_group(self, "net-listen")
        self.workers.cancel_group(self, "hint")
        leave, quit_app = closing(self.session, self.over is not None)
        await self.session.close(leave=leave, quit_app=quit_app)

    def asks_before_closing(self) -> bool:
        """The host's own app mid-match: closing it closes the table for everyone."""
        return self.session.lead is not None and self.state is not None and self.over is None
