"""The coach's lessons, computed once per match and kept in the history database.

A lesson (``bela.lab.coach``) costs a second or two of the solver and the hard
bot per match, so it is stored beside the history's index, in a table of its own,
under the record's file name and whether the hard bot was asked. The history
rebuilds its index from the records whenever it is lost or wrong, and this table
goes with it (a cache: the lessons are simply computed again). A stored lesson of
another version is ignored, so a changed coach never reads an old one.

The table is a file anyone can edit, so it is read as the index is: a table of
another shape (a column dropped or renamed) is dropped and made again, empty; an
entry that is not JSON (``bela.foundation.numbers.load_json``: no NaN, no number
beyond a double, no nesting deeper than the parser goes) is left out, and the
caller checks every value of the rest (``Lesson.from_json``) before believing it.
Nothing here raises ``sqlite3.Error``: a cache that cannot be read is an empty one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any, Final

from bela.archive.table_shape import table_of_this_shape
from bela.foundation.numbers import load_json

__all__ = ["load_lessons", "store_lessons"]

_TABLE: Final = """CREATE TABLE IF NOT EXISTS coach_lessons (
    file TEXT NOT NULL,
    with_bot INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (file, with_bot)
)"""
_COLUMNS: Final = ["file", "with_bot", "data"]
_DATA_LIMIT: Final = 4 * 1024 * 1024
"""A lesson is a few KB; an entry longer than this is not one and is not parsed."""


def _table_of_this_shape(conn: sqlite3.Connection) -> None:
    """Make ``coach_lessons`` exist with this version's columns (it is only a cache)."""
    table_of_this_shape(conn, "coach_lessons", _TABLE, _COLUMNS)


def load_lessons(
    conn: sqlite3.Connection, files: Iterable[str], with_bot: bool
) -> dict[str, dict[str, Any]]:
    """The stored lessons of ``files`` (those that have one), as their JSON data, unchecked
    beyond being JSON objects: ``Lesson.from_json`` checks them."""
    found: dict[str, dict[str, Any]] = {}
    try:
        _table_of_this_shape(conn)
        for file in files:
            row = conn.execute(
                "SELECT data FROM coach_lessons WHERE file = ? AND with_bot = ?",
                (file, int(with_bot)),
            ).fetchone()
            if row is None or not isinstance(row[0], str) or len(row[0]) > _DATA_LIMIT:
                continue
            try:
                data = load_json(row[0])
            except ValueError:  # a damaged entry is computed again
                continue
            if isinstance(data, dict):
                found[file] = data
    except sqlite3.Error:
        return found  # read-only, busy or damaged: the lessons are computed again
    return found


def store_lessons(
    conn: sqlite3.Connection, lessons: Iterable[tuple[str, dict[str, Any]]], with_bot: bool
) -> None:
    """Keep ``lessons`` (file, JSON data); a failed write only costs recomputing them."""
    rows = [(file, int(with_bot), json.dumps(data)) for file, data in lessons]
    if not rows:
        return
    try:
        _table_of_this_shape(conn)
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
