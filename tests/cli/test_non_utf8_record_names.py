"""A record whose file name is not valid UTF-8 (issue #34): the index keeps it with its bytes
escaped, and everything that opens a record by its indexed name still finds it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from archived import archive, random_match

from bela.archive.history import open_history, record_path
from bela.cli import main


def _renamed(path: Path) -> Path:
    """``path`` renamed to a name holding the byte 0xff (not UTF-8)."""
    raw = os.fsencode(path)
    target = raw[: -len(b".json")] + b"-\xff\xfe.json"
    os.rename(raw, target)
    return Path(os.fsdecode(target))


def test_the_indexed_name_leads_back_to_the_file() -> None:
    path = _renamed(archive(random_match(3, target=163)))
    with open_history() as history:
        history.refresh()
        (row,) = history.matches()
        assert "\\xff" in row.file
        assert history.path_of(row.file) == path
        assert record_path(path.parent, row.file).read_bytes() == path.read_bytes()


def test_the_coach_reads_a_record_whose_name_is_not_utf8(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _renamed(archive(random_match(3, target=163)))
    code = main(["coach", "--no-bot", "--jobs", "1", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and "skipped" not in err, err
    assert json.loads(out)["matches"] == 1


def test_the_bot_in_my_seat_reads_a_record_whose_name_is_not_utf8(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _renamed(archive(random_match(3, steps=60), difficulty="easy"))
    argv = ["replay", "--bot-in-my-seat", "--last", "1", "--bot", "easy", "--jobs", "1", "--json"]
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0 and "skipped" not in err, err
    assert json.loads(out)["matches"] == 1
