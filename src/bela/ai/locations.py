"""Learned card locations: for each hidden card, how likely each other seat holds it.

Issue #38's idea for better guessed deals: instead of dealing the unseen cards uniformly
among the hands that may hold them, weigh each card's seats by what a model learned from
self-play says about where such cards are, given what the seat has seen (the bids, who
named trump, the cards each player played and led). This module is the play-time half, in
plain Python (no numpy: a few dozen weights added up per card and seat):

* ``free_places``: the baseline, each seat that may hold the card in proportion to the
  cards it still holds (about what the uniform sampler gives a single card);
* ``pair_features(view)``: for each unseen card and each other seat, the active binary
  features of "this seat holds this card": the card's kind (trump or not, its rank) crossed
  with what the table saw that seat do (named trump, its partner did, said dalje, how often
  it followed the card's suit, whether it led it). The weights are shared by every card and
  seat, so a few thousand rounds of self-play are enough to fit them;
* ``LocationModel``: the baseline's logarithm plus the weights of the active features,
  a softmax over the seats that may hold the card (untrained, it is the baseline).

The training half (data from self-play, the fit, its loss) is ``bela.lab.locations`` and
``bela lab train-locations``; the hard bot weighs its guessed deals by the model with
``HardConfig.location_weights`` (off in ``hard``: measured, docs/bots.md).
"""

from __future__ import annotations

import gzip
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from bela.engine import Call, Pass, SeatView
from bela.search.sampling import Knowledge, knowledge_of

__all__ = ["FEATURES", "LocationModel", "free_places", "pair_features", "seat_facts"]

# A card's kind: trump or not (x8 ranks) = 16. What the table saw the seat do, each crossed
# with the kind: the seat's place relative to the caller (4), said dalje (1), cards of the
# card's suit it played (0, 1, 2, 3+: 4), led that suit (1), and the stage of the round
# (tricks done 0-2, 3-5, 6-7: 3).
_KINDS = 16
_CALLER = 0
_PASSED = _CALLER + 4 * _KINDS
_FOLLOWED = _PASSED + _KINDS
_LED = _FOLLOWED + 4 * _KINDS
_STAGE = _LED + _KINDS
FEATURES = _STAGE + 3 * _KINDS


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the table saw one seat do: its place from the caller, whether it said dalje,
    the cards it played by suit, and the suits it led."""

    from_caller: int
    passed: bool
    played_in: tuple[int, int, int, int]
    led: tuple[bool, bool, bool, bool]


def seat_facts(view: SeatView) -> list[SeatFacts]:
    """The facts of every seat (by absolute seat) from the view."""
    caller = view.caller if view.caller is not None else view.seat
    passed = [False] * 4
    for s, bid in view.bids:
        if isinstance(bid, Call):
            break
        if isinstance(bid, Pass):
            passed[s] = True
    played = [[0, 0, 0, 0] for _ in range(4)]
    led = [[False] * 4 for _ in range(4)]
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick and view.trick_leader is not None:
        tricks.append((view.trick_leader, view.trick))
    for leader, cards in tricks:
        for i, c in enumerate(cards):
            s = (leader + i) % 4
            played[s][int(c) >> 3] += 1
        if cards:
            led[leader][int(cards[0]) >> 3] = True
    return [
        SeatFacts(
            (s - caller) % 4,
            passed[s],
            (played[s][0], played[s][1], played[s][2], played[s][3]),
            (led[s][0], led[s][1], led[s][2], led[s][3]),
        )
        for s in range(4)
    ]


def pair_features(card: int, trump: int, facts: SeatFacts, tricks_done: int) -> list[int]:
    """The active features of "the seat with ``facts`` holds ``card``"."""
    suit = card >> 3
    kind = (0 if suit == trump else 8) + (card & 7)
    out = [_CALLER + facts.from_caller * _KINDS + kind]
    if facts.passed:
        out.append(_PASSED + kind)
    out.append(_FOLLOWED + min(facts.played_in[suit], 3) * _KINDS + kind)
    if facts.led[suit]:
        out.append(_LED + kind)
    out.append(_STAGE + (0 if tricks_done < 3 else 1 if tricks_done < 6 else 2) * _KINDS + kind)
    return out


def free_places(knowledge: Knowledge, card: int) -> tuple[float, float, float]:
    """The baseline: a card's chance at each other seat (left, partner, right) in proportion to
    the cards that seat still holds, among the seats that may hold it."""
    seat = knowledge.seat
    weights = [
        float(knowledge.need[s]) if knowledge.allowed[s] >> card & 1 else 0.0
        for s in ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
    ]
    total = sum(weights)
    if total <= 0.0:
        return (0.0, 0.0, 0.0)
    return (weights[0] / total, weights[1] / total, weights[2] / total)


@dataclass(slots=True)
class LocationModel:
    """The baseline's logarithm plus shared weights of the active features, per seat, in a
    softmax over the seats that may hold the card (zero weights: the baseline itself)."""

    weights: list[float] = field(default_factory=lambda: [0.0] * FEATURES)

    def probabilities(
        self, features: list[list[int]], prior: tuple[float, float, float]
    ) -> list[float]:
        """The three seats' chances from their active features and the baseline ``prior``."""
        w = self.weights
        logits = [
            math.log(q) + sum(w[f] for f in fs) if q > 0.0 else -math.inf
            for fs, q in zip(features, prior, strict=True)
        ]
        top = max(logits)
        exps = [math.exp(x - top) if q > 0.0 else 0.0 for x, q in zip(logits, prior, strict=True)]
        total = sum(exps)
        return [e / total for e in exps]

    def tilts(self, view: SeatView) -> list[tuple[int, float]]:
        """The learned score of each (unseen card, absolute seat) pair the view allows, as
        (card * 4 + seat, score): a guessed deal from the uniform sampler weighed by
        exp(sum of its pairs' scores) follows the model's odds against the baseline."""
        k = knowledge_of(view)
        facts = seat_facts(view)
        w = self.weights
        out: list[tuple[int, float]] = []
        mask = k.unseen
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            for s in range(4):
                if s != view.seat and k.allowed[s] >> c & 1:
                    fs = pair_features(c, k.trump, facts[s], len(view.tricks))
                    out.append((c * 4 + s, sum(w[f] for f in fs)))
        return out

    def predict(self, view: SeatView) -> dict[int, tuple[float, float, float]]:
        """Each unseen card's chance to be with the seat's left, partner and right."""
        k = knowledge_of(view)
        facts = seat_facts(view)
        seats = ((view.seat + 1) % 4, (view.seat + 2) % 4, (view.seat + 3) % 4)
        out: dict[int, tuple[float, float, float]] = {}
        mask = k.unseen
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            prior = free_places(k, c)
            if not any(prior):  # pragma: no cover - every unseen card has a holder
                continue
            fs = [pair_features(c, k.trump, facts[s], len(view.tricks)) for s in seats]
            p = self.probabilities(fs, prior)
            out[c] = (p[0], p[1], p[2])
        return out

    def save(self, path: Path) -> None:
        """The weights as gzip-compressed JSON (a few kB)."""
        data = {"features": FEATURES, "weights": [round(x, 6) for x in self.weights]}
        with gzip.open(path, "wt", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))

    @classmethod
    def load(cls, path: Path) -> LocationModel:
        """Weights written by ``save``; ``ValueError`` if they are not for these features."""
        with gzip.open(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict) or data.get("features") != FEATURES:
            raise ValueError("the weights were made for other features")
        weights = [float(x) for x in data["weights"]]
        if len(weights) != FEATURES:
            raise ValueError("the weights have the wrong size")
        return cls(weights)
