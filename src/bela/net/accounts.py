"""The public server's accounts, ratings and table directory, behind interfaces.

``Accounts`` (names, keys, ratings, reliability, bans, finished matches) and
``TableDirectory`` (the live tables, as the operator's ``bela server admin list``
and, later, other workers read them) are protocols; ``SqliteStore`` implements
both on one SQLite file in the server's data directory (the standard library's
``sqlite3``, WAL, written only by the server's one event loop: one writer). A
store on PostgreSQL and a directory on Redis, for many workers, would implement the
same protocols: ``bela.net.store_postgres.PostgresStore`` and
``bela.net.store_redis.RedisDirectory`` (docs/server.md).

Names are unique as they *read*: the store keeps each name's skeleton
(``bela.foundation.lookalike.skeleton``: case, accents, Cyrillic look-alikes and
invisible characters folded away) under a UNIQUE constraint, so "Аna" (Cyrillic А)
cannot be registered beside "Ana", nor can a rename take it.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar, runtime_checkable

from bela.archive.glicko import Rating
from bela.foundation.lookalike import skeleton
from bela.net.live_tables import SQLITE_SCHEMA as LIVE_SCHEMA
from bela.net.team_ratings import PROVISIONAL_MATCHES

__all__ = [
    "DB_FILE",
    "Account",
    "Accounts",
    "EndSteps",
    "LeagueLine",
    "MatchEnd",
    "MatchLine",
    "Presence",
    "SqliteStore",
    "TableDirectory",
    "TableEntry",
    "account_from_row",
    "clean_name",
    "land_end",
    "league_line_from_row",
    "match_line_from_row",
]

_T = TypeVar("_T")

DB_FILE: Final = "server.sqlite3"
NAME_LIMIT: Final = 24

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    skeleton TEXT NOT NULL UNIQUE,
    key TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    rating REAL NOT NULL DEFAULT 1500,
    rd REAL NOT NULL DEFAULT 350,
    volatility REAL NOT NULL DEFAULT 0.06,
    rated INTEGER NOT NULL DEFAULT 0,
    started INTEGER NOT NULL DEFAULT 0,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS bans (key TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rating_history (
    account INTEGER NOT NULL, at REAL NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    table_id TEXT NOT NULL,
    ended REAL NOT NULL,
    rated INTEGER NOT NULL,
    winner INTEGER,
    score0 INTEGER NOT NULL,
    score1 INTEGER NOT NULL,
    seats TEXT NOT NULL,
    abandoned_by INTEGER,
    match_id TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS matches_match_id ON matches (match_id);
CREATE TABLE IF NOT EXISTS counted_matches (match_id TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS blocks (
    account INTEGER NOT NULL, blocked INTEGER NOT NULL, PRIMARY KEY (account, blocked)
);
CREATE TABLE IF NOT EXISTS mutes (
    account INTEGER NOT NULL, muted INTEGER NOT NULL, PRIMARY KEY (account, muted)
);
CREATE TABLE IF NOT EXISTS league_state (one INTEGER PRIMARY KEY CHECK (one = 1), week TEXT);
CREATE TABLE IF NOT EXISTS league_members (
    account INTEGER PRIMARY KEY, division INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS league_points (
    week TEXT NOT NULL, account INTEGER NOT NULL, points INTEGER NOT NULL,
    played INTEGER NOT NULL, PRIMARY KEY (week, account)
);
CREATE TABLE IF NOT EXISTS reports (
    at REAL NOT NULL, by INTEGER NOT NULL, about INTEGER NOT NULL, text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS live_tables (
    id TEXT PRIMARY KEY,
    public INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    target INTEGER NOT NULL,
    started INTEGER NOT NULL,
    seats TEXT NOT NULL,
    watchers INTEGER NOT NULL,
    updated REAL NOT NULL
);
"""


def clean_name(text: str) -> str:
    """A name as kept: printable characters only, trimmed, at most ``NAME_LIMIT`` long
    ("" when nothing readable is left)."""
    kept = "".join(ch if ch.isprintable() else " " for ch in text)
    return " ".join(kept.split())[:NAME_LIMIT]


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    key: str
    """The public key (``bela.net.identity.key_id``)."""
    rating: Rating
    rated: int
    """Rated matches played."""
    started: int
    finished: int

    @property
    def provisional(self) -> bool:
        return self.rated < PROVISIONAL_MATCHES

    @property
    def reliability(self) -> float | None:
        """The share of started rated matches the player finished (None: none started)."""
        return self.finished / self.started if self.started else None

    def reliability_while_playing(self, in_rated_match: bool) -> float | None:
        """The reliability beside a seat: a rated match in play was counted as started when
        it began and is neither finished nor left yet, so it is left out (a new player in
        their first match showed 0%, as if they had left it; found in the issue #39
        acceptance run)."""
        if not in_rated_match:
            return self.reliability
        decided = self.started - 1
        return self.finished / decided if decided > 0 else None


@dataclass(frozen=True, slots=True)
class MatchLine:
    """A finished match as a player's page shows it, from that player's side."""

    ended: float
    rated: bool
    won: bool | None
    scores: tuple[int, int]
    """Their pair's score first."""
    left: bool
    """They abandoned it (a loss for them)."""


@dataclass(frozen=True, slots=True)
class LeagueLine:
    """A player's week in their division of the weekly league (``bela.net.league``)."""

    account: int
    name: str
    points: int
    played: int


def league_line_from_row(row: Sequence[Any]) -> LeagueLine:
    """A league line from a row of (account, name, points, played) (either store's)."""
    account, name, points, played = row
    return LeagueLine(int(account), str(name), int(points), int(played))


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A live table as the directory lists it: nothing secret (no code, no hand)."""

    id: str
    public: bool
    rated: bool
    target: int
    started: bool
    seats: tuple[str | None, ...]
    watchers: int


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """Everything a match's end changes in the store, written at once (``end_match``).

    Two parts, each landing once: the **archive** row (``archive``: written once by
    ``match_id``), and the **count** (the new ``ratings``, one more finished match for
    ``finished``, the weekly league's ``points`` of ``week``), counted once by ``match_id``
    too, whether by the end or by an abandonment before it (``counted_matches``). With the
    archive row goes the table's live save (``save_of``: the worker whose save of
    ``table_id`` it is; None keeps it), so a match is never archived and still taken up."""

    match_id: str
    table_id: str
    archive: bool
    """Write the archive row (False: an abandonment, which only counts)."""
    rated: bool
    winner: int | None
    scores: tuple[int, int]
    seats: tuple[int | None, ...]
    abandoned_by: int | None
    ratings: tuple[tuple[int, Rating], ...] = ()
    finished: tuple[int, ...] = ()
    week: str = ""
    points: tuple[tuple[int, int], ...] = ()
    entry: int = 1
    """The league's division a newcomer joins (``bela.net.league.DIVISIONS``)."""
    save_of: str | None = None

    @property
    def counts(self) -> bool:
        return bool(self.ratings or self.finished or self.points)


class EndSteps(Protocol):
    """The statements of a match's end, each store in its own SQL (``land_end``)."""

    def _archive(
        self,
        table_id: str,
        rated: bool,
        winner: int | None,
        scores: tuple[int, int],
        seats: Sequence[int | None],
        abandoned_by: int | None,
        match_id: str,
    ) -> bool: ...

    def _count_once(self, match_id: str) -> bool:
        """``match_id`` marked counted (``counted_matches``); False: it was already."""
        ...

    def _rate(self, account_id: int, rating: Rating, counted: bool) -> None: ...

    def _count_finished(self, ids: Sequence[int]) -> None: ...

    def _league_add(self, week: str, account_id: int, points: int, entry: int) -> None: ...

    def _drop_save(self, table_id: str, worker: str) -> None: ...


def land_end(store: EndSteps, end: MatchEnd) -> bool:
    """What a match's end writes (``MatchEnd``), inside the store's one transaction: the
    archive row once by the match id, the count (ratings, finished, league) once by it,
    and the live save with the archive row. One sequence for both stores, so SQLite and
    PostgreSQL cannot come to land different parts. True when anything landed."""
    archived = end.archive and store._archive(
        end.table_id,
        end.rated,
        end.winner,
        end.scores,
        end.seats,
        end.abandoned_by,
        end.match_id,
    )
    counted = end.counts and store._count_once(end.match_id)
    if counted:
        for account_id, rating in end.ratings:
            store._rate(account_id, rating, True)
        store._count_finished(end.finished)
        for account_id, points in end.points:
            store._league_add(end.week, account_id, points, end.entry)
    if archived and end.save_of is not None:
        store._drop_save(end.table_id, end.save_of)
    return archived or counted


class Accounts(Protocol):
    def by_key(self, key: str) -> Account | None: ...
    def by_id(self, account_id: int) -> Account | None: ...
    def name_free(self, name: str, but: int | None = None) -> bool: ...
    def register(self, name: str, key: str) -> Account | None:
        """The new account, or None when the name (or a look-alike) is taken."""
        ...

    def rename(self, account_id: int, name: str) -> Account | None: ...
    def set_rating(self, account_id: int, rating: Rating, counted: bool) -> None: ...
    def count_started(self, ids: Sequence[int]) -> None: ...
    def count_finished(self, ids: Sequence[int]) -> None: ...
    def ban(self, key: str) -> None: ...
    def banned(self, key: str) -> bool: ...
    def leaders(self, limit: int) -> list[Account]: ...
    def by_name(self, name: str) -> Account | None:
        """The account whose name reads as ``name`` (``skeleton``), if any."""
        ...

    def history(self, account_id: int, limit: int) -> list[tuple[float, float]]:
        """(when, rating) after each of the newest ``limit`` rated results, oldest first."""
        ...

    def matches_of(self, account_id: int, limit: int) -> list[MatchLine]:
        """The newest ``limit`` finished matches the account sat at, newest first."""
        ...

    def record_match(
        self,
        table_id: str,
        rated: bool,
        winner: int | None,
        scores: tuple[int, int],
        seats: Sequence[int | None],
        abandoned_by: int | None,
        match_id: str | None = None,
    ) -> None:
        """The finished match, written once by ``match_id`` (a second write of the same id
        is ignored; None: a fresh id)."""
        ...

    def end_match(self, end: MatchEnd) -> bool:
        """All of ``end`` in one transaction, or nothing of it (an error rolls it back);
        each of its parts lands once by its match id, so a retry, or a second worker ending
        the same match, changes nothing. True when anything landed."""
        ...

    def close(self) -> None: ...
    def block(self, account_id: int, other: int, on: bool) -> None:
        """``account_id`` blocks ``other`` (never seated together again), or no longer."""
        ...

    def avoided(self, account_id: int) -> set[int]:
        """Whom ``account_id`` is never seated with: those they blocked and those who
        blocked them."""
        ...

    def report(self, by: int, about: int, text: str) -> None:
        """``by``'s report about ``about``, kept for the operator."""
        ...

    def reports(self, limit: int) -> list[tuple[float, str, str, str]]:
        """The newest reports: (when, by whom, about whom, what they said), newest first."""
        ...

    def mute(self, account_id: int, other: int, on: bool) -> None:
        """``account_id`` no longer hears ``other``'s table talk (``on``), or hears it again."""
        ...

    def muted(self, account_id: int) -> set[int]:
        """Whom ``account_id`` has muted."""
        ...

    def league_week(self) -> str | None:
        """The ISO week (``2026-W49``) the league's divisions are for now (None: never set)."""
        ...

    def league_roll(self, old: str | None, new: str, moves: Mapping[int, int]) -> bool:
        """At the week's boundary, at once: when the league's week is still ``old``, make it
        ``new`` and move each account of ``moves`` to its division. False (and nothing
        changed) when another process rolled the week already."""
        ...

    def league_add(self, week: str, account_id: int, points: int, entry: int) -> None:
        """One more rated match of ``week`` for the account, with its points; a newcomer to
        the league joins division ``entry``."""
        ...

    def league_division(self, account_id: int) -> int | None:
        """The account's division (None: not in the league yet)."""
        ...

    def league_table(self, week: str, division: int) -> list[LeagueLine]:
        """The members of ``division`` who played in ``week``: most points first (then
        fewer matches, then the older account)."""
        ...


class TableDirectory(Protocol):
    def put(self, entry: TableEntry) -> None: ...
    def remove(self, table_id: str) -> None: ...
    def entries(self) -> list[TableEntry]: ...
    def clear(self) -> None:
        """Forget the tables this process lists (at its start and its end)."""
        ...

    def close(self) -> None: ...


@runtime_checkable
class Presence(Protocol):
    """What a directory shared by several workers also keeps (``RedisDirectory``): who is
    online at which worker, and that this worker is alive. One process needs neither."""

    def set_online(self, account_id: int, on: bool) -> None: ...
    def heartbeat(self) -> None: ...


_ACCOUNT_COLUMNS: Final = "id, name, key, rating, rd, volatility, rated, started, finished"


def account_from_row(row: Sequence[object]) -> Account:
    """An account from a row of ``_ACCOUNT_COLUMNS`` (either store's)."""
    ident, name, key, rating, rd, vol, rated, started, finished = row
    assert isinstance(ident, int) and isinstance(name, str) and isinstance(key, str)
    assert isinstance(rating, float | int) and isinstance(rd, float | int)
    assert isinstance(vol, float | int)
    assert isinstance(rated, int) and isinstance(started, int) and isinstance(finished, int)
    return Account(
        ident, name, key, Rating(float(rating), float(rd), float(vol)), rated, started, finished
    )


def match_line_from_row(row: Sequence[Any], account_id: int) -> MatchLine:
    """A finished match from ``account_id``'s side, from a row of (ended, rated, winner,
    score0, score1, abandoned_by, the account's seat) (either store's)."""
    ended, rated, winner, score0, score1, abandoned_by, seat = row
    team = int(seat) % 2
    scores = (int(score0), int(score1)) if team == 0 else (int(score1), int(score0))
    left = abandoned_by == account_id
    won = None if winner is None else (int(winner) == team and not left)
    return MatchLine(float(ended), bool(rated), won, scores, left)


class SqliteStore:
    """``Accounts`` and ``TableDirectory`` on one SQLite file (WAL, one writer)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(matches)")}
        if columns and "match_id" not in columns:  # a database from before match ids
            self.db.execute("ALTER TABLE matches ADD COLUMN match_id TEXT")
        self.db.executescript(_SCHEMA)
        self.db.executescript(LIVE_SCHEMA)  # a match's end drops its live save (end_match)

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ accounts

    def _one(self, where: str, value: object) -> Account | None:
        row = self.db.execute(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE {where} = ?", (value,)
        ).fetchone()
        return account_from_row(row) if row is not None else None

    def by_key(self, key: str) -> Account | None:
        return self._one("key", key)

    def by_id(self, account_id: int) -> Account | None:
        return self._one("id", account_id)

    def name_free(self, name: str, but: int | None = None) -> bool:
        row = self.db.execute(
            "SELECT id FROM accounts WHERE skeleton = ?", (skeleton(name),)
        ).fetchone()
        return row is None or row[0] == but

    def register(self, name: str, key: str) -> Account | None:
        try:
            self.db.execute(
                "INSERT INTO accounts (name, skeleton, key, created) VALUES (?, ?, ?, ?)",
                (name, skeleton(name), key, time.time()),
            )
        except sqlite3.IntegrityError:
            return None
        return self.by_key(key)

    def rename(self, account_id: int, name: str) -> Account | None:
        try:
            self.db.execute(
                "UPDATE accounts SET name = ?, skeleton = ? WHERE id = ?",
                (name, skeleton(name), account_id),
            )
        except sqlite3.IntegrityError:
            return None
        return self.by_id(account_id)

    def _at_once(self, work: Callable[[], _T]) -> _T:
        """``work`` in one transaction: committed whole, or rolled back when it raises."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            done = work()
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:  # a failed COMMIT leaves it open
                self.db.execute("ROLLBACK")
            raise
        return done

    def set_rating(self, account_id: int, rating: Rating, counted: bool) -> None:
        self._at_once(lambda: self._rate(account_id, rating, counted))

    def _rate(self, account_id: int, rating: Rating, counted: bool) -> None:
        self.db.execute(
            "UPDATE accounts SET rating = ?, rd = ?, volatility = ?, rated = rated + ? "
            "WHERE id = ?",
            (rating.rating, rating.rd, rating.volatility, int(counted), account_id),
        )
        self.db.execute(
            "INSERT INTO rating_history VALUES (?, ?, ?, ?)",
            (account_id, time.time(), rating.rating, rating.rd),
        )

    def count_started(self, ids: Sequence[int]) -> None:
        self.db.executemany(
            "UPDATE accounts SET started = started + 1 WHERE id = ?", [(i,) for i in ids]
        )

    def count_finished(self, ids: Sequence[int]) -> None:
        self._at_once(lambda: self._count_finished(ids))

    def _count_finished(self, ids: Sequence[int]) -> None:
        for account_id in ids:
            self.db.execute(
                "UPDATE accounts SET finished = finished + 1 WHERE id = ?", (account_id,)
            )

    def ban(self, key: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO bans VALUES (?, ?)", (key, time.time()))

    def banned(self, key: str) -> bool:
        return self.db.execute("SELECT 1 FROM bans WHERE key = ?", (key,)).fetchone() is not None

    def leaders(self, limit: int) -> list[Account]:
        rows = self.db.execute(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE rated > 0 "
            "ORDER BY rating DESC, id LIMIT ?",
            (limit,),
        ).fetchall()
        return [account_from_row(row) for row in rows]

    def by_name(self, name: str) -> Account | None:
        return self._one("skeleton", skeleton(name))

    def history(self, account_id: int, limit: int) -> list[tuple[float, float]]:
        rows = self.db.execute(
            "SELECT at, rating FROM rating_history WHERE account = ? ORDER BY rowid DESC LIMIT ?",
            (account_id, limit),
        ).fetchall()
        return [(float(at), float(rating)) for at, rating in reversed(rows)]

    def matches_of(self, account_id: int, limit: int) -> list[MatchLine]:
        rows = self.db.execute(
            "SELECT m.ended, m.rated, m.winner, m.score0, m.score1, m.abandoned_by, s.key "
            "FROM matches AS m, json_each(m.seats) AS s WHERE s.value = ? "
            "ORDER BY m.id DESC LIMIT ?",
            (account_id, limit),
        ).fetchall()
        return [match_line_from_row(row, account_id) for row in rows]

    def record_match(
        self,
        table_id: str,
        rated: bool,
        winner: int | None,
        scores: tuple[int, int],
        seats: Sequence[int | None],
        abandoned_by: int | None,
        match_id: str | None = None,
    ) -> None:
        self._archive(
            table_id, rated, winner, scores, seats, abandoned_by, match_id or secrets.token_hex(16)
        )

    def _archive(
        self,
        table_id: str,
        rated: bool,
        winner: int | None,
        scores: tuple[int, int],
        seats: Sequence[int | None],
        abandoned_by: int | None,
        match_id: str,
    ) -> bool:
        """The archive row; False when the match id has one already."""
        cursor = self.db.execute(
            "INSERT INTO matches (table_id, ended, rated, winner, score0, score1, "
            "seats, abandoned_by, match_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (match_id) DO NOTHING",
            (
                table_id,
                time.time(),
                int(rated),
                winner,
                scores[0],
                scores[1],
                json.dumps(list(seats)),
                abandoned_by,
                match_id,
            ),
        )
        return cursor.rowcount == 1

    def end_match(self, end: MatchEnd) -> bool:
        return self._at_once(lambda: land_end(self, end))

    def _count_once(self, match_id: str) -> bool:
        cursor = self.db.execute(
            "INSERT INTO counted_matches VALUES (?, ?) ON CONFLICT (match_id) DO NOTHING",
            (match_id, time.time()),
        )
        return cursor.rowcount == 1

    def _drop_save(self, table_id: str, worker: str) -> None:
        self.db.execute(
            "DELETE FROM table_saves WHERE table_id = ? AND worker = ?", (table_id, worker)
        )

    def block(self, account_id: int, other: int, on: bool) -> None:
        if on:
            self.db.execute("INSERT OR IGNORE INTO blocks VALUES (?, ?)", (account_id, other))
        else:
            self.db.execute(
                "DELETE FROM blocks WHERE account = ? AND blocked = ?", (account_id, other)
            )

    def avoided(self, account_id: int) -> set[int]:
        rows = self.db.execute(
            "SELECT blocked FROM blocks WHERE account = ? "
            "UNION SELECT account FROM blocks WHERE blocked = ?",
            (account_id, account_id),
        ).fetchall()
        return {int(row[0]) for row in rows}

    def report(self, by: int, about: int, text: str) -> None:
        self.db.execute("INSERT INTO reports VALUES (?, ?, ?, ?)", (time.time(), by, about, text))

    def reports(self, limit: int) -> list[tuple[float, str, str, str]]:
        rows = self.db.execute(
            "SELECT r.at, a.name, b.name, r.text FROM reports AS r "
            "JOIN accounts AS a ON a.id = r.by JOIN accounts AS b ON b.id = r.about "
            "ORDER BY r.rowid DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [(float(at), str(by), str(about), str(text)) for at, by, about, text in rows]

    def mute(self, account_id: int, other: int, on: bool) -> None:
        if on:
            self.db.execute("INSERT OR IGNORE INTO mutes VALUES (?, ?)", (account_id, other))
        else:
            self.db.execute(
                "DELETE FROM mutes WHERE account = ? AND muted = ?", (account_id, other)
            )

    def muted(self, account_id: int) -> set[int]:
        rows = self.db.execute(
            "SELECT muted FROM mutes WHERE account = ?", (account_id,)
        ).fetchall()
        return {int(row[0]) for row in rows}

    # ------------------------------------------------------------------ the weekly league

    def league_week(self) -> str | None:
        row = self.db.execute("SELECT week FROM league_state WHERE one = 1").fetchone()
        return None if row is None else str(row[0])

    def league_roll(self, old: str | None, new: str, moves: Mapping[int, int]) -> bool:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if old is None:
                changed = self.db.execute(
                    "INSERT OR IGNORE INTO league_state VALUES (1, ?)", (new,)
                ).rowcount
            else:
                changed = self.db.execute(
                    "UPDATE league_state SET week = ? WHERE one = 1 AND week = ?", (new, old)
                ).rowcount
            if changed == 1:
                self.db.executemany(
                    "UPDATE league_members SET division = ? WHERE account = ?",
                    [(division, account) for account, division in moves.items()],
                )
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        return changed == 1

    def league_add(self, week: str, account_id: int, points: int, entry: int) -> None:
        self._at_once(lambda: self._league_add(week, account_id, points, entry))

    def _league_add(self, week: str, account_id: int, points: int, entry: int) -> None:
        self.db.execute("INSERT OR IGNORE INTO league_members VALUES (?, ?)", (account_id, entry))
        self.db.execute(
            "INSERT INTO league_points VALUES (?, ?, ?, 1) ON CONFLICT (week, account) "
            "DO UPDATE SET points = points + excluded.points, played = played + 1",
            (week, account_id, points),
        )

    def league_division(self, account_id: int) -> int | None:
        row = self.db.execute(
            "SELECT division FROM league_members WHERE account = ?", (account_id,)
        ).fetchone()
        return None if row is None else int(row[0])

    def league_table(self, week: str, division: int) -> list[LeagueLine]:
        rows = self.db.execute(
            "SELECT a.id, a.name, p.points, p.played FROM league_members AS m "
            "JOIN league_points AS p ON p.account = m.account AND p.week = ? "
            "JOIN accounts AS a ON a.id = m.account WHERE m.division = ? "
            "ORDER BY p.points DESC, p.played, a.id",
            (week, division),
        ).fetchall()
        return [league_line_from_row(row) for row in rows]

    # ------------------------------------------------------------------ the table directory

    def put(self, entry: TableEntry) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO live_tables VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entry.id,
                int(entry.public),
                int(entry.rated),
                entry.target,
                int(entry.started),
                json.dumps(list(entry.seats)),
                entry.watchers,
                time.time(),
            ),
        )

    def remove(self, table_id: str) -> None:
        self.db.execute("DELETE FROM live_tables WHERE id = ?", (table_id,))

    def entries(self) -> list[TableEntry]:
        rows = self.db.execute(
            "SELECT id, public, rated, target, started, seats, watchers FROM live_tables "
            "ORDER BY updated"
        ).fetchall()
        out = []
        for ident, public, rated, target, started, seats, watchers in rows:
            names = json.loads(seats)
            out.append(
                TableEntry(
                    str(ident),
                    bool(public),
                    bool(rated),
                    int(target),
                    bool(started),
                    tuple(n if isinstance(n, str) else None for n in names),
                    int(watchers),
                )
            )
        return out

    def clear(self) -> None:
        self.db.execute("DELETE FROM live_tables")
