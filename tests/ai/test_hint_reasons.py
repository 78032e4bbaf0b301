"""Hints in a player's words: the card's role in the position, and honest numbers behind it."""

from __future__ import annotations

from bela.ai.hard import Decision, explain
from bela.ai.reasons import reason
from bela.engine import Call, Card, Pass, Play, Round, SeatView, Suit


def position(dealer: int, hands: list[str], bids: list[Call | Pass], cards: str = "") -> Round:
    """A round from four 8-card hands (the last two of each are the talon), bid and played."""
    split = [h.split() for h in hands]
    rnd = Round.from_hands(
        dealer, [" ".join(h[:6]) for h in split], [" ".join(h[6:]) for h in split]
    )
    for bid in bids:
        rnd = rnd.apply(bid)
    for card in cards.split():
        rnd = rnd.apply(Play(Card.parse(card)))
    return rnd


# Dealer Ana (3): you name spades and lead.
LEAD = [
    "JS 9S 7S 10D 8D 7H AC 8C",
    "AS 10S 9D 7D 8H 9H 9C 10C",
    "KS QS AD KD AH 10H JC QC",
    "8S QD JD JH QH KH KC 7C",
]
# Dealer you (0): Ivo names spades and leads; you play last.
LAST = [
    "AD 10D 7C 8C 9H 10H JS 7S",
    "KD 9S AS 10S KS 9C 10C 7H",
    "8D 9D AH KH QH JH 8S QC",
    "QD JD 7D 8H QS AC JC KC",
]


def my_view(rnd: Round) -> SeatView:
    assert rnd.to_act == 0
    return rnd.view(0)


def test_leading_the_top_trump_draws_trumps_to_protect_side_winners() -> None:
    view = my_view(position(3, LEAD, [Call(Suit.SPADES)]))
    assert reason(view, Play(Card.parse("JS"))) == (
        "lead JS: you hold the top trump, and drawing trumps protects your AC and 10D"
    )


def test_a_lower_trump_lead_names_the_top_trump_still_out() -> None:
    view = my_view(position(3, LEAD, [Call(Suit.SPADES)]))
    text = reason(view, Play(Card.parse("7S")))
    assert text.startswith("lead 7S: 5 trumps are still out (the top one is AS)"), text


def test_cashing_an_ace() -> None:
    view = my_view(position(3, LEAD, [Call(Suit.SPADES)]))
    assert reason(view, Play(Card.parse("AC"))) == (
        "lead AC: cashing an ace: it is the highest club left, "
        "worth 11 points before anyone runs out of them"
    )


def test_a_low_lead_gives_little_away() -> None:
    view = my_view(position(3, LEAD, [Call(Suit.SPADES)]))
    assert "a low heart gives little away" in reason(view, Play(Card.parse("7H")))


def test_a_ten_under_the_ace_still_out() -> None:
    view = my_view(position(3, LEAD, [Call(Suit.SPADES)]))
    assert reason(view, Play(Card.parse("10D"))) == (
        "lead 10D: only AD is still higher: this lead wins the trick or draws it out"
    )


def test_winning_the_trick_as_last_player() -> None:
    view = my_view(position(0, LAST, [Call(Suit.SPADES)], "KD 8D 7D"))
    assert reason(view, Play(Card.parse("AD"))) == "play AD: it wins the trick (15 points)"


def test_smearing_points_onto_the_partners_trick() -> None:
    view = my_view(position(0, LAST, [Call(Suit.SPADES)], "7H AH 8H"))
    assert reason(view, Play(Card.parse("10H"))) == (
        "play 10H: your partner wins the trick, so smear points onto it (10 points)"
    )
    assert "keep your stronger cards" in reason(view, Play(Card.parse("9H")))


def test_ducking_when_the_opponents_win() -> None:
    view = my_view(position(0, LAST, [Call(Suit.SPADES)], "10C QC AC"))
    assert reason(view, Play(Card.parse("7C"))) == (
        "play 7C: the opponents win this trick, so duck and give them as little as you can "
        "(0 points)"
    )


def test_second_in_the_trick_the_partner_may_still_win_it() -> None:
    view = my_view(position(2, LAST, [Call(Suit.HEARTS)], "QS"))  # Ana names hearts, leads QS
    assert reason(view, Play(Card.parse("JS"))) == (
        "play JS: your partner plays last and may still win this trick"
    )
    assert reason(view, Play(Card.parse("7S"))) == (
        "play 7S: the opponents are winning this trick, so duck and give them as little as "
        "you can (0 points)"
    )


def test_the_only_card_allowed() -> None:
    rnd = position(0, LAST, [Call(Suit.SPADES)], "7H AH")
    view = rnd.view(3)  # Ana holds one heart, 8H
    assert [a for a in view.legal_actions if isinstance(a, Play)] == [Play(Card.parse("8H"))]
    assert reason(view, Play(Card.parse("8H"))) == (
        "play 8H: it is the only card the rules allow here"
    )


def test_bids_name_the_cards_behind_them() -> None:
    view = my_view(position(3, LEAD, []))
    assert reason(view, Call(Suit.SPADES)) == "name spades: you hold 3 spades with JS and 9S"
    text = reason(view, Pass())
    assert text.startswith("say dalje: no suit is strong enough"), text
    assert "your best, spades, has 3 cards (JS 9S 7S)" in text


def test_the_numbers_compare_the_chosen_card_with_the_best_other_card() -> None:
    """Issue #12: with equal averages the ranking's top may be the chosen card itself."""
    queen, king, seven = (Play(Card.parse(c)) for c in ("QS", "KS", "7S"))
    tie = Decision(queen, "solver", 20, {king: 5.0, queen: 5.0, seven: -3.0})
    assert explain(tie) == (
        "over 20 guessed deals QS averages +5 (us minus them, the round's written points); "
        "KS does as well"
    )
    ahead = Decision(queen, "solver", 20, {seven: -3.0, queen: 5.0})
    assert explain(ahead).endswith("; 8 more than 7S")
