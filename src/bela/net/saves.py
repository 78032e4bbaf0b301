"""The host's tables on disk: saved after every action, read back when the host restarts.

Each table is one file, ``<data dir>/tables/<table id>.json``: the match record
(``bela.archive.records``, replayed and checked on loading like any save), the seats'
names, the *hashes* of their reconnect tokens and the join code, so a restarted
host takes the same code and tokens and its players sit down again where they
were. When the match ends it goes to the archive with the seat names
(``storage.archive_match``) and the table's file is removed.

Saving writes a whole file atomically (a temp file, then a rename) in a
thread, so 200 tables saving do not stall the event loop. Saves of one table
are never concurrent: while one is being written, later actions only replace
the snapshot waiting to be written next, so the file always ends at the latest
state and the loop never waits for the disk.

The end of a match must leave no file, in whatever order the last writes, the
archiving and a stopping host come. A write's thread outlives its task (a
cancelled ``to_thread`` does not stop the thread), so the task cannot be the one
to remove the file: ``finish`` removes it itself, and each write thread checks,
under the table's lock and just before its rename, that the table is not
finished (if it is, it drops its temp file). The rename and the removal are then
ordered by that lock, and the removal always comes last.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final

from pydantic import BaseModel, ConfigDict, Field

from bela.archive.record_basics import RECORD_SIZE_LIMIT, RecordError
from bela.archive.records import (
    MatchRecord,
    RoundEntry,
    action_text,
    match_from_record,
    parse_action,
    record_from_match,
    seated,
)
from bela.archive.storage import archive_match, data_dir, os_error_text
from bela.engine import IllegalActionError
from bela.foundation.files import fsync_dir, read_limited, write_temp
from bela.foundation.untrusted import oneline, shown_path

if TYPE_CHECKING:
    from bela.engine import Match
    from bela.net.table import SeatState, Table

__all__ = [
    "SAVE_VERSION",
    "TableSave",
    "TableSaver",
    "load_tables",
    "table_save",
    "tables_dir",
]

SAVE_VERSION: Final = 1
_TEMP_PREFIX: Final = ".table-"
JOURNAL_SUFFIX: Final = ".log"
SAVE_RETRY: Final = 2.0
"""Seconds between tries of a save that failed (the table waits meanwhile)."""


class TableSave(BaseModel):
    """A table as its file holds it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    save_version: int
    table_id: Annotated[str, Field(pattern="^[a-z0-9]{4,32}$")]
    code: Annotated[str, Field(min_length=4, max_length=32)]
    leader_key: Annotated[str, Field(max_length=64)]
    difficulty: Annotated[str, Field(pattern="^[a-z][a-z0-9_-]{0,31}$")]
    names: tuple[str | None, str | None, str | None, str | None]
    tokens: tuple[str | None, str | None, str | None, str | None]
    bots: tuple[bool, bool, bool, bool]
    leader: Annotated[int, Field(ge=0, le=3)] | None
    record: MatchRecord
    host_seat: Annotated[int, Field(ge=0, le=3)] | None = None
    """Where the host's own app sits, kept so its archive counts from that seat's side."""
    series: tuple[Annotated[int, Field(ge=0)], Annotated[int, Field(ge=0)]] = (0, 0)
    """The evening's matches won by team 0 and team 1 at this table before this match
    (``bela.net.rematch``): a restarted host keeps counting the series where it was."""


def tables_dir() -> Path:
    return data_dir() / "tables"


def table_save(table: Table, known: tuple[RoundEntry, ...] = ()) -> TableSave:
    """``table`` as its save holds it (the public server keeps it in its store, not a file);
    ``known``: the finished rounds' entries of its last save (worked out once, not again
    after every action)."""
    return _save_of(table, known)


def _save_of(table: Table, known: tuple[RoundEntry, ...] = ()) -> TableSave:
    assert table.match is not None
    return TableSave(
        save_version=SAVE_VERSION,
        table_id=table.table_id,
        code=table.code,
        leader_key=table.leader_key,
        difficulty=table.difficulty,
        names=tuple(s.name for s in table.seats),  # type: ignore[arg-type]
        tokens=tuple(s.token for s in table.seats),  # type: ignore[arg-type]
        bots=tuple(_bot_for_good(s) for s in table.seats),  # type: ignore[arg-type]
        leader=table.leader,
        # the rounds a bot played for a person so far, so a restarted host still knows
        record=record_from_match(table.match, table.difficulty, known).model_copy(
            update={"bot_rounds": tuple(sorted(table.bot_played)) or None}
        ),
        host_seat=table.host_seat,
        series=(table.series.wins[0], table.series.wins[1]),
    )


_Meta = tuple[object, ...]
_string: Callable[[str], str] = json.encoder.encode_basestring
"""A JSON string (the C encoder's own): a journal line is written after every action."""


def _meta_of(table: Table) -> _Meta:
    """What a snapshot holds besides the match: a change of it takes a new snapshot."""
    seats = table.seats
    return (
        table.leader,
        *(s.name for s in seats),
        *(s.token for s in seats),
        *(_bot_for_good(s) for s in seats),
        len(table.bot_played),  # a bot began to stand in for a person: in the next snapshot
    )


def _bot_for_good(seat: SeatState) -> bool:
    """A bot plays the seat and nobody can take it back: empty at the start, or given up
    with ``leave`` (its token is dead). A player away too long keeps the seat for their
    token: after a restart it waits for them again."""
    return seat.bot and (seat.name is None or seat.token is None)


class JournalLine(BaseModel):
    """One action of the round in progress, appended after the table's last snapshot."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    round: Annotated[int, Field(ge=0)]
    at: Annotated[int, Field(ge=0)]
    """Its place in the round's actions."""
    action: Annotated[str, Field(min_length=1, max_length=16)]


@dataclass(slots=True)
class _Slot:
    table: Table | None = None
    """The table to save (its state when the write begins: the match is immutable)."""
    snapshot: bool = True
    """The next write is a whole snapshot (the first one, a new round, the seats changed)."""
    lines: list[str] = field(default_factory=list)
    """Journal lines waiting to be appended (the actions since the last snapshot queued)."""
    meta: _Meta = ()
    round: int = -1
    count: int = 0
    """The round and the number of its actions that what is queued (snapshot or lines) holds."""
    task: asyncio.Task[None] | None = None
    done: bool = False
    known: tuple[RoundEntry, ...] = ()
    """The finished rounds' entries of the last save: worked out once, not after every action."""
    seq: int = 0
    """The table's ``seq`` of the last state queued (what the queued lines reach)."""
    log_exists: bool = False
    """Written and read by the write thread only (one at a time per table)."""
    retry: asyncio.TimerHandle | None = None
    """The next try of a save that failed."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Orders a write thread's rename or journal opening and ``finish``'s removal (``done``
    is set under it)."""


class TableSaver:
    """Saves each table after every action, one write at a time per table, off the loop."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory if directory is not None else tables_dir()
        self._slots: dict[str, _Slot] = {}
        self.problem: str | None = None
        """The last failure in words, or None."""
        self.on_problem: Callable[[str, str], None] | None = None
        """Told each failure and recovery (a kind and one line): the host's log."""
        self.retry_after = SAVE_RETRY

    def path(self, table_id: str) -> Path:
        return self.directory / f"{table_id}.json"

    def journal(self, table_id: str) -> Path:
        return self.directory / f"{table_id}{JOURNAL_SUFFIX}"

    def schedule(self, table: Table) -> None:
        """Save ``table`` as it is now (soon, in a thread): the actions of the round in
        progress as journal lines, anything else as a new snapshot."""
        slot = self._slots.setdefault(table.table_id, _Slot())
        if slot.done:
            return
        slot.table = table
        match = table.match
        rnd = match.current if match is not None else None
        if rnd is None or match is None:
            slot.snapshot = True
        else:
            actions = rnd.actions
            meta = _meta_of(table)
            if slot.snapshot or meta != slot.meta or match.next_index != slot.round:
                slot.snapshot = True
            elif len(actions) >= slot.count:
                index = match.next_index
                slot.lines.extend(
                    f'{{"round":{index},"at":{at},"action":{_string(action_text(actions[at]))}}}\n'
                    for at in range(slot.count, len(actions))
                )
            else:  # pragma: no cover - a round's actions only grow
                slot.snapshot = True
            slot.meta, slot.round, slot.count = meta, match.next_index, len(actions)
        slot.seq = table.seq
        if slot.snapshot:
            slot.lines.clear()
        if slot.task is None or slot.task.done():
            slot.task = asyncio.get_running_loop().create_task(self._write(table.table_id, slot))

    async def _write(self, table_id: str, slot: _Slot) -> None:
        while (slot.snapshot or slot.lines) and not slot.done and slot.table is not None:
            table = slot.table
            upto = slot.seq  # the state this write makes durable (told to the table after)
            try:
                if slot.snapshot:
                    # the state now (the match is immutable); it holds every line queued
                    upto = table.seq
                    save = _save_of(table, slot.known)
                    slot.snapshot = False
                    slot.lines.clear()
                    slot.known = tuple(r for r in save.record.rounds if r.result is not None)
                    text = save.model_dump_json() + "\n"
                    await asyncio.to_thread(self._replace, slot, self.path(table_id), text)
                else:
                    lines, slot.lines = "".join(slot.lines), []
                    await asyncio.to_thread(self._append, slot, self.journal(table_id), lines)
            except OSError as exc:
                slot.snapshot = True  # the next try writes everything again
                self.problem = oneline(
                    f"could not save table {table_id} in {shown_path(self.directory)}: "
                    f"{os_error_text(exc)}"
                )
                if self.on_problem is not None:
                    self.on_problem("save", self.problem)
                # saved before shown, under any fault: the table stops (its states wait,
                # no bot acts) and the save is tried again until it lands
                table.save_failed()
                loop = asyncio.get_running_loop()
                slot.retry = loop.call_later(self.retry_after, self._retry, table_id, slot)
                return
            table.saved(upto)
            if table.stalled:
                table.save_recovered()
                if self.on_problem is not None:
                    self.on_problem("save", f"table {table_id} is saved again")

    def _retry(self, table_id: str, slot: _Slot) -> None:
        slot.retry = None
        if slot.done or slot.table is None or slot.table.closed:
            return
        slot.snapshot = True
        if slot.task is None or slot.task.done():
            slot.task = asyncio.get_running_loop().create_task(self._write(table_id, slot))

    def _replace(self, slot: _Slot, path: Path, text: str) -> None:
        """Write the snapshot (in a thread), unless the match has ended meanwhile; the
        journal it replaces goes after it (a crash between leaves lines it already holds,
        which ``load_tables`` skips)."""
        temp = write_temp(path.parent, text, _TEMP_PREFIX)
        renamed = False
        try:
            with slot.lock:
                if not slot.done:
                    os.replace(temp, path)
                    renamed = True
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path.with_suffix(JOURNAL_SUFFIX))
                    slot.log_exists = False
        finally:
            if not renamed:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
        if renamed:
            fsync_dir(path.parent)

    def _append(self, slot: _Slot, path: Path, lines: str) -> None:
        """Append journal lines (in a thread) and make them durable. The file is opened
        under the lock, unless the match has ended: a removal after that point takes the
        file away with whatever is written to it, so it is never created again."""
        with slot.lock:
            if slot.done:
                return
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, lines.encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        if not slot.log_exists:
            fsync_dir(path.parent)
            slot.log_exists = True

    def _remove(self, table_id: str) -> None:
        with contextlib.suppress(OSError):
            self.path(table_id).unlink()
        with contextlib.suppress(OSError):
            self.journal(table_id).unlink()

    async def flush(self) -> None:
        """Wait for every save under way (before the host exits)."""
        tasks = [slot.task for slot in self._slots.values() if slot.task is not None]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    def forget(self, table_id: str) -> None:
        """A finished table let go by the host: its slot goes too (a write still under way
        keeps its own reference, and sees the table is done)."""
        slot = self._slots.get(table_id)
        if slot is not None and slot.done:
            del self._slots[table_id]

    def finish(self, table: Table) -> str | None:
        """The match is over: archive it with the seat names and forget the table's save.

        Returns the archive's path in words, or None if it could not be written (then
        the table's save stays, and the next start of the host archives it).
        """
        assert table.match is not None
        record = seated(
            record_from_match(table.match, table.difficulty),
            "network",
            (table.name_of(0), table.name_of(1), table.name_of(2), table.name_of(3)),
            me=table.host_seat,
            bot_rounds=tuple(sorted(table.bot_played)) or None,
        )
        try:
            where = archive_match(record)
        except (OSError, RecordError) as exc:
            self.problem = oneline(f"could not archive table {table.table_id}: {exc}")
            self.schedule(table)
            return None
        slot = self._slots.setdefault(table.table_id, _Slot())
        with slot.lock:  # a write thread's rename is before this, or never (it sees done)
            slot.done = True
            slot.table, slot.snapshot = None, False
            slot.lines.clear()
            self._remove(table.table_id)
        return shown_path(where)


def load_tables(directory: Path | None = None) -> tuple[list[tuple[TableSave, Match]], list[str]]:
    """Every saved table that replays, and a line for each file that could not be used."""
    where = directory if directory is not None else tables_dir()
    found: list[tuple[TableSave, Match]] = []
    problems: list[str] = []
    try:
        paths = sorted(p for p in where.iterdir() if p.suffix == ".json" and p.name[0] != ".")
    except FileNotFoundError:
        return found, problems
    except OSError as exc:
        return found, [oneline(f"cannot read {shown_path(where)}: {os_error_text(exc)}")]
    for path in paths:
        try:
            save = TableSave.model_validate_json(read_limited(path, RECORD_SIZE_LIMIT + 4096))
            if save.save_version != SAVE_VERSION:
                raise RecordError(f"table save version {save.save_version} is not known here")
            match = match_from_record(save.record)
        except (OSError, ValueError) as exc:
            problems.append(oneline(f"{shown_path(path)} was not resumed: {exc}", 300))
            continue
        match, problem = _replay_journal(match, path.with_suffix(JOURNAL_SUFFIX))
        if problem is not None:
            problems.append(problem)
        found.append((save, match))
    return found, problems


def _replay_journal(match: Match, path: Path) -> tuple[Match, str | None]:
    """``match`` with the journal's actions that follow it, each checked by the engine.

    Lines the snapshot already holds are skipped (a crash between a snapshot and the
    removal of the journal before it); a last line without its newline was being
    written when the host stopped, and is left out without a word. Anything else that
    does not fit ends the replay there with a line saying why: the table resumes from
    the last action that fits, and nothing after a damaged line is guessed at.
    """
    try:
        text = read_limited(path, RECORD_SIZE_LIMIT).decode("utf-8", errors="replace")
    except FileNotFoundError:
        return match, None
    except OSError as exc:
        return match, oneline(f"{shown_path(path)} was not read: {os_error_text(exc)}", 300)
    lines = text.split("\n")[:-1]  # the part after the last newline was never finished
    for number, line in enumerate(lines, 1):
        try:
            entry = JournalLine.model_validate_json(line)
            rnd = match.current
            if rnd is None or entry.round > match.next_index:
                raise RecordError("it comes after the actions before it")
            if entry.round < match.next_index or entry.at < len(rnd.actions):
                continue  # the snapshot holds it
            if entry.at > len(rnd.actions) or rnd.to_act is None:
                raise RecordError("it comes after the actions before it")
            match = match.apply(parse_action(entry.action), rnd.to_act)
        except (ValueError, IllegalActionError) as exc:
            where = f"{shown_path(path)} line {number}"
            return match, oneline(f"{where} was not replayed, nor what follows: {exc}", 300)
    return match, None
