"""The public server's weekly league: divisions, points from the week's rated matches,
promotion and relegation at the week's boundary.

Why a league beside the rating: a rating moves slowly and a new player sits far below
the top for months; a week's league gives everyone a table they can climb now, as the
divisions of the card-game sites Croatian players know do.

- **Divisions** are levels, 1 the highest, ``DIVISIONS`` the lowest. A player joins the
  league with their first rated match of any week, in the lowest division. A division
  is not split into groups of a fixed size: everybody of that level is in one table.
- **Points** from each rated match of the week: ``WIN`` for a win, ``LOSS`` for a loss
  (playing is worth something), nothing for leaving the match (it counts as played).
- **The week** is the ISO week in UTC (Monday 00:00 UTC to the next). At the first look
  at the league after a boundary (a finished match, a player asking for the table), the
  week that ended is rolled once: in each division, of those who played that week, the
  top ``promoted(n)`` go one division up and the bottom ``relegated(n)`` one down (a
  third of them at most, ``PROMOTE`` / ``RELEGATE`` at most; none up from the highest,
  none down from the lowest). Who did not play stays where they are. The roll is one
  transaction in the store, conditional on the week it rolls from, so of several
  processes that see the boundary one rolls and the others find it done.

A match that ends in the last instant of a week while another process rolls it may
count for the week that ended after its standings were read: it then counts in the
table of that week but moves nobody. The clock is injected (``clock``) so tests can
walk a synthetic week.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from bela.net.accounts import Accounts, LeagueLine

__all__ = [
    "DIVISIONS",
    "LOSS",
    "WIN",
    "League",
    "Standing",
    "match_points",
    "moves",
    "promoted",
    "relegated",
    "week_end",
    "week_of",
]

DIVISIONS: Final = 5
"""Division 1 is the highest; a newcomer starts in the lowest."""
PROMOTE: Final = 3
RELEGATE: Final = 3
WIN: Final = 3
LOSS: Final = 1
LEFT: Final = 0


def week_of(at: float) -> str:
    """The ISO week (UTC) of the moment ``at``, as ``2026-W49`` (sorts as time does)."""
    year, week, _day = datetime.fromtimestamp(at, UTC).isocalendar()
    return f"{year:04d}-W{week:02d}"


def week_end(at: float) -> float:
    """When the ISO week (UTC) of ``at`` ends: the next Monday, 00:00 UTC."""
    moment = datetime.fromtimestamp(at, UTC)
    monday = (moment - timedelta(days=moment.weekday())).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    return (monday + timedelta(days=7)).timestamp()


def promoted(players: int, division: int) -> int:
    """How many of a division's ``players`` of the week go up: a third at most."""
    return 0 if division <= 1 else min(PROMOTE, players // 3)


def relegated(players: int, division: int) -> int:
    """How many go down: a third at most, none from the lowest division."""
    return 0 if division >= DIVISIONS else min(RELEGATE, players // 3)


def moves(tables: Mapping[int, Sequence[int]]) -> dict[int, int]:
    """Each division's players of the week, best first, to the new divisions of those who
    move (the others stay)."""
    out: dict[int, int] = {}
    for division, ranked in tables.items():
        up, down = promoted(len(ranked), division), relegated(len(ranked), division)
        for account in ranked[:up]:
            out[account] = division - 1
        for account in ranked[len(ranked) - down :]:
            out[account] = division + 1
    return out


def match_points(
    ids: Sequence[int | None], winner: int | None, leaver: int | None
) -> dict[int, int]:
    """A rated match's league points by account: ``WIN`` or ``LOSS`` for each seat by the
    winning pair, or ``LEFT`` for the one who left it (the others' match is no longer
    rated, so they get nothing from it)."""
    if leaver is not None:
        return {leaver: LEFT}
    if winner is None:
        return {}
    return {i: WIN if seat % 2 == winner else LOSS for seat, i in enumerate(ids) if i is not None}


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's division this week, as ``bela online --league`` and the app show it."""

    week: str
    division: int
    member: bool
    """False: not in the league yet (the division is where they will start)."""
    lines: list[LeagueLine]
    promoted: int
    relegated: int
    ends: float
    """When the week ends (seconds since the epoch)."""


class League:
    """The weekly league over the server's store; ``clock`` gives the time (UTC seconds)."""

    def __init__(self, store: Accounts, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    def current(self) -> str:
        """This week, the week that ended rolled first (once, whichever process does it)."""
        week = week_of(self.clock())
        last = self.store.league_week()
        if last is None or last < week:
            moved = {} if last is None else self.moves_of(last)
            self.store.league_roll(last, week, moved)
        return week

    def moves_of(self, week: str) -> dict[int, int]:
        tables = {
            division: [line.account for line in self.store.league_table(week, division)]
            for division in range(1, DIVISIONS + 1)
        }
        return moves(tables)

    def record(self, points: Mapping[int, int]) -> None:
        """A rated match's points, by account id."""
        week = self.current()
        for account, gained in points.items():
            self.store.league_add(week, account, gained, DIVISIONS)

    def standing(self, account_id: int) -> Standing:
        week = self.current()
        division = self.store.league_division(account_id)
        member = division is not None
        division = division if division is not None else DIVISIONS
        lines = self.store.league_table(week, division)
        return Standing(
            week,
            division,
            member,
            lines,
            promoted(len(lines), division),
            relegated(len(lines), division),
            week_end(self.clock()),
        )
