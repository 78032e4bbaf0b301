"""Naming trump: how strong a six-card hand is with each suit as trump.

``call_strength`` scores a hand for one trump suit in rough "points our team
can expect to be worth" units: the trump jack and nine (the two cards that
win trump tricks), the other trumps and the length they give, side aces and
tens that should make tricks, voids to ruff with, bela (trump K and Q), and
zvanja already visible in the six cards. The talon's two unseen cards are
worth about the same to every hand, so they are folded into the threshold.

A bot names its best suit when the score reaches its threshold, says "dalje"
otherwise, and as the forced dealer names its best suit whatever the score.
That is ``normal-v1``'s bidding, and still ``BidModel()``'s default.

``normal`` bids from evidence instead (``BidModel(learned=True)``): for each
suit the hand's features (``bid_features``: which trumps it holds, its length,
side aces and tens, voids, zvanja) are weighed by a linear model fitted to what
search over guessed deals says each choice is worth in written points
(``bela.lab.bid_data`` and ``bela.lab.bid_fit``), one set of weights for each
place in the bidding. The model predicts how much better naming the suit is
than "dalje"; the best suit is named when that is above zero, and the forced
dealer names the suit with the best predicted value. The weights are a small
JSON file shipped beside this module (``bid_weights.json``) and read with the
standard library: play needs no numpy.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from bela.engine import Call, Pass, SeatView, Suit
from bela.engine.actions import Action
from bela.engine.zvanja import zvanja_key

__all__ = [
    "BID_FEATURES",
    "BidModel",
    "BidWeights",
    "best_call",
    "bid_features",
    "call_strength",
    "choose_bid",
    "learned_bid",
    "learned_choice",
    "learned_values",
    "load_bid_weights",
    "match_adjustment",
    "parse_bid_weights",
]

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
    # True: bid with the fitted model (``bid_weights.json``) instead of the threshold.
    learned: bool = False
    # With ``learned``: near the end of a match, weigh a call by the match score
    # (``match_adjustment``), not by the round's points alone.
    match_aware: bool = False


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
    if model.learned:
        bonus = match_adjustment(view) if model.match_aware else 0.0
        return learned_bid(view, load_bid_weights(), bonus)
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


# ---------------------------------------------------------------- the learned model

BID_FEATURES: tuple[str, ...] = (
    "trump_jack",
    "trump_nine",
    "trump_ace",
    "trump_ten",
    "trump_king",
    "trump_queen",
    "trump_low",  # trump 7 and 8
    "trumps",
    "trumps_over_three",
    "jack_and_nine",
    "jack_or_nine_and_length",  # J or 9 with three trumps or more
    "side_aces",
    "side_tens_with_ace",
    "side_tens_guarded",  # a side ten without its ace, with another card of the suit
    "side_tens_bare",
    "side_kings",
    "voids",
    "singletons",
    "zvanja",  # points of zvanja in the six cards, / 10
    "strength",  # the threshold model's call_strength, / 10
)
"""The names of ``bid_features``' entries, in order (the weights file lists them too)."""

_LEGACY = BidModel()


def bid_features(hand: int, suit: int) -> list[float]:
    """What the fitted model sees of a six-card hand (a mask) with ``suit`` as trump."""
    byte = (hand >> (8 * suit)) & 0xFF
    n = byte.bit_count()
    jack = byte >> _JACK & 1
    nine = byte >> _NINE & 1
    aces = tens_ace = tens_guarded = tens_bare = kings = voids = singles = 0
    for side in range(4):
        if side == suit:
            continue
        sb = (hand >> (8 * side)) & 0xFF
        count = sb.bit_count()
        if count == 0:
            voids += 1
            continue
        if count == 1:
            singles += 1
        if sb >> _ACE & 1:
            aces += 1
            if sb >> _TEN & 1:
                tens_ace += 1
        elif sb >> _TEN & 1:
            if count >= 2:
                tens_guarded += 1
            else:
                tens_bare += 1
        if sb >> _KING & 1:
            kings += 1
    return [
        float(jack),
        float(nine),
        float(byte >> _ACE & 1),
        float(byte >> _TEN & 1),
        float(byte >> _KING & 1),
        float(byte >> _QUEEN & 1),
        float((byte >> _SEVEN & 1) + (byte >> _EIGHT & 1)),
        float(n),
        float(max(n - 3, 0)),
        float(jack & nine),
        float((jack | nine) if n >= 3 else 0),
        float(aces),
        float(tens_ace),
        float(tens_guarded),
        float(tens_bare),
        float(kings),
        float(voids),
        float(singles),
        zvanja_key(hand)[1] / 10.0,
        call_strength(hand, suit, _LEGACY) / 10.0,
    ]


@dataclass(frozen=True, slots=True)
class BidWeights:
    """The fitted bid model: per place in the bidding, how much naming a suit beats dalje.

    ``call[k]`` (k = passes before this player, 0..2) is (intercept, weights):
    the predicted written points of naming the suit minus those of dalje.
    ``forced`` weighs the suits against each other for the dealer who must name
    one (only the differences between suits matter there, so no intercept).
    """

    features: tuple[str, ...]
    call: tuple[tuple[float, tuple[float, ...]], ...]
    forced: tuple[float, ...]

    def advantage(self, passes: int, feats: list[float]) -> float:
        """Predicted written points of naming the suit minus those of dalje."""
        intercept, weights = self.call[min(passes, len(self.call) - 1)]
        return intercept + sum(w * x for w, x in zip(weights, feats, strict=True))

    def forced_value(self, feats: list[float]) -> float:
        """The forced dealer's predicted value of the suit (up to a constant)."""
        return sum(w * x for w, x in zip(self.forced, feats, strict=True))


def _floats(data: Any, n: int, what: str) -> tuple[float, ...]:
    if not isinstance(data, list) or len(data) != n:
        raise ValueError(f"{what}: expected a list of {n} numbers")
    out: list[float] = []
    for x in data:
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            raise ValueError(f"{what}: expected numbers")
        out.append(float(x))
    return tuple(out)


def parse_bid_weights(data: Any) -> BidWeights:
    """The weights from the JSON structure ``bela.lab.bid_fit`` writes (checked)."""
    if not isinstance(data, dict):
        raise ValueError("bid weights: expected an object")
    features = data.get("features")
    if not isinstance(features, list) or tuple(features) != BID_FEATURES:
        raise ValueError("bid weights: fitted to other features than bid_features gives")
    n = len(BID_FEATURES)
    call = data.get("call")
    if not isinstance(call, list) or not call:
        raise ValueError("bid weights: 'call' is a list of weight sets by place")
    sets: list[tuple[float, tuple[float, ...]]] = []
    for i, entry in enumerate(call):
        if not isinstance(entry, dict):
            raise ValueError("bid weights: each 'call' entry is an object")
        (intercept,) = _floats([entry.get("intercept")], 1, f"call[{i}].intercept")
        sets.append((intercept, _floats(entry.get("weights"), n, f"call[{i}].weights")))
    forced = _floats(data.get("forced"), n, "forced")
    return BidWeights(BID_FEATURES, tuple(sets), forced)


@cache
def load_bid_weights() -> BidWeights:
    """The shipped weights (``bid_weights.json`` beside this module), read once."""
    text = resources.files(__package__ or "bela.ai.normal").joinpath("bid_weights.json")
    return parse_bid_weights(json.loads(text.read_text(encoding="utf-8")))


# Near the end of a match (``match_adjustment``): "needs very little" is under what a
# defending team nearly always writes anyway (``MATCH_SAFE``), "one round from winning"
# under what it usually writes (``MATCH_CLOSE``); a call's worth moves by ``MATCH_SHIFT``.
MATCH_SAFE = 30
MATCH_CLOSE = 70
MATCH_SHIFT = 20.0


def match_adjustment(view: SeatView) -> float:
    """Written points added to a call's predicted advantage by the match score.

    The model values a call in the round's points, but near the target the
    round's points are not what counts:

    * our team needs very little (``MATCH_SAFE`` or less) and no more than the
      opponents: we reach the target in almost any round we do not fall in,
      since defenders write their card points too; a fall is the one way to
      miss it, so a marginal call is not worth it (``-MATCH_SHIFT``);
    * the opponents need ``MATCH_CLOSE`` or less and we need more than a
      round gives: they reach it in almost any round unless we hold them down,
      and a strong call is how; falling costs little more than what passing
      likely costs anyway, so call more boldly (``+MATCH_SHIFT``).

    0 outside a match to a target, or when neither applies.
    """
    context = view.match_context
    if context is None:
        return 0.0
    team = view.seat & 1
    target = context[2]
    need_us = target - context[team]
    need_them = target - context[1 - team]
    if need_us <= MATCH_SAFE and need_us <= need_them:
        return -MATCH_SHIFT
    if need_them <= MATCH_CLOSE and need_us > 162:
        return MATCH_SHIFT
    return 0.0


def learned_values(view: SeatView, weights: BidWeights) -> list[float]:
    """The fitted model's value of naming each suit (index = suit) for the view's hand.

    For a player who may say dalje: the predicted written points of naming the
    suit minus those of dalje. For the dealer who must name one: the suit's
    predicted value up to a constant, so only the differences mean anything.
    """
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    if Pass() not in view.legal_actions:
        return [weights.forced_value(bid_features(hand, suit)) for suit in range(4)]
    passes = len(view.bids)
    return [weights.advantage(passes, bid_features(hand, suit)) for suit in range(4)]


def learned_bid(view: SeatView, weights: BidWeights, bonus: float = 0.0) -> Action:
    """The fitted model's bid: the best suit if naming it beats dalje (always when forced).

    ``bonus`` (written points, from ``match_adjustment``) is added to every
    call's predicted advantage over dalje.
    """
    return learned_choice(view, learned_values(view, weights), bonus)


def learned_choice(view: SeatView, values: Sequence[float], bonus: float = 0.0) -> Action:
    """``learned_bid``'s rule on values already worked out (``learned_values``), for a
    bidder that also needs the values themselves (``hard`` searches the close ones)."""
    best_suit = max(range(4), key=lambda suit: (values[suit], -suit))
    if Pass() not in view.legal_actions or values[best_suit] + bonus > 0.0:
        return Call(Suit(best_suit))
    return Pass()
