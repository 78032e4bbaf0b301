"""The match: "Target 1001 by default; 701 and 501 are short matches. Checked after each
complete round: a team at or above the target wins; if both are, the higher total wins; if
exactly equal, another round is played." The next round's dealer is dealer + 1.

Rounds with known results are deal T (``bela_scenarios``, dealer 0, seat 1 names hearts) in a
match whose earlier score is set by the test:
- line A with bela: an exact tie, a pad: team 0 writes 182, team 1 writes 0;
- line A without bela: callers 71 against 91, a pad: team 0 writes 162, team 1 0;
- line B with bela: callers 81 + 20 = 101 against 81: team 0 writes 81, team 1 writes 101.
"""

from __future__ import annotations

import dataclasses

import pytest
from bela_scenarios import (
    DEAL_T,
    PLAY_T_A,
    PLAY_T_A_BELA,
    PLAY_T_B_BELA,
    match_around,
    new_round,
    play_match,
    rotate,
)

from bela.engine import Match, Round


def finish_current_round(match: Match) -> Match:
    """Play the match's current round to its end with the first legal action each time."""
    current = match.current
    assert current is not None
    count = len(match.rounds)
    while len(match.rounds) == count:
        assert match.current is not None
        match = match.apply(match.current.legal_actions()[0])
    return match


def t_round(dealer: int = 0) -> Round:
    return new_round(dealer, rotate(DEAL_T, dealer))


def test_default_target_is_1001() -> None:
    """Brief: "Target 1001 by default"."""
    assert Match.new(11).target == 1001


@pytest.mark.parametrize("target", [501, 701, 1001])
def test_short_and_long_targets(target: int) -> None:
    """Brief: "701 and 501 are short matches": a match may be played to 501, 701 or 1001."""
    match = Match.new(11, target=target)
    assert match.target == target
    assert match.current is not None
    assert match.winner is None


def test_dealer_rotates_each_round() -> None:
    """Brief: "The next round's dealer is dealer + 1", and the first player (dealer + 1)
    speaks first in every round."""
    match = Match.new(2024, target=1001, first_dealer=3)
    dealers = []
    for _ in range(5):
        assert match.current is not None and match.winner is None
        dealers.append(match.current.dealer)
        assert match.current.to_act == (match.current.dealer + 1) % 4
        match = finish_current_round(match)
    assert dealers == [3, 0, 1, 2, 3]
    assert [r.dealer for r in match.rounds] == [3, 0, 1, 2, 3]


def test_each_round_writes_one_row_per_team() -> None:
    """Brief: "Scores are kept in two columns, mi and vi, one row per round": the row of a pad
    is (182, 0) and the columns add up."""
    match = play_match(match_around(t_round(), scores=(100, 40)), "H", PLAY_T_A_BELA)
    assert match.rounds[-1].written == (182, 0)
    assert match.scores == (282, 40)


def test_team_reaching_the_target_exactly_wins() -> None:
    """Brief: "a team at or above the target wins": 319 + 182 = 501 of 501."""
    match = play_match(match_around(t_round(), target=501, scores=(319, 0)), "H", PLAY_T_A_BELA)
    assert match.scores == (501, 0)
    assert match.winner == 0
    assert match.current is None


def test_team_below_the_target_plays_on() -> None:
    """Brief: under the target the match goes on: 318 + 182 = 500 of 501; the next round is
    dealt by the next dealer."""
    match = play_match(match_around(t_round(), target=501, scores=(318, 0)), "H", PLAY_T_A_BELA)
    assert match.scores == (500, 0)
    assert match.winner is None
    assert match.current is not None
    assert match.current.dealer == 1


@pytest.mark.parametrize(("target", "before", "won"), [(701, 519, True), (701, 518, False)])
def test_target_701(target: int, before: int, won: bool) -> None:
    """Brief: 701 is a target like 1001: 519 + 182 = 701 wins, 518 + 182 = 700 does not."""
    match = play_match(
        match_around(t_round(), target=target, scores=(before, 0)), "H", PLAY_T_A_BELA
    )
    assert match.winner == (0 if won else None)


@pytest.mark.parametrize(("before", "won"), [(819, True), (818, False)])
def test_target_1001(before: int, won: bool) -> None:
    """Brief: "Target 1001": 819 + 182 = 1001 wins, 818 + 182 = 1000 does not."""
    match = play_match(match_around(t_round(), scores=(before, 0)), "H", PLAY_T_A_BELA)
    assert match.winner == (0 if won else None)


def test_target_checked_on_written_points_after_the_complete_round() -> None:
    """Brief: "Checked after each complete round". Team 1 starts at 480 of 501 and takes 71
    card points in deal T, but falls: it writes 0, so it has not reached the target; during
    the round nobody has won either."""
    match = match_around(t_round(), target=501, scores=(0, 480))
    tricks = PLAY_T_A.split("|")
    match = play_match(match, "H", "|".join(tricks[:7]))
    assert match.winner is None
    assert match.scores == (0, 480)
    match = play_match(match, "", tricks[7])
    assert match.scores == (162, 480)
    assert match.winner is None


def test_both_over_the_target_higher_total_wins() -> None:
    """Brief: "if both are, the higher total wins": 420 + 81 = 501 and 450 + 101 = 551."""
    match = play_match(match_around(t_round(), target=501, scores=(420, 450)), "H", PLAY_T_B_BELA)
    assert match.scores == (501, 551)
    assert match.winner == 1


def test_both_over_the_target_higher_total_wins_for_team_0() -> None:
    """Brief: "if both are, the higher total wins": 470 + 81 = 551 and 410 + 101 = 511."""
    match = play_match(match_around(t_round(), target=501, scores=(470, 410)), "H", PLAY_T_B_BELA)
    assert match.scores == (551, 511)
    assert match.winner == 0


def test_both_over_and_exactly_equal_plays_another_round() -> None:
    """Brief: "if exactly equal, another round is played": 420 + 81 = 400 + 101 = 501. The next
    round (deal T turned one seat, dealer 1, seat 2 names hearts; line A with bela is a tie,
    so the callers' team 0 falls and team 1 writes 182) decides it: 501 against 683."""
    match = play_match(match_around(t_round(), target=501, scores=(420, 400)), "H", PLAY_T_B_BELA)
    assert match.scores == (501, 501)
    assert match.winner is None
    assert match.current is not None
    assert match.current.dealer == 1
    match = dataclasses.replace(match, current=t_round(1))
    match = play_match(match, "H", PLAY_T_A_BELA)
    assert match.scores == (501, 683)
    assert match.winner == 1
