"""One table on the server: four seats, the match, the bots, and who is told what.

The table alone holds the ``Match``. A player (a connection) acts only for its
own seat, and every action goes through the engine's ``Match.apply``: one the
rules refuse is answered with ``Refused`` to that player alone, and the match
is untouched. After every action each connected seat gets its own ``State``
(``bela.net.views``), and the table is saved (``bela.net.saves``).

A seat is open (nobody), held by a human (connected or away after a drop), or
played by a bot (an empty seat at the start, a player who left, or one away
longer than the host's wait). A player who comes back with the seat's token
gets it back, hand and all, and the bot stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Final, Protocol

from bela.engine import IllegalActionError, Match, Round
from bela.foundation.lookalike import same_name
from bela.net import clock
from bela.net.phrases import Phrase, illegal_phrase, round_over
from bela.net.rematch import Series, series_field
from bela.net.views import state_frames, state_message
from bela.net.watchers import PUBLIC, Watcher, Watchers, encode_public, public_state

if TYPE_CHECKING:
    from bela.ai import Bot
    from bela.engine import Action

__all__ = ["Link", "SeatState", "Table", "token_hash"]

_SLOW_BOTS = frozenset({"normal", "hard"})
TALK_KEPT = 20
"""Lines of table talk a returning player is sent again."""

NAME_ROOM: Final = 19
"""Characters of a name kept before its number: "Ana (2)" stays within 24."""


class Link(Protocol):
    """A connected player as the table sees it: frames out, and a way to hang up."""

    def send(self, message: dict[str, Any]) -> None: ...

    def send_frame(self, frame: bytes) -> None:
        """An already encoded frame (``views.state_frames``)."""
        ...

    def close(self, reason: str | Phrase) -> None: ...


def token_hash(token: str) -> str:
    """Tokens are kept (and saved) only as hashes: a stolen save does not seat anybody."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class SeatState:
    name: str | None = None
    token: str | None = None
    """The hash of the seat's reconnect token (``token_hash``), None while open."""
    link: Link | None = None
    bot: bool = False
    """A bot plays this seat now (empty at the start, left, or away too long)."""
    dropped_at: float | None = None
    timer: asyncio.TimerHandle | None = None
    host: bool = False
    """The host's own app sits here: the host's archive counts from this seat's side."""

    def kind(self) -> str:
        if self.bot:
            return "bot"
        if self.name is None:
            return "open"
        return "human" if self.link is not None else "away"


@dataclass(slots=True, weakref_slot=True)
class Table:
    """A table: its join code, settings and seats, and once started, its match."""

    table_id: str
    code: str
    difficulty: str
    target: int
    wait: float
    bot_delay: float
    leader_key: str
    make_bot: Callable[[str], Bot]
    seats: list[SeatState] = field(default_factory=lambda: [SeatState() for _ in range(4)])
    match: Match | None = None
    shown: Round | None = None
    seq: int = 0
    hold: bool = False
    """Hold each state until the save of the actions it shows is on disk (``saved``): a seat
    never sees a card the host could lose in a crash (set when the host saves its tables)."""
    durable: int = 0
    """The ``seq`` up to which the actions are saved (``hold``)."""
    held: deque[tuple[int, dict[int, bytes]]] = field(default_factory=deque)
    """States waiting for their save, in order, by the ``seq`` they show."""
    leader: int | None = None
    bots: dict[int, Bot] = field(default_factory=dict)
    on_change: Callable[[Table], None] | None = None
    """Called after every action (the server saves the table)."""
    on_over: Callable[[Table], str | None] | None = None
    """Called once when the match ends; returns where the record was archived."""
    driver: asyncio.Task[None] | None = None
    over_sent: bool = False
    closed: bool = False
    """The host is shutting down: nothing moves any more (no timers, no bots, no saves)."""
    over: dict[str, Any] | None = None
    """The ``Over`` message once the match has ended (sent again to a player who returns)."""
    bot_played: set[tuple[int, int]] = field(default_factory=set)
    """(round index, seat): the rounds in which a bot played a person's seat (the record's
    ``bot_rounds``)."""
    series: Series = field(default_factory=Series)
    """The matches each team has won at this table, and who asked for another (``rematch``)."""
    on_again: Callable[[Table], None] | None = None
    """Called when another match starts at this table (the host keeps the table)."""
    clock: float = 0.0
    """Seconds a connected player has for a turn before a bot plays it (0: no clock)."""
    clock_turn: tuple[int, int] | None = None
    """The (seq, seat) whose clock runs (``bela.net.clock``)."""
    clock_deadline: float = 0.0
    """When that turn's time runs out (``loop.time()``), kept across a drop and a return."""
    clock_handles: list[asyncio.TimerHandle] = field(default_factory=list)
    paused: bool = False
    """The host paused the table: nobody acts, the bots and the clock wait."""
    on_moved: Callable[[Table], None] | None = None
    """Called when the host moved players between seats (their connections learn it)."""
    watchers: Watchers = field(default_factory=Watchers)
    """People following the table without a seat (``bela.net.watchers``)."""
    said: int = 0
    """Lines of table talk said so far (each ``Said`` carries its number)."""
    talk: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=TALK_KEPT))
    """The newest lines of table talk: a player who comes back is sent them again."""
    stalled: bool = False
    """A save failed: no state goes out and nothing is played until one lands again."""
    pause_until: float = 0.0
    """The bots wait until then (``loop.time()``): a finished round stays in sight a moment."""
    on_abandon: Callable[[Table, int], None] | None = None
    """Called when a bot takes a person's seat during the match for good or for long (they
    left, or were away longer than the wait): the public server counts it against them."""
    listens: Callable[[Any, int], bool] | None = None
    """Whether a connection is shown a seat's table talk (the public server's muting)."""

    # ------------------------------------------------------------------ who sits where

    def seat_infos(self) -> list[dict[str, Any]]:
        return [{"name": s.name, "kind": s.kind()} for s in self.seats]

    def lobby_message(self) -> dict[str, Any]:
        return {
            "type": "lobby",
            "seats": self.seat_infos(),
            "bots": self.difficulty,
            "target": self.target,
            "leader": self.leader,
            "clock": self.clock or None,
        }

    @property
    def started(self) -> bool:
        return self.match is not None

    def unique_name(self, name: str) -> str:
        """``name``, or with the first free number after it, so that no two people at the
        table (seated or watching) are read as one name (``bela.foundation.lookalike``)."""
        taken = [s.name for s in self.seats if s.name is not None] + self.watchers.names()
        candidate, number = name, 1
        while any(same_name(candidate, other) for other in taken):
            number += 1
            candidate = f"{name[:NAME_ROOM]} ({number})"
        return candidate

    def seat_by_token(self, token: str) -> int | None:
        wanted = token_hash(token)
        for index, seat in enumerate(self.seats):
            if seat.token is not None and hmac.compare_digest(seat.token, wanted):
                return index
        return None

    def free_seat(self) -> int | None:
        """The first seat a newcomer may take: an open one, before the match starts.

        Once the match has started nobody new sits down, not even in a bot's seat: a
        seat's hand is dealt, and a second connection with the code must not be a way
        to read the bots' cards (one person, one seat). Who sat at the start comes
        back with their seat's token."""
        if self.started:
            return None
        for index, seat in enumerate(self.seats):
            if seat.name is None:
                return index
        return None

    def join(self, link: Link, name: str, lead: str | None) -> tuple[int, str] | Phrase:
        """Seat a newcomer; returns (seat, token) or why not."""
        index = self.free_seat()
        if index is None:
            return Phrase("match_started_full" if self.started else "table_full")
        token = secrets.token_urlsafe(18)
        seat = self.seats[index]
        seat.name, seat.token, seat.link, seat.bot = name, token_hash(token), link, False
        host = lead is not None and hmac.compare_digest(lead, self.leader_key)
        seat.host = host
        if host or self.leader is None or self.seats[self.leader].name is None:
            self.leader = index  # the host's own app, else the first to sit down
        self.bots.pop(index, None)
        self.tell(Phrase("sits_down", {"name": name, "seat": index}))
        self.broadcast()
        if self.started:
            self.drive()
        return index, token

    def host_returns(self, lead: str) -> tuple[int, str] | None:
        """The host's own app back without its token (its seats file lost, another data
        directory): the leader key names it, and it gets its seat back under a new token
        (the old one is dead). None when ``lead`` is not the key or no seat is the host's."""
        index = self.host_seat
        if index is None or not hmac.compare_digest(lead, self.leader_key):
            return None
        token = secrets.token_urlsafe(18)
        self.seats[index].token = token_hash(token)
        if self.on_change is not None and self.started:
            self.on_change(self)
        return index, token

    def rejoin(self, link: Link, index: int) -> None:
        """A player back with the seat's token: the seat, the hand and the turn are theirs again."""
        seat = self.seats[index]
        old = seat.link
        if old is not None and old is not link:
            old.close(Phrase("taken_up_again"))
        if seat.timer is not None:
            seat.timer.cancel()
            seat.timer = None
        was_bot = seat.bot
        seat.link, seat.bot, seat.dropped_at = link, False, None
        self.bots.pop(index, None)
        self.tell(Phrase("back_from_bot" if was_bot else "back", {"name": seat.name or ""}))
        self.broadcast()
        for line in self.talk:  # what was said while they were away (the app skips what it has)
            if self.hears(link, int(line["seat"])):
                link.send(line)
        if self.over is not None:  # the match ended while they were away
            link.send(self.over)
        self.drive()

    def sit(self, link: Link, index: int, target: int) -> Phrase | None:
        """Move before the start to an open seat; returns why not, or None."""
        if self.started:
            return Phrase("seats_fixed")
        if not 0 <= target <= 3:
            return Phrase("no_such_seat")
        if target == index:
            return None
        if self.seats[target].name is not None:
            return Phrase("seat_taken", {"seat": target, "name": self.seats[target].name or ""})
        self.seats[target], self.seats[index] = self.seats[index], SeatState()
        self.watchers.follow({index: target})
        if self.leader == index:
            self.leader = target
        self.tell(Phrase("moves_seat", {"name": self.seats[target].name or "", "seat": target}))
        self.broadcast()
        return None

    def dropped(self, link: Link, index: int, on_purpose: bool = False) -> None:
        """A connection is gone: keep the seat for its token; a bot takes over after the wait.
        ``on_purpose``: the player closed the app (told as leaving, not as a lost line)."""
        seat = self.seats[index]
        if seat.link is not link:
            return  # an older connection, already replaced
        if self.closed:
            seat.link = None  # the host is going down: the seat waits in the save
            return
        seat.link = None
        if not self.started:
            self.seats[index] = SeatState()  # before the start a seat is only a place
            self.watchers.forget(self, (index,))  # the next to sit here allowed nothing
            if self.leader == index:
                self.leader = next((i for i, s in enumerate(self.seats) if s.name), None)
            self.tell(Phrase("left", {"name": seat.name or ""}))
            self.broadcast()
            return
        if self.match is not None and self.match.is_over:
            return
        seat.dropped_at = time.monotonic()
        self.watchers.forget(self, (index,))  # shown by a player who is gone: no longer
        wait = self.wait
        code = "closed_app" if on_purpose else "lost_connection"
        self.tell(Phrase(code, {"name": seat.name or "", "wait": f"{wait:g}"}))
        loop = asyncio.get_running_loop()
        seat.timer = loop.call_later(wait, self._away_too_long, index)
        self._pause_ends_with(index)
        self.broadcast()

    def _pause_ends_with(self, index: int) -> None:
        """The leader paused the table and is gone: the pause goes with them (nobody else
        may resume it, so it would hold the table for good)."""
        if self.paused and index == self.leader:
            self.paused = False
            self.tell(Phrase("pause_ends", {"name": self.name_of(index)}))
            self.drive()

    def left(self, index: int) -> None:
        """A player who said goodbye: a bot takes the seat at once, and the seat's token
        is dead (given up, it seats nobody again: saved at once)."""
        seat = self.seats[index]
        link = seat.link
        if not self.started and link is not None:
            self.dropped(link, index)
            return
        seat.link = None
        seat.token = None
        self.watchers.forget(self, (index,))  # a bot's hand now: nobody allowed it
        self._pause_ends_with(index)
        self._away_too_long(index)
        if self.on_change is not None:
            self.on_change(self)

    def away_too_long(self, index: int) -> None:
        """The seat's person has been away for the host's wait: a bot plays it now."""
        self._away_too_long(index)

    def _away_too_long(self, index: int) -> None:
        seat = self.seats[index]
        seat.timer = None
        if seat.link is not None or seat.bot or self.closed:
            return
        seat.bot = True
        self.watchers.forget(self, (index,))  # a bot's hand now: nobody allowed it
        self.tell(Phrase("bot_plays_for", {"level": self.difficulty, "name": seat.name or ""}))
        if self.on_abandon is not None and seat.name is not None and self.started:
            self.on_abandon(self, index)
        self.broadcast()
        self.drive()

    # ------------------------------------------------------------------ the match

    def start(self, seed: int, rules: Any) -> None:
        """Deal; every seat nobody took is a bot's."""
        for seat in self.seats:
            if seat.name is None:
                seat.bot = True
        self.match = Match.new(seed, self.target, rules)
        self.shown = self.match.current
        # saved at once, before anybody sees a hand: a crash before the first bid keeps
        # the table and its code (the first state waits for that save, as any other)
        self.seq += 1
        if self.on_change is not None:
            self.on_change(self)
        names = ", ".join(self.name_of(i) for i in range(4))
        self.tell(Phrase("match_starts", {"target": self.target, "names": names}))
        self.broadcast()
        self.drive()

    def resume(self, match: Match) -> None:
        """A table read back from its save after the host restarted: every human is away.

        A match that had ended is finished now (its save stays only when the last host
        could not archive it): archived, and its ``Over`` kept for the players coming back.
        """
        self.match = match
        self.shown = match.current
        if match.is_over:
            if match.rounds:
                last = match.rounds[-1]
                self.shown = match.deal(last.index).replay(last.actions)
            self._finish()
            return
        loop = asyncio.get_running_loop()
        for index, seat in enumerate(self.seats):
            if seat.name is not None and not seat.bot:
                seat.dropped_at = time.monotonic()
                seat.timer = loop.call_later(self.wait, self._away_too_long, index)
            elif seat.name is None:
                seat.bot = True
        self.drive()  # a bot may be the one to act

    @property
    def host_seat(self) -> int | None:
        """Where the host's own app sits (None: the host only hosts)."""
        return next((i for i, s in enumerate(self.seats) if s.host), None)

    def name_of(self, index: int) -> str:
        seat = self.seats[index]
        if seat.name is not None:
            return seat.name
        return f"bot {index + 1}"  # numbered 1-4, as every player reads the seats

    def is_bot_turn(self) -> bool:
        rnd = self.match.current if self.match is not None else None
        return rnd is not None and rnd.to_act is not None and self.seats[rnd.to_act].bot

    def act(self, index: int, action: Action) -> Phrase | None:
        """A human's action for seat ``index``; returns why it is refused, or None."""
        match = self.match
        if self.closed:
            return Phrase("shutting_down")
        if match is None:
            return Phrase("not_started")
        rnd = match.current
        if rnd is None:
            return Phrase("match_over")
        if self.seats[index].bot:
            return Phrase("bot_playing")
        if self.stalled:
            return Phrase("not_saving")
        if self.paused:
            return Phrase("table_paused")
        try:
            after = match.apply(action, index)
        except IllegalActionError as exc:
            return illegal_phrase(exc)
        self._commit(match, action, index, after)
        self.drive()
        return None

    def act_for(self, index: int, action: Action) -> None:
        """An action chosen for a person's seat when their clock ran out (``bela.net.clock``)."""
        match = self.match
        if self.closed or match is None or match.current is None:
            return
        self._commit(match, action, index, match.apply(action, index))
        self.drive()

    def _commit(self, before: Match, action: Action, seat: int, after: Match) -> None:
        if self.closed:  # pragma: no cover - the bots and the links are stopped first
            return
        self.match = after
        self.seq += 1
        rnd = before.current
        assert rnd is not None
        last: Phrase | None = None
        if len(after.rounds) > len(before.rounds):
            record = after.rounds[-1]
            self.shown = after.deal(record.index).replay(record.actions)
            names = [self.name_of(i) for i in range(4)]
            last = round_over(record, names, after.scores)
            # the bots let everybody see the last trick and the result before the next deal
            self.pause_until = asyncio.get_running_loop().time() + 4 * self.bot_delay
        else:
            self.shown = after.current
            shown = self.shown
            if shown is not None and len(shown.tricks) > len(rnd.tricks):
                trick = shown.tricks[-1]
                last = Phrase(
                    "takes_trick",
                    {
                        "name": self.name_of(trick.winner),
                        "seat": trick.winner,
                        "points": trick.points,
                    },
                )
        if self.on_change is not None:
            self.on_change(self)
        self.broadcast(last)
        if self.clock or self.clock_handles:
            clock.arm(self)  # the next turn's clock, or none
        if after.is_over:
            self._finish()
        elif self.shown is not after.current:
            # the finished round went out with its last trick and result; now the next deal
            self.shown = after.current
            self.broadcast()

    def _finish(self) -> None:
        if self.over_sent or self.match is None or self.match.winner is None:
            return
        self.over_sent = True
        self.series.won(self.match.winner)
        where = self.on_over(self) if self.on_over is not None else None
        self.saved()  # archived (or not savable): the last states go out before Over
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
        from bela.archive.records import record_from_match, seated

        record = seated(
            record_from_match(self.match, self.difficulty),
            "network",
            (self.name_of(0), self.name_of(1), self.name_of(2), self.name_of(3)),
            bot_rounds=tuple(sorted(self.bot_played)) or None,
        )
        message = {
            "type": "over",
            "winner": self.match.winner,
            "scores": list(self.match.scores),
            "record": record.model_dump(mode="json"),
            # the file's name only: where the host keeps its files is the host's business
            "archived": PurePath(where).name if where else where,
            **series_field(self),
        }
        self.over = message
        for seat in self.seats:
            if seat.link is not None:
                seat.link.send(message)
        self.watchers.send(message)

    def drive(self) -> None:
        """Let the bots act until a human must (in a task: the loop stays free meanwhile)."""
        if self.closed or self.paused:
            return
        if self.clock or self.clock_handles:
            clock.arm(self)  # a person's turn: their clock (if the host set one)
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        from bela.ai.driver import bot_action

        while self.match is not None and self.is_bot_turn() and not self.stalled:
            if self.bot_delay > 0:
                loop = asyncio.get_running_loop()
                await asyncio.sleep(max(self.bot_delay, self.pause_until - loop.time()))
            else:
                await asyncio.sleep(0)  # let the humans' frames in between the bots' actions
            match = self.match
            if match is None or not self.is_bot_turn() or self.paused or self.stalled:
                return
            rnd = match.current
            assert rnd is not None and rnd.to_act is not None
            seat = rnd.to_act
            bot = self.bots.get(seat)
            if bot is None:
                bot = self.bots[seat] = self.make_bot(self.difficulty)
            if self.difficulty in _SLOW_BOTS:  # a search: off the loop, the other tables go on
                action = await asyncio.to_thread(bot_action, match, bot)
            else:
                action = bot_action(match, bot)
            if self.match is not match:
                continue
            if not rnd.is_legal(action):  # a bot's bug must not stop the table
                action = rnd.legal_actions()[0]
            if self.seats[seat].name is not None:  # standing in for a person: the record says so
                self.bot_played.add((match.next_index, seat))
            self._commit(match, action, seat, match.apply(action, seat))

    # ------------------------------------------------------------------ telling

    def broadcast(self, last: Phrase | None = None) -> None:
        """Every connected seat gets the table as it may see it."""
        seats = self.seat_infos()
        if self.match is None or self.shown is None:
            lobby = self.lobby_message()
            for index, seat in enumerate(self.seats):
                if seat.link is not None:
                    seat.link.send({**lobby, "seat": index})
            self.watchers.send(lobby)
            return
        present = [index for index, seat in enumerate(self.seats) if seat.link is not None]
        extra = series_field(self)
        if self.watchers:  # a watcher allowed a hand is sent that seat's own state
            present = sorted(set(present) | self.watchers.seats_shown())
        frames = state_frames(self.match, self.shown, present, self.seq, seats, last, extra)
        if self.watchers:
            public = public_state(self.match, self.shown, self.seq, seats, last, extra)
            frames[PUBLIC] = encode_public(public)
        if self.hold and (self.seq > self.durable or self.held):
            self.held.append((self.seq, frames))  # out once saved, in order
            return
        self._send_frames(frames)

    def _send_frames(self, frames: dict[int, bytes]) -> None:
        for index, frame in frames.items():
            link = self.seats[index].link if index != PUBLIC else None
            if link is not None:
                link.send_frame(frame)
        if self.watchers:
            self.watchers.deliver(frames)

    def saved(self, seq: int | None = None) -> None:
        """The actions up to ``seq`` are on disk (None: as far as they will get, e.g. the
        save failed or the match was archived): the states that show them go out."""
        self.durable = self.seq if seq is None else max(self.durable, seq)
        while self.held and self.held[0][0] <= self.durable:
            self._send_frames(self.held.popleft()[1])

    def save_failed(self) -> None:
        """The host could not save: stop (the states wait, the bots too) and say so once."""
        if self.stalled:
            return
        self.stalled = True
        self.tell(Phrase("not_saving"))

    def save_recovered(self) -> None:
        """Saves land again: everything held has gone out (``saved``); play on."""
        self.stalled = False
        self.tell(Phrase("saving_again"))
        self.drive()

    def send_state(self, index: int) -> None:
        link = self.seats[index].link
        if link is None:
            return
        if self.match is None or self.shown is None:
            link.send({**self.lobby_message(), "seat": index})
        else:
            message = state_message(
                self.match, self.shown, index, self.seq, self.seat_infos(), None
            )
            link.send({**message, **series_field(self)})

    def send_watcher(self, watcher: Watcher) -> None:
        """What ``watcher`` may see now: the lobby, the public table or the allowed seat's."""
        if self.match is None or self.shown is None:
            watcher.link.send(self.lobby_message())
            return
        infos, extra = self.seat_infos(), series_field(self)
        if watcher.seat is not None:
            message = state_message(self.match, self.shown, watcher.seat, self.seq, infos, None)
            watcher.link.send({**message, **extra})
        else:
            watcher.link.send(public_state(self.match, self.shown, self.seq, infos, None, extra))
        if self.over is not None:
            watcher.link.send(self.over)

    def tell(self, phrase: Phrase) -> None:
        self.send_all({"type": "notice", **phrase.fields()})

    def send_all(self, message: dict[str, Any]) -> None:
        """``message`` to every connected seat and every watcher."""
        for seat in self.seats:
            if seat.link is not None:
                seat.link.send(message)
        self.watchers.send(message)

    def chat(self, index: int, text: str) -> None:
        self.said += 1
        message = {
            "type": "said",
            "seat": index,
            "name": self.name_of(index),
            "text": text,
            "n": self.said,
        }
        self.talk.append(message)
        for seat in self.seats:
            if seat.link is not None and self.hears(seat.link, index):
                seat.link.send(message)
        if self.listens is None:
            self.watchers.send(message)
            return
        for watcher in list(self.watchers.all):
            if self.hears(watcher.link, index):
                watcher.link.send(message)

    def hears(self, link: Any, index: int) -> bool:
        """Whether the connection ``link`` is shown seat ``index``'s table talk (``listens``:
        the public server's muting; everybody hears everybody at a friends' table)."""
        return self.listens is None or self.listens(link, index)

    def close(self, reason: Phrase | None = None) -> None:
        """Stop the bots and the timers and hang up (the server is shutting down: the
        table stays as its last save has it, for the next host to resume; or a finished
        table is let go)."""
        self.closed = True
        clock.stop(self)
        if self.driver is not None:
            self.driver.cancel()
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
            with contextlib.suppress(Exception):
                if seat.link is not None:
                    seat.link.close(reason or Phrase("shutting_down"))
        with contextlib.suppress(Exception):
            self.watchers.close(reason or Phrase("shutting_down"))
