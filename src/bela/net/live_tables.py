"""The public server's live tables in its store: saved after every action, taken up again by
a restarted server or by another worker when the one holding them died.

A live table's save is the friends' host's (``bela.net.saves.TableSave``: the match record,
the seats' names, the hashes of their tokens) inside a ``LiveSave`` that adds what the public
server knows of the table (``online_server.Meta``): public or private, rated, the seats'
accounts, the match id the archive is written under. A private table's code is kept only as
its hash (``code_hash``): a stolen save seats nobody and shows no code; the friends' join
code and the leader's key are not kept at all (the public server uses neither).

Each save is one row, ``table_saves (table_id, worker, save, updated)``: in the SQLite file
of the data directory (``SqliteLiveTables``), or in PostgreSQL (``PostgresLiveTables``,
``bela.net.live_postgres``) when the workers share one. The row names the worker that owns
the table. A write is an upsert that lands only while the row is still the writer's
(``put`` returns False otherwise): a worker taken for dead, whose tables another worker
took over (``claim``: one atomic ``UPDATE ... WHERE worker = the dead one``, so one winner),
can no longer overwrite them, and learns it lost them at its next write.

The server writes the save before any player is shown the state it holds (the table's
``hold``), so a restarted or taken-over table continues from the last action every client
saw. A save is written whole after each action (the record so far: 1.8 KB at the start, some
13 KB at the end of a match to 1001, ``benchmarks/bench_live_save.py``): simple, and at a
player's pace cheap enough (docs/server.md has the figures).
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final, Protocol

from pydantic import BaseModel, ConfigDict, Field

from bela.archive.records import match_from_record
from bela.net.saves import TableSave

if TYPE_CHECKING:
    from bela.engine import Match

__all__ = [
    "LIVE_VERSION",
    "SQLITE_SCHEMA",
    "LiveSave",
    "LiveStore",
    "SqliteLiveTables",
    "code_hash",
    "read_live",
]

LIVE_VERSION: Final = 1

_Seat = Annotated[int, Field(ge=1)] | None


class LiveSave(BaseModel):
    """A live table of the public server as its store holds it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    live_version: int
    table: TableSave
    public: bool
    rated_wanted: bool
    rated: bool
    """The match in play counts for the ratings (no bot or guest, nobody abandoned)."""
    rules: dict[str, bool | int]
    """The house rules that differ from the standard game (``Rules.changed``)."""
    people: tuple[tuple[str, _Seat], ...]
    """Seated names and their account ids (None: a guest)."""
    seat_accounts: tuple[_Seat, _Seat, _Seat, _Seat]
    abandoned_by: _Seat = None
    match_id: Annotated[str, Field(max_length=64)] = ""
    code_hash: Annotated[str, Field(pattern="^[0-9a-f]{64}$")] | None = None
    """A private table's code, hashed (``code_hash``); None for a public table."""
    seq: Annotated[int, Field(ge=0)] = 0
    """The table's state number, so a client's next state is newer than the last it saw."""
    counted: bool = False
    """The finished match's ratings are counted already (written before they move)."""


def code_hash(code: str) -> str:
    """A private table's code as the store keeps it (in its one spelling, hashed)."""
    return hashlib.sha256(code.encode()).hexdigest()


def read_live(text: str | bytes) -> tuple[LiveSave, Match]:
    """A save read back and its match replayed (``ValueError`` when it does not fit)."""
    save = LiveSave.model_validate_json(text)
    if save.live_version != LIVE_VERSION:
        raise ValueError(f"live table save version {save.live_version} is not known here")
    return save, match_from_record(save.table.record)


class LiveStore(Protocol):
    """Where a public server keeps its live tables (one row each, owned by one worker)."""

    def put(self, table_id: str, worker: str, text: str) -> bool:
        """Write the save; False (nothing written) when another worker owns the table."""
        ...

    def drop(self, table_id: str, worker: str) -> None:
        """The table is over (or ended): its save goes, if it is still ``worker``'s."""
        ...

    def owned(self, worker: str) -> list[tuple[str, str]]:
        """(table id, save) of every table ``worker`` owns."""
        ...

    def workers(self) -> set[str]:
        """Every worker that owns a live table."""
        ...

    def owner(self, table_id: str) -> str | None: ...

    def claim(self, table_id: str, dead: str, worker: str) -> str | None:
        """Take ``table_id`` over from ``dead``: its save, or None when it was not
        ``dead``'s any more (another worker won it, or it ended)."""
        ...

    def close(self) -> None: ...


SQLITE_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS table_saves (
    table_id TEXT PRIMARY KEY,
    worker TEXT NOT NULL,
    save TEXT NOT NULL,
    updated REAL NOT NULL
);
"""


class SqliteLiveTables:
    """``LiveStore`` in a SQLite file (the one-process server's ``server.sqlite3``)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SQLITE_SCHEMA)

    def close(self) -> None:
        self.db.close()

    def put(self, table_id: str, worker: str, text: str) -> bool:
        cursor = self.db.execute(
            "INSERT INTO table_saves (table_id, worker, save, updated) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (table_id) DO UPDATE SET save = excluded.save, "
            "updated = excluded.updated WHERE table_saves.worker = excluded.worker",
            (table_id, worker, text, time.time()),
        )
        return cursor.rowcount == 1

    def drop(self, table_id: str, worker: str) -> None:
        self.db.execute(
            "DELETE FROM table_saves WHERE table_id = ? AND worker = ?", (table_id, worker)
        )

    def owned(self, worker: str) -> list[tuple[str, str]]:
        rows = self.db.execute(
            "SELECT table_id, save FROM table_saves WHERE worker = ? ORDER BY table_id",
            (worker,),
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def workers(self) -> set[str]:
        return {str(row[0]) for row in self.db.execute("SELECT DISTINCT worker FROM table_saves")}

    def owner(self, table_id: str) -> str | None:
        row = self.db.execute(
            "SELECT worker FROM table_saves WHERE table_id = ?", (table_id,)
        ).fetchone()
        return str(row[0]) if row is not None else None

    def claim(self, table_id: str, dead: str, worker: str) -> str | None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            cursor = self.db.execute(
                "UPDATE table_saves SET worker = ?, updated = ? WHERE table_id = ? AND worker = ?",
                (worker, time.time(), table_id, dead),
            )
            row = (
                self.db.execute(
                    "SELECT save FROM table_saves WHERE table_id = ?", (table_id,)
                ).fetchone()
                if cursor.rowcount == 1
                else None
            )
        finally:
            self.db.execute("COMMIT")
        return str(row[0]) if row is not None else None
