"""Card memory: the deductions a seat makes from the record of play."""

from __future__ import annotations

import pytest
from bela_ai_views import position_view, two_tricks_left_view

from bela.ai import decision_rng, make_bot
from bela.ai.normal.heuristic import PlayStyle, choose_card
from bela.engine import Card, Round, Suit, round_seed
from bela.engine.cards import SUIT_MASK
from bela.search.memory import CardMemory, mask_from


def bit(text: str) -> int:
    return 1 << Card.parse(text)


def test_a_player_who_did_not_follow_is_void_and_one_who_discarded_has_no_trump() -> None:
    # Trump hearts. Seat 1 leads KS, seat 2 does not beat it, seat 3 trumps.
    view = position_view(
        seat=0,
        hand="AS 10S 8D 9D 7C 8C JH 9H",
        trump="H",
        caller=0,
        dealer=0,
        trick="KS 7S 7H",
    )
    memory = CardMemory.from_view(view)
    assert not memory.possible[3] & SUIT_MASK[Suit.SPADES], "seat 3 trumped: no spades"
    assert memory.void(3, Suit.SPADES)
    # seat 2 followed without beating KS: it holds no higher spade (AS and 10S are ours anyway)
    assert memory.possible[2] & bit("8S") and memory.possible[2] & bit("QS")
    assert memory.unseen.bit_count() == 32 - 8 - 3


def test_could_not_overtake_removes_the_higher_cards_of_the_suit() -> None:
    # Seat 1 leads 9D; seat 2 plays 7D without beating it: no 10D, JD, QD, KD or AD.
    view = position_view(
        seat=3,
        hand="7H 8H 9S 10S JS 7C 8C 9C",
        trump="H",
        caller=1,
        dealer=0,
        trick="9D 7D",
    )
    memory = CardMemory.from_view(view)
    for card in ("10D", "JD", "QD", "KD", "AD"):
        assert not memory.possible[2] & bit(card), card
    assert memory.possible[2] & bit("8D")
    assert memory.possible[0] & bit("AD"), "seat 0 has not played: anything unseen"


def test_a_discard_on_a_plain_lead_shows_no_trumps_and_counting_places_the_rest() -> None:
    # Six tricks played; seat 3 discarded 9D on a spade lead (no spade, no trump).
    view = two_tricks_left_view()
    memory = CardMemory.from_view(view)
    assert memory.void(3, Suit.HEARTS) and memory.void(3, Suit.SPADES)
    # Seat 1 followed clubs in trick 5 without trumping: nothing is deduced about its hearts.
    assert memory.possible[1] & bit("9H")
    # Seat 3 can hold neither the 9H nor (void in diamonds? no) only what is left.
    assert not memory.possible[3] & bit("9H")
    assert memory.sizes == (2, 2, 2, 2)


def test_shown_zvanja_name_cards_in_their_owners_hands() -> None:
    from bela.engine import find_zvanja

    sequence = tuple(find_zvanja(["7C", "8C", "9C"]))
    view = position_view(
        seat=0,
        hand="AS 10S 8D 9D JD QD JH 9H",
        trump="H",
        caller=0,
        dealer=3,
        shown_zvanja=((1, sequence),),
        zvanja_team=1,
    )
    memory = CardMemory.from_view(view)
    for card in ("7C", "8C", "9C"):
        assert memory.known[1] & bit(card)
        assert not memory.possible[2] & bit(card) and not memory.possible[3] & bit(card)


def test_counting_a_seat_whose_possible_cards_equal_its_hand_size_holds_them_all() -> None:
    # Three cards out, one per seat: seat 1 may hold only KD (voids shown), seat 2 KD or 8D.
    kd, d8, kc = bit("KD"), bit("8D"), bit("KC")
    out = kd | d8 | kc
    memory = CardMemory(
        seat=0,
        trump=int(Suit.HEARTS),
        hand=bit("AS"),
        played=0,
        unseen=out,
        possible=[bit("AS"), kd, kd | d8, out],
        known=[bit("AS"), 0, 0, 0],
        sizes=(1, 1, 1, 1),
    )
    memory._propagate()
    assert memory.known[1] == kd
    assert memory.known[2] == d8, "KD is seat 1's, so seat 2 holds the 8D"
    assert memory.known[3] == kc
    assert memory.possible[3] == kc


def _mid_round(index: int, tricks: int) -> Round:
    """A seeded round played by the heuristic until ``tricks`` tricks are done."""
    bot = make_bot("heuristic")
    deal_seed = round_seed(31, index)
    rnd = Round.from_seed(deal_seed, dealer=index % 4)
    step = 0
    while rnd.to_act is not None and len(rnd.tricks) < tricks:
        seat = rnd.to_act
        rnd.push(bot.act(rnd.view(seat), decision_rng(deal_seed, 0, step)), seat)
        step += 1
    return rnd


def test_reveal_places_a_hand_and_takes_its_cards_from_the_others() -> None:
    rnd = _mid_round(0, 3)
    seat = rnd.to_act
    assert seat is not None
    partner = (seat + 2) & 3
    mem = CardMemory.from_view(rnd.view(seat))
    true = rnd.hand_mask(partner)
    mem.reveal(partner, true)
    assert mem.known[partner] == mem.possible[partner] == true
    for other in (seat ^ 1, seat ^ 3):
        assert mem.possible[other] & true == 0
        assert rnd.hand_mask(other) & ~mem.possible[other] == 0  # the truth stays possible


def test_reveal_refuses_cards_the_seat_cannot_hold() -> None:
    rnd = _mid_round(1, 2)
    seat = rnd.to_act
    assert seat is not None
    view = rnd.view(seat)
    mem = CardMemory.from_view(view)
    hand = rnd.hand(seat ^ 1)
    played = view.tricks[0].cards[0]
    wrong = mask_from(hand[1:]) | 1 << played  # a card already played instead of one held
    before = (list(mem.possible), list(mem.known))
    with pytest.raises(ValueError, match="cannot hold"):
        mem.reveal(seat ^ 1, wrong)
    assert (mem.possible, mem.known) == before  # refused: nothing changed
    with pytest.raises(ValueError, match="own hand"):
        mem.reveal(seat, rnd.hand_mask(seat))


def test_choose_card_judges_by_the_memory_it_is_given() -> None:
    style = PlayStyle()
    differs = 0
    for index in range(30):
        rnd = _mid_round(index, 4)
        seat = rnd.to_act
        assert seat is not None
        view = rnd.view(seat)
        default = choose_card(view, style)
        assert choose_card(view, style, CardMemory.from_view(view)) == default
        told = CardMemory.from_view(view)
        for other in range(4):
            if other != seat:
                told.reveal(other, rnd.hand_mask(other))
        differs += choose_card(view, style, told) != default
    assert differs > 0  # knowing every hand changes some decisions
