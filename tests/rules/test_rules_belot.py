"""Belot: "a player who holds all 8 cards of one suit after taking up the talon wins the match
for their team immediately; the round is not played."

Deal B (``bela_scenarios``): seat 2 is dealt six clubs and finds KC AC in the talon.
"""

from __future__ import annotations

from bela_scenarios import DEAL_BELOT, call, match_around, new_round, rotate

from bela.engine import Call, Phase, Suit


def test_no_belot_before_the_talon_is_taken_up() -> None:
    """Brief: belot is held "after taking up the talon": with six clubs in hand the trump
    choice goes on normally."""
    rnd = call(new_round(0, DEAL_BELOT), "-")
    assert rnd.phase is Phase.BIDDING
    assert rnd.result is None


def test_belot_ends_the_round_unplayed() -> None:
    """Brief: "the round is not played": once trump is named and seat 2 takes up KC AC, the
    round is over for team 0 with no trick played."""
    rnd = call(new_round(0, DEAL_BELOT), "H")
    assert rnd.phase is Phase.FINISHED
    assert rnd.result is not None
    assert rnd.result.belot == 0
    assert rnd.result.belot_seat == 2
    assert rnd.tricks == ()
    assert rnd.legal_actions() == []


def test_belot_counts_whoever_names_trump_and_whatever_suit() -> None:
    """Brief: "a player who holds all 8 cards of one suit" wins for their team: here the
    opponent seat 3 names spades, and seat 2's clubs still win for team 0."""
    rnd = call(new_round(0, DEAL_BELOT), "- - S")
    assert rnd.result is not None
    assert rnd.result.caller == 3
    assert rnd.result.belot == 0


def test_belot_for_team_1() -> None:
    """Brief: the team of the belot holder wins: the deal turned one seat on (dealer 1) puts the
    clubs with seat 3, so team 1 wins."""
    rnd = call(new_round(1, rotate(DEAL_BELOT, 1)), "H")
    assert rnd.result is not None
    assert rnd.result.belot == 1
    assert rnd.result.belot_seat == 3


def test_belot_wins_the_match_at_once() -> None:
    """Brief: "Belot ends the match at once", whatever the scores (here 0 to 900 of 1001,
    against the belot team)."""
    match = match_around(new_round(0, DEAL_BELOT), target=1001, scores=(0, 900))
    match = match.apply(Call(Suit.HEARTS))
    assert match.winner == 0
    assert match.is_over
    assert match.current is None
    assert match.rounds[-1].result.belot == 0


def test_belot_is_shown_to_every_seat() -> None:
    """Belot ends the round because it is shown: every seat's view names the holder and the
    eight cards (chosen by this project; the brief says the round is not played)."""
    rnd = call(new_round(0, DEAL_BELOT), "H")
    for seat in range(4):
        view = rnd.view(seat)
        assert len(view.shown_zvanja) == 1
        holder, zvanja = view.shown_zvanja[0]
        assert holder == 2
        assert [str(c) for c in zvanja[0].cards] == [
            "7C",
            "8C",
            "9C",
            "10C",
            "JC",
            "QC",
            "KC",
            "AC",
        ]
