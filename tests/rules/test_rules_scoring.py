"""Scoring a round: last trick 10, 162 per round, "more than half", and the pad (fall).

The full-round numbers come from the trick-by-trick derivations in ``bela_scenarios``
(deals T and P: seat 1 names hearts, so team 1 calls and team 0 defends).
"""

from __future__ import annotations

from bela_scenarios import (
    DEAL_P,
    DEAL_T,
    P_CALLERS_CARDS,
    P_CALLERS_ZVANJA,
    P_DEFENDERS_CARDS,
    PLAY_P,
    PLAY_P_BELA,
    PLAY_T_A,
    PLAY_T_A_BELA,
    PLAY_T_B,
    T_A_CALLERS_CARDS,
    T_A_DEFENDERS_CARDS,
    T_A_LAST_TRICK,
    T_B_CALLERS_CARDS,
    T_B_DEFENDERS_CARDS,
    call,
    new_round,
    play,
)

from bela.engine import RoundResult, score_round

NONE = (0, 0)


def played(deal: tuple[str, ...], moves: str) -> RoundResult:
    rnd = play(call(new_round(0, deal), "H"), moves)
    assert rnd.result is not None
    return rnd.result


def test_last_trick_adds_10() -> None:
    """Brief: "the last trick adds 10": deal T's last trick holds 10C JC KC 8C (10 + 2 + 4 +
    0 = 16 card points) and is worth 26."""
    rnd = play(call(new_round(0, DEAL_T), "H"), PLAY_T_A)
    last = rnd.tricks[-1]
    assert [str(c) for c in last.cards] == ["10C", "JC", "KC", "8C"]
    assert last.points == T_A_LAST_TRICK == 16 + 10
    assert [t.points for t in rnd.tricks[:-1]] == [33, 29, 21, 9, 13, 17, 14]


def test_card_points_come_to_162_per_round() -> None:
    """Brief: "Card points total 152; the last trick adds 10: 162 per round"."""
    result = played(DEAL_T, PLAY_T_A)
    assert result.card_points == (T_A_DEFENDERS_CARDS, T_A_CALLERS_CARDS) == (91, 71)
    assert sum(result.card_points) == 162
    assert result.tricks == (5, 3)


def test_callers_with_more_than_half_each_write_their_own() -> None:
    """Brief: "The calling team must have more than half of the two teams' combined total.
    Then each team writes its own total." Deal P, bela announced: callers 71 + 20 zvanja + 20
    bela = 111 against the defenders' 91 (111 > 202 / 2)."""
    result = played(DEAL_P, PLAY_P_BELA)
    callers = P_CALLERS_CARDS + P_CALLERS_ZVANJA + 20
    assert callers == 111
    assert result.points == (P_DEFENDERS_CARDS, callers) == (91, 111)
    assert not result.fell


def test_callers_below_half_fall() -> None:
    """Brief, pad: "otherwise ... the calling team writes 0 and the other team writes the
    combined total of both teams". Deal T line A without bela: callers 71 < 91."""
    result = played(DEAL_T, PLAY_T_A)
    assert result.fell
    assert result.points == (T_A_DEFENDERS_CARDS + T_A_CALLERS_CARDS, 0) == (162, 0)


def test_exact_tie_is_a_pad() -> None:
    """Brief: pad "otherwise, including an exact tie": deal T line B is 81 against 81 in card
    points, so the callers write 0 and the defenders 162."""
    result = played(DEAL_T, PLAY_T_B)
    assert result.card_points == (T_B_DEFENDERS_CARDS, T_B_CALLERS_CARDS) == (81, 81)
    assert result.fell
    assert result.tie
    assert result.points == (162, 0)


def test_exact_tie_pad_includes_the_callers_bela() -> None:
    """Brief: in a pad the defenders write "the combined total of both teams (all card points,
    all recognised zvanja, every announced bela, the callers' bela included)". Deal T line A
    with bela: callers 71 + 20 = 91 against 91, an exact tie; the defenders write 182."""
    result = played(DEAL_T, PLAY_T_A_BELA)
    assert result.bela == (0, 20)
    assert result.fell
    assert result.tie
    assert result.points == (T_A_DEFENDERS_CARDS + T_A_CALLERS_CARDS + 20, 0) == (182, 0)


def test_pad_hands_the_defenders_the_callers_zvanja() -> None:
    """Brief: a pad hands the defenders "all recognised zvanja". Deal P without bela: callers
    71 + 20 zvanja = 91 against 91, an exact tie; the defenders write 162 + 20 = 182."""
    result = played(DEAL_P, PLAY_P)
    assert result.zvanja == (0, P_CALLERS_ZVANJA)
    assert result.fell
    assert result.points == (P_DEFENDERS_CARDS + P_CALLERS_CARDS + P_CALLERS_ZVANJA, 0)
    assert result.points == (182, 0)


def test_score_round_more_than_half() -> None:
    """Brief: callers with more than half each write their own (callers 62 + 50 = 112 of 182,
    defenders 70)."""
    points = score_round(caller=1, card_points=(100, 62), zvanja=(0, 50), bela=NONE, tricks=(5, 3))
    assert points == (100, 112)


def test_score_round_one_point_over_half_is_enough() -> None:
    """Brief: "more than half": 82 of 162 is enough for the callers."""
    assert score_round(caller=0, card_points=(82, 80), zvanja=NONE, bela=NONE, tricks=(4, 4)) == (
        82,
        80,
    )


def test_score_round_exact_tie_is_a_pad() -> None:
    """Brief: "including an exact tie": 81 against 81, the callers write 0."""
    assert score_round(caller=0, card_points=(81, 81), zvanja=NONE, bela=NONE, tricks=(4, 4)) == (
        0,
        162,
    )


def test_score_round_pad_gives_the_defenders_the_callers_zvanja_and_bela() -> None:
    """Brief: in a pad the defenders write all card points, all recognised zvanja and every
    announced bela: callers 40 + 20 + 20 = 80 < 122, defenders write 162 + 20 + 20 = 202."""
    points = score_round(
        caller=2, card_points=(40, 122), zvanja=(20, 0), bela=(20, 0), tricks=(2, 6)
    )
    assert points == (0, 202)


def test_score_round_defenders_bela_counts_in_the_test() -> None:
    """Brief: "Each team's total = its card points ... + its recognised zvanja + its announced
    bela". Callers 85 card points beat the defenders' 77, but with the defenders' bela the
    totals are 85 against 97: 85 is not more than half of 182, so the callers fall."""
    points = score_round(caller=0, card_points=(85, 77), zvanja=NONE, bela=(0, 20), tricks=(4, 4))
    assert points == (0, 85 + 77 + 20)
