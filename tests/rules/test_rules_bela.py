"""Bela: "Trump K and Q in one player's hands: 20 points for that player's team. It counts
only if announced." Since rules revision 2 it is announced with the FIRST of the two cards; the
old reading, the second card, is ``Rules(bela_on_second=True)`` (tested here as such; the first
card's own tests are in ``test_rules_house.py``). "It is not part of the zvanja comparison (it
always counts), and it is part of the "more than half" test."

Deal T (``bela_scenarios``): seat 3 holds trump KH and QH; seat 2 holds KS QS and KC QC.
"""

from __future__ import annotations

import pytest
from bela_scenarios import (
    DEAL_T,
    DEAL_Z1,
    PLAY_T_A,
    PLAY_T_B,
    PLAY_T_B_BELA,
    T_A_CALLERS_CARDS,
    T_B_CALLERS_CARDS,
    T_B_DEFENDERS_CARDS,
    call,
    finish_first_legal,
    new_round,
    play,
)

from bela.engine import Card, IllegalBelaError, Play, Rules

SECOND = Rules(bela_on_second=True)


def bela_play(card: str) -> Play:
    return Play(Card.parse(card), bela=True)


def test_announced_bela_scores_20() -> None:
    """Brief: "20 points for that player's team": seat 3 (team 1) announces with QH, the
    first of its trump K and Q."""
    rnd = play(call(new_round(0, DEAL_T), "H"), PLAY_T_B_BELA)
    assert rnd.result is not None
    assert rnd.result.bela == (0, 20)
    assert rnd.bela_announced_by == 3


def test_bela_not_announced_scores_nothing() -> None:
    """Brief: "It is optional: it counts only if announced": the same cards without the
    announcement give team 1 no bela."""
    rnd = play(call(new_round(0, DEAL_T), "H"), PLAY_T_A)
    assert rnd.result is not None
    assert rnd.result.bela == (0, 0)
    assert rnd.result.card_points[1] == T_A_CALLERS_CARDS
    assert rnd.bela_announced_by is None


def test_bela_on_second_is_announced_with_the_second_card_queen_last() -> None:
    """The old rule (``bela_on_second``): bela "is announced when the player plays the second
    of the two cards": here KH goes first (no announcement possible) and QH second, with it."""
    rnd = call(new_round(0, DEAL_T, SECOND), "H")
    rnd = play(rnd, "JH 7H")
    assert bela_play("KH") not in rnd.legal_actions()
    rnd = play(rnd, "KH 10H | 9H 8H")
    assert bela_play("QH") in rnd.legal_actions()
    rnd = play(rnd, "QH! AH")
    assert rnd.bela_announced_by == 3


def test_bela_on_second_rejected_on_the_first_of_the_two_cards() -> None:
    """The old rule (``bela_on_second``): announced with "the second of the two cards":
    announcing with the first (QH, while KH is still in hand) raises ``IllegalBelaError``;
    the state is unchanged."""
    rnd = play(call(new_round(0, DEAL_T, SECOND), "H"), "JH 7H")
    before = rnd.actions
    with pytest.raises(IllegalBelaError):
        rnd.apply(bela_play("QH"))
    assert rnd.actions == before
    assert rnd.to_act == 3


def test_bela_rejected_with_a_non_trump_king_and_queen() -> None:
    """Brief: bela is "Trump K and Q": seat 2's KS after QS (spades are not trump) carries no
    bela, and announcing it raises ``IllegalBelaError``."""
    rnd = call(new_round(0, DEAL_T), "H")
    rnd = play(rnd, "JH 7H QH 10H | 9H 8H KH AH | 10D AD 9D 8D | JD KD QD 7D | 7S 10S 9S QS")
    rnd = play(rnd, "AS JS")
    assert rnd.to_act == 2
    with pytest.raises(IllegalBelaError):
        rnd.apply(bela_play("KS"))
    assert play(rnd, "KS").bela_announced_by is None


def test_bela_rejected_for_a_player_who_did_not_hold_both() -> None:
    """Brief: bela needs "Trump K and Q in one player's hands". With diamonds trump in deal T,
    QD is seat 0's and KD seat 3's: after QD is played, seat 3's KD is the second of the pair
    on the table but not of one player's pair, so announcing raises ``IllegalBelaError``.

    Trick 1 (trump diamonds, order J 9 A 10 K Q 8 7): seat 1 leads 10D; seat 2 must beat it
    (AD); seat 3 must beat AD (only 9D does); seat 0 cannot beat 9D and plays QD. Seat 3 wins
    and leads."""
    rnd = play(call(new_round(0, DEAL_T), "D"), "10D AD 9D QD")
    assert rnd.to_act == 3
    with pytest.raises(IllegalBelaError):
        rnd.apply(bela_play("KD"))
    assert bela_play("KD") not in rnd.legal_actions()


def test_bela_counts_in_the_more_than_half_test() -> None:
    """Brief: bela "is part of the "more than half" test". Deal T line B is 81 to 81 in card
    points: without bela an exact tie, a pad (callers 0, defenders 162); with seat 3's bela
    the callers have 81 + 20 = 101 of 182 and each team writes its own."""
    without = play(call(new_round(0, DEAL_T), "H"), PLAY_T_B).result
    with_bela = play(call(new_round(0, DEAL_T), "H"), PLAY_T_B_BELA).result
    assert without is not None and with_bela is not None
    assert without.points == (162, 0)
    assert with_bela.points == (T_B_DEFENDERS_CARDS, T_B_CALLERS_CARDS + 20) == (81, 101)


def test_bela_counts_for_the_team_that_lost_the_zvanja_comparison() -> None:
    """Brief: bela "is not part of the zvanja comparison (it always counts)". Deal Z1 with
    diamonds trump: team 1 holds the best declaration (70 in all), while seat 0 (team 0),
    whose 3-sequence lost, holds QD and KD and announces bela: team 0 still gets its 20."""
    rnd = finish_first_legal(call(new_round(0, DEAL_Z1), "D"))
    result = rnd.result
    assert result is not None
    assert result.zvanja == (0, 70)
    assert result.bela == (20, 0)
    assert rnd.bela_announced_by == 0
    assert result.stiglja is None  # the play-out is no sweep, so nothing moves between teams
    assert result.totals == (result.card_points[0] + 20, result.card_points[1] + 70)


# Deal T with seat 1's JH and seat 3's 7S swapped: seat 3 now holds JH QH KH, a 3-sequence
# (20, the only declaration at the table: seat 1's 7S 9S JS and 9H 9S 9C, 9D being seat 3's,
# make nothing) and, with hearts trump, the bela pair QH KH.
DEAL_T_SEQ = (
    "AH 10H 8D QD AS 10S AC 10C",  # seat 0 (dealer)
    "7S 9H 10D 7D 9S JS 9C JC",  # seat 1 (first player, calls hearts)
    "8H 7H AD JD KS QS KC QC",  # seat 2
    "KH QH 9D KD JH 8S 7C 8C",  # seat 3: JH QH KH = 20, and bela
)


def test_bela_cards_also_count_in_a_sequence() -> None:
    """The brief keeps bela apart from the zvanja ("It is not part of the zvanja comparison (it
    always counts)") and lets "A card may count in both a four-of-a-kind and a sequence"; it does
    not forbid the bela pair from also being part of a sequence. The engine counts both: seat 3's
    JH QH KH scores 20 as a sequence and QH KH another 20 as bela, for team 1 (docs § 12)."""
    rnd = call(new_round(0, DEAL_T_SEQ), "H")
    assert [(z.points, [str(c) for c in z.cards]) for z in rnd.declarations(3)] == [
        (20, ["JH", "QH", "KH"])
    ]
    assert rnd.zvanja_points == (0, 20)
    rnd = finish_first_legal(rnd)
    result = rnd.result
    assert result is not None
    assert rnd.bela_announced_by == 3
    assert result.zvanja == (0, 20)
    assert result.bela == (0, 20)
    assert result.stiglja is None  # no sweep, so nothing moves between teams
    assert result.totals == (result.card_points[0], result.card_points[1] + 20 + 20)
