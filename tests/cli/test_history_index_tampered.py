"""An index someone edited (issue #24, findings 3 and 4).

The history index is a cache of the records and an ordinary file: its text is
outside text (shown through the gate, never raw), and an index of the right
``schema_version`` but the wrong shape or types is found on open and rebuilt
from the records, as a damaged one is, instead of failing every run.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from archived import archive, random_match

from bela.archive.history import INDEX_NAME, Outcome, open_history
from bela.archive.storage import matches_dir
from bela.cli import main

TERMINAL_ACTS_ON = ("\x1b", "\x07", "\x9b", "\x9d", "\u202e", "\u2066")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def tamper(data_dir: Path, sql: str, *args: object) -> None:
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    try:
        with conn:
            conn.execute(sql, args)
    finally:
        conn.close()


@pytest.fixture
def indexed(data_dir: Path) -> None:
    """Two finished matches, an unfinished one and a damaged record, indexed."""
    archive(random_match(1))
    archive(random_match(2), "hard")
    archive(random_match(3, 120))
    (matches_dir() / "20250101T000000Z-bad.json").write_text("{nope", encoding="utf-8")
    open_history().close()


@pytest.mark.usefixtures("indexed")
def test_a_reason_changed_in_the_index_is_printed_as_text(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reason = "\x1b]0;pwned\x07\x1b[2J[bold red]loud[/bold red] \x9b31m \u202eevil"
    tamper(data_dir, "UPDATE matches SET reason = ? WHERE outcome = 'damaged'", reason)
    for argv in (["history"], ["history", "--result", "damaged"], ["history", "--json"]):
        out = run(argv, capsys)
        assert "loud" in out, argv
        assert not any(char in out for char in TERMINAL_ACTS_ON), (argv, out)
    assert "[bold red]loud[/bold red]" in run(["history"], capsys)
    listed = json.loads(run(["history", "--json"], capsys))["matches"]
    assert reason in [row["reason"] for row in listed]  # JSON keeps the text, escaped


TAMPERINGS = {
    "a dropped table": "DROP TABLE rounds",
    "a dropped matches table": "DROP TABLE matches",
    "a renamed column": "ALTER TABLE matches RENAME COLUMN target TO goal",
    "a renamed rounds column": "ALTER TABLE rounds RENAME COLUMN dealer TO giver",
    "a text target": "UPDATE matches SET target = 'x' WHERE target IS NOT NULL",
    "a seed of markup": "UPDATE matches SET seed = '[bold]7' WHERE seed IS NOT NULL",
    "a seed of 5,000 digits": f"UPDATE matches SET seed = '{'9' * 5000}' WHERE seed IS NOT NULL",
    "bytes as a date": "UPDATE matches SET played_at = X'00ff10'",
    "a date that does not exist": "UPDATE matches SET played_at = '2025-02-31T00:00:00+00:00'",
    "another outcome": "UPDATE matches SET outcome = 'drawn' WHERE outcome = 'won'",
    "a real for a count": "UPDATE matches SET rounds = 1.5",
    "a seat 9": "UPDATE rounds SET dealer = 9",
    "a text score": "UPDATE rounds SET written_mi = 'lots'",
    "a trump of markup": "UPDATE rounds SET trump = '[/]' WHERE trump IS NOT NULL",
    "a lost score": "UPDATE matches SET score_vi = NULL WHERE score_mi IS NOT NULL",
}


@pytest.mark.usefixtures("indexed")
@pytest.mark.parametrize("sql", TAMPERINGS.values(), ids=TAMPERINGS.keys())
def test_an_index_of_the_wrong_shape_is_rebuilt(
    sql: str, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {
        argv: run(argv, capsys)
        for argv in (("history",), ("history", "--json"), ("stats",), ("stats", "--json"))
    }
    tamper(data_dir, sql)
    with open_history(refresh=False) as history:
        assert history.rebuilt and history.notice is None
    tamper(data_dir, sql)  # and again: each command heals it on its own
    for argv, output in before.items():
        assert run(list(argv), capsys) == output, argv
        tamper(data_dir, sql)


@pytest.mark.parametrize(
    ("reason", "values", "shown"),
    [
        # a format that would fill the memory, an attribute, an index, a conversion, a
        # field with no value, a positional one: the message as it stands, never formatted
        ("round {number:>999999999}", {"number": 1}, "round {number:>999999999}"),
        ("{number.__class__}", {"number": 1}, "{number.__class__}"),
        ("{number[0]}", {"number": "ab"}, "{number[0]}"),
        ("{number!r}", {"number": "x"}, "{number!r}"),
        ("round {other}", {"number": 1}, "round {other}"),
        ("round {}", {"number": 1}, "round {}"),
        ("round {number", {"number": 1}, "round {number"),
        ("round {number}", {"number": [1, 2]}, "round {number}"),
        # a message this bela does not know, with plain values: formatted, as text
        ("round {number} [bold]x[/bold]", {"number": 7}, "round 7 [bold]x[/bold]"),
    ],
)
def test_a_reason_edited_in_the_index_is_never_formatted_beyond_its_values(
    indexed: None, data_dir: Path, reason: str, values: dict[str, object], shown: str
) -> None:
    stored = json.dumps({"reason": reason, "values": values})
    tamper(data_dir, "UPDATE matches SET reason = ? WHERE outcome = 'damaged'", stored)
    with open_history(refresh=False) as history:
        [row] = history.matches(outcome=Outcome.DAMAGED)
    assert row.reason == shown


def test_a_record_error_keeps_its_values_through_a_pickle() -> None:
    """Lab workers send errors back pickled: the values must come along, or the message
    could not be said (and the history could not keep it)."""
    import pickle

    from bela.archive.record_basics import RecordError

    error = RecordError("round {number} comes after the end of the match", number=3)
    back = pickle.loads(pickle.dumps(error))
    assert str(back) == str(error) == "round 3 comes after the end of the match"
    assert back.stored() == error.stored()


def test_a_record_error_is_said_in_the_language_in_use_and_in_english_for_a_peer() -> None:
    """The host refuses a peer's unreadable action in English (``in_english``): the peer may
    read another language than the host's."""
    from bela.archive.record_basics import RecordError
    from bela.archive.records import parse_action
    from bela.i18n import set_language

    try:
        set_language("hr")
        with pytest.raises(RecordError) as caught:
            parse_action("call Z")
        local, peer = str(caught.value), caught.value.in_english()
    finally:
        set_language("en")
    assert local.startswith("'call Z' nije potez")
    assert peer.startswith("'call Z' is not an action")
