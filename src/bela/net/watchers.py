"""Watchers (kibitzers): people who follow a table without a seat (``bela join --watch``).

A watcher sees the table as the public does: the bids, the trick, the tricks
taken, the zvanja shown, bela, the score sheet, the table talk; never a hand,
a talon or a seat's own unshown zvanja. Their ``State`` is built from one
seat's view with everything private to that seat taken out (``public_state``),
so it holds no more than what every seat already sees. A seated player may let
one watcher see their hand (``Show``), **naming** the watcher from the list of who
watches (``WatcherList``, sent to everyone when it changes): never "the newest watcher",
which a stranger could arrange to be. So that a name says who it is, a watcher's name is
unique at the table and unlike every seated name (``bela.foundation.lookalike``: a
Cyrillic "Аna", another case or a zero-width space is still "Ana"); a watcher whose name
is taken is turned away with the reason. The chosen watcher is then sent exactly that
seat's ``State``, as the player sees it, until the player takes it back, drops, gives the
seat up or a bot takes it, or the match ends: in another match (još jednu) nobody sees a
hand until its player allows it again. Before the start the permission follows its player
to another seat, so it never shows the hand of whoever sits down in the seat they left.

Watchers never slow the players: their frames are written without waiting (as
every frame is), and a watcher whose unread frames pass ``WATCHER_BUFFER_LIMIT``
(much less than a player's) is cut off; the table does not notice. A table
takes at most ``WATCHERS_PER_TABLE`` of them; each is a connection, counted
like any other by the host's limits.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from bela.foundation.lookalike import same_name
from bela.net.phrases import Phrase
from bela.net.views import state_message

if TYPE_CHECKING:
    from bela.engine import Match, Round
    from bela.net.table import Link, Table

__all__ = [
    "PUBLIC",
    "WATCHERS_PER_TABLE",
    "WATCHER_BUFFER_LIMIT",
    "Watcher",
    "Watchers",
    "public_state",
]

WATCHERS_PER_TABLE: Final = 8
WATCHER_BUFFER_LIMIT: Final = 128 * 1024
"""Bytes of unread frames after which a watcher is cut off (a player's limit is 1 MiB)."""
PUBLIC: Final = -1
"""The key of the public ``State`` among a broadcast's frames (the seats are 0-3)."""

_PRIVATE: Final = {
    "hand": [],
    "talon": [],
    "own_zvanja": [],
    "legal": [],
    "can_claim": False,
    "may_stay_silent": False,  # it would say that seat holds zvanja
}
"""What a seat's view holds that only that seat may see, as a watcher is sent it."""


def public_state(
    match: Match,
    shown: Round,
    seq: int,
    seats: list[dict[str, Any]],
    last: Phrase | None,
    extra: dict[str, Any],
) -> dict[str, Any]:
    """The ``State`` a watcher is sent: seat 0's view with everything private taken out."""
    message = state_message(match, shown, 0, seq, seats, last)
    message["view"] = {**message["view"], **_PRIVATE}
    return {**message, **extra}


@dataclass(slots=True, eq=False)
class Watcher:
    link: Link
    name: str
    seat: int | None = None
    """The seat whose hand this watcher may see (its player allowed it), else None."""


@dataclass(slots=True)
class Watchers:
    """The watchers of one table, in the order they came."""

    all: list[Watcher] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.all)

    def names(self) -> list[str]:
        return [w.name for w in self.all]

    def list_message(self) -> dict[str, Any]:
        return {"type": "watchers", "names": self.names()}

    def add(self, table: Table, link: Link, name: str) -> Watcher | Phrase:
        if len(self.all) >= WATCHERS_PER_TABLE:
            return Phrase("watchers_full", {"most": WATCHERS_PER_TABLE})
        taken = [s.name for s in table.seats if s.name is not None] + self.names()
        if any(same_name(name, other) for other in taken):
            return Phrase("watch_name_taken", {"name": name})
        watcher = Watcher(link, name)
        table.tell(Phrase("watching", {"name": name}))
        # the others learn the list now; the newcomer with its welcome (``Watching`` first)
        table.send_all({"type": "watchers", "names": [*self.names(), name]})
        self.all.append(watcher)
        return watcher

    def remove(self, table: Table, watcher: Watcher) -> None:
        if watcher in self.all:
            self.all.remove(watcher)
            if not table.closed:
                if watcher.seat is not None:
                    table.tell(
                        Phrase(
                            "hand_hidden",
                            {"name": table.name_of(watcher.seat), "watcher": watcher.name},
                        )
                    )
                table.tell(Phrase("stops_watching", {"name": watcher.name}))
                table.send_all(self.list_message())

    def seats_shown(self) -> set[int]:
        """The seats whose own ``State`` some watcher is sent."""
        return {w.seat for w in self.all if w.seat is not None}

    def show(self, table: Table, seat: int, on: bool, name: str | None = None) -> Phrase | None:
        """Seat ``seat`` lets the watcher named ``name`` see their hand (``on``), or takes
        it back; returns why not, or None."""
        mine = next((w for w in self.all if w.seat == seat), None)
        if not on:
            if mine is None:
                return Phrase("nobody_sees_hand")
            mine.seat = None
            table.tell(Phrase("hand_hidden", {"name": table.name_of(seat), "watcher": mine.name}))
            table.send_watcher(mine)
            return None
        if mine is not None:
            return Phrase("one_watcher", {"watcher": mine.name})
        if not self.all:
            return Phrase("no_watcher")
        if name is None:
            return Phrase("name_the_watcher")
        free = next((w for w in self.all if w.name == name), None)
        if free is None:
            return Phrase("no_such_watcher", {"watcher": name})
        if free.seat is not None:
            return Phrase("watcher_sees_other", {"watcher": free.name})
        free.seat = seat
        table.tell(Phrase("hand_shown", {"name": table.name_of(seat), "watcher": free.name}))
        table.send_watcher(free)
        return None

    def forget(self, table: Table, seats: Iterable[int]) -> None:
        """The players of ``seats`` no longer let anyone see their hand: a new match (each
        lets a watcher see it again if they wish), or they gave the seat up. Each watcher
        who saw one is told so and sees the public table from now on."""
        gone = set(seats)
        for watcher in self.all:
            if watcher.seat is not None and watcher.seat in gone:
                seat, watcher.seat = watcher.seat, None
                table.tell(
                    Phrase("hand_hidden", {"name": table.name_of(seat), "watcher": watcher.name})
                )
                table.send_watcher(watcher)

    def follow(self, moved: dict[int, int]) -> None:
        """Players moved seats before the start (``moved``: old seat to new): what a player
        allowed goes with them, never to whoever sits in their old seat now."""
        for watcher in self.all:
            if watcher.seat is not None and watcher.seat in moved:
                watcher.seat = moved[watcher.seat]

    def deliver(self, frames: dict[int, bytes]) -> None:
        """A broadcast's frames to the watchers: the public one, or the allowed seat's."""
        public = frames.get(PUBLIC)
        for watcher in list(self.all):
            frame = frames.get(watcher.seat) if watcher.seat is not None else public
            if frame is not None:
                watcher.link.send_frame(frame)

    def send(self, message: dict[str, Any]) -> None:
        for watcher in list(self.all):
            watcher.link.send(message)

    def close(self, reason: Phrase) -> None:
        for watcher in list(self.all):
            watcher.link.close(reason)


def encode_public(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
