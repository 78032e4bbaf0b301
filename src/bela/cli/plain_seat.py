"""``bela join --plain`` and ``bela host --plain``: a seat at a network table as lines of text.

The plain mode of ``bela play`` (``bela.cli.plain``) for a table on the network: every
event is one whole sentence on a line of its own (the bids, each card with who played
it, who took the trick, bela, the zvanja, the round's result, the host's notices and the
table talk), and the player answers on a line of their own with the same words as at
the local table (a card's number or code, the app's bid letters, ``dalje``, ``call
h``, read by ``bela.bid_reading``; ``?``, the hint, the score, the blok, ``q``; while trump
is named a bid letter comes first, so English's ``s`` is spades then, not the score).
Before the match, ``1``-``4`` moves to a seat and the table's leader starts the match with
its letter.

Only what the host sends this seat is known here (``bela.net.protocol.State``): whether
a card may be played is the host's to say, and its refusal is said as any other line.
The seat sits down, keeps its token and sits down again after a lost line through the
same ``RemoteSession`` as the app. A line typed while it is not the player's turn waits
for the turn (a screen reader's user types ahead as at the local table); a question
(``?``, ``s``, ``b``) is answered at once. The end of the input leaves the table; the
seat's token is kept, so ``bela join`` again sits the player back down.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping
from random import Random
from typing import TYPE_CHECKING, Final, TextIO

from bela.bid_reading import bid_letters, read_bid, refusal
from bela.cli.plain import (
    _CHOICES,
    _CLAIM_WORDS,
    _HINT,
    _QUIT,
    _SCORE,
    _SHEET,
    _SILENT_WORDS,
    _not_understood,
    _score_letter,
    named_card,
    plain_text,
)
from bela.engine import QUICK_TARGET, Card, SeatView, Suit
from bela.foundation.untrusted import NAME_LIMIT, oneline
from bela.i18n import _
from bela.keys import bid_keys, letter
from bela.net.client import JoinError, NotBela
from bela.net.phrases import render
from bela.net.protocol import (
    Lobby,
    Notice,
    Over,
    Refused,
    Said,
    SeatInfo,
    ServerMessage,
    State,
    Welcome,
)
from bela.net.seat_session import RemoteSession, SeatLost
from bela.net.seat_view import seat_view_of, zvanje_of
from bela.table_text import SEAT_NAMES, hand_order, symbolize, zvanje_text
from bela.wording import card_text, mark_words, suit_name

if TYPE_CHECKING:
    from bela.net.protocol import ViewInfo

__all__ = ["PlainSeat", "run_plain_seat"]

_BIDS: Final = ("call H", "call D", "call S", "call C", "dalje")
"""The bids as the host spells them, in the order of the table's letters (``bid_keys``)."""
_AGAIN: Final = frozenset({"again", "još", "jos"})
_START: Final = frozenset({"start"})
_TALK: Final = frozenset({"t", "say"})


class PlainSeat:
    """One seat at a network table, as text: ``inp`` gives the player's lines, ``out``
    takes the table's."""

    def __init__(
        self,
        session: RemoteSession,
        inp: TextIO,
        out: TextIO,
        *,
        words: bool = False,
        width: int | None = None,
        hosting: bool = False,
    ) -> None:
        self.session = session
        self.inp = inp
        self.out = out
        self.words = words
        self.width = width
        self.hosting = hosting
        """The host's own seat (``bela host --plain``): leaving stops the host."""
        self.state: State | None = None
        self.lobby: Lobby | None = None
        self.over: Over | None = None
        self.leader = False
        self._sent: int | None = None
        """The ``seq`` of the state our last action answered: the turn is not ours again
        until the host has sent what it did (or refused it)."""
        self._asked: str | None = None
        """A start or a move to another seat was sent: the next lines wait for the host's
        answer (a pipe's next line is meant for the table that answer opens)."""
        self._held: str | None = None
        """An action typed before the player's turn: played when the turn comes."""
        self._lobby_said: tuple[object, ...] | None = None
        self._zvanja_said: int | None = None
        self._heard = 0
        self._hand_said: tuple[str, ...] = ()
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()

    def _waiting(self) -> bool:
        """The host has yet to answer what the player sent: their next line waits."""
        return self._asked is not None or self._sent is not None

    # ------------------------------------------------------------------ talk

    def say(self, line: str) -> None:
        """One whole line at once (``bela.cli.plain.plain_text``)."""
        self.out.write(plain_text(line, self.words, self.width) + "\n")
        self.out.flush()

    # ------------------------------------------------------------------ the line

    async def run(self) -> int:
        """Sit down and play until the player leaves or the table is gone; the exit code."""
        session = self.session
        try:
            await session.connect()
        except JoinError as exc:
            self.say(_("bela: error: {message}").format(message=oneline(exc)))
            return 2
        self.say(
            _("Seated at seat {seat}. Table code {code}.").format(
                seat=(session.seat or 0) + 1, code=session.code
            )
        )
        for line in session.invite:
            self.say(line)
        self.say(_keys_line())
        loop = asyncio.get_running_loop()
        threading.Thread(
            target=self._read, args=(loop,), name="bela-plain-input", daemon=True
        ).start()
        receiving: asyncio.Task[ServerMessage] | None = None
        typing: asyncio.Task[str | None] | None = None
        try:
            while True:
                if receiving is None:
                    receiving = asyncio.ensure_future(session.receive())
                if typing is None and self._held is None and not self._waiting():
                    typing = asyncio.ensure_future(self._lines.get())
                waiting: set[asyncio.Future[object]] = {receiving}  # type: ignore[arg-type]
                if typing is not None:
                    waiting.add(typing)  # type: ignore[arg-type]
                done, _pending = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                if typing is not None and typing in done:
                    typed, typing = typing.result(), None
                    if typed is None or not await self._answer(typed):
                        await session.close(quit_app=True)
                        self.say(
                            _("You left the table; bela host resumes it, with every seat kept.")
                            if self.hosting
                            else _("You left the table; the same bela join sits you down again.")
                        )
                        return 0
                if receiving in done:
                    assert receiving is not None
                    task, receiving = receiving, None
                    try:
                        message = task.result()
                    except NotBela as exc:
                        await session.close()
                        self.say(
                            _("The connection to the host is closed: {reason}").format(
                                reason=oneline(exc, 160)
                            )
                        )
                        return 2
                    except SeatLost as lost:
                        self.say(
                            _("This window has left the table: {reason}").format(
                                reason=oneline(lost, 120)
                            )
                        )
                        return 2
                    except ConnectionError as exc:
                        if not await self._reconnect(exc):
                            return 2
                        continue
                    self.handle(message)
                    if self._held is not None and (self._my_turn() or self.over is not None):
                        # at the turn it waited for; or the match ended first: said as
                        # typed then (else the lines after it would wait for ever)
                        held, self._held = self._held, None
                        await self._answer(held)
        finally:
            if receiving is not None:
                receiving.cancel()
            if typing is not None:
                typing.cancel()

    def _read(self, loop: asyncio.AbstractEventLoop) -> None:
        """The player's lines, read in a thread (a line may come at any time); None at the
        end of the input."""
        while True:
            try:
                line = self.inp.readline()
            except (OSError, ValueError):
                line = ""
            loop.call_soon_threadsafe(self._lines.put_nowait, line.strip() if line else None)
            if not line:
                return

    async def _reconnect(self, exc: ConnectionError) -> bool:
        self.say(
            _("Connection lost ({reason}); sitting down again…").format(reason=oneline(exc, 120))
        )
        try:
            await self.session.reconnect()
        except SeatLost as lost:
            self.say(
                _("Could not get back to the table: {reason}").format(reason=oneline(lost, 120))
            )
            return False
        self.say(_("Back at the table."))
        self._sent = None
        return True

    # ------------------------------------------------------------------ what the host sends

    def handle(self, message: ServerMessage) -> None:
        """One message from the host, as the lines it means for this seat."""
        if isinstance(message, Welcome):
            self.leader = message.leader
        elif isinstance(message, Lobby):
            self.lobby = message
            if message.seat is not None:
                self.session.seat = message.seat
            self.leader = message.leader == self.session.seat
            if self._asked == "sit":
                self._asked = None
            if self.state is None:
                self._tell_lobby(message)
        elif isinstance(message, State):
            self.session.seat = message.seat
            self._asked = None
            before, self.state = self.state, message
            if self.over is not None and message.winner is None:
                self.over, before = None, None
                self.say(_("— Još jednu: a new match —"))
            self._sent = None if self._sent != message.seq else self._sent
            self._tell_state(before, message)
        elif isinstance(message, Refused):
            self._sent, self._asked = None, None  # the player tries again
            reason = render(message.reason, message.code, message.args)
            self.say(f"✗ {oneline(reason, 200)}")
        elif isinstance(message, Said):
            if message.n is not None:
                if message.n <= self._heard:
                    return
                self._heard = message.n
            self.say(f"{oneline(message.name, 24)}: {oneline(message.text, 160)}")
        elif isinstance(message, Notice):
            self.say(oneline(self._worded(message.text, message.code, message.args), 300))
        elif isinstance(message, Over):
            if self.over is not None and self.over.record.get("seed") == message.record.get("seed"):
                return
            self.over = message
            self._tell_over(message)
            from bela.net.seat_session import keep_record

            self.say(keep_record(self.session, message))

    def _worded(self, text: str, code: str | None, args: Mapping[str, str | int] | None) -> str:
        me = self.state.seat if self.state is not None else self.session.seat
        return render(text, code, args, me)

    def _tell_lobby(self, lobby: Lobby) -> None:
        """The seats, once (``?`` says them again): who sits down or moves later is the
        host's notice, a line each; the whole list again after every move was five lines
        for a screen reader to hear out (tried in tmux)."""
        seen = (self.leader, self.session.seat)
        if self._lobby_said is not None and seen[0] == self._lobby_said[0]:
            return
        self._lobby_said = seen
        for seat, info in enumerate(lobby.seats):
            name = _seat_name(info)
            if name is None:
                self.say(
                    _("Seat {seat}: open (a bot plays it if nobody sits).").format(seat=seat + 1)
                )
            elif seat == self.session.seat:
                self.say(_("Seat {seat}: {name} (you).").format(seat=seat + 1, name=name))
            else:
                self.say(_("Seat {seat}: {name}.").format(seat=seat + 1, name=name))
        if self.leader:
            self.say(
                _(
                    "1-4: move to an open seat (partners sit opposite, 1+3 and 2+4). "
                    "{key}: start the match."
                ).format(key=letter("start"))
            )
        else:
            self.say(
                _(
                    "1-4: move to an open seat (partners sit opposite, 1+3 and 2+4). "
                    "The host starts the match."
                )
            )

    def _tell_state(self, before: State | None, state: State) -> None:
        view, me = state.view, state.seat
        names = _players(state)
        same_round = before is not None and before.round == state.round
        old = before.view if before is not None and same_round else None
        if not same_round:
            self.say(_("— Round {n} —").format(n=state.round + 1))
            if view.dealer == me:
                self.say(_("You deal."))
            else:
                self.say(_("{name} deals.").format(name=names[view.dealer]))
            if view.phase == "bidding":
                self.say(self._hand_line(view))
        for seat, bid in view.bids[len(old.bids) if old is not None else 0 :]:
            self.say(_bid_line(seat, bid, names, me))
        if old is not None and old.phase == "bidding" and view.phase == "playing":
            self.say(self._hand_line(view))
        played = _plays(view)
        for seat, card in played[len(_plays(old)) if old is not None else len(played) :]:
            if seat == me:
                self.say(_("You play {card}.").format(card=card_text(card)))
            else:
                self.say(_("{name} plays {card}.").format(name=names[seat], card=card_text(card)))
        for seat in view.bela_announced:
            if old is None or seat not in old.bela_announced:
                line = (
                    _("{name}: bela! (+20 for us)")
                    if seat % 2 == me % 2
                    else _("{name}: bela! (+20 for them)")
                )
                self.say(line.format(name=names[seat]))
        for seat in view.silent:
            if old is not None and seat not in old.silent:
                self.say(
                    _("{name}: šutim (zvanja kept back, they do not count).").format(
                        name=names[seat]
                    )
                )
        if old is not None and state.last_code != "takes_trick":
            # the round's last trick: the host's line after it is the round's result
            for trick in view.tricks[len(old.tricks) :]:
                values: dict[str, str | int] = {
                    "name": names[trick.winner],
                    "seat": trick.winner,
                    "points": trick.points,
                }
                self.say(render("", "takes_trick", values, me))
        self._tell_zvanja(state)
        if state.last:
            self.say(oneline(self._worded(state.last, state.last_code, state.last_args), 300))
        if self._my_turn() and (before is None or not _turn_of(before)):
            self.say(self._prompt(state))

    def _tell_zvanja(self, state: State) -> None:
        """The zvanja that count, once a round, when the first trick is under way."""
        view = state.view
        if self._zvanja_said == state.round or view.phase != "playing" or view.tricks:
            return
        if not view.trick:
            return
        self._zvanja_said = state.round
        own = [zvanje_of(z) for z in view.own_zvanja]
        if own and state.seat not in view.silent:
            text = ", ".join(zvanje_text(z) for z in own)
            if view.zvanja_team is not None and view.zvanja_team != state.seat % 2:
                self.say(_("Your zvanja: {own} (theirs are better)").format(own=text))
            else:
                self.say(_("Your zvanja: {own}").format(own=text))
        if view.zvanja_team is None:
            return
        points = sum(z.points for _seat, shown in view.shown_zvanja for z in shown)
        if view.zvanja_team == state.seat % 2:
            self.say(_("Our zvanja count: {points}").format(points=points))
        else:
            self.say(_("Their zvanja count: {points}").format(points=points))

    def _tell_over(self, over: Over) -> None:
        me = self.state.seat if self.state is not None else (self.session.seat or 0)
        ours, theirs = over.scores[me % 2], over.scores[1 - me % 2]
        if over.winner == me % 2:
            self.say(_("We win {ours} : {theirs} (mi : vi)").format(ours=ours, theirs=theirs))
        else:
            self.say(_("They win {ours} : {theirs} (mi : vi)").format(ours=ours, theirs=theirs))
        self.say(
            _("The match is over: {key} asks for another (još jednu), q leaves the table.").format(
                key=letter("again")
            )
        )

    # ------------------------------------------------------------------ the player's lines

    def _my_turn(self) -> bool:
        state = self.state
        return state is not None and self.over is None and _turn_of(state) and self._sent is None

    async def _answer(self, text: str) -> bool:
        """Do what the player's line says; False when it says to leave."""
        word = text.casefold()
        state = self.state
        if not word:
            return True
        if word in _QUIT:
            return False
        parts = text.split(maxsplit=1)
        if parts[0].casefold() in _TALK and len(parts) == 2:
            await self.session.send({"type": "chat", "text": parts[1][:200]})
            return True
        if self.over is not None:
            if word in _AGAIN or word == letter("again"):
                await self.session.send({"type": "again"})
                self.say(_("You asked for another match: it starts when everybody agrees."))
            else:
                self.say(_not_understood(text))
            return True
        if state is None:
            return await self._lobby_answer(text)
        view = state.view
        bidding = view.phase == "bidding"
        # while trump is named the table's bid letters come first, as at the local table
        # (``bela.cli.plain``): English's s is spades then, not the score
        bid_letter = bidding and word in bid_letters()
        if word in _CHOICES:
            self.say(self._choices(state) if _turn_of(state) else _("Wait for your turn."))
            return True
        if word in _HINT or word == letter("hint") or (word == "h" and not bidding):
            await self._hint(state)
            return True
        if word in _SCORE or (word == _score_letter() and not bid_letter):
            self.say(_score_line(state))
            return True
        if word in _SHEET or (word == letter("sheet") and not bid_letter):
            for line in _sheet_lines(state):
                self.say(line)
            return True
        if not self._my_turn():
            self._held = text  # said at the player's turn, as typed ahead at the local table
            return True
        action = self._action(view, word, text)
        if action is not None:
            self._sent = state.seq
            if not await self.session.send({"type": "act", "action": action}):
                self._sent = None
                self.say(_("Not connected right now: try again in a moment."))
        return True

    async def _lobby_answer(self, text: str) -> bool:
        word = text.casefold()
        if word in _START or word == letter("start"):
            if await self.session.send({"type": "start"}):
                self._asked = "start"
        elif word.isdecimal() and int(word) - 1 == self.session.seat:
            self.say(_("Seat {seat}: {name} (you).").format(seat=word, name=self.session.name))
        elif word.isdecimal() and 1 <= int(word) <= 4:
            if await self.session.send({"type": "sit", "seat": int(word) - 1}):
                self._asked = "sit"
        elif word in _CHOICES and self.lobby is not None:
            self._lobby_said = None
            self._tell_lobby(self.lobby)
        else:
            self.say(_not_understood(text))
        return True

    def _action(self, view: ViewInfo, word: str, text: str) -> str | None:
        """The host's spelling of the action the player's line names, or None after saying
        it names none (whether it may be taken is the host's to say)."""
        bidding = view.phase == "bidding"
        if not bidding and (word == letter("dosta") or word in _CLAIM_WORDS):
            return "dosta"
        if word in _SILENT_WORDS:
            return "šutim"
        if bidding:
            index = read_bid(text)  # the app's keys and words (``bela.bid_reading``)
            if index is None:
                self.say(refusal(text, "dalje" in view.legal))
                return None
            return _BIDS[index]
        named = named_card(text, _hand(view))
        if named is None:
            self.say(_not_understood(text))
            return None
        card, said = named
        if said is not False and f"{card} bela" in view.legal:
            return f"{card} bela"  # the app says bela with its card, as at home
        return str(card)

    # ------------------------------------------------------------------ what is said on asking

    def _prompt(self, state: State) -> str:
        view = state.view
        suits = " ".join(bid_keys()[:4])
        if view.phase == "bidding":
            if "dalje" not in view.legal:
                return _(
                    "Pod mus: the others all said dalje, so you must name trump ({suits})."
                ).format(suits=suits)
            return _(
                "Your bid: {suits} names trump (hearts, diamonds, spades, clubs), {dalje} says "
                "dalje; ? lists the choices."
            ).format(suits=suits, dalje=bid_keys()[4])
        table = _table_line(view, _players(state))
        if view.hand != self._hand_said:
            # the numbers move up as cards are played: said again before they are used
            table = f"{self._hand_line(view)} {table}".strip()
        if not view.trick:
            turn = _("Your lead: a card's number or code; ? lists the cards you may play.")
        else:
            turn = _("Your turn: a card's number or code; ? lists the cards you may play.")
        return f"{table} {turn}" if table else turn

    def _hand_line(self, view: ViewInfo) -> str:
        self._hand_said = view.hand
        cards = ", ".join(f"{i}: {card_text(c)}" for i, c in enumerate(_hand(view), start=1))
        return _("Your cards: {cards}.").format(cards=cards)

    def _choices(self, state: State) -> str:
        view = state.view
        if view.phase == "bidding":
            named = [
                f"{key}: {_('dalje') if bid == 'dalje' else suit_name(Suit.parse(bid[5:]))}"
                for key, bid in zip(bid_keys(), _BIDS, strict=True)
                if bid in view.legal
            ]
            return _("You may say: {choices}.").format(choices=", ".join(named))
        legal = {a.removesuffix(" bela") for a in view.legal}
        cards = [
            f"{i}: {card_text(c)}" for i, c in enumerate(_hand(view), start=1) if str(c) in legal
        ]
        line = _("You may play: {cards}.").format(cards=", ".join(cards))
        if "dosta" in view.legal:
            line += " " + _("Or {key}: say dosta.").format(key=letter("dosta"))
        if "šutim" in view.legal:
            line += " " + _("Or šutim: keep your zvanja back (they do not count).")
        return line

    async def _hint(self, state: State) -> None:
        """The hard bot's card or bid and why, from this seat's view alone (as the app's)."""
        if not _turn_of(state):
            self.say(_("A hint is for your own turn."))
            return
        try:
            view: SeatView = seat_view_of(state.view, state.seat)
        except ValueError:
            self.say(_("No hint here: the table's state could not be read."))
            return
        from bela.ai.hard import advise

        self.say(_("Thinking about a hint…"))
        rng = Random(f"{state.round}:{state.seq}:{state.seat}")
        advice = await asyncio.to_thread(advise, view, rng)
        self.say(_("Hint: {why}.").format(why=symbolize(advice.why)))


def _seat_name(info: SeatInfo) -> str | None:
    """A seat's name as the host sent it, through the gate (the client trusts no host)."""
    return oneline(info.name, NAME_LIMIT) if info.name else None


def _players(state: State) -> list[str]:
    """The players by seat, as the lines name them: "You" for this seat."""
    names = []
    for seat, info in enumerate(state.seats):
        name = _seat_name(info) or _("bot {seat}").format(seat=seat + 1)
        if info.kind == "bot" and _seat_name(info):
            name = _("{name} (bot)").format(name=name)
        elif info.kind == "away":
            name = _("{name} (away)").format(name=name)
        names.append(SEAT_NAMES[0] if seat == state.seat else name)
    return names


def _turn_of(state: State) -> bool:
    view = state.view
    return view.to_act == state.seat and view.phase != "finished" and bool(view.legal)


def _hand(view: ViewInfo) -> tuple[Card, ...]:
    trump = Suit.parse(view.trump) if view.trump else None
    return hand_order([Card.parse(c) for c in view.hand], trump)


def _plays(view: ViewInfo | None) -> list[tuple[int, Card]]:
    """Every card played this round so far, with who played it, in order."""
    if view is None:
        return []
    plays = [
        ((trick.leader + i) % 4, Card.parse(card))
        for trick in view.tricks
        for i, card in enumerate(trick.cards)
    ]
    leader = view.trick_leader if view.trick_leader is not None else 0
    plays.extend(((leader + i) % 4, Card.parse(card)) for i, card in enumerate(view.trick))
    return plays


def _bid_line(seat: int, bid: str, names: list[str], me: int) -> str:
    if bid == "dalje":
        return _("{name}: dalje").format(name=names[seat])
    suit = suit_name(Suit.parse(bid[5:]))
    return _("{name}: {suit} is trump").format(name=names[seat], suit=suit)


def _table_line(view: ViewInfo, names: list[str]) -> str:
    if not view.trick:
        return ""
    leader = view.trick_leader if view.trick_leader is not None else 0
    played = ", ".join(
        _("{name}: {card}").format(name=names[(leader + i) % 4], card=card_text(Card.parse(c)))
        for i, c in enumerate(view.trick)
    )
    return _("On the table: {cards}.").format(cards=played)


def _score_line(state: State) -> str:
    me = state.seat
    ours, theirs = state.scores[me % 2], state.scores[1 - me % 2]
    if state.target == QUICK_TARGET:
        return _("Score: mi {mi}, vi {vi}; brza 163, three deals.").format(mi=ours, vi=theirs)
    return _("Score: mi {mi}, vi {vi}; the match is to {target}.").format(
        mi=ours, vi=theirs, target=state.target
    )


def _sheet_lines(state: State) -> list[str]:
    """The blok: each round written, a line each, then the score."""
    me = state.seat
    mine, theirs = me % 2, 1 - me % 2
    lines: list[str] = []
    total = [0, 0]
    for row in state.sheet:
        total[0] += row.written[mine]
        total[1] += row.written[theirs]
        note = ", ".join(mark_words(code, mine) for code in row.marks)
        lines.append(
            _("Round {n}: mi {mi}, vi {vi}{note} — {totals}").format(
                n=row.index + 1,
                mi=row.written[mine],
                vi=row.written[theirs],
                note=f" ({note})" if note else "",
                totals=_("mi {mi} : vi {vi}").format(mi=total[0], vi=total[1]),
            )
        )
    if not lines:
        lines.append(_("No round has been written yet."))
    lines.append(_score_line(state))
    return lines


def _keys_line() -> str:
    return _(
        "Plain table: a line for each event. At your turn answer with a card's number or "
        "code (10H), a trump letter or dalje; ? lists your choices, {hint} a hint, {score} "
        "the score, {sheet} the blok, t and a line says it to the table, q leaves."
    ).format(hint=letter("hint"), score=_score_letter(), sheet=letter("sheet"))


def run_plain_seat(
    session: RemoteSession, inp: TextIO, out: TextIO, words: bool = False, hosting: bool = False
) -> int:
    """``bela join --plain`` (and ``bela host --plain``'s own seat): the exit code."""
    from bela.cli.plain import terminal_width

    seat = PlainSeat(session, inp, out, words=words, width=terminal_width(out), hosting=hosting)
    return asyncio.run(seat.run())
