"""The public server's side of its live tables' saves (``bela.net.live_tables``): each table
written to the store after every action, before its players see it, and taken up again.

``LiveKeeper.keep`` is the tables' ``on_change``: it writes the save and then lets the held
states go out (``Table.saved``), so what a player was shown is always in the store. When the
store cannot be written, the table stops (``Table.save_failed``: no state goes out, no bot
acts) and the server's tick tries again (``retry``) until a write lands. When the write is
refused because another worker owns the table now (it took this one for dead), the table is
closed here without a word to the store: its players reconnect and are sent on to the
worker that holds it.

``resume`` takes up the tables this worker owns (a restart); ``take_over`` those of workers
that are no longer alive (``alive`` is the Redis heartbeat; with no shared directory, one
process on its own data directory owns every table in it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from bela.net.live_tables import LIVE_VERSION, LiveSave, LiveStore, code_hash, read_live
from bela.net.phrases import Phrase
from bela.net.saves import table_save
from bela.net.server import normal_code

if TYPE_CHECKING:
    from bela.archive.records import RoundEntry
    from bela.net.online_server import Meta, OnlineServer
    from bela.net.table import Table

__all__ = ["LiveKeeper"]


class LiveKeeper:
    """The live tables of one worker (``worker``) in ``store``."""

    def __init__(self, server: OnlineServer, store: LiveStore, worker: str) -> None:
        self.server = server
        self.store = store
        self.worker = worker
        self.code_hashes: dict[str, str] = {}
        """A private table's code hash -> its table id (tables taken up keep no code)."""
        self.failed: set[str] = set()
        """Tables whose last write failed (``retry`` tries them again)."""
        self.known: dict[str, tuple[RoundEntry, ...]] = {}
        """Each table's finished rounds as its last save held them (not worked out again)."""

    # ------------------------------------------------------------------ writing

    def save_of(self, table: Table, meta: Meta) -> LiveSave:
        people = tuple(meta.people.items())
        hashed = self.hash_of(table, meta)
        kept = table_save(table, self.known.get(table.table_id, ()))
        self.known[table.table_id] = tuple(r for r in kept.record.rounds if r.result is not None)
        return LiveSave(
            live_version=LIVE_VERSION,
            table=kept.model_copy(update={"code": table.table_id, "leader_key": ""}),
            public=meta.public,
            rated_wanted=meta.rated_wanted,
            rated=meta.rated,
            rules=meta.rules.changed(),
            people=people,
            seat_accounts=tuple(meta.seat_accounts),  # type: ignore[arg-type]
            abandoned_by=meta.abandoned_by,
            match_id=meta.match_id,
            code_hash=hashed,
            seq=table.seq,
            counted=meta.counted,
        )

    def hash_of(self, table: Table, meta: Meta) -> str | None:
        if meta.public:
            return None
        known = next((h for h, t in self.code_hashes.items() if t == table.table_id), None)
        return known or code_hash(normal_code(table.code))

    def keep(self, table: Table) -> None:
        """Write ``table``'s save (its ``on_change``); its states go out once written."""
        meta = self.server.meta.get(table.table_id)
        if table.closed or table.match is None or meta is None:
            table.saved()
            return
        try:
            text = self.save_of(table, meta).model_dump_json()
            mine = self.store.put(table.table_id, self.worker, text)
        except Exception as exc:  # the store is down: the table waits for it (retry)
            self.failed.add(table.table_id)
            self.server.faults.report(f"live:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")
            table.save_failed()
            return
        if not mine:  # another worker took it over (this one was taken for dead)
            self.server.event("lost", f"{table.table_id} is held by another worker")
            table.close(Phrase("shutting_down"))
            self.server.forget_here(table)
            return
        self.failed.discard(table.table_id)
        table.saved(table.seq)
        if table.stalled:
            table.save_recovered()

    def retry(self) -> None:
        """Try the failed writes again (each tick)."""
        for table_id in list(self.failed):
            meta = self.server.meta.get(table_id)
            if meta is None:
                self.failed.discard(table_id)
                continue
            self.keep(meta.table)

    def forget(self, table_id: str) -> None:
        """What this worker remembers of the table's save goes (the save stays)."""
        self.failed.discard(table_id)
        self.known.pop(table_id, None)

    def drop(self, table_id: str) -> None:
        """The table's match is over or the table ended: its save goes."""
        self.forget(table_id)
        for hashed in [h for h, t in self.code_hashes.items() if t == table_id]:
            del self.code_hashes[hashed]
        try:
            self.store.drop(table_id, self.worker)
        except Exception as exc:
            self.server.faults.report(f"live:{type(exc).__name__}", f"{type(exc).__name__}: {exc}")

    def by_code(self, code: str) -> str | None:
        """The table id of a private table taken up here, by its code as typed."""
        return self.code_hashes.get(code_hash(normal_code(code)))

    # ------------------------------------------------------------------ taking up

    def resume(self) -> list[str]:
        """Take up this worker's own tables (after a restart); their ids."""
        return [t for t, text in self.store.owned(self.worker) if self._take_up(t, text)]

    def take_over(self, alive: Callable[[str], bool] | None) -> list[str]:
        """Take over the tables of every worker that is not alive (``alive`` None: every
        other owner is taken for gone, as one process on its own directory). Each is claimed
        in the store first, so of two workers trying only one takes it up."""
        taken: list[str] = []
        for worker in self.store.workers():
            if worker == self.worker or (alive is not None and alive(worker)):
                continue
            for table_id, _old in self.store.owned(worker):
                text = self.store.claim(table_id, worker, self.worker)
                if text is not None and self._take_up(table_id, text):
                    taken.append(table_id)
        return taken

    def _take_up(self, table_id: str, text: str) -> bool:
        if table_id in self.server.meta:
            return False
        try:
            save, match = read_live(text)
        except ValueError as exc:
            self.server.faults.report("live:unreadable", f"table {table_id} not resumed: {exc}")
            with contextlib.suppress(Exception):
                self.store.drop(table_id, self.worker)
            return False
        self.server.take_up(save, match)
        if save.code_hash is not None:
            self.code_hashes[save.code_hash] = save.table.table_id
        return True
