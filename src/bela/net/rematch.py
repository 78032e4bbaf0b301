"""Još jednu: another match at the same table, and the evening's series score.

When a match ends the table stays (``ServerOptions.keep_over``). Each player
still connected may ask for another match (``Again``); once every connected
person at the table has asked, a new match starts at once: the same seats and
names (a person who left stays played by a bot, an open seat stays a bot's),
the deal passing on to the seat after the last dealer, a new seed, and the
same target and house rules. Nobody is rushed: until all agree, the table just
waits (and is let go as any finished table is, ``keep_over`` after the end).

The series is the matches each team has won at this table since it opened
(teams are seats 0+2 and 1+3, as the seats stay), sent with every ``State``
and with ``Over`` once a match has ended.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bela.engine import Match
from bela.net.phrases import Phrase

if TYPE_CHECKING:
    from bela.net.table import Table

__all__ = ["Series", "agree", "series_field"]


@dataclass(slots=True)
class Series:
    """Matches won by team 0 and team 1 at this table, and who wants another now."""

    wins: list[int] = field(default_factory=lambda: [0, 0])
    played: int = 0
    agreed: set[int] = field(default_factory=set)
    """Seats that asked for another match since the last one ended."""

    def won(self, team: int) -> None:
        self.wins[team] += 1
        self.played += 1
        self.agreed.clear()


def series_field(table: Table) -> dict[str, list[int]]:
    """The ``series`` of ``State`` and ``Over``: nothing until a match has ended."""
    series = table.series
    return {"series": list(series.wins)} if series.played else {}


def _asked(table: Table) -> list[int]:
    """The seats whose agreement is needed: every person connected to the table now."""
    return [i for i, seat in enumerate(table.seats) if seat.link is not None and not seat.bot]


def agree(table: Table, index: int, seed: int) -> Phrase | None:
    """Seat ``index`` asks for another match; it starts (with ``seed``) once everybody
    connected has asked. Returns why not, or None."""
    match = table.match
    if table.closed:
        return Phrase("shutting_down")
    if match is None or not match.is_over:
        return Phrase("not_over_yet")
    series = table.series
    series.agreed.add(index)
    waiting = [i for i in _asked(table) if i not in series.agreed]
    if waiting:
        names = ", ".join(table.name_of(i) for i in waiting)
        table.tell(Phrase("wants_again", {"name": table.name_of(index), "names": names}))
        return None
    _start_again(table, match, seed)
    return None


def _start_again(table: Table, last: Match, seed: int) -> None:
    """The new match: same seats, the next dealer, a new seed; the old one is archived."""
    first_dealer = (last.rounds[-1].dealer + 1) % 4 if last.rounds else last.first_dealer
    if table.on_again is not None:
        table.on_again(table)  # the host keeps the table and saves the new match afresh
    table.series.agreed.clear()
    table.watchers.forget(table, range(4))  # each allows it again in this match, or not
    table.over = None
    table.over_sent = False
    table.bot_played = set()
    table.bots.clear()
    table.match = Match.new(seed, table.target, last.rules, first_dealer=first_dealer)
    table.shown = table.match.current
    loop = asyncio.get_running_loop()
    for index, seat in enumerate(table.seats):
        if seat.name is not None and not seat.bot and seat.link is None:
            # away at the end: their seat waits for them as after a drop, then a bot plays
            seat.dropped_at = time.monotonic()
            seat.timer = loop.call_later(table.wait, table.away_too_long, index)
    wins = table.series.wins
    names = [table.name_of(i) for i in range(4)]
    table.tell(
        Phrase(
            "again_starts",
            {
                "target": table.target,
                "name": names[first_dealer],
                "pair0": f"{names[0]} & {names[2]}",
                "won0": wins[0],
                "pair1": f"{names[1]} & {names[3]}",
                "won1": wins[1],
            },
        )
    )
    if table.on_change is not None:
        table.on_change(table)  # saved as it starts, before anybody acts
    table.broadcast()
    table.drive()
