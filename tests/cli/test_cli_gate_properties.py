"""The gate, proved by properties (issue #24): hostile text in every field of a record, every
text column of the history index and every file name, through every command that shows it.

Records of one finished match are written into a fresh data directory: a network
copy whose four players have hostile names (a name over 24 characters makes it a
damaged record instead, whose reason is shown), and records with a hostile
difficulty, action, key and round-trip of the names, all under hostile file
names. Then ``bela replay`` (text, ``--sheet``, ``--json``), ``bela analyze``,
``bela history`` (and ``--json``) and ``bela stats`` (and ``--json``) run, and
after the index's text columns are overwritten with hostile text (size and mtime
kept, so it is believed), ``history`` and ``stats`` again. Every output must hold
nothing a terminal acts on, and show every markup tag literally.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bela.archive.history import INDEX_NAME
from bela.archive.records import dumps, record_from_match
from bela.cli import main
from bela.engine import Match
from hostile_text import Hostile, assert_inert, assert_literal, hostile


def _finished() -> Match:
    rng = random.Random(11)
    match = Match.new(11, 501)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


MATCH = _finished()
RECORD = json.loads(dumps(record_from_match(MATCH, "normal")))


@contextlib.contextmanager
def data_directory() -> Iterator[Path]:
    """A fresh data directory for one example (hypothesis runs many in one test)."""
    before = os.environ.get("BELA_DATA_DIR")
    with tempfile.TemporaryDirectory() as name:
        os.environ["BELA_DATA_DIR"] = name
        try:
            yield Path(name)
        finally:
            if before is None:
                del os.environ["BELA_DATA_DIR"]
            else:
                os.environ["BELA_DATA_DIR"] = before


def write(directory: Path, name: str, data: dict[str, object]) -> Path:
    path = directory / "matches" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8", errors="surrogatepass")
    return path


def bela(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``bela argv``: its stdout and stderr together (both reach the terminal)."""
    code = main(argv)
    captured = capsys.readouterr()
    assert code in (0, 2), (argv, captured.err[:500])
    return captured.out + captured.err


@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking re-runs every command
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    names=st.tuples(hostile(0), hostile(1), hostile(2), hostile(3)),
    files=st.tuples(hostile(4, file_name=True), hostile(5, file_name=True)),
    field=hostile(6),
    index=st.tuples(hostile(7), hostile(8), hostile(9)),
)
def test_no_command_lets_hostile_text_through(
    names: tuple[Hostile, ...],
    files: tuple[Hostile, ...],
    field: Hostile,
    index: tuple[Hostile, ...],
    capsys: pytest.CaptureFixture[str],
) -> None:
    everything = [*names, *files, field, *index]
    with data_directory() as directory:
        copy = dict(RECORD, players=[str(n) for n in names], me=0)
        loads = all(len(str(n)) <= 24 for n in names)
        path = write(directory, str(files[0]), copy)
        broken = dict(RECORD, difficulty=str(field))
        broken[str(field)] = 1  # an unknown key of hostile text too
        write(directory, str(files[1]), broken)

        outputs = {
            "replay": bela(["replay", str(path)], capsys),
            "replay --sheet": bela(["replay", str(path), "--sheet"], capsys),
            "replay --json": bela(["replay", str(path), "--json"], capsys),
            "analyze": bela(["analyze", str(path), "--round", "1", "--from-trick", "8"], capsys),
            "history": bela(["history"], capsys),
            "history --json": bela(["history", "--json"], capsys),
            "stats": bela(["stats"], capsys),
            "stats --json": bela(["stats", "--json"], capsys),
        }
        # the index's own text, changed behind its back (size and mtime kept: believed)
        reason, difficulty, rules = (str(item) for item in index)
        conn = sqlite3.connect(directory / INDEX_NAME)
        with conn:
            conn.execute("UPDATE matches SET reason = ? WHERE reason IS NOT NULL", (reason,))
            conn.execute(
                "UPDATE matches SET difficulty = ?, rules = ? WHERE reason IS NULL",
                (difficulty, rules),
            )
        conn.close()
        for argv in (["history"], ["history", "--json"], ["stats"], ["stats", "--json"]):
            outputs[" ".join(argv) + " (index)"] = bela(argv, capsys)

    for where, text in outputs.items():
        assert_inert(text, where)
        assert_literal(text, everything, where)
    if loads:  # the players' names in the rounds' titles and tables
        assert_literal(outputs["replay"], list(names[1:]), "replay", shown=True)
    assert_literal(outputs["history"], list(files), "history", shown=True)
    assert_literal(outputs["history (index)"], [index[0]], "history (index)", shown=True)
    assert_literal(outputs["history --json"], list(files), "history --json", shown=True)
