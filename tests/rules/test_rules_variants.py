"""The brief's two variants, both off by default: "no forced trump" and "visi" (hang).

Deal T (``bela_scenarios``, dealer 0, seat 1 names hearts, team 1 calls):
- line A with bela: 91 against 91, an exact tie;
- line A without bela: callers 71 against 91, a plain pad;
- line B with bela: callers 81 + 20 = 101 against 81, the callers make it.
Turned k seats on (dealer k) the same cards are played; the teams swap when k is odd.
"""

from __future__ import annotations

import dataclasses

import pytest
from bela_scenarios import (
    DEAL_T,
    PLAY_T_A,
    PLAY_T_A_BELA,
    PLAY_T_B_BELA,
    call,
    match_around,
    new_round,
    play,
    play_match,
    rotate,
)

from bela.engine import IllegalBidError, Match, Pass, Phase, Round, Rules

NO_FORCED = Rules(no_forced_trump=True)
VISI = Rules(visi=True)


def t_round(dealer: int, rules: Rules) -> Round:
    return new_round(dealer, rotate(DEAL_T, dealer), rules)


def test_variants_are_off_by_default() -> None:
    """Brief: "variants are options that are off by default unless stated"."""
    assert Rules() == Rules(no_forced_trump=False, visi=False)


def test_no_forced_trump_dealer_may_pass() -> None:
    """Brief, variant "no forced trump": "the dealer may pass too"."""
    rnd = call(t_round(0, NO_FORCED), "- - -")
    assert rnd.to_act == 0
    assert Pass() in rnd.legal_actions()


def test_no_forced_trump_four_passes_end_the_round_for_a_redeal() -> None:
    """Brief, variant "no forced trump": "if all four pass the cards are redealt"; nothing is
    played or written."""
    rnd = call(t_round(0, NO_FORCED), "- - - -")
    assert rnd.phase is Phase.FINISHED
    assert rnd.result is not None
    assert rnd.result.redeal
    assert rnd.result.points == (0, 0)
    assert rnd.trump is None


def test_no_forced_trump_redeal_is_by_the_next_dealer() -> None:
    """Brief, variant "no forced trump": "the cards are redealt by the next dealer": in a match
    the four passes are followed by a fresh deal from dealer + 1, with no score."""
    match = Match.new(77, rules=NO_FORCED, first_dealer=3)
    first = match.current
    assert first is not None
    for _ in range(4):
        match = match.apply(Pass())
    assert match.rounds[0].result.redeal
    assert match.scores == (0, 0)
    assert match.winner is None
    assert match.current is not None
    assert match.current.dealer == 0
    assert match.current.phase is Phase.BIDDING
    assert match.current.deal_hands != first.deal_hands


def test_forced_trump_by_default_in_a_match() -> None:
    """Brief: without the variant "the dealer must name a suit (may not pass)"."""
    match = Match.new(77, first_dealer=3)
    for _ in range(3):
        match = match.apply(Pass())
    with pytest.raises(IllegalBidError):
        match.apply(Pass())


def test_visi_exact_tie_defenders_write_their_own_and_callers_total_hangs() -> None:
    """Brief, variant "visi" for an exact tie: "the defenders write their own total, and the
    callers' total waits": 91 written for team 0, the callers' 91 hanging."""
    rnd = play(call(t_round(0, VISI), "H"), PLAY_T_A_BELA)
    assert rnd.result is not None
    assert rnd.result.tie
    assert rnd.result.points == (91, 0)
    assert rnd.result.hanging == 91


def test_visi_does_not_change_a_pad_that_is_no_tie() -> None:
    """Brief: visi is "for an exact tie" only: callers 71 against 91 still fall, and the
    defenders write the combined 162."""
    rnd = play(call(t_round(0, VISI), "H"), PLAY_T_A)
    assert rnd.result is not None
    assert rnd.result.points == (162, 0)
    assert rnd.result.hanging == 0


def test_visi_does_not_change_a_made_contract() -> None:
    """Brief: with more than half each team writes its own, visi or not: (81, 101)."""
    rnd = play(call(t_round(0, VISI), "H"), PLAY_T_B_BELA)
    assert rnd.result is not None
    assert rnd.result.points == (81, 101)
    assert rnd.result.hanging == 0


def visi_tie_match() -> Match:
    """A visi match after deal T line A with bela: team 0 wrote 91, the callers' 91 hang."""
    match = play_match(match_around(t_round(0, VISI), rules=VISI), "H", PLAY_T_A_BELA)
    assert match.scores == (91, 0)
    assert match.hanging == 91
    return match


def test_visi_hanging_points_go_to_the_winner_of_the_next_round() -> None:
    """Brief, visi: the callers' total "goes to whichever team wins the next round that does
    not tie". Next round: deal T turned one seat (dealer 1, seat 2 of team 0 calls), line B
    with bela: team 0 makes it with 101 against 81 and also takes the 91 hanging."""
    match = dataclasses.replace(visi_tie_match(), current=t_round(1, VISI))
    match = play_match(match, "H", PLAY_T_B_BELA)
    assert match.rounds[-1].written == (101 + 91, 81)
    assert match.scores == (91 + 101 + 91, 81)
    assert match.hanging == 0


def test_visi_hanging_points_go_to_the_defenders_who_win_a_pad() -> None:
    """Brief, visi: the winner of the next round takes the hanging total; in a pad the callers
    write 0, so the round is the defenders'. Next round: deal T turned one seat, line A
    without bela: team 0 calls and falls (71 against 91); team 1 writes 162 + 91."""
    match = dataclasses.replace(visi_tie_match(), current=t_round(1, VISI))
    match = play_match(match, "H", PLAY_T_A)
    assert match.rounds[-1].written == (0, 162 + 91)
    assert match.scores == (91, 253)
    assert match.hanging == 0


def test_visi_hanging_points_wait_past_another_tie() -> None:
    """Brief, visi: the total goes to the winner of "the next round that does not tie". A
    second tie (deal T turned one seat, line A with bela: team 1 defends and writes 91) keeps
    the first 91 waiting and adds its own callers' 91; the round after (deal T turned two
    seats, dealer 2, seat 3 of team 1 calls, line B with bela: 101 against 81) takes both."""
    match = dataclasses.replace(visi_tie_match(), current=t_round(1, VISI))
    match = play_match(match, "H", PLAY_T_A_BELA)
    assert match.scores == (91, 91)
    assert match.hanging == 91 + 91
    match = dataclasses.replace(match, current=t_round(2, VISI))
    match = play_match(match, "H", PLAY_T_B_BELA)
    assert match.rounds[-1].written == (81, 101 + 182)
    assert match.scores == (91 + 81, 91 + 283)
    assert match.hanging == 0
