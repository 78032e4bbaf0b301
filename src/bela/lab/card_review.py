"""A round's review, card by card, as chess's game review does it: how much each card
of the player's gave away against the hard bot's evaluation **from the player's own
information**.

At each of the player's cards the seat's view at that moment (``Round.view(seat)``:
its hand, the bids, the cards played so far, the voids shown, bela, the zvanja
shown) is given to the hard bot (``bela.ai.hard``), which guesses the hidden hands
and values every legal card on the same guessed deals: what the round would write
on average, the player's team minus the other. A card's **expected loss** is the
best value less the played card's; its label follows ``LABELS`` (see
docs/training.md). Nothing here sees the hidden cards, so a card the hard bot also
plays is never blamed, whatever the double-dummy solver (all cards seen) would say.

The guessed deals come from the match's seed, the round and the card's step
(``decision_rng``), so a review is the same on every machine and every reading, and
the values of the other cards (the "try another card" board) are those same deals'.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bela.ai.base import decision_rng
from bela.engine import Match, Play, Round

__all__ = [
    "ACCURACY_SCALE",
    "LABELS",
    "CardJudgement",
    "RoundReview",
    "judge_card",
    "label_of",
    "match_accuracy",
    "review_json",
    "review_round",
    "reviewable_rounds",
    "reviewed_round",
]

LABELS: Final = (
    ("best", 0.5),
    ("good", 5.0),
    ("inaccuracy", 15.0),
    ("mistake", 40.0),
    ("blunder", math.inf),
)
"""A card's label by its expected loss in written points: at most 0.5 is ``best`` (the
hard bot's own card, or one worth the same), then up to 5 ``good``, up to 15 an
``inaccuracy``, up to 40 a ``mistake``, more a ``blunder``."""

ACCURACY_SCALE: Final = 30.0
"""A card's accuracy is 100 × e^(−loss / 30): 100 for the best card, about 85 for a loss
of 5, 61 for 15, 26 for 40. A round's (a match's) accuracy is the mean of its judged
cards'."""


def label_of(loss: float) -> str:
    """The label (``LABELS``) of a card that gave ``loss`` written points away."""
    for name, limit in LABELS:
        if loss <= limit:
            return name
    return LABELS[-1][0]  # pragma: no cover - the last limit is infinite


@dataclass(frozen=True, slots=True)
class CardJudgement:
    """One card of the player's, judged.

    ``trick`` counts from 1, ``order`` is the card's place in the trick (0 = led),
    ``step`` its action's index in the round (the moment, for the board). ``values``
    maps every legal card (as the engine writes it, "10H") to the average written
    points, ours minus theirs, over ``samples`` guessed deals; empty when the card
    was the only one (``only``), or when the hard bot gave no values (it would have said
    dosta, or every guessed deal ran out of its budget: ``unjudged``).
    """

    trick: int
    order: int
    step: int
    played: str
    hard: str | None
    values: dict[str, float] = field(default_factory=dict)
    samples: int = 0
    choices: int = 1
    """How many legal cards the player had (one: the card is the ``only`` one)."""

    @property
    def judged(self) -> bool:
        return len(self.values) > 1 and self.played in self.values

    @property
    def loss(self) -> float:
        """The written points the card gave away on average (0 when not judged)."""
        if not self.judged:
            return 0.0
        return max(0.0, max(self.values.values()) - self.values[self.played])

    @property
    def label(self) -> str:
        if self.judged:
            return label_of(self.loss)
        return "only" if self.choices < 2 else "unjudged"

    @property
    def accuracy(self) -> float:
        return 100.0 * math.exp(-self.loss / ACCURACY_SCALE)


def judge_card(rnd: Round, seat: int, rng: Any) -> tuple[str | None, dict[str, float], int]:
    """The hard bot's card for ``seat`` at this moment of ``rnd`` (its view only), every
    legal card's value on the same guessed deals, and how many deals."""
    from bela.ai.hard import HardBot, default_hard

    global _JUDGE
    if _JUDGE is None:
        _JUDGE = HardBot("review", default_hard())
    decision = _JUDGE.decide(rnd.view(seat), rng)
    hard = str(decision.action.card) if isinstance(decision.action, Play) else None
    values = {
        str(action.card): value
        for action, value in decision.scores.items()
        if isinstance(action, Play)
    }
    return hard, values, decision.samples


_JUDGE: Any = None


@dataclass(frozen=True, slots=True)
class RoundReview:
    """Every card of the player's in round ``index`` (0 = the match's first deal)."""

    index: int
    seat: int
    cards: list[CardJudgement]

    @property
    def judged(self) -> list[CardJudgement]:
        return [c for c in self.cards if c.judged]

    @property
    def accuracy(self) -> float | None:
        """The mean accuracy of the judged cards (None when none was judged)."""
        judged = self.judged
        return sum(c.accuracy for c in judged) / len(judged) if judged else None

    @property
    def key_moment(self) -> CardJudgement | None:
        """The card that gave the most away (None when none gave anything)."""
        costly = [c for c in self.judged if c.loss > LABELS[0][1]]
        return max(costly, key=lambda c: (c.loss, -c.step)) if costly else None


def reviewable_rounds(match: Match) -> list[int]:
    """The indexes of the match's rounds with cards to review (not a void deal, not a
    belot, in whose round no card is played)."""
    out = []
    for played in match.rounds:
        result = played.result
        if result.redeal or result.belot is not None or result.trump is None:
            continue
        if any(isinstance(a, Play) for a in played.actions):
            out.append(played.index)
    return out


def review_round(
    match: Match,
    index: int,
    seat: int,
    progress: Callable[[int, int], None] | None = None,
    from_trick: int = 1,
) -> RoundReview:
    """The review of round ``index`` of ``match`` for the player in ``seat``: each of the
    player's cards from trick ``from_trick`` on; ``progress(done, total)`` after each."""
    played = next((r for r in match.rounds if r.index == index), None)
    if played is None:
        raise ValueError(f"the match has no round {index + 1}")
    rnd = match.deal(index)
    moments: list[tuple[int, int, int, str]] = []
    plays = 0
    probe = match.deal(index)
    for step, action in enumerate(played.actions):
        if isinstance(action, Play):
            trick, order = plays // 4 + 1, plays % 4
            if trick >= from_trick and probe.to_act == seat:
                moments.append((trick, order, step, str(action.card)))
            plays += 1
        probe.push(action)
    cards: list[CardJudgement] = []
    done = 0
    for trick, order, step, card in moments:
        while done < step:
            rnd.push(played.actions[done])
            done += 1
        legal = len({a.card for a in rnd.legal_actions() if isinstance(a, Play)})
        if legal < 2:
            cards.append(CardJudgement(trick, order, step, card, card))
        else:
            hard, values, samples = judge_card(rnd, seat, decision_rng(match.seed, index, step))
            cards.append(CardJudgement(trick, order, step, card, hard, values, samples, legal))
        if progress is not None:
            progress(len(cards), len(moments))
    return RoundReview(index, seat, cards)


_KEPT: dict[tuple[Any, ...], RoundReview] = {}
"""Reviews already made in this process, by what decides them (``_review_key``)."""
KEPT_REVIEWS: Final = 256
"""How many reviews ``reviewed_round`` keeps (a few matches' worth; the oldest go first)."""


def _review_key(match: Match, index: int, seat: int) -> tuple[Any, ...]:
    """Everything a round's review depends on: the deal (seed, rules, dealer, target), the
    score before it (a claim counts it), every action of it, and the seat."""
    before = tuple(
        (r.index, tuple(r.written), tuple(str(a) for a in r.actions))
        for r in match.rounds
        if r.index <= index
    )
    return (match.seed, match.target, match.rules, match.first_dealer, index, seat, before)


def reviewed_round(
    match: Match, index: int, seat: int, progress: Callable[[int, int], None] | None = None
) -> RoundReview:
    """``review_round`` from trick 1, kept for the rest of the process: the app's review
    of a round, then of the match around it, and of the next round's summary, judge each
    round once (a review is a pure function of the match, ``decision_rng``)."""
    key = _review_key(match, index, seat)
    kept = _KEPT.get(key)
    if kept is None:
        kept = review_round(match, index, seat, progress)
        while len(_KEPT) >= KEPT_REVIEWS:
            del _KEPT[next(iter(_KEPT))]
        _KEPT[key] = kept
    return kept


def match_accuracy(reviews: Sequence[RoundReview]) -> float | None:
    """The mean accuracy of every judged card in ``reviews`` (None when none was)."""
    judged = [c for r in reviews for c in r.judged]
    return sum(c.accuracy for c in judged) / len(judged) if judged else None


def review_json(review: RoundReview) -> dict[str, Any]:
    """A round's review as JSON data (English keys; cards as the engine writes them)."""
    key = review.key_moment
    accuracy = review.accuracy
    return {
        "round": review.index + 1,
        "seat": review.seat,
        "accuracy": None if accuracy is None else round(accuracy, 1),
        "key_moment": None if key is None else {"trick": key.trick, "order": key.order},
        "cards": [
            {
                "trick": c.trick,
                "order": c.order,
                "played": c.played,
                "hard": c.hard,
                "label": c.label,
                "loss": round(c.loss, 1),
                "samples": c.samples,
                "choices": c.choices,
                "values": {card: round(v, 1) for card, v in sorted(c.values.items())},
            }
            for c in review.cards
        ],
    }
