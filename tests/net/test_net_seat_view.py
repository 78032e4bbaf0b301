"""A seat's ``SeatView`` survives the wire: the client rebuilds exactly what the host's round held.

The hint at a network seat runs the hard bot's search on the client, from the
view rebuilt out of the frame; a field lost on the way (the house rules, the
scores before the round, a zvanje's kind) would make it advise another game.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import Match, Rules
from bela.net.protocol import State, ViewInfo, decode_server
from bela.net.seat_view import round_record_of, seat_view_of
from bela.net.views import state_frames, view_info

SEATS = [{"name": f"p{n}", "kind": "human"} for n in range(4)]

_RULES = st.builds(
    Rules,
    no_forced_trump=st.booleans(),
    visi=st.booleans(),
    bela_on_second=st.booleans(),
    no_zvanja=st.booleans(),
    no_bela=st.booleans(),
    bela_always_counts=st.booleans(),
    stiglja_bonus=st.sampled_from((90, 100)),
    dosta=st.booleans(),
    tens_over_kings=st.booleans(),
    clockwise=st.booleans(),
    hide_played_tricks=st.booleans(),
)


def _played(seed: int, steps: int, rules: Rules, target: int) -> Match:
    rng = random.Random(seed)
    match = Match.new(seed, target, rules)
    for _ in range(steps):
        if match.current is None:
            break
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 160),
    rules=_RULES,
    target=st.sampled_from((163, 501, 1001)),
)
def test_the_view_rebuilt_from_the_frame_is_the_rounds_view(
    seed: int, steps: int, rules: Rules, target: int
) -> None:
    match = _played(seed, steps, rules, target)
    rnd = match.current
    if rnd is None:
        last = match.rounds[-1]
        rnd = match.deal(last.index).replay(last.actions)
    frames = state_frames(match, rnd, [0, 1, 2, 3], 1, SEATS, None)
    for seat in range(4):
        view = rnd.view(seat)
        message = decode_server(frames[seat])  # through JSON, validated, as the client reads it
        assert isinstance(message, State)
        rebuilt = seat_view_of(message.view, seat)
        # field by field first, so a failure names the field that was lost
        for field in dataclasses.fields(view):
            assert getattr(rebuilt, field.name) == getattr(view, field.name), field.name
        assert rebuilt == view


def test_every_field_of_the_view_is_checked() -> None:
    """A view with contexts and zvanja round-trips; dropping any one field would not."""
    for seed in range(200):
        match = _played(seed, 40 + seed % 20, Rules(dosta=True), 501)
        rnd = match.current
        if rnd is None or match.next_index == 0 or rnd.view(0).claim_context is None:
            continue
        view = rnd.view(0)
        info = ViewInfo.model_validate_json(json.dumps(view_info(view, can_claim=False)))
        assert seat_view_of(info, 0) == view
        assert view.match_context is not None and view.rules == Rules(dosta=True)
        for name in ("rules", "match_context", "claim_context"):
            dropped = info.model_copy(update={name: ViewInfo.model_fields[name].default})
            assert seat_view_of(dropped, 0) != view, name
        return
    raise AssertionError("no position with a claim context in 200 seeds")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=_RULES)
def test_a_finished_round_is_sent_with_its_result(seed: int, rules: Rules) -> None:
    """The frame that shows a round's last trick carries its result; no other frame does."""
    match = _played(seed, 0, rules, 1001)
    rng = random.Random(seed)
    while not match.rounds:
        assert match.current is not None
        before = match.current
        match = match.apply(rng.choice(before.legal_actions()))
        if not match.rounds:
            frame = decode_server(state_frames(match, match.current, [1], 1, SEATS, None)[1])
            assert isinstance(frame, State) and frame.ended is None
    record = match.rounds[-1]
    shown = match.deal(record.index).replay(record.actions)
    message = decode_server(state_frames(match, shown, [1], 2, SEATS, None)[1])
    assert isinstance(message, State) and message.ended is not None
    rebuilt = round_record_of(message.ended, record.dealer)
    assert (rebuilt.index, rebuilt.result, rebuilt.written) == (
        record.index,
        record.result,
        record.written,
    )


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seat=st.integers(0, 3), rules=_RULES)
def test_a_finished_round_replays_on_the_client_for_its_analysis(
    seed: int, seat: int, rules: Rules
) -> None:
    """Once eight tricks are played every card is public: a seat rebuilds the round from its
    last frame and gets the same post-mortem as the table that held the deal (the talon's
    split, which stays unknown, changes nothing from the first trick on). A round that left
    cards unplayed gives no round at all."""
    from bela.net.seat_view import played_round_of
    from bela.search.analysis import analyze_round

    match = _played(seed, 0, rules, 1001)
    rng = random.Random(seed)
    while not match.rounds:
        assert match.current is not None
        match = match.apply(rng.choice(match.current.legal_actions()))
    record = match.rounds[-1]
    shown = match.deal(record.index).replay(record.actions)
    message = decode_server(state_frames(match, shown, [seat], 2, SEATS, None)[seat])
    assert isinstance(message, State) and message.ended is not None
    rebuilt = played_round_of(message.view, message.ended)
    if len(shown.tricks) < 8 or record.result.claim is not None:
        assert rebuilt is None
        return
    assert rebuilt is not None and rebuilt.result == shown.result
    assert rebuilt.tricks == shown.tricks and rebuilt.bids == shown.bids
    ours, theirs = analyze_round(rebuilt), analyze_round(shown)
    assert ours.costly_moves() == theirs.costly_moves()
    assert ours.lost_by_seat() == theirs.lost_by_seat()
