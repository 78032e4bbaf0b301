"""Guessed deals that respect the bidding: the one sampler behind every "whatever they hold".

The hard bot, the puzzle judge (cards and bids), the puzzle's explanation and the
coach all ask the same question: what could the hidden hands be, given what this
seat has seen? They all draw their guesses here, so that a fact the bidding
taught one of them is known to all:

* the hard facts of the view (``bela.search.sampling``: the cards seen, voids,
  "could not overtake", the zvanja, bela);
* the bids as the hard bot reads them (``bela.ai.inference``, ``BidReading``): a
  player who said dalje seldom held a strong suit, a caller seldom a weak one and
  most often named their best suit (soft: a deal against it is kept less often,
  never ruled out);
* one hard fact of the bidding: a **voluntary caller holds at least**
  ``MIN_CALLER_TRUMPS`` **trumps** among their eight cards (the six they bid on and
  their talon). Nobody names a suit of which they hold one card or none unless
  they must; the dealer who had to call (pod mus) may hold any. A deal where the
  real caller broke this (a player who called on a single trump) still gets
  guesses: the sampler then falls back to the view's hard facts alone.

While trump is being named every bid so far is a dalje (the first call ends the
bidding), so only the passers' soft evidence applies there.
"""

from __future__ import annotations

from random import Random
from typing import Final

from bela.ai.inference import BidReading, bidding_weight, play_weight
from bela.engine import Call, Pass, SeatView
from bela.search.sampling import (
    NO_EVIDENCE,
    BidEvidence,
    DealSampler,
    DealWeight,
    Hands,
    Knowledge,
    bidding_deals,
    knowledge_of,
)

__all__ = [
    "MIN_CALLER_TRUMPS",
    "READING",
    "GuessSampler",
    "caller_holds_trumps",
    "guess_bidding_deals",
    "guess_play_deals",
    "play_deal_weight",
    "voluntary_caller",
]

MIN_CALLER_TRUMPS: Final = 2
"""The trumps a voluntary caller surely holds among their eight cards."""

READING: Final = BidReading()
"""How the bids are read (the hard bot's ``HARD`` reading)."""

_HARD_TRIES: Final = 4000
"""Draws against the hard facts alone once the soft reading found no deal (practically never)."""


def voluntary_caller(bids: tuple[tuple[int, Pass | Call], ...]) -> int | None:
    """The seat that named trump without having to, or None (no call yet, or pod mus)."""
    for i, (seat, bid) in enumerate(bids):
        if isinstance(bid, Call):
            return None if i == 3 else seat
    return None


def caller_holds_trumps(knowledge: Knowledge, hands: Hands) -> bool:
    """Whether the deal gives a voluntary caller at least ``MIN_CALLER_TRUMPS`` trumps."""
    caller = voluntary_caller(knowledge.bids)
    if caller is None:
        return True
    eight = knowledge.eights(hands)[caller]
    return ((eight >> (8 * knowledge.trump)) & 0xFF).bit_count() >= MIN_CALLER_TRUMPS


def play_deal_weight(knowledge: Knowledge, reading: BidReading = READING) -> DealWeight:
    """The chance to keep a guessed deal during play: the bids' likelihood, 0 against the
    caller's trumps.

    The likelihood is always computed (it draws the guessed talons from ``rng``), so a
    deal the hard fact keeps consumes the same random numbers as it did before the fact
    was read: the hard bot's choices change only where such a deal was drawn.
    """

    def weight(hands: Hands, rng: Random) -> float:
        w = play_weight(knowledge, hands, rng, reading)
        return w if caller_holds_trumps(knowledge, hands) else 0.0

    return weight


class GuessSampler:
    """Guessed deals of the hidden cards during play, respecting the view and the bids.

    ``sample(rng)`` is ``DealSampler.sample`` with ``play_deal_weight``, and never returns a
    deal against the hard facts (the caller's trumps included) when one exists: should
    the soft reading reject every draw, deals are drawn against the hard facts alone.
    ``reading`` None reads the bids with ``evidence``'s yes/no tests instead (``hard-v1``,
    kept as it played) and adds no hard fact.
    """

    def __init__(
        self,
        knowledge: Knowledge,
        reading: BidReading | None = READING,
        evidence: BidEvidence = NO_EVIDENCE,
    ) -> None:
        self.knowledge = knowledge
        self.strict = reading is not None
        weight = None if reading is None else play_deal_weight(knowledge, reading)
        self.sampler = DealSampler(knowledge, evidence, weight)

    @classmethod
    def of_view(cls, view: SeatView, reading: BidReading | None = READING) -> GuessSampler:
        """The sampler for a view in the play phase (``ValueError`` for another)."""
        return cls(knowledge_of(view), reading)

    def fits(self, hands: Hands) -> bool:
        """Whether a deal meets every hard fact: the view's and the caller's trumps."""
        return self.knowledge.consistent(hands) and caller_holds_trumps(self.knowledge, hands)

    def sample(self, rng: Random) -> Hands:
        """One guessed deal (current hands by seat)."""
        hands = self.sampler.sample(rng)
        if not self.strict or caller_holds_trumps(self.knowledge, hands):
            return hands
        k = self.knowledge
        for _ in range(_HARD_TRIES):
            drawn = self.sampler.draw(rng)
            if k.zvanja_fit(drawn) and caller_holds_trumps(k, drawn):
                return drawn
        return hands  # the caller really held fewer trumps: the view's facts alone


def guess_play_deals(view: SeatView, rng: Random, count: int) -> list[Hands]:
    """``count`` guessed deals (current hands by seat) for a view in the play phase."""
    sampler = GuessSampler.of_view(view)
    return [sampler.sample(rng) for _ in range(count)]


def guess_bidding_deals(
    view: SeatView, rng: Random, count: int, reading: BidReading | None = READING
) -> list[tuple[Hands, Hands]]:
    """``count`` guessed deals (six-card hands and talons by seat) while trump is named,
    each kept with the chance the bids so far give it (``reading`` None: uniform)."""
    if reading is None:
        return bidding_deals(view, rng, count, NO_EVIDENCE)
    seat, bids = view.seat, view.bids

    def weight(hands: Hands) -> float:
        return bidding_weight(seat, bids, hands, reading)

    return bidding_deals(view, rng, count, NO_EVIDENCE, weight)
