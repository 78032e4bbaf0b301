"""Records of matches in which a player kept his zvanja back ("šutim"): version 3.

A record holding "šutim" is written as version 3 and replays exactly; every other record
stays version 2, as before; a version-2 record holding "šutim" was edited.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.archive.records import (
    NEWEST_VERSION,
    SCHEMA_VERSION,
    SILENT_VERSION,
    RecordError,
    dumps,
    loads,
    match_from_record,
    parse_action,
    record_from_match,
)
from bela.engine import Match, Silent


def _match_with_silence(seed: int, rounds: int = 2) -> tuple[Match, int]:
    """A match played with random legal actions, every player who may keep zvanja back
    doing so; stopped after ``rounds`` rounds or mid-round. Returns it and the silences."""
    rng = random.Random(seed)
    match = Match.new(seed, target=501)
    said = 0
    while match.current is not None and len(match.rounds) < rounds:
        if match.current.can_stay_silent():
            match = match.apply(Silent())
            said += 1
            continue
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match, said


def test_parse_silent() -> None:
    assert parse_action("šutim") == Silent()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_match_with_silence_replays_exactly(seed: int) -> None:
    match, said = _match_with_silence(seed)
    record = loads(dumps(record_from_match(match, "normal")))
    assert record.schema_version == (SILENT_VERSION if said else SCHEMA_VERSION)
    again = match_from_record(record)
    assert again.rounds == match.rounds
    assert again.scores == match.scores


def test_silence_in_the_round_in_progress_is_kept() -> None:
    match = Match.new(3, target=501)
    while match.current is not None and not match.current.can_stay_silent():
        match = match.apply(match.current.legal_actions()[0])
    match = match.apply(Silent())
    record = loads(dumps(record_from_match(match, "normal")))
    assert record.schema_version == SILENT_VERSION == 3
    again = match_from_record(record)
    assert again.current is not None and again.current.actions == match.current.actions  # type: ignore[union-attr]


def test_a_version_2_record_holding_silence_is_refused() -> None:
    match = Match.new(3, target=501)
    while match.current is not None and not match.current.can_stay_silent():
        match = match.apply(match.current.legal_actions()[0])
    data = json.loads(dumps(record_from_match(match.apply(Silent()), "normal")))
    data["schema_version"] = 2
    with pytest.raises(RecordError, match="not part of a version 2 record"):
        match_from_record(loads(json.dumps(data)))


def test_a_record_of_a_later_version_is_from_a_newer_bela() -> None:
    data = json.loads(dumps(record_from_match(Match.new(3, target=501), "normal")))
    data["schema_version"] = NEWEST_VERSION + 1
    with pytest.raises(RecordError, match="newer bela"):
        loads(json.dumps(data))


def test_the_replay_says_who_kept_zvanja_back() -> None:
    """``bela replay``: a silent seat's zvanja are listed as kept back, never as counting."""
    from rich.console import Console

    from bela.archive.replay_text import match_json, render_match

    match = Match.new(3, target=501)
    while match.current is not None and not match.current.can_stay_silent():
        match = match.apply(match.current.legal_actions()[0])
    assert match.current is not None
    seat = match.current.to_act
    index = match.next_index
    match = match.apply(Silent())
    while match.current is not None and match.next_index == index:
        match = match.apply(match.current.legal_actions()[0])
    console = Console(record=True, width=160)
    console.print(render_match(match, "normal"))
    text = console.export_text()
    assert "kept back (šutim)" in text
    data = match_json(match, "normal")
    rounds = {r["index"]: r["silent"] for r in data["rounds"]}
    assert rounds[index] == [seat]
    assert all(not silent for i, silent in rounds.items() if i != index)
