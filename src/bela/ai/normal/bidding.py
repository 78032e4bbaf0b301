"""Naming trump: how strong a six-card hand is with each suit as trump.

``call_strength`` scores a hand for one trump suit in rough "points our team
can expect to be worth" units: the trump jack and nine (the two cards that
win trump tricks), the other trumps and the length they give, side aces and
tens that should make tricks, voids to ruff with, bela (trump K and Q), and
zvanja already visible in the six cards. The talon's two unseen cards are
worth about the same to every hand, so they are folded into the threshold.

A bot names its best suit when the score reaches its threshold, says "dalje"
otherwise, and as the forced dealer names its best suit whatever the score.
"""

from __future__ import annotations

from dataclasses import dataclass

from bela.engine import Call, Pass, SeatView, Suit
from bela.engine.actions import Action
from bela.engine.zvanja import zvanja_key

__all__ = ["BidModel", "best_call", "call_strength", "choose_bid"]

# Natural rank indices: 7 8 9 10 J Q K A = 0..7.
_SEVEN, _EIGHT, _NINE, _TEN, _JACK, _QUEEN, _KING, _ACE = range(8)


@dataclass(frozen=True, slots=True)
class BidModel:
    """Weights of the hand evaluation and the threshold to call."""

    trump_jack: float = 26.0
    trump_nine: float = 18.0
    trump_ace: float = 11.0
    trump_ten: float = 9.0
    trump_other: float = 5.0
    extra_length: float = 6.0  # for each trump beyond the third
    side_ace: float = 11.0
    side_ten_with_ace: float = 9.0
    side_ten_guarded: float = 4.0
    side_king: float = 2.0
    void: float = 4.0  # a side suit void, when holding at least two trumps
    bela: float = 16.0
    zvanja: float = 0.7  # per point of zvanja visible in the six cards
    first_player: float = 4.0
    partner_passed: float = -2.0
    threshold: float = 62.0
    # Added to the threshold by place in the bidding (first to speak, second, third; the
    # dealer is forced after three passes, so the last entry only matters without forcing).
    order_offsets: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


def call_strength(hand: int, suit: int, model: BidModel) -> float:
    """The evaluation of a six-card hand (a mask) with ``suit`` as trump."""
    byte = (hand >> (8 * suit)) & 0xFF
    score = 0.0
    n_trumps = byte.bit_count()
    if byte >> _JACK & 1:
        score += model.trump_jack
    if byte >> _NINE & 1:
        score += model.trump_nine
    if byte >> _ACE & 1:
        score += model.trump_ace
    if byte >> _TEN & 1:
        score += model.trump_ten
    score += (
        model.trump_other * (byte & ~(1 << _JACK | 1 << _NINE | 1 << _ACE | 1 << _TEN)).bit_count()
    )
    if n_trumps > 3:
        score += model.extra_length * (n_trumps - 3)
    if byte >> _KING & 1 and byte >> _QUEEN & 1:
        score += model.bela
    for side in range(4):
        if side == suit:
            continue
        sb = (hand >> (8 * side)) & 0xFF
        if not sb:
            if n_trumps >= 2:
                score += model.void
            continue
        if sb >> _ACE & 1:
            score += model.side_ace
            if sb >> _TEN & 1:
                score += model.side_ten_with_ace
        elif sb >> _TEN & 1 and sb.bit_count() >= 2:
            score += model.side_ten_guarded
        if sb >> _KING & 1 and sb >> _ACE & 1:
            score += model.side_king
    return score


def zvanja_bonus(hand: int, model: BidModel) -> float:
    """What the zvanja already in the hand add (they count whoever names trump)."""
    _, total = zvanja_key(hand)
    return model.zvanja * total


def best_call(hand: int, model: BidModel) -> tuple[int, float]:
    """The best trump suit for the hand and its evaluation (zvanja not included)."""
    scores = [call_strength(hand, s, model) for s in range(4)]
    best = max(range(4), key=lambda s: scores[s])
    return best, scores[best]


def choose_bid(view: SeatView, model: BidModel) -> Action:
    """Name the best suit when the hand is strong enough (always when forced), else pass."""
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    suit, score = best_call(hand, model)
    score += zvanja_bonus(hand, model)
    if view.seat == view.first_player:
        score += model.first_player
    partner = (view.seat + 2) & 3
    if any(s == partner and isinstance(b, Pass) for s, b in view.bids):
        score += model.partner_passed
    call = Call(Suit(suit))
    if call not in view.legal_actions:  # pragma: no cover - every suit is always callable
        return view.legal_actions[0]
    order = len(view.bids)
    if Pass() not in view.legal_actions or score >= model.threshold + model.order_offsets[order]:
        return call
    return Pass()
