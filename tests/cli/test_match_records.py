"""Match records: round trips through JSON and the engine, and refusal of anything edited."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.archive.records import (
    NEWEST_VERSION,
    MatchRecord,
    RecordError,
    action_text,
    dumps,
    loads,
    match_from_record,
    parse_action,
    record_from_match,
)
from bela.engine import Match, Pass, Round, Rules


def random_match(seed: int, steps: int | None = None, **kwargs: Any) -> Match:
    """A match played with random legal actions, ``steps`` of them (or to the end)."""
    rng = random.Random(seed)
    match = Match.new(seed, **kwargs)
    done = 0
    while match.current is not None and (steps is None or done < steps):
        match = match.apply(rng.choice(match.current.legal_actions()))
        done += 1
    return match


def same_match(a: Match, b: Match) -> bool:
    current_a = None if a.current is None else (a.current.dealer, a.current.actions)
    current_b = None if b.current is None else (b.current.dealer, b.current.actions)
    return (a.rounds, a.scores, a.winner, a.hanging, current_a) == (
        b.rounds,
        b.scores,
        b.winner,
        b.hanging,
        current_b,
    )


def as_dict(record: MatchRecord) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(record))
    return data


def test_a_finished_match_round_trips() -> None:
    match = random_match(42, target=501)
    assert match.is_over
    record = record_from_match(match, "normal")
    again = match_from_record(loads(dumps(record)))
    assert same_match(again, match)
    assert record.is_finished and record.winner == match.winner
    assert all(entry.result is not None for entry in record.rounds)


def test_the_round_in_progress_is_kept_with_its_actions() -> None:
    match = random_match(7, steps=50)
    assert match.current is not None and match.current.actions
    record = record_from_match(match, "easy")
    last = record.rounds[-1]
    assert last.result is None
    assert [a.action for a in last.actions] == [str(a) for a in match.current.actions]
    assert last.actions[0].seat == match.current.first_player
    again = match_from_record(loads(dumps(record)))
    assert same_match(again, match)
    assert record.difficulty == "easy"


def test_a_fresh_match_round_trips() -> None:
    match = Match.new(3, target=701, start_index=4)
    record = loads(dumps(record_from_match(match, "normal")))
    assert record.start_index == 4 and record.rounds[0].index == 4
    assert same_match(match_from_record(record), match)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    steps=st.integers(0, 200),
    target=st.sampled_from([501, 701, 1001]),
    first_dealer=st.integers(0, 3),
    start_index=st.integers(0, 50),
    no_forced_trump=st.booleans(),
    visi=st.booleans(),
)
def test_any_match_replays_from_its_record(
    seed: int,
    steps: int,
    target: int,
    first_dealer: int,
    start_index: int,
    no_forced_trump: bool,
    visi: bool,
) -> None:
    rules = Rules(no_forced_trump=no_forced_trump, visi=visi)
    match = random_match(
        seed,
        steps,
        target=target,
        rules=rules,
        first_dealer=first_dealer,
        start_index=start_index,
    )
    record = record_from_match(match, "random")
    again = match_from_record(loads(dumps(record)))
    assert same_match(again, match)
    assert record_from_match(again, "random") == record


def test_a_redealt_round_round_trips() -> None:
    match = Match.new(1, rules=Rules(no_forced_trump=True))
    for _ in range(4):
        match = match.apply(Pass())
    assert match.rounds[0].result.redeal
    record = record_from_match(match, "normal")
    assert record.rules.no_forced_trump
    assert same_match(match_from_record(loads(dumps(record))), match)


def test_every_action_has_a_text_that_reads_back() -> None:
    rnd = Round.from_seed(99, dealer=3)
    rng = random.Random(1)
    seen = 0
    while not rnd.is_finished:
        for action in rnd.legal_actions():
            assert parse_action(action_text(action)) == action
            seen += 1
        rnd = rnd.apply(rng.choice(rnd.legal_actions()))
    assert seen > 20
    assert parse_action("QH bela") == parse_action(" qh bela ")
    for bad in ("", "pass", "call X", "11H", "10H bela bela", "bela"):
        with pytest.raises(RecordError):
            parse_action(bad)


# ---------------------------------------------------------------------- refusals


@pytest.fixture
def good() -> dict[str, Any]:
    """A finished match of several rounds as JSON data, ready to be damaged."""
    data = as_dict(record_from_match(random_match(42, target=1001), "normal"))
    assert len(data["rounds"]) >= 3
    return data


def load(data: dict[str, Any]) -> Match:
    return match_from_record(loads(json.dumps(data)))


def test_the_good_record_loads(good: dict[str, Any]) -> None:
    assert load(good).is_over


def test_a_newer_schema_version_is_refused_by_name(good: dict[str, Any]) -> None:
    good["schema_version"] = NEWEST_VERSION + 1
    good["something_new"] = {"x": 1}
    with pytest.raises(RecordError, match="newer bela"):
        load(good)


@pytest.mark.parametrize("version", [0, -1, "1", None, 1.0])
def test_a_bad_schema_version_is_refused(good: dict[str, Any], version: object) -> None:
    good["schema_version"] = version
    with pytest.raises(RecordError):
        load(good)


def test_a_missing_schema_version_is_refused(good: dict[str, Any]) -> None:
    del good["schema_version"]
    with pytest.raises(RecordError, match="schema_version"):
        load(good)


def test_an_unknown_field_is_refused(good: dict[str, Any]) -> None:
    good["rounds"][0]["note"] = "edited"
    with pytest.raises(RecordError, match=r"rounds\.0\.note"):
        load(good)


def test_a_changed_result_is_caught_by_the_replay(good: dict[str, Any]) -> None:
    written = good["rounds"][0]["result"]["written"]
    good["rounds"][0]["result"]["written"] = [written[0] + 10, written[1]]
    with pytest.raises(RecordError, match=r"round 1's result does not match its replay: written"):
        load(good)


def test_changed_scores_are_caught(good: dict[str, Any]) -> None:
    good["scores"] = [good["scores"][0] + 1, good["scores"][1]]
    with pytest.raises(RecordError, match="scores"):
        load(good)


def test_a_changed_winner_is_caught(good: dict[str, Any]) -> None:
    good["winner"] = 1 - good["winner"]
    with pytest.raises(RecordError, match="winner"):
        load(good)


def test_an_illegal_action_is_refused_with_the_reason(good: dict[str, Any]) -> None:
    actions = good["rounds"][0]["actions"]
    # swap two cards of the same seat from different tricks: the card is illegal or unheld
    plays = [i for i, a in enumerate(actions) if a["action"] not in ("dalje",)][1:]
    actions[plays[0]]["action"], actions[plays[4]]["action"] = (
        actions[plays[4]]["action"],
        actions[plays[0]]["action"],
    )
    with pytest.raises(RecordError, match="round 1, action"):
        load(good)


def test_an_action_by_the_wrong_seat_is_refused(good: dict[str, Any]) -> None:
    first = good["rounds"][0]["actions"][0]
    first["seat"] = (first["seat"] + 1) % 4
    with pytest.raises(RecordError, match="seat"):
        load(good)


def test_a_missing_action_is_refused(good: dict[str, Any]) -> None:
    del good["rounds"][0]["actions"][-1]
    with pytest.raises(RecordError, match="round 1"):
        load(good)


def test_an_extra_action_after_the_round_is_refused(good: dict[str, Any]) -> None:
    good["rounds"][0]["actions"].append({"seat": 0, "action": "dalje"})
    with pytest.raises(RecordError, match="round 1"):
        load(good)


def test_a_missing_round_is_refused(good: dict[str, Any]) -> None:
    del good["rounds"][0]
    with pytest.raises(RecordError, match="out of order"):
        load(good)


def test_a_wrong_dealer_is_refused(good: dict[str, Any]) -> None:
    good["rounds"][0]["dealer"] = (good["rounds"][0]["dealer"] + 1) % 4
    with pytest.raises(RecordError, match="dealt by seat"):
        load(good)


def test_a_changed_seed_is_refused_as_a_different_deal(good: dict[str, Any]) -> None:
    good["seed"] += 1
    with pytest.raises(RecordError, match="not the deal of seed"):
        load(good)


def test_the_deal_is_stored_and_checked(good: dict[str, Any]) -> None:
    first = good["rounds"][0]
    rnd = Match.new(42).deal(0)
    assert first["hands"] == [" ".join(str(c) for c in rnd.hand(s)) for s in range(4)]
    assert first["talons"] == [" ".join(str(c) for c in rnd.talon(s)) for s in range(4)]
    first["hands"][0], first["hands"][1] = first["hands"][1], first["hands"][0]
    with pytest.raises(RecordError, match="round 1's cards are not the deal"):
        load(good)


def test_a_round_after_the_end_is_refused(good: dict[str, Any]) -> None:
    last = good["rounds"][-1]
    good["rounds"].append(
        {
            "index": last["index"] + 1,
            "dealer": (last["dealer"] + 1) % 4,
            "hands": last["hands"],
            "talons": last["talons"],
            "actions": [],
            "result": None,
        }
    )
    with pytest.raises(RecordError, match="after the end"):
        load(good)


def test_an_unfinished_round_before_others_is_refused(good: dict[str, Any]) -> None:
    good["rounds"][0]["actions"] = good["rounds"][0]["actions"][:10]
    good["rounds"][0]["result"] = None
    with pytest.raises(RecordError, match="more rounds follow"):
        load(good)


def test_a_finished_round_without_its_result_is_refused(good: dict[str, Any]) -> None:
    good["rounds"][0]["result"] = None
    with pytest.raises(RecordError, match="no result"):
        load(good)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("target", 500),
        ("seed", -1),
        ("seed", 2**64),
        ("seed", "42"),
        ("first_dealer", 4),
        ("difficulty", ""),
        ("difficulty", "Normal Bot"),
        ("rules", {"no_forced_trump": False}),
        ("rounds", None),
    ],
)
def test_bad_settings_are_refused(good: dict[str, Any], field: str, value: object) -> None:
    good[field] = value
    with pytest.raises(RecordError):
        load(good)


def test_a_truncated_record_is_refused(good: dict[str, Any]) -> None:
    text = json.dumps(good)
    for cut in (1, len(text) // 3, len(text) - 1):
        with pytest.raises(RecordError, match=r"not complete JSON|not a bela match record"):
            loads(text[:cut])


@pytest.mark.parametrize(
    "data", [b"", b"   ", b"\xff\xfe\x00", b"[]", b"null", b"42", b'"text"', b"{}", b'{"a":1}']
)
def test_things_that_are_not_records(data: bytes) -> None:
    with pytest.raises(RecordError, match="not a bela match record"):
        loads(data)


def test_error_messages_are_one_line(good: dict[str, Any]) -> None:
    good["rounds"][0]["result"]["written"] = "lots"
    good["seed"] = "x"
    with pytest.raises(RecordError) as caught:
        load(good)
    assert "\n" not in str(caught.value)
    assert "more problem" in str(caught.value)
