"""The table's conventions ``normal`` follows (docs/bots.md, "Conventions"), one position each.

Each position is one where the convention picks the card and ``normal-v1`` (the
default ``PlayStyle``, the play before the conventions) picks another, so each
test also checks the old player still plays the old card: a test that passed
without the knob would not be testing it.
"""

from __future__ import annotations

from random import Random

from bela_ai_views import cards, position_view

from bela.ai import make_bot
from bela.engine import Card, Play, SeatView


def card_of(kind: str, view: SeatView) -> Card:
    action = make_bot(kind).act(view, Random(0))
    assert isinstance(action, Play) and action in view.legal_actions
    return action.card


def test_podigravati_leads_back_the_suit_the_partner_led() -> None:
    # Trump hearts, seat 1 called. The partner (seat 2) led the 9S; seat 0 took it with
    # the ace and now leads: back into the partner's spades, not away from them.
    view = position_view(
        seat=0,
        hand="7H 9D KD JS QS KS AC",
        trump="H",
        caller=1,
        dealer=1,
        tricks=[(2, "9S 8S AS 10S")],
    )
    assert card_of("normal", view).suit == Card.parse("JS").suit
    assert card_of("normal-v1", view).suit != Card.parse("JS").suit


def test_upuniti_loads_the_king_onto_the_partners_ace() -> None:
    # Seat 0 plays last to a diamond trick the partner's ace holds for sure: the king
    # (4 points) goes on it, where the old judgement kept it as the ten's cover.
    view = position_view(
        seat=0,
        hand="KD JD 7S 8S 9S 7C 8C QC",
        trump="H",
        caller=1,
        dealer=0,
        leader=1,
        trick="9D AD 7D",
    )
    assert card_of("normal", view) == Card.parse("KD")
    assert card_of("normal-v1", view) == Card.parse("JD")


def test_no_trump_lead_again_when_nobody_else_holds_one() -> None:
    # Trump hearts, seat 0 called and has led trumps twice; every other heart is gone,
    # so the ace of trumps is a sure trick later. It is not led a third time.
    view = position_view(
        seat=0,
        hand="AH 8S 7C JC",
        trump="H",
        caller=0,
        dealer=0,
        tricks=[
            (1, "JH QH 10S 8H"),
            (1, "JS KS 8D AS"),
            (0, "9H 7H KH 9D"),
            (0, "10H 7D 10D 9C"),
        ],
    )
    assert card_of("normal", view) != Card.parse("AH")
    assert card_of("normal-v1", view) == Card.parse("AH")


def test_upuniti_spares_the_masters_for_tricks_of_their_own() -> None:
    # The partner's master trump holds the first trick; seat 0 has no hearts. The old
    # judgement fed the ace or ten of diamonds; normal loads the king of clubs, the most
    # a card at risk carries, and keeps AD 10D to take diamond tricks of their own
    # (search over guessed deals agrees: docs/bots.md, "Conventions").
    view = position_view(
        seat=0,
        hand="AD 10D 7D 8D 7C 8C 9C KC",
        trump="H",
        caller=2,
        dealer=1,
        leader=2,
        trick="JH 7H",
    )
    assert card_of("normal", view) == Card.parse("KC")
    assert card_of("normal-v1", view) in cards("AD 10D")


def test_podigravati_leads_a_trump_to_the_partner_who_named_it() -> None:
    # The partner (seat 2) named hearts; seat 0 took the second trick and leads: a trump
    # to the caller rather than the jack of clubs.
    view = position_view(
        seat=0,
        hand="7H 8H 10D 8S JC QC",
        trump="H",
        caller=2,
        dealer=2,
        tricks=[(3, "AC 8C 7C KC"), (3, "9S AS JS KS")],
    )
    assert card_of("normal", view) in cards("7H 8H")
    assert card_of("normal-v1", view) not in cards("7H 8H")


def test_potkovana_desetka_keeps_the_guard_of_the_ten() -> None:
    # Seat 3 cannot follow the ace of trumps and has no trump: it throws a spade, not the
    # jack of diamonds that guards its ten against the ace of diamonds still out.
    view = position_view(
        seat=3,
        hand="10D JD 10S JS QS QC",
        trump="H",
        caller=0,
        dealer=3,
        tricks=[(0, "JH 8H KH 9H"), (0, "JC KC AC 8C")],
        leader=2,
        trick="AH",
    )
    assert card_of("normal", view).suit == Card.parse("JS").suit
    assert card_of("normal-v1", view) == Card.parse("JD")
