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
import os
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from netplay import options

import bela.foundation.files
import bela.net.saves
from bela.archive.storage import matches_dir
from bela.engine import Action, Match, Rules
from bela.net.saves import TableSaver, load_tables, tables_dir
from bela.net.server import Server
from bela.net.table import Table


def _two_actions_from_the_end(seed: int) -> tuple[Match, list[tuple[int, Action]]]:
    """A match to 163 played with first legal actions up to its last two, and those two
    (the one before the last does not end its round: it goes to the journal)."""
    match = Match.new(seed, 163, Rules())
    history: list[tuple[Match, int, Action]] = []
    while not match.is_over:
        rnd = match.current
        assert rnd is not None and rnd.to_act is not None
        action = rnd.legal_actions()[0]
        history.append((match, rnd.to_act, action))
        match = match.apply(action, rnd.to_act)
    (before, seat, action), (_, last_seat, last) = history[-2:]
    assert before.apply(action, seat).current is not None
    return before, [(seat, action), (last_seat, last)]


class _HeldWrites:
    """The saver's write thread is held at the moment a late write could land: a snapshot
    once its temp file is written (before the rename), a journal append once its file is
    open (before the write), or (``before_open``) before it has opened the file at all.
    ``release`` lets it go."""

    current: _HeldWrites

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        _HeldWrites.current = self
        self.hold = False
        self.entered = threading.Event()
        self.release = threading.Event()
        real_temp, real_open = bela.foundation.files.write_temp, os.open

        def held() -> None:
            if self.hold and threading.current_thread() is not threading.main_thread():
                self.entered.set()
                self.release.wait(10)

        def write_temp(directory: Path, text: str, prefix: str) -> Path:
            temp = real_temp(directory, text, prefix)
            if directory == tables_dir():
                held()
            return temp

        journals: set[int] = set()

        def open_(path: str | Path, flags: int, mode: int = 0o777, **kw: object) -> int:
            fd = real_open(path, flags, mode, **kw)  # type: ignore[arg-type]
            if str(path).endswith(".log"):
                journals.add(fd)
            return fd

        def write(fd: int, data: bytes) -> int:
            if fd in journals:
                journals.discard(fd)
                if not self.before_open:
                    held()
            return real_write(fd, data)

        real_append = TableSaver._append

        def append(saver: TableSaver, *args: object) -> None:
            if self.before_open:
                held()
            real_append(saver, *args)  # type: ignore[arg-type]

        real_write = os.write
        self.before_open = False
        monkeypatch.setattr(TableSaver, "_append", append)
        monkeypatch.setattr(bela.foundation.files, "write_temp", write_temp)
        monkeypatch.setattr(bela.net.saves, "write_temp", write_temp, raising=False)
        monkeypatch.setattr(os, "open", open_)
        monkeypatch.setattr(os, "write", write)

    async def settle(self) -> None:
        """Let the held thread go and wait until every write thread has ended."""
        self.release.set()
        await asyncio.get_running_loop().shutdown_default_executor()


async def _table_near_the_end(seed: int) -> tuple[Server, Table, list[tuple[int, Action]]]:
    """A table two actions before the end of its match, saved (a snapshot on disk)."""
    server = Server(options(), TableSaver())
    table = server.new_table()
    match, last_two = _two_actions_from_the_end(seed)
    for index, state in enumerate(table.seats):
        state.name = f"p{index}"
    table.match, table.shown = match, match.current
    assert server.saver is not None
    server.saver.schedule(table)
    await server.saver.flush()
    assert server.saver.path(table.table_id).exists()
    return server, table, last_two


async def _stop_by_close(server: Server) -> None:
    """A clean close, which waits for the write under way (let go meanwhile)."""
    closing = asyncio.get_running_loop().create_task(server.close())
    await asyncio.sleep(0)
    _HeldWrites.current.release.set()
    await closing


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
        (moment, stop)
        for moment in ("snapshot-under-way", "append-under-way", "append-about-to-open")
        for stop in ("close", "ctrl-c", "teardown")
    ]
    # the last write's task has not had a step yet: only a stop that cancels it at once
    # comes before it (a close awaits it, so it runs first)
    + [("write-not-begun", "teardown"), ("write-not-begun", "close")],
)
async def test_a_host_stopped_as_a_match_ends_leaves_no_save_of_it(
    monkeypatch: pytest.MonkeyPatch, stop: str, moment: str
) -> None:
    held = _HeldWrites(monkeypatch)
    server, table, [(seat, action), (last_seat, last)] = await _table_near_the_end(seed=7)
    assert server.saver is not None
    if moment == "snapshot-under-way":  # a seat changed: a whole snapshot is being written
        table.seats[1].name = "p1 again"
    held.hold = moment != "write-not-begun"
    held.before_open = moment == "append-about-to-open"
    assert table.act(seat, action) is None  # the action before the last: saved
    if held.hold:
        assert await asyncio.to_thread(held.entered.wait, 5), "the write thread started"
    assert table.act(last_seat, last) is None  # the last action: archived, save removed
    assert table.match is not None and table.match.is_over
    assert len(list(matches_dir().glob("*.json"))) == 1
    await STOPS[stop](server)
    await held.settle()
    assert sorted(p.name for p in tables_dir().iterdir()) == [], "no file of the table is left"
    saved, problems = load_tables()
    assert (saved, problems) == ([], []), "a restarted host finds nothing to resume"


@pytest.mark.parametrize("moment", ["snapshot-under-way", "append-under-way"])
async def test_a_save_that_lands_before_the_end_is_removed_with_the_table(
    monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """The ordinary order: the write under way as the match ends lands, then the host closes."""
    held = _HeldWrites(monkeypatch)
    server, table, [(seat, action), (last_seat, last)] = await _table_near_the_end(seed=11)
    if moment == "snapshot-under-way":
        table.seats[1].name = "p1 again"
    held.hold = True
    assert table.act(seat, action) is None
    assert await asyncio.to_thread(held.entered.wait, 5)
    assert table.act(last_seat, last) is None
    await held.settle()
    await server.close()
    assert sorted(p.name for p in tables_dir().iterdir()) == []
    assert len(list(matches_dir().glob("*.json"))) == 1


async def test_a_seat_sees_an_action_only_once_it_is_saved(
    monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    """The host sends the state after an action only when the action is on disk, as the
    single-player app saves before it draws: a crash can never take back a card a player
    has seen played. Here the journal write of the player's card is held: nothing about
    that card reaches anyone until it is let go."""
    from netplay import Player, start_host, wait_for

    import bela.net.saves
    from bela.net.protocol import State

    gate = threading.Event()
    real_append, real_replace = TableSaver._append, TableSaver._replace

    def slow_append(saver: TableSaver, *args: object) -> None:
        gate.wait(10)
        real_append(saver, *args)  # type: ignore[arg-type]

    def slow_replace(saver: TableSaver, *args: object) -> None:
        gate.wait(10)
        real_replace(saver, *args)  # type: ignore[arg-type]

    host = await start_host()
    try:
        table = host.server.new_table()
        player = Player(await host.join(table.code, "Ana", lead=table.leader_key))
        await player.client.send({"type": "start"})
        while not player.my_turn():
            await wait_for(player, State)
        seq = player.states[-1].seq
        await host.server.saver.flush()  # type: ignore[union-attr]
        monkeypatch.setattr(bela.net.saves.TableSaver, "_append", slow_append)
        monkeypatch.setattr(bela.net.saves.TableSaver, "_replace", slow_replace)
        await player.client.act(player.states[-1].view.legal[0])
        with pytest.raises(TimeoutError):  # nothing newer while the save is held
            await wait_for(player, State, timeout=0.5)
        assert table.seq > seq and all(s.seq <= seq for s in player.states)
        gate.set()
        state = await wait_for(player, State, timeout=5)
        assert isinstance(state, State) and state.seq == seq + 1
    finally:
        gate.set()
        await host.server.close()
