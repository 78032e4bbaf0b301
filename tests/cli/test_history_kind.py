"""A match is filed as what it was (issue #35): the app's own matches under their bots' level,
network matches as network ones, whatever names the records keep.

The app keeps the seats' names in its records once the player names them in F2; a bela that
took every record with names for a network match filed all of that player's matches as
"network" (history, statistics, the F3 filter). The records here are written the way the app
and the network host write them (``bela.session.archive``, ``seated``), and the old
files as they were written before the record said its kind.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from archived import random_match

from bela.archive.history import INDEX_NAME, NETWORK, open_history
from bela.archive.records import (
    KIND_VERSION,
    RecordError,
    dumps,
    loads,
    match_from_record,
    record_from_match,
    seated,
)
from bela.archive.stats import statistics
from bela.archive.storage import archive_match, matches_dir, read_record
from bela.cli import main
from bela.session import archive
from bela.wording import match_kind

NAMES = ("Lucija", "Ivo", "Marko", "Ana")


def _app_match_with_names(seed: int = 11) -> Path:
    """A finished match archived by the app after the player named the seats in F2."""
    assert archive(random_match(seed), "normal", NAMES) is None
    (path,) = sorted(matches_dir().glob("*.json"))
    return path


def test_the_apps_match_with_names_is_filed_under_its_level() -> None:
    path = _app_match_with_names()
    record = read_record(path)
    assert record.players == NAMES  # the names are kept ...
    assert record.kind == "app" and not record.is_network  # ... and say nothing of the kind
    assert record.schema_version == KIND_VERSION
    with open_history() as history:
        (row,) = history.matches()
        assert row.difficulty == "normal"
        assert match_kind(row.difficulty, row.players, row.me) == "normal"
        levels = {level.difficulty: level.played for level in statistics(history).by_difficulty}
        assert levels == {"normal": 1}
        assert statistics(history, "normal").matches == 1  # the filter finds it
        assert statistics(history, NETWORK).matches == 0


def test_the_command_line_history_and_stats_do_not_call_it_network(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _app_match_with_names()
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert "network" not in out and "normal" in out
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [level["difficulty"] for level in data["by_difficulty"]] == ["normal"]


def test_a_network_match_is_filed_as_one_even_from_a_host_that_only_hosted() -> None:
    record = seated(record_from_match(random_match(12), "normal"), "network", NAMES)
    assert record.me is None and record.bot_rounds is None  # nothing else says "network"
    archive_match(record)
    with open_history() as history:
        (row,) = history.matches()
        assert row.difficulty == NETWORK
        assert match_kind(row.difficulty, row.players, row.me).startswith("network, with")


def _legacy(record_seed: int, **fields: object) -> None:
    """A record as a bela before version 4 wrote it: names, no kind."""
    record = record_from_match(random_match(record_seed), "hard")
    archive_match(record.model_copy(update=fields))


def test_old_records_are_read_right_when_the_old_index_is_rebuilt(data_dir: Path) -> None:
    _legacy(21, players=NAMES)  # the app, with names: no seat, no bot rounds
    _legacy(22, players=NAMES, me=2)  # a network player's copy
    _legacy(23, players=NAMES, bot_rounds=((0, 1),))  # a host's copy, a bot stood in
    _legacy(24)  # the app, without names
    for path in matches_dir().glob("*.json"):
        assert "kind" not in json.loads(path.read_text())
    with open_history():
        pass
    # the index as the bela before this one left it: version 4, every named record "network"
    with sqlite3.connect(data_dir / INDEX_NAME) as conn:
        conn.execute("UPDATE schema_version SET version = 4")
        conn.execute("UPDATE matches SET difficulty = 'network' WHERE players IS NOT NULL")
    conn.close()
    with open_history() as history:
        assert history.rebuilt
        kinds = sorted((row.seed, row.difficulty) for row in history.matches())
    assert kinds == [(21, "hard"), (22, NETWORK), (23, NETWORK), (24, "hard")]


def test_a_kind_is_kept_through_the_file_and_checked() -> None:
    record = seated(record_from_match(random_match(31, steps=40), "easy"), "app", NAMES)
    again = loads(dumps(record))
    assert again == record and again.kind == "app"
    match_from_record(again)
    older = json.loads(dumps(record))
    older["schema_version"] = 3
    with pytest.raises(RecordError, match="kind is not part of a version 3 record"):
        match_from_record(loads(json.dumps(older)))
    nameless = json.loads(dumps(record))
    nameless["kind"] = "network"
    del nameless["players"]
    with pytest.raises(RecordError, match="network match's record names the players"):
        match_from_record(loads(json.dumps(nameless)))
    no_names = record_from_match(random_match(32, steps=40), "easy")
    assert "kind" not in dumps(no_names)  # a record without names stays as it was
