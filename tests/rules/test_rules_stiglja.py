"""Štiglja: "a team that takes all 8 tricks adds 90 (card points 162 + 90 = 252). A team that
took no trick loses its zvanja and bela; they go to the team that took all tricks."

Deal S (``bela_scenarios``): seat 1 leads and wins all eight tricks. Seat 2's 7S-10S (50) is
the best declaration, so team 0 holds the zvanja (50); seat 0 announces bela (20) with KH.
"""

from __future__ import annotations

from bela_scenarios import (
    DEAL_S,
    PLAY_S,
    S_SWEEPER_TOTAL,
    S_SWEPT_BELA,
    S_SWEPT_ZVANJA,
    call,
    new_round,
    play,
)

from bela.engine import score_round

NONE = (0, 0)


def test_callers_sweep_adds_90() -> None:
    """Brief: "a team that takes all 8 tricks adds 90 (card points 162 + 90 = 252)". Here
    seat 1 calls and sweeps; with no zvanja or bela on either side (score_round) it is 252."""
    assert score_round(caller=1, card_points=(0, 162), zvanja=NONE, bela=NONE, tricks=(0, 8)) == (
        0,
        252,
    )


def test_swept_teams_zvanja_and_bela_go_to_the_sweeper() -> None:
    """Brief: the team that took no trick "loses its zvanja and bela; they go to the team that
    took all tricks". Deal S: team 1 (callers) sweeps; team 0's 50 zvanja and 20 bela move to
    team 1: 162 + 90 + 50 + 20 = 322, and team 0 writes 0."""
    rnd = play(call(new_round(0, DEAL_S), "H"), PLAY_S)
    result = rnd.result
    assert result is not None
    assert result.tricks == (0, 8)
    assert result.card_points == (0, 162)
    assert result.zvanja == (S_SWEPT_ZVANJA, 0)
    assert result.bela == (S_SWEPT_BELA, 0)
    assert result.stiglja == 1
    assert result.points == (0, S_SWEEPER_TOTAL) == (0, 322)


def test_defenders_sweep_adds_90_and_callers_fall() -> None:
    """Brief: štiglja counts for whichever team sweeps. Deal S with seat 2 naming trump (team 0
    calls) and seat 1 still leading and winning every trick: the callers took no trick, so
    they lose their 50 zvanja and 20 bela to the defenders and write 0; the defenders write
    162 + 90 + 50 + 20 = 322."""
    rnd = play(call(new_round(0, DEAL_S), "- H"), PLAY_S)
    result = rnd.result
    assert result is not None
    assert result.caller == 2
    assert result.tricks == (0, 8)
    assert result.stiglja == 1
    assert result.fell
    assert result.points == (0, S_SWEEPER_TOTAL) == (0, 322)


def test_score_round_sweep_by_callers_takes_defenders_zvanja_and_bela() -> None:
    """Brief: štiglja with the swept defenders' zvanja (20) and bela (20) moving to the
    callers: 162 + 90 + 20 + 20 = 292."""
    points = score_round(
        caller=0, card_points=(162, 0), zvanja=(0, 20), bela=(0, 20), tricks=(8, 0)
    )
    assert points == (292, 0)


def test_score_round_sweep_by_defenders() -> None:
    """Brief: defenders who take all tricks add 90 and take the callers' zvanja (50) and bela
    (20); the callers, with 0, fall: the defenders write 162 + 90 + 50 + 20 = 322."""
    points = score_round(
        caller=3, card_points=(162, 0), zvanja=(0, 50), bela=(0, 20), tricks=(8, 0)
    )
    assert points == (322, 0)


def test_seven_tricks_is_no_sweep() -> None:
    """Brief: the 90 is for "all 8 tricks": callers with 7 tricks get no bonus, even holding all
    162 card points (the other trick, not the last, held only 0-point cards)."""
    points = score_round(caller=0, card_points=(162, 0), zvanja=NONE, bela=NONE, tricks=(7, 1))
    assert points == (162, 0)
