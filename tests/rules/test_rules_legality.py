"""Which cards may be played: the brief's "Playing a trick" rules 1-4, with ``legal_plays``
and through ``Round.apply`` at a table.

In the ``legal_plays`` tests trump is hearts unless a test says otherwise, and the trick is
the cards already on the table in play order.
"""

from __future__ import annotations

import pytest
from bela_scenarios import DEAL_T, DEAL_W, call, cards, new_round, play

from bela.engine import Card, IllegalPlayError, Play, Suit, legal_plays

H = Suit.HEARTS


def legal(hand: str, trick: str, trump: Suit = H) -> set[str]:
    return {str(c) for c in legal_plays(cards(hand), cards(trick), trump)}


def test_leader_may_play_any_card() -> None:
    """Brief, rule 1: "The leader plays any card"."""
    hand = "JH 7H AD 8S QC 9C 10S KD"
    assert legal(hand, "") == set(hand.split())


def test_must_follow_the_suit_led() -> None:
    """Brief, rule 2: "A player holding a card of L must play one" (here none can beat the
    ace led, so any diamond, but no trump and no other suit)."""
    assert legal("7D QD JH 8S AC", "AD") == {"7D", "QD"}


def test_must_overtake_in_the_suit_led_when_possible() -> None:
    """Brief, rule 2: "they must play a card of L higher than the highest L card on the trick
    when they have one"."""
    assert legal("AD KD 7D 7S", "10D") == {"AD"}
    assert legal("AD KD QD 7D 7S", "JD 9D") == {"AD", "KD", "QD"}


def test_must_overtake_the_highest_card_of_the_suit_led() -> None:
    """Brief, rule 2: higher "than the highest L card on the trick", not just the card led."""
    assert legal("KD QD 8D", "9D KC 8D") == {"KD", "QD"}
    assert legal("KD QD 8D", "9D 10D") == {"KD", "QD", "8D"}


def test_must_overtake_even_when_partner_is_winning() -> None:
    """Brief: "(this holds even when their partner is winning)"; "There is no exemption when
    the partner is winning the trick". Partner led KD and is winning; an opponent followed
    low; the player holding AD must still play it."""
    assert legal("AD 7D 8S", "KD 9D") == {"AD"}


def test_may_play_any_card_of_the_suit_led_when_unable_to_overtake() -> None:
    """Brief, rule 2: the overtake duty holds "when they have one"; otherwise any card of L."""
    assert legal("KD 7D 8S JH", "AD") == {"KD", "7D"}


def test_trick_already_trumped_allows_any_card_of_the_suit_led() -> None:
    """Brief, rule 2: "If the trick has already been trumped, any card of L is allowed" (no
    duty to beat the highest diamond, and no trump while diamonds are held)."""
    assert legal("AD 8D 9H JH", "10D 7H") == {"AD", "8D"}


def test_trump_led_must_beat_the_highest_trump() -> None:
    """Brief, rule 2: "If L is trump, they must beat the highest trump on the trick when they
    can" (trump order J 9 A 10 K Q 8 7)."""
    assert legal("JH 7H AD", "10H") == {"JH"}
    assert legal("10H 9H KH AS", "AH") == {"9H"}
    assert legal("9H AH 8H", "KH 10H") == {"9H", "AH"}


def test_trump_led_any_trump_when_unable_to_beat() -> None:
    """Brief, rule 2: if L is trump and they cannot beat the highest trump, "otherwise play
    any trump"."""
    assert legal("9H 7H AD", "JH") == {"9H", "7H"}


def test_void_in_suit_led_must_trump() -> None:
    """Brief, rule 3: "A player with no card of L must play a trump"."""
    assert legal("7H QH 8S AC", "AD") == {"7H", "QH"}


def test_must_overtrump() -> None:
    """Brief, rule 3: "If a trump is already on the trick they must play a higher trump when
    they have one"."""
    assert legal("JH 7H 8S", "AD 10H") == {"JH"}
    assert legal("JH 9H KH 8S", "AD AH") == {"JH", "9H"}


def test_compulsory_under_trump() -> None:
    """Brief, rule 3: "otherwise they must still play a lower trump (under-trumping is
    compulsory)": no discard while a trump is held."""
    assert legal("7H 8H 8S AC", "AD JH") == {"7H", "8H"}


def test_only_void_in_suit_and_trump_may_play_anything() -> None:
    """Brief, rule 4: "Only a player with no card of L and no trump may play any card"."""
    assert legal("8S AC 7C", "AD JH") == {"8S", "AC", "7C"}
    assert legal("8S AC 7C", "AD") == {"8S", "AC", "7C"}


def test_trump_rules_follow_the_trump_suit_named() -> None:
    """Brief: L and T are the suit led and the trump suit, whichever suit is trump: with
    spades trump, a player void in hearts must trump with a spade."""
    assert legal("7S QS 8D AC", "AH", Suit.SPADES) == {"7S", "QS"}
    assert legal("7S QS 8D AC", "AH", Suit.CLUBS) == {"AC"}


def test_round_offers_only_the_legal_cards() -> None:
    """At the table (worked example, trump hearts): after A♦ is led, the player with no
    diamond is offered only trumps (7H, 9H)."""
    rnd = play(call(new_round(0, DEAL_W), "H"), "AD")
    assert rnd.to_act == 2
    offered = {str(a.card) for a in rnd.legal_actions() if isinstance(a, Play)}
    assert offered == {"7H", "9H"}


def test_round_rejects_a_discard_when_a_trump_is_held() -> None:
    """Brief, rule 3 at the table: seat 2 holds no diamond, so AS after A♦ is illegal."""
    rnd = play(call(new_round(0, DEAL_W), "H"), "AD")
    with pytest.raises(IllegalPlayError):
        rnd.apply(Play(Card.parse("AS")))


def test_round_rejects_refusing_to_overtrump() -> None:
    """Brief, rule 3 at the table: with 7♥ on the trick, seat 0 (no diamond) must overtrump;
    a club is rejected, QH is accepted."""
    rnd = play(call(new_round(0, DEAL_W), "H"), "AD 7H 8D")
    with pytest.raises(IllegalPlayError):
        rnd.apply(Play(Card.parse("AC")))
    assert play(rnd, "QH").tricks[0].winner == 0


def test_round_rejects_not_overtaking_in_the_suit_led() -> None:
    """Brief, rule 2 at the table (deal T, trump hearts): after 10D is led, seat 2 holds AD and
    JD and must overtake with AD; JD is rejected."""
    rnd = play(call(new_round(0, DEAL_T), "H"), "JH 7H QH 10H | 9H 8H KH AH | 10D")
    assert rnd.to_act == 2
    with pytest.raises(IllegalPlayError):
        rnd.apply(Play(Card.parse("JD")))
    assert {str(a.card) for a in rnd.legal_actions() if isinstance(a, Play)} == {"AD"}


def test_round_rejects_not_following_trump_led() -> None:
    """Brief, rule 2 at the table (deal T): trump JH led, seat 2 holds 8H 7H and must play a
    trump; a diamond is rejected."""
    rnd = play(call(new_round(0, DEAL_T), "H"), "JH")
    with pytest.raises(IllegalPlayError):
        rnd.apply(Play(Card.parse("AD")))
    assert {str(a.card) for a in rnd.legal_actions() if isinstance(a, Play)} == {"8H", "7H"}
