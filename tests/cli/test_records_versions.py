"""Record versions: schema-1 records (written before rules revision 2) still load and replay as
they were played, and schema-2 records carry every house rule, so a replay honours them.

The files in ``records_v1/`` were written by the record writer of commit 6e80a25 (schema 1,
bela announced with the second card), with bots playing: they are what a player's archive
holds, not something rebuilt from today's code.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.archive.records import (
    SCHEMA_VERSION,
    RecordError,
    RulesEntry,
    dumps,
    loads,
    match_from_record,
    record_from_match,
    result_entry,
)
from bela.engine import LEGACY_RULES, Card, Claim, Match, Play, Rank, Rules
from bela.engine.rules import QUICK_TARGET
from house_rules import ANY_RULES

V1 = Path(__file__).parent / "records_v1"
V1_FILES = sorted(V1.glob("*.json"))


def _v1(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((V1 / name).read_text())
    return data


def test_there_are_schema_1_records_to_check() -> None:
    assert len(V1_FILES) >= 4
    assert all(json.loads(p.read_text())["schema_version"] == 1 for p in V1_FILES)


@pytest.mark.parametrize("path", V1_FILES, ids=lambda p: p.stem)
def test_a_schema_1_record_replays_exactly_as_written(path: Path) -> None:
    """Every stored result, the scores and the winner match the replay (``match_from_record``
    checks each one), under the rules of then: bela with the second card."""
    stored = loads(path.read_text())
    match = match_from_record(stored)
    assert match.rules == Rules(
        no_forced_trump=stored.rules.no_forced_trump, visi=stored.rules.visi, bela_on_second=True
    )
    assert match.rules.bela_on_second is LEGACY_RULES.bela_on_second is True
    assert [result_entry(r) for r in match.rounds] == [
        e.result for e in stored.rounds if e.result is not None
    ]
    assert (match.scores, match.winner, match.hanging) == (
        stored.scores,
        stored.winner,
        stored.hanging,
    )


def test_a_schema_1_record_announced_bela_with_the_second_card() -> None:
    """The point of reading version 1 as the old rules: its bela announcements are on the
    second card, which the rules of today refuse."""
    data = _v1("normal_501.json")
    belas = [a for r in data["rounds"] for a in r["actions"] if a["action"].endswith(" bela")]
    assert belas
    match = match_from_record(loads(json.dumps(data)))
    announced = 0
    for played in match.rounds:
        cards = [a.card for a in played.actions if isinstance(a, Play)]
        for i, action in enumerate(a for a in played.actions if isinstance(a, Play)):
            if action.bela:
                other = Rank.QUEEN if action.card.rank is Rank.KING else Rank.KING
                assert Card.of(other, action.card.suit) in cards[:i]  # the pair's other card
                announced += 1
    assert announced == len(belas)
    # The same file read as a version-2 record with today's defaults is refused: bela on the
    # second card is not allowed any more.
    data["schema_version"] = 2
    data["rules"] = json.loads(RulesEntry.of(Rules()).model_dump_json()) | {
        "no_forced_trump": data["rules"]["no_forced_trump"],
        "visi": data["rules"]["visi"],
    }
    with pytest.raises(RecordError, match="bela is announced with the first"):
        match_from_record(loads(json.dumps(data)))


def test_a_schema_1_record_resaved_is_a_schema_2_record_with_the_old_rules() -> None:
    match = match_from_record(loads((V1 / "visi_501.json").read_text()))
    again = loads(dumps(record_from_match(match, "normal")))
    assert again.schema_version == SCHEMA_VERSION == 2
    assert again.rules.bela_on_second is True and again.rules.visi is True
    assert match_from_record(again).rounds == match.rounds


def test_a_schema_1_record_with_a_new_rule_in_it_is_refused() -> None:
    data = _v1("normal_501.json")
    data["rules"]["dosta"] = False
    with pytest.raises(RecordError, match=r"rules\.dosta is not part of a version 1 record"):
        match_from_record(loads(json.dumps(data)))


def test_a_schema_2_record_missing_a_rule_is_refused() -> None:
    record = record_from_match(Match.new(3, 501), "normal")
    data = json.loads(dumps(record))
    del data["rules"]["stiglja_bonus"]
    with pytest.raises(RecordError, match=r"rules\.stiglja_bonus is missing"):
        match_from_record(loads(json.dumps(data)))


def test_a_schema_2_record_with_an_impossible_rule_is_refused() -> None:
    data = json.loads(dumps(record_from_match(Match.new(3, 501), "normal")))
    data["rules"]["stiglja_bonus"] = 95
    with pytest.raises(RecordError, match="stiglja_bonus is 90 or 100"):
        match_from_record(loads(json.dumps(data)))


def test_every_rule_is_stored() -> None:
    rules = Rules(
        no_forced_trump=True,
        visi=True,
        bela_on_second=True,
        no_zvanja=True,
        no_bela=True,
        bela_always_counts=True,
        stiglja_bonus=100,
        dosta=True,
        tens_over_kings=True,
        clockwise=True,
        hide_played_tricks=True,
    )
    record = loads(dumps(record_from_match(Match.new(3, 701, rules), "easy")))
    assert match_from_record(record).rules == rules
    assert set(RulesEntry.model_fields) == set(Rules.__dataclass_fields__)


rules_strategy = ANY_RULES


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_strategy,
    seed=st.integers(0, 2**32),
    target=st.sampled_from((QUICK_TARGET, 501, 1001)),
)
def test_a_match_under_any_rules_round_trips(rules: Rules, seed: int, target: int) -> None:
    """Random legal actions (claims included) under random rules: the record replays to the
    same match, so a replay uses the rules the match was played under."""
    rng = random.Random(seed)
    match = Match.new(seed, target, rules)
    steps = 0
    while match.current is not None and steps < 400:
        match = match.apply(rng.choice(match.current.legal_actions()))
        steps += 1
    again = match_from_record(loads(dumps(record_from_match(match, "random"))))
    assert again.rules == rules
    assert (again.rounds, again.scores, again.winner, again.hanging) == (
        match.rounds,
        match.scores,
        match.winner,
        match.hanging,
    )


def test_a_claim_round_trips_through_a_record() -> None:
    """A "dosta" is written as the action ``dosta`` and its verdict in the round's result."""
    rules = Rules(dosta=True)
    match = Match.new(11, 501, rules)
    rng = random.Random(11)
    while match.current is not None and not match.current.can_claim():
        match = match.apply(rng.choice(match.current.legal_actions()))
    match = match.apply(Claim())
    assert match.winner is not None
    text = dumps(record_from_match(match, "normal"))
    assert '"action": "dosta"' in text
    again = match_from_record(loads(text))
    assert again.rounds[-1].result.claim == match.rounds[-1].result.claim is not None
    assert again.winner == match.winner
