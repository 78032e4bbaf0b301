"""What the one who leads a table (the host's own app) may do besides starting it.

- **Move** two seats' players before the start (either seat may be open): friends
  choose partners, the host settles it. Every moved player is told their new seat.
- **Hand a seat to a bot** now: a person who dropped is played by a bot at once
  instead of after the host's ``--wait`` (a connected person is never put out:
  the clock, if the host set one, covers a player who does not act).
- **Pause** and **resume**: while paused nobody acts (a card is refused with the
  reason), the bots and the clock wait; the table talk goes on.

Everybody at the table is told each of these in the table talk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bela.net import clock
from bela.net.phrases import Phrase

if TYPE_CHECKING:
    from bela.net.table import Table

__all__ = ["control"]


def control(table: Table, index: int, do: str, seat: int | None, to: int | None) -> Phrase | None:
    """Seat ``index`` asks for ``do``; returns why not, or None once done."""
    if table.leader != index:
        return Phrase("only_host_controls")
    if do == "move":
        return _move(table, seat, to)
    if do == "bot":
        return _to_bot(table, index, seat)
    if do in ("pause", "resume"):
        return _pause(table, index, do == "pause")
    return Phrase("no_such_control")  # pragma: no cover - the protocol allows no other


def _move(table: Table, seat: int | None, to: int | None) -> Phrase | None:
    if table.started:
        return Phrase("seats_fixed")
    if seat is None or to is None or seat == to:
        return Phrase("no_such_seat")
    seats = table.seats
    seats[seat], seats[to] = seats[to], seats[seat]
    table.watchers.follow({seat: to, to: seat})
    if table.leader in (seat, to):
        table.leader = to if table.leader == seat else seat
    for moved, now in ((seats[to], to), (seats[seat], seat)):
        if moved.name is not None:
            table.tell(Phrase("moved_by_host", {"name": moved.name, "seat": now}))
    if table.on_moved is not None:
        table.on_moved(table)
    table.broadcast()
    return None


def _to_bot(table: Table, index: int, seat: int | None) -> Phrase | None:
    if seat is None or not table.started:
        return Phrase("not_started")
    state = table.seats[seat]
    if state.bot:
        return Phrase("bot_playing")
    if state.link is not None:
        return Phrase("still_connected", {"name": state.name or ""})
    if state.timer is not None:
        state.timer.cancel()
        state.timer = None
    table.away_too_long(seat)
    return None


def _pause(table: Table, index: int, pause: bool) -> Phrase | None:
    if not table.started or table.match is None or table.match.is_over:
        return Phrase("not_started")
    if table.paused == pause:
        return Phrase("already_paused" if pause else "not_paused")
    table.paused = pause
    table.tell(Phrase("paused" if pause else "resumed", {"name": table.name_of(index)}))
    if pause:
        clock.stop(table)
    else:
        table.drive()
    return None
