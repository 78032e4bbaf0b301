"""``Accounts`` on PostgreSQL, for a public server whose workers share one database.

The same contract as ``bela.net.accounts.SqliteStore`` (names unique as they read, by
their skeleton under a UNIQUE constraint; ratings and their history; bans, blocks,
reports; the archive of finished matches), on PostgreSQL through psycopg 3, so that
several ``bela server`` processes can share the accounts: every change is one statement
or one transaction, and counters move by ``x = x + 1`` in the database, never by a value
a process read earlier. A finished match is written once by its match id (a UNIQUE key):
a worker that retries, or two that both saw the end, leave one row. The whole end of a
match (the archive row, the ratings, the finished counters, the league's points and the
live save's removal) is one transaction (``end_match``).

The schema is created idempotently on connect (``CREATE ... IF NOT EXISTS``), under an
advisory lock so that workers starting together do not race on it. psycopg is imported
here only: ``bela server`` without ``--postgres`` never loads this module.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

import psycopg

from bela.archive.glicko import Rating
from bela.foundation.lookalike import skeleton
from bela.net.accounts import (
    Account,
    LeagueLine,
    MatchEnd,
    MatchLine,
    account_from_row,
    land_end,
    league_line_from_row,
    match_line_from_row,
)
from bela.net.live_postgres import SCHEMA as LIVE_SCHEMA

__all__ = ["PostgresStore"]

_SCHEMA_LOCK: Final = 3939_0001
"""The advisory lock key taken while the schema is made (any constant of our own)."""

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS accounts (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name TEXT NOT NULL,
        skeleton TEXT NOT NULL UNIQUE,
        key TEXT NOT NULL UNIQUE,
        created DOUBLE PRECISION NOT NULL,
        rating DOUBLE PRECISION NOT NULL DEFAULT 1500,
        rd DOUBLE PRECISION NOT NULL DEFAULT 350,
        volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06,
        rated INTEGER NOT NULL DEFAULT 0,
        started INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0
    )""",
    "CREATE TABLE IF NOT EXISTS bans (key TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
    """CREATE TABLE IF NOT EXISTS rating_history (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account BIGINT NOT NULL REFERENCES accounts (id),
        at DOUBLE PRECISION NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        rd DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS rating_history_account ON rating_history (account, id)",
    """CREATE TABLE IF NOT EXISTS matches (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        match_id TEXT NOT NULL UNIQUE,
        table_id TEXT NOT NULL,
        ended DOUBLE PRECISION NOT NULL,
        rated BOOLEAN NOT NULL,
        winner INTEGER,
        score0 INTEGER NOT NULL,
        score1 INTEGER NOT NULL,
        seats BIGINT[] NOT NULL,
        abandoned_by BIGINT
    )""",
    "CREATE INDEX IF NOT EXISTS matches_seats ON matches USING GIN (seats)",
    """CREATE TABLE IF NOT EXISTS counted_matches (
        match_id TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL
    )""",
    LIVE_SCHEMA,  # a match's end drops its live save in its transaction (end_match)
    """CREATE TABLE IF NOT EXISTS blocks (
        account BIGINT NOT NULL, blocked BIGINT NOT NULL, PRIMARY KEY (account, blocked)
    )""",
    """CREATE TABLE IF NOT EXISTS mutes (
        account BIGINT NOT NULL, muted BIGINT NOT NULL, PRIMARY KEY (account, muted)
    )""",
    """CREATE TABLE IF NOT EXISTS league_state (
        one INTEGER PRIMARY KEY CHECK (one = 1), week TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS league_members (
        account BIGINT PRIMARY KEY, division INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS league_points (
        week TEXT NOT NULL, account BIGINT NOT NULL, points INTEGER NOT NULL,
        played INTEGER NOT NULL, PRIMARY KEY (week, account)
    )""",
    """CREATE TABLE IF NOT EXISTS reports (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at DOUBLE PRECISION NOT NULL,
        by BIGINT NOT NULL,
        about BIGINT NOT NULL,
        text TEXT NOT NULL
    )""",
)

_ACCOUNT_COLUMNS: Final = "id, name, key, rating, rd, volatility, rated, started, finished"


class PostgresStore:
    """``Accounts`` on one PostgreSQL database (``url``: a libpq connection string)."""

    def __init__(self, url: str) -> None:
        self.db = psycopg.connect(url, autocommit=True, connect_timeout=10)
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            for statement in _SCHEMA:
                self.db.execute(statement)

    def close(self) -> None:
        self.db.close()

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.db.execute(query, params).fetchall()

    def _one(self, where: str, value: object) -> Account | None:
        rows = self._rows(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE {where} = %s", (value,))
        return account_from_row(rows[0]) if rows else None

    def by_key(self, key: str) -> Account | None:
        return self._one("key", key)

    def by_id(self, account_id: int) -> Account | None:
        return self._one("id", account_id)

    def by_name(self, name: str) -> Account | None:
        return self._one("skeleton", skeleton(name))

    def name_free(self, name: str, but: int | None = None) -> bool:
        rows = self._rows("SELECT id FROM accounts WHERE skeleton = %s", (skeleton(name),))
        return not rows or rows[0][0] == but

    def register(self, name: str, key: str) -> Account | None:
        try:
            self.db.execute(
                "INSERT INTO accounts (name, skeleton, key, created) VALUES (%s, %s, %s, %s)",
                (name, skeleton(name), key, time.time()),
            )
        except psycopg.errors.UniqueViolation:
            return None
        return self.by_key(key)

    def rename(self, account_id: int, name: str) -> Account | None:
        try:
            self.db.execute(
                "UPDATE accounts SET name = %s, skeleton = %s WHERE id = %s",
                (name, skeleton(name), account_id),
            )
        except psycopg.errors.UniqueViolation:
            return None
        return self.by_id(account_id)

    def set_rating(self, account_id: int, rating: Rating, counted: bool) -> None:
        with self.db.transaction():
            self._rate(account_id, rating, counted)

    def _rate(self, account_id: int, rating: Rating, counted: bool) -> None:
        self.db.execute(
            "UPDATE accounts SET rating = %s, rd = %s, volatility = %s, rated = rated + %s "
            "WHERE id = %s",
            (rating.rating, rating.rd, rating.volatility, int(counted), account_id),
        )
        self.db.execute(
            "INSERT INTO rating_history (account, at, rating, rd) VALUES (%s, %s, %s, %s)",
            (account_id, time.time(), rating.rating, rating.rd),
        )

    def count_started(self, ids: Sequence[int]) -> None:
        self.db.execute(
            "UPDATE accounts SET started = started + 1 WHERE id = ANY(%s)", (list(ids),)
        )

    def count_finished(self, ids: Sequence[int]) -> None:
        self._count_finished(ids)

    def _count_finished(self, ids: Sequence[int]) -> None:
        if ids:
            self.db.execute(
                "UPDATE accounts SET finished = finished + 1 WHERE id = ANY(%s)", (list(ids),)
            )

    def ban(self, key: str) -> None:
        self.db.execute(
            "INSERT INTO bans VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET at = EXCLUDED.at",
            (key, time.time()),
        )

    def banned(self, key: str) -> bool:
        return bool(self._rows("SELECT 1 FROM bans WHERE key = %s", (key,)))

    def leaders(self, limit: int) -> list[Account]:
        rows = self._rows(
            f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE rated > 0 "
            "ORDER BY rating DESC, id LIMIT %s",
            (limit,),
        )
        return [account_from_row(row) for row in rows]

    def history(self, account_id: int, limit: int) -> list[tuple[float, float]]:
        rows = self._rows(
            "SELECT at, rating FROM rating_history WHERE account = %s ORDER BY id DESC LIMIT %s",
            (account_id, limit),
        )
        return [(float(at), float(rating)) for at, rating in reversed(rows)]

    def matches_of(self, account_id: int, limit: int) -> list[MatchLine]:
        rows = self._rows(
            "SELECT ended, rated, winner, score0, score1, abandoned_by, "
            "array_position(seats, %s) - 1 FROM matches WHERE seats @> ARRAY[%s]::BIGINT[] "
            "ORDER BY id DESC LIMIT %s",
            (account_id, account_id, limit),
        )
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
        """The finished match, once: a second write with the same ``match_id`` is ignored."""
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
        cursor = self.db.execute(
            "INSERT INTO matches (match_id, table_id, ended, rated, winner, score0, score1, "
            "seats, abandoned_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (match_id) DO NOTHING",
            (
                match_id,
                table_id,
                time.time(),
                rated,
                winner,
                scores[0],
                scores[1],
                list(seats),
                abandoned_by,
            ),
        )
        return cursor.rowcount == 1

    def end_match(self, end: MatchEnd) -> bool:
        """One transaction (``MatchEnd``): of two workers ending the same match at once, the
        second waits on the first's row of ``matches`` (or ``counted_matches``) and then
        finds it there, so it changes nothing."""
        with self.db.transaction():
            return land_end(self, end)

    def _count_once(self, match_id: str) -> bool:
        cursor = self.db.execute(
            "INSERT INTO counted_matches VALUES (%s, %s) ON CONFLICT (match_id) DO NOTHING",
            (match_id, time.time()),
        )
        return cursor.rowcount == 1

    def _drop_save(self, table_id: str, worker: str) -> None:
        self.db.execute(
            "DELETE FROM table_saves WHERE table_id = %s AND worker = %s", (table_id, worker)
        )

    def block(self, account_id: int, other: int, on: bool) -> None:
        if on:
            self.db.execute(
                "INSERT INTO blocks VALUES (%s, %s) ON CONFLICT DO NOTHING", (account_id, other)
            )
        else:
            self.db.execute(
                "DELETE FROM blocks WHERE account = %s AND blocked = %s", (account_id, other)
            )

    def avoided(self, account_id: int) -> set[int]:
        rows = self._rows(
            "SELECT blocked FROM blocks WHERE account = %s "
            "UNION SELECT account FROM blocks WHERE blocked = %s",
            (account_id, account_id),
        )
        return {int(row[0]) for row in rows}

    def report(self, by: int, about: int, text: str) -> None:
        self.db.execute(
            "INSERT INTO reports (at, by, about, text) VALUES (%s, %s, %s, %s)",
            (time.time(), by, about, text),
        )

    def reports(self, limit: int) -> list[tuple[float, str, str, str]]:
        rows = self._rows(
            "SELECT r.at, a.name, b.name, r.text FROM reports AS r "
            "JOIN accounts AS a ON a.id = r.by JOIN accounts AS b ON b.id = r.about "
            "ORDER BY r.id DESC LIMIT %s",
            (limit,),
        )
        return [(float(at), str(by), str(about), str(text)) for at, by, about, text in rows]

    def mute(self, account_id: int, other: int, on: bool) -> None:
        if on:
            self.db.execute(
                "INSERT INTO mutes VALUES (%s, %s) ON CONFLICT DO NOTHING", (account_id, other)
            )
        else:
            self.db.execute(
                "DELETE FROM mutes WHERE account = %s AND muted = %s", (account_id, other)
            )

    def muted(self, account_id: int) -> set[int]:
        rows = self._rows("SELECT muted FROM mutes WHERE account = %s", (account_id,))
        return {int(row[0]) for row in rows}

    # ------------------------------------------------------------------ the weekly league

    def league_week(self) -> str | None:
        rows = self._rows("SELECT week FROM league_state WHERE one = 1")
        return str(rows[0][0]) if rows else None

    def league_roll(self, old: str | None, new: str, moves: Mapping[int, int]) -> bool:
        """One transaction: the week moves only from ``old`` (a conditional write, so of
        workers that saw the same boundary one rolls and the others see False)."""
        with self.db.transaction():
            if old is None:
                cursor = self.db.execute(
                    "INSERT INTO league_state VALUES (1, %s) ON CONFLICT DO NOTHING", (new,)
                )
            else:
                cursor = self.db.execute(
                    "UPDATE league_state SET week = %s WHERE one = 1 AND week = %s", (new, old)
                )
            if cursor.rowcount != 1:
                return False
            for account, division in moves.items():
                self.db.execute(
                    "UPDATE league_members SET division = %s WHERE account = %s",
                    (division, account),
                )
        return True

    def league_add(self, week: str, account_id: int, points: int, entry: int) -> None:
        with self.db.transaction():
            self._league_add(week, account_id, points, entry)

    def _league_add(self, week: str, account_id: int, points: int, entry: int) -> None:
        self.db.execute(
            "INSERT INTO league_members VALUES (%s, %s) ON CONFLICT DO NOTHING",
            (account_id, entry),
        )
        self.db.execute(
            "INSERT INTO league_points VALUES (%s, %s, %s, 1) ON CONFLICT (week, account) "
            "DO UPDATE SET points = league_points.points + EXCLUDED.points, "
            "played = league_points.played + 1",
            (week, account_id, points),
        )

    def league_division(self, account_id: int) -> int | None:
        rows = self._rows("SELECT division FROM league_members WHERE account = %s", (account_id,))
        return int(rows[0][0]) if rows else None

    def league_table(self, week: str, division: int) -> list[LeagueLine]:
        rows = self._rows(
            "SELECT a.id, a.name, p.points, p.played FROM league_members AS m "
            "JOIN league_points AS p ON p.account = m.account AND p.week = %s "
            "JOIN accounts AS a ON a.id = m.account WHERE m.division = %s "
            "ORDER BY p.points DESC, p.played, a.id",
            (week, division),
        )
        return [league_line_from_row(row) for row in rows]
