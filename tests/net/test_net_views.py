"""The frames the host sends are the documented ``State``, the same however they are built."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import Match
from bela.net.phrases import Phrase
from bela.net.protocol import State, decode_server
from bela.net.views import state_frames, state_message

SEATS = [{"name": f"p{n}", "kind": "human"} for n in range(4)]
NOTE = Phrase("takes_trick", {"name": "p1", "points": 14})


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 120))
def test_spliced_frames_are_the_state_message_and_validate(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    match = Match.new(seed, 501)
    for _ in range(steps):
        if match.current is None:
            break
        match = match.apply(rng.choice(match.current.legal_actions()))
    shown = match.current
    if shown is None:  # the match ended: the last round is what is on show
        last = match.rounds[-1]
        shown = match.deal(last.index).replay(last.actions)
    frames = state_frames(match, shown, [0, 1, 2, 3], 7, SEATS, NOTE)
    for seat, frame in frames.items():
        assert frame.endswith(b"\n") and frame.count(b"\n") == 1
        assert json.loads(frame) == state_message(match, shown, seat, 7, SEATS, NOTE)
        message = decode_server(frame)
        assert isinstance(message, State) and message.seat == seat
        assert list(message.view.hand) == [str(c) for c in shown.hand(seat)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), first=st.integers(0, 150), more=st.integers(0, 150))
def test_a_record_built_on_an_earlier_one_is_the_same_record(
    seed: int, first: int, more: int
) -> None:
    """The host saves with the finished rounds of its last save; nothing may differ."""
    from bela.archive.records import record_from_match

    rng = random.Random(seed)
    match = Match.new(seed, 501)
    earlier = None
    for step in range(first + more):
        if match.current is None:
            break
        if step == first:
            earlier = record_from_match(match, "easy")
        match = match.apply(rng.choice(match.current.legal_actions()))
    known = earlier.rounds if earlier is not None else ()
    assert record_from_match(match, "easy", known) == record_from_match(match, "easy")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 200))
def test_the_round_in_progress_is_seated_as_a_replay_seats_it(seed: int, steps: int) -> None:
    """Records read the seats of the round in progress off the round (fast); a replay agrees."""
    from bela.archive.records import _current_entry, _round_entry

    rng = random.Random(seed)
    match = Match.new(seed, 501)
    for _ in range(steps):
        if match.current is None:
            break
        match = match.apply(rng.choice(match.current.legal_actions()))
    if match.current is None:
        return
    index = match.next_index
    deal = match.deal(index)
    assert _current_entry(deal, index, match.current) == _round_entry(
        deal, index, match.current.actions, None
    )


def test_round_notes_name_the_team_in_the_talk_and_stay_short_on_the_sheet() -> None:
    from bela.net.views import round_note

    names = ["Host", "Ana", "Marko", "Ivo"]
    falls = 0
    for seed in range(40):  # random play: callers fall often enough
        rng = random.Random(seed)
        match = Match.new(seed, 1001)
        while match.current is not None and not match.rounds:
            match = match.apply(rng.choice(match.current.legal_actions()))
        record = match.rounds[0]
        result = record.result
        if result.fell and result.caller is not None and result.stiglja is None:
            falls += 1
            team = result.caller % 2
            assert round_note(record, names) == f"{names[team]} & {names[team + 2]} fell (pad)"
            assert round_note(record) == f"{team}+{team + 2} fell (pad)"
    assert falls >= 3
