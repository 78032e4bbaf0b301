"""The end of a match at the public server, written to its store at once.

When a rated match ends, five things change: the archive gets the match's row, the four
Glicko-2 ratings move (with their history), each player has finished one more match (the
reliability figure), the weekly league counts the week's points, and the table's live save
goes (nothing left to take up). Written one by one, a crash between two of them could rate
a match twice (taken up again from its save and counted again) or leave it archived but
unrated. So they are one ``MatchEnd`` and one transaction of the store
(``Accounts.end_match``): all of it lands or none of it, and each part lands once by the
match's id, so a retry, a worker that takes the table up after a crash, or a second worker
that also saw the end changes nothing more. An abandonment (a player's seat went to a bot
in a rated match) is counted the same way, without the archive row: the leaver's loss,
the others' finished match and the leaver's league entry at once, once by the match id,
so the end of that match cannot count it again.

What the store cannot take now (it is down) waits here (``unsettled``) and is tried again
on the server's tick; its table's save is kept meanwhile (while it still holds that
match), so a server that dies before it lands ends the match again from the save.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bela.net.accounts import Accounts, MatchEnd
from bela.net.league import DIVISIONS, match_points
from bela.net.team_ratings import rate_abandon, rate_match

if TYPE_CHECKING:
    from bela.archive.glicko import Rating
    from bela.net.online_server import OnlineServer

__all__ = ["Ending", "MatchEnds", "ratings_of"]


@dataclass(frozen=True, slots=True)
class Ending:
    """What the server knew of a match when it ended (or a player left it): enough to
    write its end again later, whatever the table has done since."""

    table_id: str
    match_id: str
    seats: tuple[int | None, ...]
    """The seats' account ids (None: a guest or a bot)."""
    counts: bool
    """The ratings, finished counters and league move (a rated match not counted yet)."""
    archive: bool
    """The match is over: its archive row is written (False: an abandonment)."""
    winner: int | None = None
    scores: tuple[int, int] = (0, 0)
    rated: bool = False
    """As the archive row says it (the match was rated when it ended)."""
    abandoned_by: int | None = None
    leaver_seat: int | None = None
    """An abandonment: the seat whose player left."""


def ratings_of(accounts: Accounts, ids: tuple[int | None, ...]) -> list[Rating] | None:
    """The seats' ratings (None when a seat has no account, or the account is gone)."""
    found = [accounts.by_id(i) if i is not None else None for i in ids]
    if any(a is None for a in found):
        return None
    return [a.rating for a in found if a is not None]


class MatchEnds:
    """The ends of ``server``'s matches: each written at once, the failed ones again."""

    def __init__(self, server: OnlineServer) -> None:
        self.server = server
        self.unsettled: dict[str, Ending] = {}
        """Ends the store did not take yet, by match id (tried again each tick)."""

    def holds(self, table_id: str) -> bool:
        """An end of a match at ``table_id`` waits for the store (its save is kept)."""
        return any(e.table_id == table_id and e.archive for e in self.unsettled.values())

    def change_of(self, ending: Ending, save_of: str | None) -> MatchEnd:
        """``ending`` as the store writes it, the ratings worked out from the store's (the
        same on a retry: nothing of it landed before, or all of it did and the store
        ignores it)."""
        accounts, seats = self.server.accounts, ending.seats
        ratings: tuple[tuple[int, Rating], ...] = ()
        finished: tuple[int, ...] = ()
        points: dict[int, int] = {}
        old = ratings_of(accounts, seats) if ending.counts else None
        if old is not None and ending.leaver_seat is not None:
            leaver = seats[ending.leaver_seat]
            assert leaver is not None
            ratings = ((leaver, rate_abandon(old, ending.leaver_seat)),)
            finished = tuple(i for i in seats if i is not None and i != leaver)
            points = match_points(seats, None, leaver)
        elif old is not None and ending.winner is not None:
            new = rate_match(old, ending.winner)
            ratings = tuple((i, r) for i, r in zip(seats, new, strict=True) if i is not None)
            finished = tuple(i for i in seats if i is not None)
            points = match_points(seats, ending.winner, None)
        week = self.server.league.current() if points else ""
        return MatchEnd(
            match_id=ending.match_id or secrets.token_hex(16),
            table_id=ending.table_id,
            archive=ending.archive,
            rated=ending.rated,
            winner=ending.winner,
            scores=ending.scores,
            seats=seats,
            abandoned_by=ending.abandoned_by,
            ratings=ratings,
            finished=finished,
            week=week,
            points=tuple(points.items()),
            entry=DIVISIONS,
            save_of=save_of,
        )

    def settle(self, ending: Ending) -> bool:
        """Write ``ending`` (False: the store failed; it waits in ``unsettled``)."""
        server = self.server
        meta = server.meta.get(ending.table_id)
        # the table's save (if any) holds this match, not a newer one: it goes with the end
        current = meta is None or meta.match_id == ending.match_id
        try:
            server.accounts.end_match(
                self.change_of(ending, server.keeper.worker if current and ending.archive else None)
            )
        except Exception as exc:  # the store is down: nothing of it landed; again later
            self.unsettled[ending.match_id] = ending
            server.faults.report(f"end:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")
            return False
        self.unsettled.pop(ending.match_id, None)
        if ending.archive and current:
            if meta is not None:
                meta.rated = meta.counted = False
            server.keeper.drop(ending.table_id)  # archived: nothing to take up any more
        return True

    def retry(self) -> None:
        """Try the ends the store did not take again (each tick)."""
        for ending in list(self.unsettled.values()):
            if self.settle(ending):
                self.server.event("settled", f"{ending.table_id} {ending.match_id[:8]}")
