"""The history of played matches: an SQLite index over the archive of match records.

The archive (``storage.matches_dir()``, one JSON record per match) is the source
of truth; this index is only a cache of it, so that the history opens and the
statistics add up in a fraction of a second however many matches were played.
Hence:

- the index is rebuilt from the records whenever it is missing, damaged (not a
  database, or failing SQLite's ``quick_check``) or of another version (the
  ``schema_version`` table), and refreshed incrementally otherwise: a file whose
  name, size and modification time are already indexed is not read again;
- every record is read safely (``storage.read_record``) and replayed through the
  engine before its numbers are believed; one that fails is listed as
  ``damaged`` with the one-line reason, never silently skipped;
- nothing is written but the index: a damaged index is replaced atomically by a
  fresh one (temp file, ``os.replace``), every other change is one SQLite
  transaction, so a crash leaves the old index or the new one;
- two windows may refresh at once: each takes SQLite's write lock
  (``BEGIN IMMEDIATE``, with a busy timeout) only to store what it already read,
  and storing a file's rows is idempotent;
- where the index cannot be written (a read-only or missing data directory, a
  lock held too long) the history is built in memory instead, and ``notice``
  says so.

Pure data: no rich, no Textual; the command line and the app render the rows::

    with open_history() as history:          # opened, rebuilt if need be, refreshed
        rows = history.matches(limit=50)      # MatchRow, newest first
        sheet = history.rounds(rows[0].file)  # RoundRow, the score sheet's lines
        numbers = bela.archive.stats.statistics(history)

A ``History`` may be used from any one thread at a time (a Textual thread
worker may open and refresh it, then hand the rows, which are frozen, to the UI).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Final

from bela.archive.record_basics import RecordError, reason_text
from bela.foundation.untrusted import oneline, shown_path
from bela.i18n import N_

if TYPE_CHECKING:
    from bela.archive.records import MatchRecord

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "INDEX_NAME",
    "INDEX_VERSION",
    "NETWORK",
    "History",
    "MatchRow",
    "Outcome",
    "RefreshReport",
    "RoundRow",
    "open_history",
    "record_path",
]

NETWORK: Final = "network"
"""The ``difficulty`` the index files a network match under (its players are people)."""

INDEX_NAME: Final = "history.sqlite3"
"""The index's file name, beside ``matches/`` in the data directory."""

INDEX_VERSION: Final = 5
"""The index layout this bela writes; an index of any other version is rebuilt (4: damage
reasons kept as message and values, said in the reader's language, where 3 kept the words;
5: a match is filed as a network one by ``MatchRecord.is_network``, where 4 took every
record with names for one, the app's own once the player had named the seats)."""

BUSY_TIMEOUT_SECONDS: Final = 10.0
"""How long to wait for another window that is writing the index before giving up on it."""

_REASON_LIMIT: Final = 200
_STAMP: Final = re.compile(r"^(\d{8}T\d{6})(\d{6})?Z-")
# SQLITE_CORRUPT and SQLITE_NOTADB: the file must be replaced, not merely waited for.
_DAMAGED_CODES: Final = (11, 26)

Pair = tuple[int, int]

_SCHEMA: Final = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE matches (
    file TEXT PRIMARY KEY,          -- the record's name in matches/
    size INTEGER NOT NULL,          -- with mtime_ns: unchanged files are not read again
    mtime_ns INTEGER NOT NULL,
    played_at TEXT NOT NULL,        -- UTC, ISO 8601: from the archive's file name, else mtime
    outcome TEXT NOT NULL,          -- won, lost, unfinished or damaged (for team 0, "mi")
    reason TEXT,                    -- why a damaged record cannot be used, one line
    seed TEXT,                      -- text: a seed may exceed SQLite's 64-bit signed integers
    target INTEGER,
    difficulty TEXT,
    rules TEXT,                     -- the house rules in force, by name, comma-separated
    rounds INTEGER NOT NULL,        -- finished rounds
    score_mi INTEGER,
    score_vi INTEGER,
    hanging INTEGER,
    winner INTEGER,
    belot INTEGER,                  -- the team that ended the match with belot
    players TEXT,                   -- the names by seat (JSON) if the record keeps them, else NULL
    me INTEGER                      -- the seat this copy's player sat in (0 in the app)
);
CREATE INDEX matches_by_date ON matches (played_at DESC, file DESC);
CREATE TABLE rounds (
    file TEXT NOT NULL,
    idx INTEGER NOT NULL,           -- the round's index in its match (0 = the first deal)
    dealer INTEGER NOT NULL,
    caller INTEGER,                 -- the calling seat, NULL for a redeal or belot
    trump TEXT,
    written_mi INTEGER NOT NULL, written_vi INTEGER NOT NULL,
    points_mi INTEGER NOT NULL, points_vi INTEGER NOT NULL,
    cards_mi INTEGER NOT NULL, cards_vi INTEGER NOT NULL,
    zvanja_mi INTEGER NOT NULL, zvanja_vi INTEGER NOT NULL,
    bela_mi INTEGER NOT NULL, bela_vi INTEGER NOT NULL,
    tricks_mi INTEGER NOT NULL, tricks_vi INTEGER NOT NULL,
    totals_mi INTEGER NOT NULL, totals_vi INTEGER NOT NULL,
    fell INTEGER NOT NULL,
    tie INTEGER NOT NULL,
    hanging INTEGER NOT NULL,
    stiglja INTEGER,
    belot INTEGER,
    redeal INTEGER NOT NULL,
    sum_mi INTEGER NOT NULL,        -- the score sheet's columns summed up to this round
    sum_vi INTEGER NOT NULL,
    PRIMARY KEY (file, idx)
);
"""

_MATCH_COLUMNS: Final = (
    "file, size, mtime_ns, played_at, outcome, reason, seed, target, difficulty, "
    "rules, rounds, score_mi, score_vi, hanging, winner, belot, players, me"
)
_ROUND_COLUMNS: Final = (
    "file, idx, dealer, caller, trump, written_mi, written_vi, points_mi, points_vi, "
    "cards_mi, cards_vi, zvanja_mi, zvanja_vi, bela_mi, bela_vi, tricks_mi, tricks_vi, "
    "totals_mi, totals_vi, fell, tie, hanging, stiglja, belot, redeal, sum_mi, sum_vi"
)


class Outcome(StrEnum):
    """How a match stands for the human's team (team 0, "mi")."""

    WON = "won"
    LOST = "lost"
    UNFINISHED = "unfinished"
    DAMAGED = "damaged"


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One archived match as the history lists it.

    A damaged record has only its file, date and ``reason``: every setting it
    claims is untrusted, so none is shown.
    """

    file: str
    played_at: datetime
    outcome: Outcome
    reason: str | None
    seed: int | None
    target: int | None
    difficulty: str | None
    rules: tuple[str, ...]
    """The house rules in force, by name (``visi``, ``stiglja_bonus=100``); empty: standard."""
    rounds: int
    scores: Pair | None
    hanging: int
    winner: int | None
    belot: int | None
    players: tuple[str, str, str, str] | None = None
    """The names at the table by seat, if the record keeps them: a network match (its
    ``difficulty`` is ``NETWORK``) or an app match whose seats the player named in F2."""
    me: int | None = None
    """The seat this copy's player sat in (the counts are from there); 0 in the app."""


@dataclass(frozen=True, slots=True)
class RoundRow:
    """One finished round of an archived match: a line of its score sheet.

    Pairs are (team 0 "mi", team 1 "vi"); ``sums`` are the sheet's columns summed
    up to and with this round.
    """

    file: str
    index: int
    dealer: int
    caller: int | None
    trump: str | None
    written: Pair
    points: Pair
    card_points: Pair
    zvanja: Pair
    bela: Pair
    tricks: Pair
    totals: Pair
    fell: bool
    tie: bool
    hanging: int
    stiglja: int | None
    belot: int | None
    redeal: bool
    sums: Pair

    @property
    def number(self) -> int:
        """The round's number for people (1 = the match's first deal)."""
        return self.index + 1


@dataclass(frozen=True, slots=True)
class RefreshReport:
    """What a refresh changed: files read (new or changed), files gone, damaged among those read."""

    read: int
    removed: int
    damaged: int

    @property
    def changed(self) -> bool:
        return bool(self.read or self.removed)


# ---------------------------------------------------------------------- reading records


@dataclass(frozen=True, slots=True)
class _Entry:
    """A record file as the index stores it: the ``matches`` row and its ``rounds`` rows."""

    file: str
    match: tuple[object, ...]
    rounds: tuple[tuple[object, ...], ...]
    damaged: bool


def _played_at(name: str, mtime_ns: int) -> str:
    """When the match was archived: the stamp ``archive_match`` puts in the name, else mtime."""
    found = _STAMP.match(name)
    if found is not None:
        with contextlib.suppress(ValueError):
            moment = datetime.strptime(found.group(1), "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
            micros = int(found.group(2) or 0)
            return moment.replace(microsecond=micros).isoformat()
    try:
        return datetime.fromtimestamp(mtime_ns / 1e9, UTC).isoformat()
    except (OverflowError, OSError, ValueError):  # an absurd mtime: sorts first, still listed
        return datetime(1970, 1, 1, tzinfo=UTC).isoformat()


def _read(path: Path) -> MatchRecord | str:
    """The record at ``path``, replayed and checked, or the one-line reason it cannot be used."""
    from bela.archive.records import match_from_record
    from bela.archive.storage import os_error_text, read_record

    try:
        record = read_record(path)
        match_from_record(record)  # every stored result is checked against the engine
    except OSError as exc:
        if exc.__class__.__name__ == "FileRefusedError":
            return oneline(exc, _REASON_LIMIT)
        why = oneline(os_error_text(exc), _REASON_LIMIT)
        return RecordError(N_("it cannot be read: {why}"), why=why).stored()
    except RecordError as exc:  # kept as message and values: said in the reader's language
        values = exc.values.items()
        cut = {k: oneline(v, _REASON_LIMIT) if isinstance(v, str) else v for k, v in values}
        return RecordError(exc.message, **cut).stored()
    except ValueError as exc:  # the engine's errors for impossible settings (English)
        return oneline(exc, _REASON_LIMIT)
    return record


def _entry(directory: Path, name: str, real_name: str, size: int, mtime_ns: int) -> _Entry:
    played_at = _played_at(name, mtime_ns)
    record = _read(directory / real_name)
    if isinstance(record, str):
        damaged: tuple[object, ...] = (name, size, mtime_ns, played_at, "damaged", record)
        filler = (*(None,) * 4, 0, None, None, 0, None, None, None, None)
        return _Entry(name, (*damaged, *filler), (), True)
    rounds: list[tuple[object, ...]] = []
    sums = [0, 0]
    belot: int | None = None
    # counted from the side of the player whose copy this is: their seat is 0, their team "mi"
    me = record.me or 0
    seat, team, pair = _from_seat(me)
    for entry in record.rounds:
        r = entry.result
        if r is None:
            continue  # the round in progress of an unfinished match
        written = pair(r.written)
        sums[0] += written[0]
        sums[1] += written[1]
        if r.belot is not None:
            belot = team(r.belot)
        rounds.append(
            (
                name,
                entry.index,
                seat(entry.dealer),
                seat(r.caller),
                r.trump,
                *written,
                *pair(r.points),
                *pair(r.card_points),
                *pair(r.zvanja),
                *pair(r.bela),
                *pair(r.tricks),
                *pair(r.totals),
                r.fell,
                r.tie,
                r.hanging,
                team(r.stiglja),
                team(r.belot),
                r.redeal,
                *sums,
            )
        )
    winner = team(record.winner)
    outcome = Outcome.UNFINISHED if winner is None else Outcome.WON if winner == 0 else Outcome.LOST
    row = (
        name,
        size,
        mtime_ns,
        played_at,
        outcome.value,
        None,
        str(record.seed),
        record.target,
        # a network match is filed as one, not under the level of its bots; an app match
        # under its bots' level, whether or not the player named the seats (F2)
        NETWORK if record.is_network else record.difficulty,
        ",".join(_rule_names(record)),
        len(rounds),
        *pair(record.scores),
        record.hanging,
        winner,
        belot,
        None if record.players is None else json.dumps(record.players, ensure_ascii=False),
        None if record.players is None else me,
    )
    return _Entry(name, row, tuple(rounds), False)


def _from_seat(
    me: int,
) -> tuple[
    Callable[[int | None], int | None],
    Callable[[int | None], int | None],
    Callable[[Pair], Pair],
]:
    """Seats, teams and (team 0, team 1) pairs as seen from seat ``me``: ``me`` becomes
    seat 0 and their team team 0, so every query counts "you" and "mi" the same way."""

    def seat(s: int | None) -> int | None:
        return None if s is None else (s - me) % 4

    def team(t: int | None) -> int | None:
        return None if t is None else (t - me) % 2

    def pair(p: Pair) -> Pair:
        return (p[1], p[0]) if me % 2 else (p[0], p[1])

    return seat, team, pair


def _rule_names(record: MatchRecord) -> list[str]:
    """The house rules the record's match was played under that differ from the standard game.

    As the engine reads the record (an old record's rules of then) and names them
    (``Rules.changed``, as ``bela replay`` heads a match), so rules added later are listed too.
    """
    from bela.archive.records import rules_of

    changed = rules_of(record).changed()
    return [name if value is True else f"{name}={value}" for name, value in changed.items()]


def _scan(directory: Path) -> dict[str, tuple[str, int, int]]:
    """The record files in ``directory``: by the name the index keeps, (file name, size, mtime).

    Size and modification time (ns) tell a changed file. Hidden files (the
    archive's temp files) are not records. A name that is not valid UTF-8 (bytes
    Python decodes to lone surrogates, which SQLite cannot store) is kept with
    those bytes written as ``\\xNN``; the file is still read by its real name.
    ``OSError`` when the directory exists but cannot be listed.
    """
    found: dict[str, tuple[str, int, int]] = {}
    try:
        entries = list(os.scandir(directory))
    except (FileNotFoundError, NotADirectoryError):
        return found
    for item in entries:
        name = item.name
        if name.startswith(".") or not name.endswith(".json"):
            continue
        try:
            info = item.stat()
        except OSError:
            try:  # a dangling symlink: still listed, as damaged, once it is read
                info = item.stat(follow_symlinks=False)
            except OSError:
                continue  # gone since it was listed
        key = os.fsencode(name).decode("utf-8", "backslashreplace")
        found[key] = (name, info.st_size, info.st_mtime_ns)
    return found


def record_path(directory: Path, file: str) -> Path:
    """The record that the index names ``file``, in ``directory``.

    The index keeps a name that is not valid UTF-8 with its bytes written as ``\\xNN``
    (``_scan``): such a name is looked up among the files again, so that whoever opens the
    record by its indexed name (the coach, ``--bot-in-my-seat --last``, the app's history)
    finds it instead of "No such file". Any other name is the file's own.
    """
    plain = directory / file
    if "\\x" not in file or plain.exists():
        return plain
    with contextlib.suppress(OSError):
        found = _scan(directory).get(file)
        if found is not None:
            return directory / found[0]
    return plain


# ---------------------------------------------------------------------- the database


def _damaged(exc: sqlite3.Error) -> bool:
    """Whether SQLite says the file is no database or a corrupt one (vs busy, read-only, ...)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _DAMAGED_CODES:
        return True
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text


def _connect(target: str) -> sqlite3.Connection:
    # autocommit (isolation_level=None): transactions are begun and ended explicitly.
    # Any one thread may use it (the app refreshes in a worker), one thread at a time.
    conn = sqlite3.connect(
        target, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
    )
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
    return conn


@contextlib.contextmanager
def _writing(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction: all of it is stored, or none (``BEGIN IMMEDIATE`` takes the lock)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _version(conn: sqlite3.Connection) -> int | None:
    try:
        row = conn.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return None
        raise
    return row[0] if row is not None and isinstance(row[0], int) else None


def _create(conn: sqlite3.Connection) -> None:
    """Drop whatever tables are there and create this version's (inside a transaction)."""
    tables = [
        name
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    for name in tables:
        conn.execute(f'DROP TABLE IF EXISTS "{name.replace(chr(34), chr(34) * 2)}"')
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO schema_version (version) VALUES (?)", (INDEX_VERSION,))


def _int_in(
    column: str, low: int | None = None, high: int | None = None, *, null: bool = False
) -> str:
    """SQL: ``column`` holds an integer (from ``low`` to ``high``; or NULL, with ``null``)."""
    kinds = "('integer', 'null')" if null else "('integer')"
    check = f"typeof({column}) IN {kinds}"
    if low is None or high is None:
        return check
    return f"({check} AND ({column} IS NULL OR {column} BETWEEN {low} AND {high}))"


def _text(column: str, *, null: bool = False) -> str:
    return f"typeof({column}) IN ('text', 'null')" if null else f"typeof({column}) = 'text'"


_DIGIT: Final = "[0-9]"
_SECONDS: Final = f"{_DIGIT * 4}-{_DIGIT * 2}-{_DIGIT * 2}T{_DIGIT * 2}:{_DIGIT * 2}:{_DIGIT * 2}"
_PLAYED_AT: Final = (
    # exactly what ``_played_at`` writes (UTC, seconds or microseconds), a date that exists
    f"(typeof(played_at) = 'text' AND (played_at GLOB '{_SECONDS}+00:00' "
    f"OR played_at GLOB '{_SECONDS}.{_DIGIT * 6}+00:00') AND substr(played_at, 1, 4) != '0000' "
    # '+0 seconds' makes SQLite carry 2025-02-31 over to March, so the two differ
    "AND datetime(substr(played_at, 1, 19), '+0 seconds') "
    "= replace(substr(played_at, 1, 19), 'T', ' '))"
)
_MATCH_SHAPE: Final = " AND ".join(
    (
        _text("file"),
        _int_in("size", 0, 2**62),
        _int_in("mtime_ns"),
        _PLAYED_AT,
        "outcome IN ('won', 'lost', 'unfinished', 'damaged')",
        _text("reason", null=True),
        "(outcome = 'damaged') = (reason IS NOT NULL)",
        # a seed is 0 .. 2**128 - 1, kept as its decimal digits
        "(seed IS NULL OR (typeof(seed) = 'text' AND length(seed) BETWEEN 1 AND 39 "
        "AND seed NOT GLOB '*[^0-9]*'))",
        _int_in("target", 1, 2**31, null=True),
        _text("difficulty", null=True),
        _text("rules", null=True),
        _int_in("rounds", 0, 2**31),
        _int_in("score_mi", null=True),
        _int_in("score_vi", null=True),
        "((score_mi IS NULL) = (score_vi IS NULL))",
        _int_in("hanging", null=True),
        _int_in("winner", 0, 1, null=True),
        _int_in("belot", 0, 1, null=True),
    )
)
_ROUND_SHAPE: Final = " AND ".join(
    (
        _text("file"),
        _int_in("idx", 0, 2**31),
        _int_in("dealer", 0, 3),
        _int_in("caller", 0, 3, null=True),
        "(trump IS NULL OR trump IN ('H', 'D', 'S', 'C'))",
        *(
            _int_in(f"{name}_{team}")
            for name in ("written", "points", "cards", "zvanja", "bela", "tricks", "totals")
            for team in ("mi", "vi")
        ),
        _int_in("fell", 0, 1),
        _int_in("tie", 0, 1),
        _int_in("hanging"),
        _int_in("stiglja", 0, 1, null=True),
        _int_in("belot", 0, 1, null=True),
        _int_in("redeal", 0, 1),
        _int_in("sum_mi"),
        _int_in("sum_vi"),
    )
)


def _columns(columns: str) -> list[str]:
    return [name.strip() for name in columns.split(",")]


def _check_shape(conn: sqlite3.Connection) -> None:
    """``DatabaseError`` (read as damage: the index is rebuilt) unless the tables are this
    version's and every value has the type and range the code that reads it expects.

    The index is a file anyone can edit, and a right ``schema_version`` proves nothing
    about the rest: a dropped table, a renamed column, ``target = 'x'``, a seed of
    markup or bytes for a date would otherwise end every ``bela history`` and ``bela
    stats`` in a traceback until the file was deleted by hand. One scan of each table,
    in SQL: with 1,000 matches it adds 10 to 15 ms to opening (``docs/security.md``).
    """
    for table, columns, shape in (
        ("matches", _MATCH_COLUMNS, _MATCH_SHAPE),
        ("rounds", _ROUND_COLUMNS, _ROUND_SHAPE),
    ):
        found = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        if found != _columns(columns):
            raise sqlite3.DatabaseError(f"malformed index: the {table} table has another shape")
        wrong = conn.execute(f"SELECT 1 FROM {table} WHERE NOT ({shape}) LIMIT 1").fetchone()
        if wrong is not None:
            raise sqlite3.DatabaseError(f"malformed index: a value of the wrong kind in {table}")


def _prepare(conn: sqlite3.Connection) -> bool:
    """Make ``conn`` hold this version's empty or current index; True if it was (re)created.

    The version is read again inside the write transaction: a second window may
    have rebuilt the index in the meantime.
    """
    if _version(conn) == INDEX_VERSION:
        check = conn.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError("database disk image is malformed (quick_check)")
        _check_shape(conn)
        return False
    with _writing(conn):
        if _version(conn) == INDEX_VERSION:
            return False
        _create(conn)
    return True


def _replace_damaged(path: Path) -> None:
    """Put a fresh empty index in place of a damaged one, atomically (it is only a cache)."""
    fd, temp = tempfile.mkstemp(prefix=".history-", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        fresh = _connect(temp)
        try:
            with _writing(fresh):
                _create(fresh)
        finally:
            fresh.close()
        for suffix in ("-journal", "-wal", "-shm"):  # they belong to the damaged file
            with contextlib.suppress(OSError):
                os.unlink(f"{path}{suffix}")
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _open_file(path: Path) -> tuple[sqlite3.Connection, bool]:
    """The index at ``path``, made current; True if it was (re)built empty."""
    conn = _connect(os.fspath(path))
    try:
        return conn, _prepare(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if not _damaged(exc):
            raise
    _replace_damaged(path)
    conn = _connect(os.fspath(path))
    try:
        _prepare(conn)
    except BaseException:
        conn.close()
        raise
    return conn, True


def _memory() -> sqlite3.Connection:
    conn = _connect(":memory:")
    _prepare(conn)
    return conn


def _error_text(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        from bela.archive.storage import os_error_text

        return os_error_text(exc)
    return oneline(exc, 120)


# ---------------------------------------------------------------------- the history


class History:
    """The index of one data directory's archive; ``refresh`` brings it up to date.

    Use ``open_history``. ``notice`` is a one-line message for the player when
    the index could not be kept on disk (it then lives in memory for this run),
    and ``rebuilt`` says whether it was built from scratch when opened.
    """

    def __init__(
        self,
        matches: Path,
        conn: sqlite3.Connection,
        *,
        path: Path | None,
        rebuilt: bool,
        notice: str | None = None,
        index_file: Path | None = None,
    ) -> None:
        self.matches_dir = matches
        self.path = path
        self.rebuilt = rebuilt
        self.notice = notice
        self._conn = conn
        self._index_file = index_file
        """Where the index goes once the archive exists (it did not when this was opened)."""

    def path_of(self, file: str) -> Path:
        """The record file the index names ``file`` (``record_path``)."""
        return record_path(self.matches_dir, file)

    @property
    def connection(self) -> sqlite3.Connection:
        """The SQLite connection, for the queries of ``bela.archive.stats`` (read only).

        Read only by convention: nothing but this class writes the index.
        """
        return self._conn

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ refreshing

    def refresh(self) -> RefreshReport:
        """Index the records added or changed since the last refresh; forget removed ones.

        Records are read and replayed before the write lock is taken, so a second
        window refreshing at the same time waits only while rows are stored.
        """
        try:
            on_disk = _scan(self.matches_dir)
        except OSError as exc:  # the archive cannot be listed: show what was indexed before
            self.notice = (
                f"the archive {shown_path(self.matches_dir)} cannot be read "
                f"({_error_text(exc)}): the history shows the matches indexed before"
            )
            return RefreshReport(0, 0, 0)
        if on_disk and self._index_file is not None:
            self._to_file(self._index_file)
        known = {
            name: (size, mtime)
            for name, size, mtime in self._conn.execute("SELECT file, size, mtime_ns FROM matches")
        }
        stale = sorted(name for name, (_, *key) in on_disk.items() if known.get(name) != tuple(key))
        gone = sorted(name for name in known if name not in on_disk)
        if not stale and not gone:
            return RefreshReport(0, 0, 0)
        entries = [_entry(self.matches_dir, name, *on_disk[name]) for name in stale]
        try:
            self._store(entries, gone)
        except sqlite3.Error as exc:
            if self.path is None:
                raise
            self._to_memory(exc)
            return self.refresh()
        return RefreshReport(len(entries), len(gone), sum(e.damaged for e in entries))

    def _store(self, entries: Sequence[_Entry], gone: Iterable[str]) -> None:
        conn = self._conn
        with _writing(conn):
            names = [(name,) for name in gone] + [(e.file,) for e in entries]
            conn.executemany("DELETE FROM rounds WHERE file = ?", names)
            conn.executemany("DELETE FROM matches WHERE file = ?", names)
            conn.executemany(
                f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES ({', '.join('?' * 18)})",
                [e.match for e in entries],
            )
            conn.executemany(
                f"INSERT INTO rounds ({_ROUND_COLUMNS}) VALUES ({', '.join('?' * 27)})",
                [row for e in entries for row in e.rounds],
            )

    def _to_file(self, path: Path) -> None:
        """The first match reached the archive: keep the index on disk from now on."""
        self._index_file = None
        try:
            conn, self.rebuilt = _open_file(path)
        except (OSError, sqlite3.Error) as exc:
            self.notice = _memory_notice(path.parent, exc)
            return
        self._conn.close()
        self._conn = conn
        self.path = path

    def _to_memory(self, exc: BaseException) -> None:
        """Keep going with an index in memory after the file could not be written."""
        where = self.path.parent if self.path is not None else self.matches_dir
        self._conn.close()
        self._conn = _memory()
        self.path = None
        self.notice = _memory_notice(where, exc)

    # ------------------------------------------------------------------ reading

    def matches(
        self,
        *,
        difficulty: str | None = None,
        outcome: Outcome | None = None,
        limit: int | None = None,
    ) -> list[MatchRow]:
        """The indexed matches, newest first, optionally of one difficulty or outcome."""
        where: list[str] = []
        args: list[object] = []
        if difficulty is not None:
            where.append("difficulty = ?")
            args.append(difficulty)
        if outcome is not None:
            where.append("outcome = ?")
            args.append(outcome.value)
        sql = f"SELECT {_MATCH_COLUMNS} FROM matches"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY played_at DESC, file DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [_match_row(row) for row in self._conn.execute(sql, args)]

    def match(self, file: str) -> MatchRow | None:
        """The indexed match of record ``file`` (a name in ``matches/``), if any."""
        row = self._conn.execute(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE file = ?", (file,)
        ).fetchone()
        return None if row is None else _match_row(row)

    def rounds(self, file: str) -> list[RoundRow]:
        """The finished rounds of record ``file``, in order: its score sheet."""
        rows = self._conn.execute(
            f"SELECT {_ROUND_COLUMNS} FROM rounds WHERE file = ? ORDER BY idx", (file,)
        )
        return [_round_row(row) for row in rows]


def _match_row(row: Sequence[object]) -> MatchRow:
    (file, _size, _mtime, played_at, outcome, reason, seed, target, difficulty) = row[:9]
    (rules, rounds, score_mi, score_vi, hanging, winner, belot, players, me) = row[9:]
    scores = None if score_mi is None else (_int(score_mi), _int(score_vi))
    return MatchRow(
        file=str(file),
        played_at=datetime.fromisoformat(str(played_at)),
        outcome=Outcome(str(outcome)),
        reason=None if reason is None else reason_text(str(reason)),
        seed=None if seed is None else int(str(seed)),
        target=_opt(target),
        difficulty=None if difficulty is None else str(difficulty),
        rules=tuple(str(rules).split(",")) if rules else (),
        rounds=_int(rounds),
        scores=scores,
        hanging=_int(hanging or 0),
        winner=_opt(winner),
        belot=_opt(belot),
        players=_players(players),
        me=_opt(me),
    )


def _players(text: object) -> tuple[str, str, str, str] | None:
    """The names the index keeps for a network match (validated when the record was read)."""
    if text is None:
        return None
    names = json.loads(str(text))
    return (str(names[0]), str(names[1]), str(names[2]), str(names[3]))


def _round_row(row: Sequence[object]) -> RoundRow:
    def pair(at: int) -> Pair:
        return _int(row[at]), _int(row[at + 1])

    return RoundRow(
        file=str(row[0]),
        index=_int(row[1]),
        dealer=_int(row[2]),
        caller=_opt(row[3]),
        trump=None if row[4] is None else str(row[4]),
        written=pair(5),
        points=pair(7),
        card_points=pair(9),
        zvanja=pair(11),
        bela=pair(13),
        tricks=pair(15),
        totals=pair(17),
        fell=bool(row[19]),
        tie=bool(row[20]),
        hanging=_int(row[21]),
        stiglja=_opt(row[22]),
        belot=_opt(row[23]),
        redeal=bool(row[24]),
        sums=pair(25),
    )


def _int(value: object) -> int:
    assert isinstance(value, int), value  # the index is ours: columns hold what we stored
    return value


def _opt(value: object) -> int | None:
    return None if value is None else _int(value)


def _memory_notice(directory: Path, exc: BaseException) -> str:
    return (
        f"the match history cannot be kept in {shown_path(directory)} "
        f"({_error_text(exc)}): it was built in memory for this run"
    )


def open_history(data: Path | None = None, *, refresh: bool = True) -> History:
    """The history of the data directory ``data`` (default: ``storage.data_dir()``).

    Opens (or builds) ``history.sqlite3`` there and, with ``refresh``, brings it
    up to date with ``matches/``. Never raises for a broken or unwritable index:
    the history is then built in memory and ``notice`` says why.
    """
    from bela.archive.storage import data_dir

    directory = data_dir() if data is None else data
    matches = directory / "matches"
    path = directory / INDEX_NAME
    if not matches.is_dir() and not path.exists():
        # nothing played here yet: no index file (and no data directory) is created for it
        history = History(matches, _memory(), path=None, rebuilt=True, index_file=path)
    else:
        try:
            conn, rebuilt = _open_file(path)
        except (OSError, sqlite3.Error) as exc:
            history = History(
                matches, _memory(), path=None, rebuilt=True, notice=_memory_notice(directory, exc)
            )
        else:
            history = History(matches, conn, path=path, rebuilt=rebuilt)
    if refresh:
        history.refresh()
    return history
