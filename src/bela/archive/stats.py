"""Statistics of the matches played, from the history index (``bela.archive.history``).

Counted from the human's side: seat 0 is "you", team 0 ("mi") is you and your
partner, team 1 ("vi") the opponents. A match played on the network is indexed
from the seat its player sat in (``MatchRecord.me``), so it counts the same way.
Everything is computed by SQL over the index, so the numbers for a thousand
matches come in milliseconds; damaged records count only as damaged (none of
their numbers is believed), and only finished rounds count (the round in
progress of an unfinished match does not).

Series for plots (the score race of one match, the results over time) are
plain lists of small dataclasses. Pure data: no rich, no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bela.archive.history import History, Outcome

__all__ = [
    "CallRecord",
    "DifficultyRecord",
    "RacePoint",
    "ResultPoint",
    "Statistics",
    "results_over_time",
    "score_race",
    "statistics",
]

Pair = tuple[int, int]


@dataclass(frozen=True, slots=True)
class CallRecord:
    """How often someone named trump and how often they made it (the rest fell: pad)."""

    called: int
    made: int

    @property
    def fell(self) -> int:
        return self.called - self.made

    @property
    def made_rate(self) -> float | None:
        return None if not self.called else self.made / self.called

    @property
    def pad_rate(self) -> float | None:
        """The share of calls that fell (pad, ties included); None before any call."""
        return None if not self.called else self.fell / self.called


@dataclass(frozen=True, slots=True)
class DifficultyRecord:
    """Matches at one difficulty (the level of the computer players)."""

    difficulty: str
    played: int
    won: int
    lost: int
    unfinished: int

    @property
    def win_rate(self) -> float | None:
        """Won out of the finished ones; None before any finished match."""
        finished = self.won + self.lost
        return None if not finished else self.won / finished


@dataclass(frozen=True, slots=True)
class Statistics:
    """What the history adds up to. Pairs are (mi, vi).

    ``rounds`` are finished rounds, redeals included (``redeals`` of them: all
    four passed, nothing written); ``average_written`` is per round played,
    redeals left out.
    """

    matches: int
    won: int
    lost: int
    unfinished: int
    damaged: int
    by_difficulty: tuple[DifficultyRecord, ...]
    rounds: int
    redeals: int
    you: CallRecord
    mi: CallRecord
    vi: CallRecord
    stiglja: Pair
    written: Pair
    zvanja_rounds: Pair
    zvanja_points: Pair
    bela: Pair
    belot: Pair
    seats: tuple[int, ...] = (0,)
    """The seats (0-3) "you" sat in over these matches: 0 against the bots, the seat chosen
    at a network table (``MatchRecord.me``); the counts are from each match's own seat."""

    @property
    def played(self) -> int:
        """Matches that can be counted: all but the damaged ones."""
        return self.won + self.lost + self.unfinished

    @property
    def win_rate(self) -> float | None:
        finished = self.won + self.lost
        return None if not finished else self.won / finished

    @property
    def played_rounds(self) -> int:
        return self.rounds - self.redeals

    @property
    def average_written(self) -> tuple[float, float] | None:
        """Points written per round played, (mi, vi); None before any."""
        if not self.played_rounds:
            return None
        return self.written[0] / self.played_rounds, self.written[1] / self.played_rounds


_ROUND_SUMS = """
SELECT COUNT(*),
       TOTAL(r.redeal),
       TOTAL(r.caller = 0), TOTAL(r.caller = 0 AND NOT r.fell),
       TOTAL(r.caller IN (0, 2)), TOTAL(r.caller IN (0, 2) AND NOT r.fell),
       TOTAL(r.caller IN (1, 3)), TOTAL(r.caller IN (1, 3) AND NOT r.fell),
       TOTAL(r.stiglja = 0), TOTAL(r.stiglja = 1),
       TOTAL(r.written_mi), TOTAL(r.written_vi),
       TOTAL(r.zvanja_mi > 0), TOTAL(r.zvanja_vi > 0),
       TOTAL(r.zvanja_mi), TOTAL(r.zvanja_vi),
       TOTAL(r.bela_mi > 0), TOTAL(r.bela_vi > 0),
       TOTAL(r.belot = 0), TOTAL(r.belot = 1)
FROM rounds AS r JOIN matches AS m ON m.file = r.file
WHERE m.outcome != 'damaged'
"""


def statistics(history: History, difficulty: str | None = None) -> Statistics:
    """The statistics of every indexed match, or of those at ``difficulty``."""
    conn = history.connection
    only = "" if difficulty is None else " AND m.difficulty = ?"
    args: tuple[str, ...] = () if difficulty is None else (difficulty,)
    outcomes: dict[str, dict[str, int]] = {}
    for level, outcome, count in conn.execute(
        "SELECT COALESCE(m.difficulty, ''), m.outcome, COUNT(*) FROM matches AS m "
        f"WHERE 1{only} GROUP BY 1, 2",
        args,
    ):
        outcomes.setdefault(str(level), {})[str(outcome)] = int(count)
    row = conn.execute(_ROUND_SUMS + only, args).fetchone()
    seats = tuple(
        int(seat)
        for (seat,) in conn.execute(
            "SELECT DISTINCT COALESCE(m.me, 0) FROM matches AS m "
            f"WHERE m.outcome != 'damaged'{only} ORDER BY 1",
            args,
        )
    )
    n = [int(value) for value in row]

    def total(outcome: Outcome) -> int:
        return sum(counts.get(outcome.value, 0) for counts in outcomes.values())

    levels = tuple(
        DifficultyRecord(
            difficulty=level,
            played=sum(counts.get(o.value, 0) for o in Outcome if o is not Outcome.DAMAGED),
            won=counts.get(Outcome.WON.value, 0),
            lost=counts.get(Outcome.LOST.value, 0),
            unfinished=counts.get(Outcome.UNFINISHED.value, 0),
        )
        for level, counts in sorted(outcomes.items())
        if level  # damaged records have no difficulty worth believing
    )
    return Statistics(
        matches=sum(sum(counts.values()) for counts in outcomes.values()),
        won=total(Outcome.WON),
        lost=total(Outcome.LOST),
        unfinished=total(Outcome.UNFINISHED),
        damaged=total(Outcome.DAMAGED),
        by_difficulty=levels,
        seats=seats or (0,),
        rounds=n[0],
        redeals=n[1],
        you=CallRecord(n[2], n[3]),
        mi=CallRecord(n[4], n[5]),
        vi=CallRecord(n[6], n[7]),
        stiglja=(n[8], n[9]),
        written=(n[10], n[11]),
        zvanja_rounds=(n[12], n[13]),
        zvanja_points=(n[14], n[15]),
        bela=(n[16], n[17]),
        belot=(n[18], n[19]),
    )


# ---------------------------------------------------------------------- series


@dataclass(frozen=True, slots=True)
class RacePoint:
    """Both columns of a match's score sheet after ``round`` rounds (0: before the first)."""

    round: int
    mi: int
    vi: int


def score_race(history: History, file: str) -> list[RacePoint]:
    """The score race of record ``file``: the summed columns round by round, from 0 : 0."""
    points = [RacePoint(0, 0, 0)]
    for number, row in enumerate(history.rounds(file), start=1):
        points.append(RacePoint(number, row.sums[0], row.sums[1]))
    return points


@dataclass(frozen=True, slots=True)
class ResultPoint:
    """One finished match in time order, with the running tally up to and with it."""

    played_at: datetime
    file: str
    difficulty: str
    won: bool
    margin: int
    """Your team's final score minus the opponents' (negative for a loss)."""
    won_so_far: int
    finished_so_far: int

    @property
    def win_rate_so_far(self) -> float:
        return self.won_so_far / self.finished_so_far


def results_over_time(history: History, difficulty: str | None = None) -> list[ResultPoint]:
    """Every finished match, oldest first, with the running number won (for plots)."""
    rows = [
        row
        for row in reversed(history.matches(difficulty=difficulty))
        if row.outcome in (Outcome.WON, Outcome.LOST)
    ]
    series: list[ResultPoint] = []
    won = 0
    for count, row in enumerate(rows, start=1):
        assert row.scores is not None and row.difficulty is not None
        won += row.outcome is Outcome.WON
        series.append(
            ResultPoint(
                played_at=row.played_at,
                file=row.file,
                difficulty=row.difficulty,
                won=row.outcome is Outcome.WON,
                margin=row.scores[0] - row.scores[1],
                won_so_far=won,
                finished_so_far=count,
            )
        )
    return series
