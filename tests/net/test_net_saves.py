"""The host's table saves when the host stops just as a match ends.

The last action of a match is saved (in a thread) and, in the same step, the
match is archived and its table's save removed. The host may be stopped at any
moment of that: while the write is on its way, or before it has even begun, by a
clean close or by a cancellation (Ctrl-C cancels the task that is closing the
host, ``asyncio.run`` cancels every task left). In every order the finished
table's file must be gone, or a restarted host would offer to resume a match
that is already in the archive.

The orders are driven by hand, not by sleeps: the saver's write thread is held
right before its rename (the moment a late write could land) until the test lets
it go.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from netplay import options

import bela.files
import bela.net.saves
from bela.engine import Match, Rules
from bela.net.saves import TableSaver, load_tables, tables_dir
from bela.net.server import Server
from bela.net.table import Table
from bela.storage import matches_dir


def _one_action_from_the_end(seed: int) -> tuple[Match, int, object]:
    """A match to 163 played with first legal actions up to its very last one."""
    match = Match.new(seed, 163, Rules())
    while True:
        rnd = match.current
        assert rnd is not None and rnd.to_act is not None
        action = rnd.legal_actions()[0]
        after = match.apply(action, rnd.to_act)
        if after.is_over:
            return match, rnd.to_act, action
        match = after


class _HeldWrites:
    """The saver's write thread stops once its temp file is written, before the rename."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.hold = False
        self.entered = threading.Event()
        self.release = threading.Event()
        real = bela.files.write_temp

        def write_temp(directory: Path, text: str, prefix: str) -> Path:
            temp = real(directory, text, prefix)
            if self.hold and directory == tables_dir():
                self.entered.set()
                self.release.wait(10)
            return temp

        monkeypatch.setattr(bela.files, "write_temp", write_temp)
        monkeypatch.setattr(bela.net.saves, "write_temp", write_temp, raising=False)

    async def settle(self) -> None:
        """Let the held thread go and wait until it has renamed or dropped its temp file."""
        self.release.set()
        for _ in range(500):
            if not any(p.name.startswith(".table-") for p in tables_dir().iterdir()):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the write thread never finished")


async def _table_at_its_last_action(seed: int) -> tuple[Server, Table, int, object]:
    server = Server(options(), TableSaver())
    table = server.new_table()
    match, seat, action = _one_action_from_the_end(seed)
    for index, state in enumerate(table.seats):
        state.name = f"p{index}"
    table.match, table.shown = match, match.current
    assert server.saver is not None
    server.saver.schedule(table)  # the state before the last action is on disk
    await server.saver.flush()
    assert server.saver.path(table.table_id).exists()
    return server, table, seat, action


async def _stop_by_close(server: Server) -> None:
    await server.close()


async def _stop_by_ctrl_c(server: Server) -> None:
    """Ctrl-C while the host is closing: the task awaiting the saves is cancelled."""
    closing = asyncio.get_running_loop().create_task(server.close())
    await asyncio.sleep(0)  # it runs up to its wait for the saves under way
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing


async def _stop_by_teardown(server: Server) -> None:
    """The loop ends (``asyncio.run`` returning): every task still pending is cancelled."""
    me = asyncio.current_task()
    pending = [t for t in asyncio.all_tasks() if t is not me]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


STOPS: dict[str, Callable[[Server], Awaitable[None]]] = {
    "close": _stop_by_close,
    "ctrl-c": _stop_by_ctrl_c,
    "teardown": _stop_by_teardown,
}


@pytest.mark.parametrize(
    ("moment", "stop"),
    [
        ("write-under-way", "close"),
        ("write-under-way", "ctrl-c"),
        ("write-under-way", "teardown"),
        # the write task has not had a step yet: only a stop that cancels it at once
        # comes before it (a close awaits it, so it runs first)
        ("write-not-begun", "teardown"),
        ("write-not-begun", "close"),
    ],
)
async def test_a_host_stopped_as_a_match_ends_leaves_no_save_of_it(
    monkeypatch: pytest.MonkeyPatch, stop: str, moment: str
) -> None:
    held = _HeldWrites(monkeypatch)
    server, table, seat, action = await _table_at_its_last_action(seed=7)
    assert server.saver is not None
    if moment == "write-under-way":  # the save of the action before is being written
        held.hold = True
        server.saver.schedule(table)
        assert await asyncio.to_thread(held.entered.wait, 5), "the write thread started"
    assert table.act(seat, action) is None  # the last action: saved, archived, removed
    assert table.match is not None and table.match.is_over
    assert len(list(matches_dir().glob("*.json"))) == 1
    await STOPS[stop](server)
    await held.settle()
    assert not server.saver.path(table.table_id).exists()
    saved, problems = load_tables()
    assert (saved, problems) == ([], []), "a restarted host finds nothing to resume"


async def test_a_save_that_lands_before_the_end_is_removed_with_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The ordinary order: the write under way as the match ends lands, then the host closes."""
    held = _HeldWrites(monkeypatch)
    server, table, seat, action = await _table_at_its_last_action(seed=11)
    assert server.saver is not None
    held.hold = True
    server.saver.schedule(table)
    assert await asyncio.to_thread(held.entered.wait, 5)
    assert table.act(seat, action) is None
    await held.settle()
    await server.close()
    assert not server.saver.path(table.table_id).exists()
    assert len(list(matches_dir().glob("*.json"))) == 1
