"""Keeping a declaration back ("šutim"), as at a real table: staying silent forfeits the zvanje.

docs/rules.md § 8: in the first trick, at his turn and before his card, a player who
holds zvanja may keep them to himself. They then take no part in the comparison and
score nothing; the comparison is made again over the seats that declared. Bela is not
a declaration and stays obligatory. Nobody keeping anything back is today's game.
"""

from __future__ import annotations

import pytest
from bela_scenarios import call, finish_first_legal, new_round, play
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.engine import Match, Play, Round, Rules, Silent, WrongPhaseError

# Seat 0 holds four queens (100), seat 1 the five-card run 7S..JS (100); the four wins.
Z2 = (
    "QH QD QS QC 7H 9H KD AC",  # seat 0: four queens = 100
    "7S 8S 9S 10S JS 8H 10H 7D",  # seat 1: 7S 8S 9S 10S JS = 100
    "JH KH 8D 10D AD KS 7C 9C",  # seat 2: none
    "AH 9D JD AS 8C 10C JC KC",  # seat 3: none
)

# Seat 1 holds 9C 10C JC (20) and, with clubs trump, KC QC: bela. Seat 2 holds 7H 8H 9H (20).
BELA_AND_RUN = (
    "JH AH 7D 10D JS AS 8C AC",  # seat 0: none
    "9C 10C JC QC KC 8D QS 7S",  # seat 1: 9C 10C JC QC KC = 100, and bela with trump clubs
    "7H 8H 9H 9D KD 8S 10S 7C",  # seat 2: 7H 8H 9H = 20
    "10H QH KH JD QD AD 9S KS",  # seat 3: none
)


def _called_z2() -> Round:
    """Z2 with seat 0 dealing: seat 1 names hearts and leads the first trick."""
    return call(new_round(0, Z2), "H")


def test_silent_best_hand_hands_the_comparison_to_the_other_team() -> None:
    """Seat 0's four queens beat seat 1's run; kept back, they count for nothing and
    seat 1's run (team 1) wins the comparison instead."""
    rnd = _called_z2()
    assert (rnd.zvanja_team, rnd.zvanja_points) == (0, (100, 0))
    rnd = play(rnd, "8H JH AH")  # seats 1, 2, 3; seat 0 to act
    assert rnd.to_act == 0 and rnd.can_stay_silent()
    rnd = rnd.apply(Silent(), seat=0)
    assert rnd.to_act == 0  # still his card to play
    assert (rnd.zvanja_team, rnd.zvanja_points) == (1, (0, 100))
    assert rnd.silent_seats == (0,)
    assert rnd.declared(0) == ()
    assert rnd.declarations(0)  # the cards are still his
    finished = finish_first_legal(rnd)
    assert finished.result is not None and finished.result.zvanja == (0, 100)


def test_silent_weaker_hand_changes_no_score() -> None:
    """Seat 1's run loses the comparison anyway: keeping it back changes nothing written."""
    rnd = _called_z2()
    said = finish_first_legal(rnd)
    silent = finish_first_legal(rnd.apply(Silent(), seat=1))
    assert said.result is not None and silent.result is not None
    assert silent.result.points == said.result.points
    assert silent.result.zvanja == (100, 0)


def test_everyone_declaring_is_todays_game() -> None:
    """No "šutim" said: the comparison at the call stands and nothing is marked silent."""
    rnd = finish_first_legal(_called_z2())
    assert rnd.silent_seats == ()
    assert rnd.result is not None and rnd.result.zvanja == (100, 0)


def test_staying_silent_is_never_among_the_plays() -> None:
    """``legal_actions`` lists the plays only: callers that pick from it play as before."""
    rnd = _called_z2()
    assert rnd.can_stay_silent()
    assert not any(isinstance(a, Silent) for a in rnd.legal_actions())
    assert rnd.is_legal(Silent())


def test_nothing_to_keep_back_is_refused() -> None:
    """Seat 2 holds no declaration: there is nothing to keep to himself."""
    rnd = play(_called_z2(), "8H")
    assert rnd.to_act == 2 and not rnd.can_stay_silent()
    with pytest.raises(WrongPhaseError, match="no zvanja"):
        rnd.apply(Silent())


def test_after_the_first_trick_it_is_too_late() -> None:
    """Zvanja are said (or not) in the first trick; later the comparison is settled."""
    rnd = play(_called_z2(), "8H JH AH QH")
    assert rnd.tricks and not rnd.can_stay_silent()
    with pytest.raises(WrongPhaseError, match="first trick"):
        rnd.apply(Silent())


def test_before_the_call_it_is_too_early() -> None:
    rnd = new_round(0, Z2)
    with pytest.raises(WrongPhaseError):
        rnd.apply(Silent())


def test_silent_only_once() -> None:
    rnd = _called_z2().apply(Silent(), seat=1)
    assert not rnd.can_stay_silent()
    with pytest.raises(WrongPhaseError, match="already"):
        rnd.apply(Silent())


def test_silent_seat_is_not_shown_and_the_table_knows_he_said_nothing() -> None:
    """The other seats' views show the new winner's zvanja and mark seat 0 silent."""
    rnd = play(_called_z2(), "8H JH AH").apply(Silent(), seat=0)
    view = rnd.view(3)
    assert view.zvanja_team == 1
    assert [seat for seat, _ in view.shown_zvanja] == [1]
    assert view.silent == (0,)
    assert rnd.view(0).may_stay_silent is False  # said once already
    assert _called_z2().view(1).may_stay_silent is True


def test_bela_stays_obligatory_for_a_silent_player() -> None:
    """Seat 1 keeps its run back; its bela (trump K and Q) is still announced and counts."""
    rnd = call(new_round(0, BELA_AND_RUN), "C")
    assert rnd.zvanja_team == 1
    rnd = rnd.apply(Silent(), seat=1)
    assert rnd.zvanja_team == 0  # seat 2's 20 is now the only declaration
    assert rnd.zvanja_points == (20, 0)
    finished = finish_first_legal(rnd)
    assert finished.result is not None
    assert finished.result.bela == (0, 20)
    assert finished.result.zvanja == (20, 0)


def test_silent_is_replayed_from_the_actions() -> None:
    """The action list holds "šutim" where it was said and replays to the same result."""
    rnd = finish_first_legal(play(_called_z2(), "8H JH AH").apply(Silent(), seat=0))
    assert "šutim" in [str(a) for a in rnd.actions]
    again = new_round(0, Z2).replay(rnd.actions)
    assert again.result == rnd.result


def test_under_no_zvanja_there_is_nothing_to_keep_back() -> None:
    rnd = call(new_round(0, Z2, Rules(no_zvanja=True)), "H")
    assert not rnd.can_stay_silent()
    with pytest.raises(WrongPhaseError):
        rnd.apply(Silent())


def test_a_match_takes_silent_like_any_action() -> None:
    """A match passes "šutim" to its round, and the round's record keeps it."""
    match = Match.new(7, target=501)
    while match.current is not None and not match.current.can_stay_silent():
        match = match.apply(match.current.legal_actions()[0])
    assert match.current is not None
    seat = match.current.to_act
    match = match.apply(Silent())
    assert match.current is not None and match.current.silent_seats == (seat,)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_silence_takes_only_the_silent_seats_points(seed: int, dealer: int) -> None:
    """Whatever the deal: after "šutim" the zvanja written are what the declaring seats'
    comparison gives, and the silent seat's own declarations never count."""
    rnd = Round.from_seed(seed, dealer)
    while rnd.phase.value == "bidding":
        rnd = rnd.apply(rnd.legal_actions()[-1])
    if rnd.is_finished:
        return
    while not rnd.tricks and not rnd.can_stay_silent():
        rnd = rnd.apply(rnd.legal_actions()[0])
    if rnd.tricks:
        return
    seat = rnd.to_act
    assert seat is not None
    silent = rnd.apply(Silent())
    team = silent.zvanja_team
    if team is not None:
        counted = sum(z.points for s in (team, team + 2) for z in silent.declared(s))
        assert silent.zvanja_points[team] == counted
        assert silent.zvanja_points[1 - team] == 0
    assert silent.declared(seat) == ()
    assert not isinstance(silent.legal_actions()[0], Silent)
    assert isinstance(silent.legal_actions()[0], Play)
