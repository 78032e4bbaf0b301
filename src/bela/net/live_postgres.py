"""``LiveStore`` on PostgreSQL: the live tables of workers that share one database.

The same contract as ``bela.net.live_tables.SqliteLiveTables``: a save is written only
while its row is still the writer's (an upsert with a ``WHERE`` on the owner), and a dead
worker's table is taken over by one ``UPDATE ... WHERE worker = dead RETURNING save``: when
two workers try at once, PostgreSQL's row lock lets one of them win and the other finds the
row no longer the dead worker's. psycopg is imported here only: ``bela server`` without
``--postgres`` never loads this module.
"""

from __future__ import annotations

import time
from typing import Final

import psycopg

__all__ = ["SCHEMA", "PostgresLiveTables"]

_SCHEMA_LOCK: Final = 3939_0001
"""The accounts' lock (``bela.net.store_postgres``), which makes this table too."""
SCHEMA: Final = """CREATE TABLE IF NOT EXISTS table_saves (
    table_id TEXT PRIMARY KEY,
    worker TEXT NOT NULL,
    save TEXT NOT NULL,
    updated DOUBLE PRECISION NOT NULL
)"""


class PostgresLiveTables:
    """``LiveStore`` on one PostgreSQL database (``url``: a libpq connection string)."""

    def __init__(self, url: str) -> None:
        self.db = psycopg.connect(url, autocommit=True, connect_timeout=10)
        with self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            self.db.execute(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def put(self, table_id: str, worker: str, text: str) -> bool:
        cursor = self.db.execute(
            "INSERT INTO table_saves (table_id, worker, save, updated) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (table_id) DO UPDATE SET save = excluded.save, "
            "updated = excluded.updated WHERE table_saves.worker = excluded.worker",
            (table_id, worker, text, time.time()),
        )
        return cursor.rowcount == 1

    def drop(self, table_id: str, worker: str) -> None:
        self.db.execute(
            "DELETE FROM table_saves WHERE table_id = %s AND worker = %s", (table_id, worker)
        )

    def owned(self, worker: str) -> list[tuple[str, str]]:
        rows = self.db.execute(
            "SELECT table_id, save FROM table_saves WHERE worker = %s ORDER BY table_id",
            (worker,),
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def workers(self) -> set[str]:
        rows = self.db.execute("SELECT DISTINCT worker FROM table_saves").fetchall()
        return {str(row[0]) for row in rows}

    def owner(self, table_id: str) -> str | None:
        rows = self.db.execute(
            "SELECT worker FROM table_saves WHERE table_id = %s", (table_id,)
        ).fetchall()
        return str(rows[0][0]) if rows else None

    def claim(self, table_id: str, dead: str, worker: str) -> str | None:
        rows = self.db.execute(
            "UPDATE table_saves SET worker = %s, updated = %s "
            "WHERE table_id = %s AND worker = %s RETURNING save",
            (worker, time.time(), table_id, dead),
        ).fetchall()
        return str(rows[0][0]) if rows else None
