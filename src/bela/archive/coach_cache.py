"""The coach's lessons, computed once per match and kept in the history database.

A lesson (``bela.lab.coach``) costs a second or two of the solver and the hard
bot per match, so it is stored beside the history's index, in a table of its own,
under the record's file name and whether the hard bot was asked. The history
rebuilds its index from the records whenever it is lost or wrong, and this table
goes with it (a cache: the lessons are simply computed again). A stored lesson of
another version is ignored, so a changed coach never reads an old one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

__all__ = ["load_lessons", "store_lessons"]

_TABLE = """CREATE TABLE IF NOT EXISTS coach_lessons (
    file TEXT NOT NULL,
    with_bot INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (file, with_bot)
)"""


def load_lessons(
    conn: sqlite3.Connection, files: Iterable[str], with_bot: bool
) -> dict[str, dict[str, Any]]:
    """The stored lessons of ``files`` (those that have one), as their JSON data."""
    conn.execute(_TABLE)
    found: dict[str, dict[str, Any]] = {}
    for file in files:
        row = conn.execute(
            "SELECT data FROM coach_lessons WHERE file = ? AND with_bot = ?", (file, int(with_bot))
        ).fetchone()
        if row is None or not isinstance(row[0], str):
            continue
        try:
            data = json.loads(row[0])
        except ValueError:  # a damaged entry is computed again
            continue
        if isinstance(data, dict):
            found[file] = data
    return found


def store_lessons(
    conn: sqlite3.Connection, lessons: Iterable[tuple[str, dict[str, Any]]], with_bot: bool
) -> None:
    """Keep ``lessons`` (file, JSON data); a failed write only costs recomputing them."""
    rows = [(file, int(with_bot), json.dumps(data)) for file, data in lessons]
    if not rows:
        return
    try:
        conn.execute(_TABLE)
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany(
                "INSERT OR REPLACE INTO coach_lessons (file, with_bot, data) VALUES (?, ?, ?)",
                rows,
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    except sqlite3.Error:
        pass  # read-only or busy: the report is still right, only slower next time
