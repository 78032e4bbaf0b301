"""The player's puzzles: every attempt, the Glicko-2 ratings, streaks and daily puzzles.

What the player did is never lost, so the attempts are kept twice:

- a journal, ``puzzle-attempts.jsonl`` beside the history database: one JSON line
  per attempt, appended and flushed to the disk before the answer is shown; it is
  the source of truth (a line that does not read is skipped, never the rest);
- the ``puzzle_attempts`` table in the history database (``history.sqlite3``), so
  that other readers of the history find them with SQL. The history's index is a
  cache that is rebuilt from the match records when damaged; this table is a copy
  of the journal and is refilled from it whenever the two differ (rows missing,
  unreadable or added by hand, or a table of another shape, which is dropped and
  made again). Only when the journal does not exist at all (deleted by hand) is it
  written again from the table's readable rows. When the journal exists but cannot
  be read, the table's rows are shown and nothing is written over either: the
  journal may come back. A database that cannot be opened or written is left alone
  (the history replaces it) and the journal alone is used; ``notice`` says so.

Journal lines are appended by ``bela.foundation.files.append_durably`` (a regular
file only, never blocking, every byte or none) and their numbers read by
``bela.foundation.numbers`` (bounded, finite, never an exception).

Each attempt holds the player's rating and the puzzle's before and after, so the
state is simply the last attempt's: the player's rating, each puzzle's local rating,
and the streaks and counts are read off the attempts. Only a puzzle's first attempt
is rated (as on chess sites): trying a missed puzzle again counts for the streak,
not for the rating.

Pure data: no rich, no Textual.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Final

from bela.archive.glicko import Rating, idle, update
from bela.archive.puzzle_pack import Pack, Puzzle
from bela.archive.table_shape import table_of_this_shape
from bela.engine import Action
from bela.foundation.files import append_durably, read_limited, replace_atomically
from bela.foundation.numbers import load_json, number_in, whole_in
from bela.foundation.untrusted import oneline

__all__ = [
    "JOURNAL_NAME",
    "PUZZLE_RD",
    "RATING_PERIOD",
    "RETRY_AFTER",
    "Attempt",
    "Outcome",
    "PuzzleStore",
    "Rating",
    "Streak",
    "ThemeStats",
    "daily_puzzle",
]

JOURNAL_NAME: Final = "puzzle-attempts.jsonl"
"""The journal's file name, beside the history database."""

PUZZLE_RD: Final = 150.0
"""A puzzle's first rating deviation: its first rating is a guess from which bots find it."""

RATING_PERIOD: Final = timedelta(days=7)
"""A rating period of Glicko-2: the player's deviation grows once for each one away."""

RETRY_AFTER: Final = 5
"""A missed puzzle comes back after this many other attempts."""

NEAR: Final = 8
"""The next puzzle is drawn from this many unsolved ones nearest the player's rating."""

_JOURNAL_LIMIT: Final = 256 * 1024 * 1024
_MAX_SECONDS: Final = 10.0**9
"""The longest time an answer may say it took (about 30 years): more is not a time."""
_TABLE: Final = """CREATE TABLE IF NOT EXISTS puzzle_attempts (
    n INTEGER PRIMARY KEY,          -- the attempt's place in the journal (0 = the first)
    puzzle TEXT NOT NULL,           -- the puzzle's id
    at TEXT NOT NULL,               -- UTC, ISO 8601
    action TEXT NOT NULL,           -- the answer given, as a record writes it
    right INTEGER NOT NULL,
    seconds REAL NOT NULL,
    daily TEXT,                     -- the date it was the daily puzzle of, else NULL
    rated INTEGER NOT NULL,
    player_before TEXT NOT NULL,    -- [rating, RD, volatility], JSON
    player_after TEXT NOT NULL,
    puzzle_before TEXT NOT NULL,
    puzzle_after TEXT NOT NULL
)"""
_COLUMNS: Final = (
    "n, puzzle, at, action, right, seconds, daily, rated, "
    "player_before, player_after, puzzle_before, puzzle_after"
)


@dataclass(frozen=True, slots=True)
class Streak:
    """Right answers in a row: now, and the most ever."""

    current: int = 0
    best: int = 0


@dataclass(frozen=True, slots=True)
class Attempt:
    """One answer to one puzzle, with the ratings before and after it."""

    puzzle: str
    at: datetime
    action: str
    right: bool
    seconds: float
    daily: date | None
    rated: bool
    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an answer did: right or not, the player's rating before and after, the puzzle's
    rating after, the streak, and whether it was rated (only a puzzle's first attempt is)."""

    right: bool
    before: Rating
    after: Rating
    puzzle_rating: float
    streak: Streak
    rated: bool
    credit: float = 1.0
    """What the answer scored: 1 right, ``GOOD_CREDIT`` for an also-good bid, 0 a miss."""


@dataclass(frozen=True, slots=True)
class ThemeStats:
    """A theme's puzzles: in the pack, tried, and solved (right at least once)."""

    puzzles: int
    tried: int
    solved: int


def daily_puzzle(pack: Pack, day: date) -> Puzzle | None:
    """The daily puzzle of ``day``: from the date and the shipped pack alone, so the same for
    everyone with the same bela (None when no pack is shipped)."""
    pool = sorted(pack.shipped, key=lambda p: p.id)
    if not pool:
        return None
    digest = hashlib.blake2b(f"bela-daily/{day.isoformat()}".encode(), digest_size=8).digest()
    return pool[int.from_bytes(digest, "big") % len(pool)]


class PuzzleStore:
    """The attempts of the history database at ``path`` (and its journal beside it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.journal = path.with_name(JOURNAL_NAME)
        self.notice: str | None = None
        """Why the database is not used (the journal alone keeps the attempts), else None."""
        self.skipped = 0
        """Journal lines that did not read (kept in the file, left out of the numbers)."""
        self._journal_size: int | None = None
        self._journal_state = "absent"
        """``read`` (the journal is the truth), ``absent`` (none yet) or ``unreadable``."""
        self._attempts: list[Attempt] = self._read_journal()
        self._conn: sqlite3.Connection | None = None
        self._open_database()

    @classmethod
    def in_data_dir(cls, data_dir: Path) -> PuzzleStore:
        """The store of the history database in ``data_dir`` (made if missing)."""
        from bela.archive.history import INDEX_NAME

        return cls(data_dir / INDEX_NAME)

    # ------------------------------------------------------------------ state

    def attempts(self) -> list[Attempt]:
        """Every attempt, oldest first."""
        return list(self._attempts)

    def player(self, now: datetime | None = None) -> Rating:
        """The player's rating ``now`` (1500 ± 350 before the first puzzle).

        Time away loosens it: each whole ``RATING_PERIOD`` since the last answer grows
        the deviation once (Glicko-2's step for a period without games, ``idle``).
        """
        if not self._attempts:
            return Rating()
        last = self._attempts[-1]
        now = (now or datetime.now(UTC)).astimezone(UTC)
        return idle(last.player_after, (now - last.at) // RATING_PERIOD)

    def puzzle_rating(self, puzzle: Puzzle) -> Rating:
        """The puzzle's local rating: its first rating until the player has tried it."""
        for attempt in reversed(self._attempts):
            if attempt.puzzle == puzzle.id:
                return attempt.puzzle_after
        return Rating(puzzle.rating, PUZZLE_RD)

    def streak(self) -> Streak:
        """Right answers in a row, now and at most."""
        current = best = 0
        for attempt in self._attempts:
            current = current + 1 if attempt.right else 0
            best = max(best, current)
        return Streak(current, best)

    def solved_count(self) -> int:
        """Puzzles answered right at least once."""
        return len({a.puzzle for a in self._attempts if a.right})

    def daily_solved(self) -> int:
        """Days whose daily puzzle the player solved."""
        return len({a.daily for a in self._attempts if a.right and a.daily is not None})

    def history(self) -> list[tuple[datetime, float]]:
        """The player's rating after each rated attempt, oldest first (for the plot)."""
        return [(a.at, a.player_after.rating) for a in self._attempts if a.rated]

    def by_theme(self, pack: Pack) -> dict[str, ThemeStats]:
        """Each theme of the pack: its puzzles, how many the player tried and solved."""
        tried = {a.puzzle for a in self._attempts}
        solved = {a.puzzle for a in self._attempts if a.right}
        out: dict[str, ThemeStats] = {}
        for theme in pack.themes():
            ids = [p.id for p in pack.puzzles if theme in p.themes]
            out[theme] = ThemeStats(
                len(ids), sum(i in tried for i in ids), sum(i in solved for i in ids)
            )
        return out

    # ------------------------------------------------------------------ choosing

    def next_puzzle(
        self,
        pack: Pack,
        theme: str | None = None,
        rng: Random | None = None,
        *,
        skip: Collection[str] = (),
        fresh_only: bool = False,
    ) -> Puzzle | None:
        """A puzzle to try next: one not solved yet, rated near the player.

        A missed puzzle comes back once ``RETRY_AFTER`` other attempts have passed
        (before any new one); otherwise one of the ``NEAR`` untried puzzles nearest the
        player's rating, at random. When every one has been tried, the missed one seen
        longest ago (the one just missed last of all: trying it again at once is still
        better than nothing). None when every puzzle (of the theme) is solved.
        ``skip``: ids not to choose (puzzles already chosen for a list, or asked in a run).
        ``fresh_only``: only a puzzle never tried (a streak or a storm, whose score would
        count a puzzle whose answer the player has already been shown); None when none is
        left.
        """
        rng = rng or Random()
        pool = [
            p for p in pack.puzzles if (theme is None or theme in p.themes) and p.id not in skip
        ]
        solved = {a.puzzle for a in self._attempts if a.right}
        last_seen: dict[str, int] = {}
        for n, attempt in enumerate(self._attempts):
            last_seen[attempt.puzzle] = n
        count = len(self._attempts)
        due = [
            p
            for p in pool
            if p.id in last_seen and p.id not in solved and count - last_seen[p.id] > RETRY_AFTER
        ]
        if due and not fresh_only:
            return min(due, key=lambda p: last_seen[p.id])
        fresh = [p for p in pool if p.id not in last_seen]
        if not fresh and fresh_only:
            return None
        if not fresh:
            waiting = [p for p in pool if p.id not in solved]
            return min(waiting, key=lambda p: last_seen[p.id]) if waiting else None
        me = self.player().rating
        fresh.sort(key=lambda p: (abs(p.rating - me), p.id))
        return rng.choice(fresh[:NEAR])

    def daily(self, pack: Pack, day: date) -> Puzzle | None:
        """The daily puzzle of ``day`` (``daily_puzzle``)."""
        return daily_puzzle(pack, day)

    # ------------------------------------------------------------------ answering

    def record(
        self,
        puzzle: Puzzle,
        action: Action,
        seconds: float,
        when: datetime | None = None,
        *,
        daily: date | None = None,
    ) -> Outcome:
        """Keep the answer ``action`` to ``puzzle`` and rate it (its first attempt only).

        Written to the journal (flushed to the disk) before it returns: an ``OSError``
        there means the answer was not kept, and the caller says so.
        """
        self._catch_up()
        when = (when or datetime.now(UTC)).astimezone(UTC)
        right = puzzle.is_right(action)
        score = puzzle.credit(action)  # an also-good bid is half a win (``bid_puzzles``)
        before = self.player(when)
        puzzle_before = self.puzzle_rating(puzzle)
        rated = all(a.puzzle != puzzle.id for a in self._attempts)
        if rated:
            after = update(before, [(puzzle_before, score)])
            puzzle_after = update(puzzle_before, [(before, 1.0 - score)])
        else:
            after, puzzle_after = before, puzzle_before
        seconds = number_in(seconds, 0, _MAX_SECONDS) or 0.0
        attempt = Attempt(
            puzzle.id,
            when,
            str(action),
            right,
            round(seconds, 3),
            daily,
            rated,
            before,
            after,
            puzzle_before,
            puzzle_after,
        )
        self._append(attempt)
        self._attempts.append(attempt)
        self._insert([(len(self._attempts) - 1, attempt)])
        return Outcome(right, before, after, puzzle_after.rating, self.streak(), rated, score)

    # ------------------------------------------------------------------ the journal

    def _catch_up(self) -> None:
        """Read the journal again if another window (the app, a second ``bela puzzles``)
        has added to it since: each answer is rated from the latest rating."""
        try:
            size = os.stat(self.journal).st_size
        except OSError:
            size = None
        if size == self._journal_size:
            return
        before = self._attempts
        self.skipped = 0
        attempts = self._read_journal()
        if self._journal_state == "unreadable":
            return  # what was shown stays: an unreadable journal is not an empty one
        self._attempts = attempts
        if attempts != before:
            self._refill()

    def _read_journal(self) -> list[Attempt]:
        self._journal_size = None
        try:
            data = read_limited(self.journal, _JOURNAL_LIMIT)
        except FileNotFoundError:
            self._journal_state = "absent"
            return []
        except OSError as exc:
            self._journal_state = "unreadable"
            self.notice = oneline(exc, 200)
            return []
        self._journal_state = "read"
        self._journal_size = len(data)
        out: list[Attempt] = []
        for line in data.decode("utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            attempt = _attempt_of(line)
            if attempt is None:
                self.skipped += 1
            else:
                out.append(attempt)
        return out

    def _append(self, attempt: Attempt) -> None:
        self.journal.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(_attempt_data(attempt), ensure_ascii=False) + "\n"
        start, written = append_durably(self.journal, line.encode("utf-8"))
        # the size read, moved on by this line; when another window appended in between
        # (the line began elsewhere), None: the next answer reads the journal again first
        known = self._journal_size or 0
        self._journal_size = start + written if start == known else None
        if self._journal_state == "absent":
            self._journal_state = "read"  # made by this answer: it is the truth from now on

    # ------------------------------------------------------------------ the database

    def _open_database(self) -> None:
        with contextlib.suppress(OSError):  # a folder that cannot be made: said below
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            conn = sqlite3.connect(os.fspath(self.path), timeout=10.0, isolation_level=None)
        except sqlite3.Error as exc:
            self.notice = oneline(exc, 200)
            return
        try:
            _table_of_this_shape(conn)
            rows = conn.execute(f"SELECT {_COLUMNS} FROM puzzle_attempts ORDER BY n").fetchall()
        except sqlite3.Error as exc:
            conn.close()
            self.notice = oneline(exc, 200)
            return
        self._conn = conn
        stored = [a for a in (_attempt_of_row(r) for r in rows) if a is not None]
        if self._journal_state == "unreadable":
            # The journal is there but cannot be read now (permissions, a FIFO put in its
            # place): show the table's copy, and write over neither.
            self._attempts = stored
        elif self._journal_state == "absent" and stored:
            # The journal was deleted by hand: the table's readable rows are all that is
            # left of the attempts, and the journal is written again from them.
            self._attempts = stored
            text = "".join(json.dumps(_attempt_data(a), ensure_ascii=False) + "\n" for a in stored)
            with contextlib.suppress(OSError):
                replace_atomically(self.journal, text, ".puzzle-attempts-")
                self._journal_size = len(text.encode("utf-8"))
                self._journal_state = "read"
        elif stored != self._attempts or len(stored) != len(rows):
            self._refill()  # rows missing, unreadable or added: the table is the journal's again

    def _refill(self) -> None:
        """Make the table the journal's attempts again (never from a journal not read)."""
        if self._conn is None or self._journal_state == "unreadable":
            return
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute("DELETE FROM puzzle_attempts")
                self._conn.executemany(
                    f"INSERT INTO puzzle_attempts ({_COLUMNS}) VALUES ({_MARKS})",
                    [_row(n, a) for n, a in enumerate(self._attempts)],
                )
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self.notice = oneline(exc, 200)

    def _insert(self, attempts: Iterable[tuple[int, Attempt]]) -> None:
        if self._conn is None:
            return
        try:
            self._conn.executemany(
                f"INSERT OR REPLACE INTO puzzle_attempts ({_COLUMNS}) VALUES ({_MARKS})",
                [_row(n, a) for n, a in attempts],
            )
        except sqlite3.Error as exc:  # the journal has it: the table is refilled next time
            self.notice = oneline(exc, 200)

    def close(self) -> None:
        """Close the database (the journal is closed after every write)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> PuzzleStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_MARKS: Final = ", ".join("?" * len(_COLUMNS.split(", ")))


def _table_of_this_shape(conn: sqlite3.Connection) -> None:
    """Make ``puzzle_attempts`` exist with this version's columns; one of another shape is
    made again, empty (the journal refills it)."""
    table_of_this_shape(conn, "puzzle_attempts", _TABLE, _COLUMNS.split(", "))


def _triple(r: Rating) -> list[float]:
    return [r.rating, r.rd, r.volatility]


def _rating_of(value: object) -> Rating | None:
    if isinstance(value, str):
        if len(value) > 200:
            return None
        try:
            value = load_json(value)
        except ValueError:
            return None
    if not isinstance(value, list) or len(value) != 3:
        return None
    rating = number_in(value[0], -10_000, 10_000)
    rd = number_in(value[1], 0, 1000)
    vol = number_in(value[2], 0, 1)
    if rating is None or rd is None or vol is None or rd == 0 or vol in (0, 1):
        return None
    return Rating(rating, rd, vol)


def _attempt_data(a: Attempt) -> dict[str, object]:
    return {
        "puzzle": a.puzzle,
        "at": a.at.isoformat(),
        "action": a.action,
        "right": a.right,
        "seconds": a.seconds,
        "daily": None if a.daily is None else a.daily.isoformat(),
        "rated": a.rated,
        "player_before": _triple(a.player_before),
        "player_after": _triple(a.player_after),
        "puzzle_before": _triple(a.puzzle_before),
        "puzzle_after": _triple(a.puzzle_after),
    }


def _row(n: int, a: Attempt) -> tuple[object, ...]:
    d = _attempt_data(a)
    return (
        n,
        a.puzzle,
        d["at"],
        a.action,
        int(a.right),
        a.seconds,
        d["daily"],
        int(a.rated),
        json.dumps(d["player_before"]),
        json.dumps(d["player_after"]),
        json.dumps(d["puzzle_before"]),
        json.dumps(d["puzzle_after"]),
    )


def _attempt_of(line: str) -> Attempt | None:
    """An attempt from a journal line, or None if it does not read."""
    try:
        data = load_json(line)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return _attempt_from(
        data.get("puzzle"),
        data.get("at"),
        data.get("action"),
        data.get("right"),
        data.get("seconds"),
        data.get("daily"),
        data.get("rated"),
        [data.get(k) for k in ("player_before", "player_after", "puzzle_before", "puzzle_after")],
    )


def _attempt_of_row(row: Sequence[object]) -> Attempt | None:
    _, puzzle, at, action, right, seconds, daily, rated, *ratings = row
    return _attempt_from(
        puzzle,
        at,
        action,
        None if whole_in(right, 0, 1) is None else right == 1,
        seconds,
        daily,
        None if whole_in(rated, 0, 1) is None else rated == 1,
        list(ratings),
    )


def _attempt_from(
    puzzle: object,
    at: object,
    action: object,
    right: object,
    seconds: object,
    daily: object,
    rated: object,
    ratings: list[object],
) -> Attempt | None:
    if not isinstance(puzzle, str) or not 0 < len(puzzle) <= 32:
        return None
    if not isinstance(action, str) or len(action) > 16:
        return None
    if right.__class__ is not bool or rated.__class__ is not bool:
        return None
    time = number_in(seconds, 0, _MAX_SECONDS)
    if time is None:
        return None
    try:
        when = datetime.fromisoformat(at) if isinstance(at, str) else None
        day = date.fromisoformat(daily) if isinstance(daily, str) else None
    except ValueError:
        return None
    if when is None or (daily is not None and day is None):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    parsed = [_rating_of(r) for r in ratings]
    if any(r is None for r in parsed):
        return None
    pb, pa, qb, qa = (r for r in parsed if r is not None)
    return Attempt(puzzle, when, action, bool(right), time, day, bool(rated), pb, pa, qb, qa)
