"""Reading the bids: how likely each guessed deal makes the bids the table heard.

The sampler (``bela.search.sampling``) deals the unseen cards consistently with
every hard fact of the view: voids, "could not overtake", the zvanja. The bids
are softer evidence: a player who said "dalje" can hold a fine hand, and a
caller a thin one, but not often. The first hard bot (``hard-v1``) read them
with two yes/no tests (a passer holding the jack and nine of one suit, a caller
without the trump jack or nine and short in trumps). Here each bid gets a
likelihood from the whole hand, with the same hand evaluation the bots bid by
(``call_strength``):

* a pass: the chance a player with that hand would have passed, falling
  smoothly as the hand's best suit grows stronger than ``call_at``;
* a call of a suit: the chance the hand would have called at all, times how
  clearly the named suit is the hand's best one (a player rarely names a
  suit well below another of its suits);
* a forced dealer's call: only the second part.

A guessed deal is kept with the product of those chances (rejection, so the
kept deals are drawn in proportion to how well they explain the bids). During
play a player's eight cards are guessed but not which two were their talon
(taken up after the bidding): the two are drawn at random for each guess,
which keeps a deal with exactly the average chance over the possible talons.

The curve's place and width were read off ``hard-v1``'s own bids (it calls by
search, so around the heuristic's threshold it calls and passes with the same
hands): see ``docs/bots.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from random import Random

from bela.ai.normal.bidding import BidModel, call_strength
from bela.engine import Call, Pass
from bela.search.sampling import Hands, Knowledge

__all__ = ["BidReading", "bid_likelihood", "bidding_weight", "play_weight"]


@dataclass(frozen=True, slots=True)
class BidReading:
    """The curve that turns a hand's strength into the chance of each bid.

    ``call_at``: the strength (``call_strength`` units, the best suit) at which
    a player calls half the time; ``width``: how gradually (logistic scale);
    ``suit_width``: how sharply a caller names its best suit rather than a
    weaker one; ``floor``: the least chance any bid gets (players differ, and
    no deal is ever ruled out by a bid alone).
    """

    call_at: float = 48.0
    width: float = 10.0
    suit_width: float = 8.0
    floor: float = 0.04
    model: BidModel = field(default_factory=BidModel)


def _logistic(x: float) -> float:
    if x < -30.0:
        return 0.0
    if x > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def bid_likelihood(six: int, bid: Pass | Call, forced: bool, reading: BidReading) -> float:
    """The chance a player holding ``six`` (a mask of six cards) made ``bid``, in (0, 1]."""
    m = reading.model
    strengths = [call_strength(six, s, m) for s in range(4)]
    best = max(strengths)
    if isinstance(bid, Pass):
        p = 1.0 - _logistic((best - reading.call_at) / reading.width)
    else:
        named = strengths[int(bid.suit)]
        p = math.exp((named - best) / reading.suit_width)
        if not forced:
            p *= _logistic((named - reading.call_at) / reading.width)
    return max(p, reading.floor)


def _bids_of_others(
    seat: int, bids: Sequence[tuple[int, Pass | Call]]
) -> list[tuple[int, Pass | Call, bool]]:
    """(seat, bid, forced) for every bid but the own ones (a forced call is the fourth)."""
    return [(s, b, i == 3) for i, (s, b) in enumerate(bids) if s != seat]


def _random_six(eight: int, rng: Random) -> int:
    """``eight`` without two of its cards drawn at random (the guessed talon)."""
    cards = [c for c in range(32) if eight >> c & 1]
    if len(cards) <= 6:
        return eight
    a, b = rng.sample(cards, 2)
    return eight & ~(1 << a | 1 << b)


def play_weight(knowledge: Knowledge, hands: Hands, rng: Random, reading: BidReading) -> float:
    """How well a guessed deal during play explains the bids (a chance in (0, 1])."""
    eights = knowledge.eights(hands)
    w = 1.0
    for s, bid, forced in _bids_of_others(knowledge.seat, knowledge.bids):
        w *= bid_likelihood(_random_six(eights[s], rng), bid, forced, reading)
    return w


def bidding_weight(
    seat: int, bids: Sequence[tuple[int, Pass | Call]], hands: Hands, reading: BidReading
) -> float:
    """How well a guessed deal during the bidding (six cards a hand) explains the bids so far."""
    w = 1.0
    for s, bid, forced in _bids_of_others(seat, bids):
        w *= bid_likelihood(hands[s], bid, forced, reading)
    return w
