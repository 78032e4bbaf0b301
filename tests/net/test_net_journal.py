"""The host's saves as a snapshot and a journal: a restarted host resumes exactly where the
table was, from whatever the disk holds when it stopped.

The snapshot (``<id>.json``) is written at the start, at each new round and when a
seat changes; the actions of the round in progress are appended to ``<id>.log``.
"""

from __future__ import annotations

import json
import random

import pytest
from netplay import options

from bela.archive.records import record_from_match
from bela.engine import Match, Rules
from bela.net.saves import TableSaver, load_tables, tables_dir
from bela.net.server import Server
from bela.net.table import Table


async def _seated_table(seed: int) -> tuple[Server, Table]:
    server = Server(options(target=163), TableSaver())
    table = server.new_table()
    for index, seat in enumerate(table.seats):
        seat.name = f"p{index}"
    table.start(seed, Rules())
    return server, table


async def _step(table: Table, rng: random.Random, saver: TableSaver) -> None:
    """One action, and its save written (as when players take turns)."""
    assert table.match is not None
    rnd = table.match.current
    assert rnd is not None and rnd.to_act is not None
    assert table.act(rnd.to_act, rng.choice(rnd.legal_actions())) is None
    await saver.flush()


def _same(a: Match, b: Match) -> bool:
    return record_from_match(a, "random") == record_from_match(b, "random")


def _resumed(table: Table) -> object:
    saved, problems = load_tables()
    assert problems == []
    [(save, match)] = saved
    assert save.table_id == table.table_id
    return record_from_match(match, table.difficulty)


@pytest.mark.parametrize("seed", [3, 4])
async def test_a_restarted_host_resumes_from_snapshot_and_journal_after_any_action(
    seed: int,
) -> None:
    server, table = await _seated_table(seed)
    saver = server.saver
    assert saver is not None
    rng = random.Random(seed)
    journaled = rounds = 0
    try:
        while table.match is not None and not table.match.is_over:
            before = table.match.next_index
            await _step(table, rng, saver)
            if table.match.next_index != before or rng.random() < 0.3:  # the host stops here
                if table.match.is_over:
                    break
                assert _resumed(table) == record_from_match(table.match, table.difficulty)
                journal = saver.journal(table.table_id)
                if table.match.next_index != before:
                    rounds += 1
                    assert not journal.exists(), "a new round starts with a new snapshot"
                elif journal.exists():
                    journaled += 1
    finally:
        await server.close()
    assert journaled > 10 and rounds > 0, "both kinds of save were resumed from"


async def test_a_journal_cut_short_or_damaged_resumes_what_fits() -> None:
    server, table = await _seated_table(5)
    saver = server.saver
    assert saver is not None
    rng = random.Random(5)
    try:
        await _step(table, rng, saver)  # the first save is a snapshot
        for _ in range(6):  # bids and cards of the first round: journal lines
            await _step(table, rng, saver)
        journal = saver.journal(table.table_id)
        lines = journal.read_text().splitlines(keepends=True)
        assert len(lines) == 6
        full = _resumed(table)
        # a last line the host was writing when it stopped: left out without a word
        journal.write_text("".join(lines) + '{"round":0,"at":6,"act')
        assert _resumed(table) == full
        # a line the snapshot already holds (a stop between a snapshot and the journal's
        # removal) is skipped
        journal.write_text(lines[0] + "".join(lines))
        assert _resumed(table) == full
        # a damaged line: what comes before it is resumed, and the host says so
        first = json.loads(lines[0])["at"]  # the snapshot holds the actions before it
        journal.write_text("".join(lines[:3]))
        [(_, three)] = load_tables()[0]
        rnd = three.current
        assert rnd is not None and len(rnd.actions) == first + 3
        for bad in ('"7X"', "12"):
            line = f'{{"round":0,"at":{first + 3},"action":{bad}}}\n'
            journal.write_text("".join(lines[:3]) + line + lines[4])
            saved, problems = load_tables()
            [(_, match)] = saved
            assert len(problems) == 1 and "line 4" in problems[0]
            assert _same(match, three)
        # an action the rules refuse now is refused on replay too
        legal = {str(a) for a in rnd.legal_actions()}
        refused = next(t for t in ("dosta", "call H", "dalje", "7H", "AS", "KD") if t not in legal)
        line = json.dumps({"round": 0, "at": first + 3, "action": refused}) + "\n"
        journal.write_text("".join(lines[:3]) + line)
        saved, problems = load_tables()
        assert len(problems) == 1 and _same(saved[0][1], three)
        # a journal whose lines skip ahead of the snapshot resumes the snapshot alone
        journal.write_text(lines[5])
        saved, problems = load_tables()
        assert len(problems) == 1
        assert saved[0][1].current is not None and len(saved[0][1].current.actions) == first
    finally:
        await server.close()
    assert sorted(p.suffix for p in tables_dir().iterdir()) == [".json", ".log"]
