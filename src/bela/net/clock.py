"""The table's clock: a connected player who does not act is warned, then a bot plays
that one turn for them (``bela host --clock SECONDS``).

Off by default: friends at a table play at their own pace, and nobody is rushed
unless the host chose a clock, which the lobby says. A turn's clock starts when it
becomes a person's turn and **runs on across a drop and a return**: dropping the line
and sitting down again does not buy a fresh clock (it once held a turn for 42 s at a
4 s clock). While the player is away nothing is played for them (the host's ``--wait``
covers a dropped seat); back after their time ran out, the turn is played for them
at once. After two thirds of the time the player is told how many seconds are left;
when it runs out the table's bot level chooses that one action, the seat stays the
player's, and everybody is told. The record notes the round as one in which a bot
played that seat (``MatchRecord.bot_rounds``). A pause stops the clock; the turn's
clock starts afresh when the table resumes.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Final

from bela.net.phrases import Phrase

if TYPE_CHECKING:
    from bela.net.table import Table

__all__ = ["MAX_CLOCK", "arm"]

MAX_CLOCK: Final = 3600.0
WARN_AT: Final = 2 / 3
"""The share of the time after which the player is warned."""


def arm(table: Table) -> None:
    """After every change: start the clock for the person whose turn it is now (once per
    turn, its deadline kept across a drop), or stop it when nobody's is."""
    match = table.match
    rnd = match.current if match is not None else None
    seat = rnd.to_act if rnd is not None else None
    if table.clock <= 0 or table.closed or table.paused or seat is None or table.seats[seat].bot:
        stop(table)
        return
    key = (table.seq, seat)
    loop = asyncio.get_running_loop()
    if table.clock_turn != key:  # a new turn: its clock starts now
        stop(table)
        table.clock_turn = key
        table.clock_deadline = loop.time() + table.clock
    if table.seats[seat].link is None:  # away: the time runs on, nothing is played
        _cancel(table)
        return
    if table.clock_handles:
        return  # this turn's clock is running
    left = table.clock_deadline - loop.time()
    warn_in = left - table.clock * (1 - WARN_AT)
    table.clock_handles = [loop.call_later(max(0.0, left), _expire, table, key)]
    if warn_in > 0:
        table.clock_handles.append(
            loop.call_later(warn_in, _warn, table, key, table.clock * (1 - WARN_AT))
        )


def _cancel(table: Table) -> None:
    for handle in table.clock_handles:
        handle.cancel()
    table.clock_handles = []


def stop(table: Table) -> None:
    _cancel(table)
    table.clock_turn = None


def _current(table: Table, key: tuple[int, int]) -> bool:
    return table.clock_turn == key and table.seq == key[0] and not table.closed


def _warn(table: Table, key: tuple[int, int], left: float) -> None:
    if not _current(table, key):
        return
    link = table.seats[key[1]].link
    if link is not None:
        phrase = Phrase("clock_warning", {"seconds": f"{left:.0f}"})
        link.send({"type": "notice", **phrase.fields()})


def _expire(table: Table, key: tuple[int, int]) -> None:
    if not _current(table, key):
        return  # acted meanwhile
    if table.seats[key[1]].link is None:
        _cancel(table)  # away: the host's wait covers the seat; back, it is played at once
        return
    table.clock_handles = []
    asyncio.get_running_loop().create_task(_play_for(table, key))


async def _play_for(table: Table, key: tuple[int, int]) -> None:
    """The table's bot chooses this one action for the seat; the seat stays the player's."""
    from bela.ai.driver import bot_action

    match = table.match
    if match is None or match.current is None or not _current(table, key):
        return
    rnd, seat = match.current, key[1]
    action = await asyncio.to_thread(bot_action, match, table.make_bot(table.difficulty))
    if table.match is not match or not _current(table, key):
        return  # the player acted meanwhile
    if not rnd.is_legal(action):  # a bot's bug must not stop the table
        action = rnd.legal_actions()[0]
    table.clock_turn = None
    table.bot_played.add((match.next_index, seat))
    table.tell(Phrase("clock_played", {"name": table.name_of(seat)}))
    table.act_for(seat, action)
