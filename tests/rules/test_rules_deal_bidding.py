"""The deal and the trump choice: "Deal and trump" steps 1-3 and 5, and the table's order."""

from __future__ import annotations

import pytest
from bela_scenarios import DEAL_T, DEAL_W, PLAY_W_FIRST_TRICK, call, new_round, play

from bela.engine import Call, IllegalBidError, Pass, Phase, Round, Suit


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_seeded_deal_gives_six_cards_and_a_two_card_talon(dealer: int) -> None:
    """Brief, step 1: the dealer deals "each player 6 cards face up to them and 2 face-down
    cards, the player's own talon", using the 32 cards once."""
    rnd = Round.from_seed(20_240_601, dealer=dealer)
    dealt = []
    for seat in range(4):
        assert len(rnd.hand(seat)) == 6
        assert len(rnd.talon(seat)) == 2
        dealt += rnd.hand(seat) + rnd.talon(seat)
    assert sorted(dealt) == list(range(32))


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_first_player_is_dealer_plus_one_and_speaks_first(dealer: int) -> None:
    """Brief: "The first player (forehand) of a round is dealer + 1"; step 2: "Starting with
    the first player, each in turn either names a trump suit ... or says dalje"."""
    rnd = new_round(dealer, DEAL_T)
    assert rnd.first_player == (dealer + 1) % 4
    assert rnd.phase is Phase.BIDDING
    assert rnd.to_act == (dealer + 1) % 4


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_bidding_goes_counter_clockwise(dealer: int) -> None:
    """Brief: "seat s+1 (mod 4) acts after seat s"; each pass hands the choice on."""
    rnd = new_round(dealer, DEAL_T)
    for k in range(3):
        assert rnd.to_act == (dealer + 1 + k) % 4
        rnd = rnd.apply(Pass())
    assert rnd.to_act == dealer
    assert [seat for seat, _ in rnd.bids] == [(dealer + 1 + k) % 4 for k in range(3)]


@pytest.mark.parametrize("suit", ["H", "D", "S", "C"])
def test_first_suit_named_ends_the_choice(suit: str) -> None:
    """Brief, step 2: each "names a trump suit (any of the four) or says dalje ... The first
    suit named ends the choice". Seat 1 passes, seat 2 names the suit: play begins."""
    rnd = call(new_round(0, DEAL_T), f"- {suit}")
    assert rnd.phase is Phase.PLAYING
    assert rnd.trump is Suit.parse(suit)
    assert rnd.caller == 2
    assert len(rnd.bids) == 2
    assert not any(isinstance(a, Pass | Call) for a in rnd.legal_actions())


def test_dealer_must_name_a_suit_after_three_passes() -> None:
    """Brief, step 2: "If the first three pass, the dealer must name a suit (may not pass)":
    the dealer is offered only the four suits."""
    rnd = call(new_round(0, DEAL_T), "- - -")
    assert rnd.to_act == 0
    assert Pass() not in rnd.legal_actions()
    assert set(rnd.legal_actions()) == {Call(s) for s in Suit}


def test_dealer_pass_after_three_passes_raises_illegal_bid() -> None:
    """Brief, step 2: the dealer "may not pass": ``Pass`` is an ``IllegalBidError``; a suit is
    accepted and makes the dealer the caller."""
    rnd = call(new_round(3, DEAL_T), "- - -")
    assert rnd.to_act == 3
    with pytest.raises(IllegalBidError):
        rnd.apply(Pass())
    after = rnd.apply(Call(Suit.CLUBS))
    assert after.caller == 3
    assert after.trump is Suit.CLUBS


def test_non_dealer_may_pass() -> None:
    """Brief, step 2: before the dealer, each player may say "dalje"."""
    rnd = new_round(0, DEAL_T)
    for _ in range(3):
        assert Pass() in rnd.legal_actions()
        rnd = rnd.apply(Pass())


def test_talon_is_taken_up_only_after_trump_is_named() -> None:
    """Brief, step 3: "Only after trump is named, every player takes up their talon: 8 cards
    each". During the choice each hand has 6 cards; the talon joins it after the call."""
    rnd = new_round(0, DEAL_T)
    rnd = rnd.apply(Pass())
    for seat in range(4):
        assert len(rnd.hand(seat)) == 6
        assert not set(rnd.talon(seat)) & set(rnd.hand(seat))
    called = rnd.apply(Call(Suit.HEARTS))
    for seat in range(4):
        assert len(called.hand(seat)) == 8
        assert set(called.talon(seat)) <= set(called.hand(seat))


def test_talon_is_not_in_the_players_view_before_the_call() -> None:
    """Brief, step 1: the talon is dealt face down, so a player does not see it while trump
    is being chosen; after the call it is part of the hand."""
    rnd = new_round(0, DEAL_T)
    view = rnd.view(1)
    assert len(view.hand) == 6
    assert not set(view.hand) & set(rnd.talon(1))
    after = call(rnd, "H").view(1)
    assert set(rnd.talon(1)) <= set(after.hand)


@pytest.mark.parametrize("bids", ["H", "- H", "- - H", "- - - H"])
def test_first_player_leads_the_first_trick_whoever_called(bids: str) -> None:
    """Brief, step 5: "The first player leads the first trick, whoever named trump"."""
    for dealer in range(4):
        rnd = call(new_round(dealer, DEAL_T), bids)
        assert rnd.phase is Phase.PLAYING
        assert rnd.to_act == (dealer + 1) % 4
        assert rnd.trick_leader == (dealer + 1) % 4


def test_winner_of_a_trick_leads_the_next() -> None:
    """Brief, step 5: "The winner of a trick leads the next" (worked example: seat 0 wins with
    Q♥ and leads, although seat 1 led the first trick)."""
    rnd = play(call(new_round(0, DEAL_W), "H"), PLAY_W_FIRST_TRICK)
    assert rnd.tricks[0].winner == 0
    assert rnd.to_act == 0
    assert rnd.trick_leader == 0


def test_play_goes_counter_clockwise_within_a_trick() -> None:
    """Brief: "seat s+1 (mod 4) acts after seat s", also in play."""
    rnd = call(new_round(2, DEAL_T), "- - D")
    seats = []
    for _ in range(4):
        seats.append(rnd.to_act)
        rnd = rnd.apply(rnd.legal_actions()[0])
    assert seats == [3, 0, 1, 2]


def test_teams_are_partners_opposite() -> None:
    """Brief: "Team of a seat = seat % 2": the worked example's seats 0 and 2 score together
    (seat 0's trick counts for team 0)."""
    rnd = play(call(new_round(0, DEAL_W), "H"), PLAY_W_FIRST_TRICK)
    assert rnd.card_points == (14, 0)
    assert rnd.tricks_won == (1, 0)
