"""One shape check for the tables bela keeps beside the history index (issue #34).

``history.sqlite3`` holds caches of what the files hold (the puzzle attempts, the coach's
lessons): a table someone edited into another shape (a column dropped or renamed) is not
worth reading. Each is made to exist with this version's columns; one of another shape is
dropped and made again, empty, in one transaction, and refilled from its source of truth.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

__all__ = ["table_of_this_shape"]


def table_of_this_shape(
    conn: sqlite3.Connection, table: str, create: str, columns: Sequence[str]
) -> None:
    """Make ``table`` exist (``create``: its ``CREATE TABLE IF NOT EXISTS``) with exactly
    ``columns``, in order; one of another shape is dropped and made again, empty."""
    conn.execute(create)
    found = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
    if found == list(columns):
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"DROP TABLE IF EXISTS {table}")
        conn.execute(create)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
