"""The host's sentences travel as phrases and each app words them in its own language."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import IllegalActionError, Match
from bela.engine.errors import OutOfTurnError
from bela.i18n import set_language
from bela.net.phrases import PHRASES, Phrase, illegal_phrase, render, round_over
from bela.net.views import round_note
from bela.wording import action_error

NAMES = ["Ana", "Ivo", "Mara", "Luka"]


def _finished_rounds(seed: int) -> tuple[Match, list[tuple[int, Match]]]:
    rng = random.Random(seed)
    match = Match.new(seed, 501)
    ends = []
    while match.current is not None:
        before = len(match.rounds)
        match = match.apply(rng.choice(match.current.legal_actions()))
        if len(match.rounds) > before:
            ends.append((len(match.rounds) - 1, match))
    return match, ends


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_round_line_worded_by_the_app_is_the_hosts_sentence(seed: int) -> None:
    """In English the app's wording of a round's end is exactly the host's own sentence,
    whatever happened in the round (fell, štiglja, redeal, belot)."""
    _, ends = _finished_rounds(seed)
    for index, match in ends:
        record = match.rounds[index]
        phrase = round_over(record, NAMES, match.scores)
        assert render(phrase.text, phrase.code, phrase.args) == phrase.text
        note = round_note(record, NAMES)  # the sheet's own English says the same
        assert (f" ({note})." in phrase.text) if note else "(" not in phrase.text
        assert phrase.text.startswith(f"Round {record.index + 1} over: Ana & Mara")


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_each_seat_words_the_round_line_from_its_own_team(seed: int) -> None:
    """The host sends a round's end with the teams by number; each app says "we" for its own
    seat's team, so the two teams read the same line mirrored, and the note (who fell, whose
    štiglja) from their side: never a team's name or label put into the sentence."""
    _, ends = _finished_rounds(seed)
    for index, match in ends:
        record = match.rounds[index]
        phrase = round_over(record, NAMES, match.scores)
        for me in range(4):
            mine = me % 2
            worded = render(phrase.text, phrase.code, phrase.args, me)
            assert worded.startswith(f"Round {record.index + 1} over"), worded
            assert (
                f"we write {record.written[mine]}, they write {record.written[1 - mine]}; "
                f"the score is {match.scores[mine]} : {match.scores[1 - mine]}."
            ) in worded
            assert not any(name in worded for name in NAMES)
            result = record.result
            if result.stiglja is not None:
                sweep = "štiglja for us" if result.stiglja == mine else "štiglja for them"
                assert sweep in worded
            if result.fell and not result.hanging and result.caller is not None:
                ours = result.caller % 2 == mine
                assert ("we fell (pad)" if ours else "they fell (pad)") in worded


def test_the_player_who_takes_a_trick_reads_it_said_to_them() -> None:
    phrase = Phrase("takes_trick", {"name": "Luka", "seat": 3, "points": 14})
    assert render(phrase.text, phrase.code, phrase.args, 3) == "You take the trick (+14)."
    assert render(phrase.text, phrase.code, phrase.args, 1) == "Luka takes the trick (+14)."
    assert render(phrase.text, phrase.code, phrase.args) == "Luka takes the trick (+14)."
    sat = Phrase("sits_down", {"name": "Luka", "seat": 2})
    # the protocol's seat 2 is said as the lobby numbers it, 1-4
    assert render(sat.text, sat.code, sat.args, 2) == "You sit down at seat 3."
    assert render(sat.text, sat.code, sat.args, 0) == "Luka sits down at seat 3."


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_an_illegal_action_is_worded_as_the_local_table_words_it(seed: int, steps: int) -> None:
    """Every action the engine refuses (a card against the rules, out of turn, a dealer's
    dalje) reaches the seat as a phrase the app words like its own table does."""
    rng = random.Random(seed)
    match = Match.new(seed, 501)
    for _ in range(steps):
        if match.current is None:
            return
        match = match.apply(rng.choice(match.current.legal_actions()))
    rnd = match.current
    if rnd is None:
        return
    legal = set(rnd.legal_actions())
    seat = rnd.to_act
    assert seat is not None
    tried = 0
    for action in _all_actions():
        if action in legal:
            continue
        for who in (seat, (seat + 1) % 4):
            try:
                match.apply(action, who)
            except IllegalActionError as exc:
                phrase = illegal_phrase(exc)
                worded = render(phrase.text, phrase.code, phrase.args)
                if isinstance(exc, OutOfTurnError):
                    assert worded == "it is not your turn"
                else:
                    local = action_error(exc)  # as the local table says it, capitalised
                    assert worded[:1].upper() + worded[1:] == local
                tried += 1
    assert tried > 0


def _all_actions() -> list[object]:
    from bela.engine import Call, Card, Pass, Play, Suit

    return [Pass(), *(Call(s) for s in Suit), *(Play(Card(c)) for c in range(32))]


def test_each_app_words_a_phrase_in_its_own_language() -> None:
    phrase = Phrase("left", {"name": "Ana"})
    english = render(phrase.text, phrase.code, phrase.args)
    set_language("hr")
    try:
        croatian = render(phrase.text, phrase.code, phrase.args)
    finally:
        set_language("en")
    assert english == "Ana left the table." and croatian != english and "Ana" in croatian


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    code=st.one_of(st.sampled_from([*PHRASES, "illegal", "round_over_note"]), st.text(max_size=20)),
    args=st.dictionaries(
        st.sampled_from(
            [
                *("name", "seat", "reason", "card", "led", "trump", "win", "legal", "x"),
                *("n", "written0", "written1", "score0", "score1", "fell", "stiglja", "belot"),
            ]
        ),
        st.one_of(st.text(max_size=400), st.integers()),
        max_size=8,
    ),
    me=st.one_of(st.none(), st.integers(-2, 5)),
)
def test_a_strange_host_can_only_say_plain_words(
    code: str, args: dict[str, str | int], me: int | None
) -> None:
    """Whatever code and values arrive, wording never fails: an unknown code, a missing or
    odd value gives the host's English text; values are cut; nothing is read as a template."""
    worded = render("the host's text", code, args, me)
    assert isinstance(worded, str)
    if code not in PHRASES and code != "illegal":
        assert worded == "the host's text"
    assert len(worded) <= max(len(t) for t in PHRASES.values()) + 8 * 80 + 200


def test_values_are_never_read_as_templates() -> None:
    evil = "{name.__class__} {0} {seat!r}"
    assert render("x", "left", {"name": evil}) == f"{evil} left the table."


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seat=st.integers(0, 3))
def test_the_score_sheets_marks_are_worded_from_each_players_side(seed: int, seat: int) -> None:
    """The sheet's marks travel as codes; each seat words them in its language and from its
    own team's side, as its own history would ("pad mi" for one team is "pad vi" for the
    other), never as the host's "1+3"."""
    import json

    from bela.archive.replay_text import sheet_marks
    from bela.net.protocol import State, decode_server
    from bela.net.views import state_frames
    from bela.wording import at_table, mark_words

    match, _ = _finished_rounds(seed)
    seats = [{"name": n, "kind": "human"} for n in NAMES]
    last = match.rounds[-1]
    shown = match.deal(last.index).replay(last.actions)
    frame = decode_server(state_frames(match, shown, [seat], 1, seats, None)[seat])
    assert isinstance(frame, State)
    for row, record in zip(frame.sheet, match.rounds, strict=True):
        worded = [mark_words(code, seat % 2) for code in row.marks]
        with at_table(NAMES, seat):
            assert worded == sheet_marks(record, match.rules)
        assert all("+" not in w or "visi" in w for w in worded)  # no "1+3" team names
    codes = [c for row in frame.sheet for c in row.marks]
    flipped = [mark_words(c, 1 - seat % 2) for c in codes]
    ours = [mark_words(c, seat % 2) for c in codes]
    swap = {"mi": "vi", "vi": "mi"}
    assert flipped == [" ".join(swap.get(w, w) for w in m.split(" ")) for m in ours]
    assert json.loads(json.dumps(codes)) == codes


def test_an_unknown_sheet_mark_is_shown_as_it_is_and_short() -> None:
    from bela.wording import mark_words

    assert mark_words("pad:0", 0) == "pad mi" and mark_words("pad:0", 1) == "pad vi"
    assert mark_words("later:kind", 0) == "later:kind"
    assert mark_words("x" * 300, 0) == "x" * 24
    assert mark_words("pad:7", 0) == "pad:7" and mark_words("visi:x", 0) == "visi:x"
