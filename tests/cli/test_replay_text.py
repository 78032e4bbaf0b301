"""The replay's telling of special rounds, and a breakdown that always adds up."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from bela.archive.records import parse_action
from bela.archive.replay_text import RoundView, breakdown, render_round, round_json, summary
from bela.engine import Call, Match, Pass, Round, RoundResult, Rules, Suit

# An explicit deal (dealer seat 3): mi call clubs and take every trick; vi's 50 in
# zvanja move across; seat 0 plays trump K and Q without announcing bela.
STIGLJA_HANDS = [
    "KH AD KS 9C QC KC",
    "7H 9H 10H 7D 8D 10D",
    "AH JS QS AS 8C JC",
    "8H KD 7S 8S 9S 10S",
]
STIGLJA_TALONS = ["JD 7C", "QH AC", "JH 9D", "QD 10C"]
STIGLJA_ACTIONS = (
    "9C AC JC 10C AH 8H KH 7H 9D QD AD 10D KC QH 8C KD JD 7D JS 10S 7C 8D QS 9S QC 10H JH 8S "
    "KS 9H AS 7S"
)


def text_of(view: RoundView) -> str:
    console = Console(width=100, record=True, file=io.StringIO())
    console.print(render_round(view))
    return " ".join(console.export_text().split())  # words only: no wrapping or padding


def stiglja_round() -> Round:
    deal = Round.from_hands(
        3, [h.split() for h in STIGLJA_HANDS], [t.split() for t in STIGLJA_TALONS]
    )
    return deal.apply(Call(Suit.CLUBS)).replay(parse_action(w) for w in STIGLJA_ACTIONS.split())


def test_stiglja_breakdown_and_words() -> None:
    rnd = stiglja_round()
    result = rnd.result
    assert result is not None and result.stiglja == 0
    parts = breakdown(result, rnd, result.points)
    assert parts.cards == (152, 0) and parts.last_trick == (10, 0)
    assert parts.zvanja == (0, 50) and parts.stiglja == (140, -50)
    assert parts.totals == parts.written == (302, 0)
    text = text_of(RoundView(0, rnd, result.points))
    assert "štiglja" in text and "We took all eight tricks (štiglja, 90 extra)." in text
    assert "We called clubs. We made 302 of 302, more than half: we write 302" in text
    assert "Bela: trump K and Q with seat 1 (mi), never announced" in text
    assert text.count("seat 1 (mi)") >= 1 and "Tricks" in text
    data = round_json(RoundView(0, rnd, result.points))
    assert data["result"]["stiglja"] == [140, -50] and data["result"]["stiglja_team"] == 0
    assert data["hands"][0] == STIGLJA_HANDS[0].split()


def test_belot_ends_the_round_in_words() -> None:
    suits = "HDSC"
    hands = [[f"{r}{s}" for r in ("7", "8", "9", "10", "J", "Q")] for s in suits]
    talons = [[f"K{s}", f"A{s}"] for s in suits]
    rnd = Round.from_hands(3, hands, talons).apply(Call(Suit.SPADES))
    assert rnd.result is not None
    text = text_of(RoundView(0, rnd, rnd.result.points))
    assert "You hold all eight cards of a suit (belot, trump spades). " in text
    assert "Belot: we win the match outright." in text
    assert "Zvanja" not in text and "Tricks" not in text
    assert round_json(RoundView(0, rnd, (0, 0)))["result"]["belot"] == 0


def test_a_redeal_in_words() -> None:
    rnd = Round.from_seed(4, dealer=1, rules=Rules(no_forced_trump=True))
    for _ in range(4):
        rnd = rnd.apply(Pass())
    text = text_of(RoundView(5, rnd, (0, 0)))
    assert "Round 6" in text and "All four said dalje" in text


def test_a_round_in_progress_shows_the_trick_on_the_table() -> None:
    match = Match.new(8)
    rng = random.Random(8)
    for _ in range(7):  # the call after some passes, then a trick and more
        assert match.current is not None
        match = match.apply(rng.choice(match.current.legal_actions()))
    rnd = match.current
    assert rnd is not None
    while not rnd.trick:
        rnd = rnd.apply(rnd.legal_actions()[0])
    text = text_of(RoundView(0, rnd, None))
    team = "mi" if rnd.to_act % 2 == 0 else "vi"
    assert f"Round in progress: seat {rnd.to_act + 1} ({team}) to act." in text
    assert "…" in text
    data = round_json(RoundView(0, rnd, None))
    assert data["result"] is None and data["trick_in_progress"] == [str(c) for c in rnd.trick]


def tied(hanging: int, written: tuple[int, int]) -> RoundResult:
    """mi called clubs and both teams have 81: a pad, or under visi 81 that hang."""
    return RoundResult(
        points=written,
        card_points=(81, 81),
        zvanja=(0, 0),
        bela=(0, 0),
        tricks=(4, 4),
        totals=(81, 81),
        caller=0,
        trump=Suit.CLUBS,
        fell=True,
        tie=True,
        hanging=hanging,
        stiglja=None,
        belot=None,
        belot_seat=None,
        redeal=False,
    )


def test_summaries_of_ties() -> None:
    assert summary(tied(81, (0, 81)), (0, 81)) == (
        "We called clubs. We made exactly half (81 of 162): they write their 81 and our 81 "
        "hang until a round that is not a tie."
    )
    assert summary(tied(0, (0, 162)), (0, 162)) == (
        "We called clubs. We made exactly half (81 of 162), which is not more than half: "
        "we fall (pad) and they write all 162."
    )


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), st.integers(0, 3), st.booleans())
def test_the_breakdown_always_adds_up(seed: int, dealer: int, visi: bool) -> None:
    rng = random.Random(seed)
    rnd = Round.from_seed(seed, dealer, Rules(visi=visi))
    while not rnd.is_finished:
        rnd = rnd.apply(rng.choice(rnd.legal_actions()))
    result = rnd.result
    assert result is not None
    parts = breakdown(result, rnd, result.points)
    for team in (0, 1):
        assert (
            parts.cards[team]
            + parts.last_trick[team]
            + parts.zvanja[team]
            + parts.bela[team]
            + parts.stiglja[team]
            == parts.totals[team]
        )
    assert sum(parts.cards) + sum(parts.last_trick) == 162
    assert "Result" in text_of(RoundView(0, rnd, result.points))


def test_a_bela_never_announced_names_the_cards_of_the_deck_in_use() -> None:
    """Issue #35: with mađarice the replay said "adutski K i Q" (the French deck's Q)."""
    from bela.deck import set_deck
    from bela.i18n import set_language

    rnd = stiglja_round()
    assert rnd.result is not None
    set_language("hr")
    set_deck("german")
    text = text_of(RoundView(0, rnd, rnd.result.points))
    assert "adutski K i B, bela nije zvana" in text and "K i Q" not in text
