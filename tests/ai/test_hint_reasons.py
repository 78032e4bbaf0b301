"""Hints in a player's words: the card's role in the position, and honest numbers behind it."""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.ai.hard import Decision, explain
from bela.ai.reasons import reason
from bela.engine import Call, Card, Pass, Play, Rank, Round, SeatView, Suit
from bela.engine.tricks import PLAIN_STRENGTH, TRUMP_STRENGTH


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


# Issue #22: a king led was "a low diamond". Seat 0 holds KD with AD and 10D still out.
KING_LEAD = [
    "JS 9S 7S KD 8D 7H AC 8C",
    "AS 10S 9D 7D 8H 9H 9C 10C",
    "KS QS AD 10D AH 10H JC QC",
    "8S QD JD JH QH KH KC 7C",
]


def test_a_king_led_is_not_called_low() -> None:
    view = my_view(position(3, KING_LEAD, [Call(Suit.SPADES)]))
    text = reason(view, Play(Card.parse("KD")))
    assert "low" not in text, text
    assert text == (
        "lead KD: it is worth only 4 points and gives little away, "
        "and leaves your partner room to win the trick"
    )
    assert "a low diamond" in reason(view, Play(Card.parse("8D")))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    trump=st.sampled_from(list(Suit)),
    steps=st.integers(0, 24),
)
def test_a_reason_says_of_a_card_only_what_its_rank_is(seed: int, trump: Suit, steps: int) -> None:
    """Every card of every rank, led or followed: "low" only for a 7, 8 or 9 off trump,
    "an ace" only for an ace, "the highest … left" only when nothing still out beats it."""
    rnd = Round.from_seed(seed, 3).apply(Call(trump))  # seat 0 speaks first and names trump
    rng = Random(seed)
    for _ in range(steps):
        if rnd.to_act is None:
            return
        rnd = rnd.apply(rng.choice(rnd.legal_actions()))
    if rnd.to_act is None:
        return
    view = rnd.view(rnd.to_act)
    unseen = set(range(32)) - {int(c) for c in view.played} - {int(c) for c in view.hand}
    for action in view.legal_actions:
        if not isinstance(action, Play):
            continue
        card = action.card
        text = reason(view, action)
        off_trump = card.suit is not trump
        if "a low" in text:
            assert off_trump and card.rank in (Rank.SEVEN, Rank.EIGHT, Rank.NINE), text
        if "an ace" in text:
            assert card.rank is Rank.ACE, text
        if "highest" in text:
            order = TRUMP_STRENGTH if not off_trump else PLAIN_STRENGTH
            stronger = [c for c in unseen if c >> 3 == card.suit and order[c & 7] > order[card & 7]]
            assert not stronger, text
