"""Training data and the fit of the card-location model (``bela.ai.locations``), issue #38.

``examples``: seeded self-play rounds (``policy`` in all four seats, every decision seeded as
in the arena); at every card decision, the deciding seat's view becomes one example: its
active features and, for each unseen card more than one seat may hold, the seats that may
and the one that does. ``fit``: plain-Python stochastic gradient descent on the masked
softmax's cross-entropy (no numpy: the model is small and its features sparse), every fifth
round held out, the order of the examples shuffled from the seed, so the same arguments give
the same weights and the same printed losses. The baseline is ``free_places`` (each seat in
proportion to the cards it still holds): a model that does not beat it on the held-out
rounds has learned nothing the sampler does not already know.

A skeleton: the data comes from ``normal``'s self-play by default (the hard bot's is some
hundred times slower); ``HardConfig.location_weights`` searches deals weighed by the model.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bela.ai.base import decision_rng
from bela.ai.locations import LocationModel, free_places, pair_features, seat_facts
from bela.ai.registry import make_bot
from bela.engine import Phase, Play, Round, round_seed
from bela.search.sampling import knowledge_of

__all__ = ["Example", "FitReport", "examples", "fit", "loss"]


@dataclass(frozen=True, slots=True)
class Example:
    """One seat's view at a card decision: per unseen card more than one seat may hold, the
    active features of each other seat holding it, the seat that does, and the baseline."""

    round_index: int
    cards: tuple[tuple[tuple[tuple[int, ...], ...], int, tuple[float, float, float]], ...]
    """(features at left, partner, right; the true seat 0-2; the free-places baseline, 0 at
    a seat that cannot hold the card)"""


def examples(seed: int, rounds: int, policy: str = "normal") -> Iterator[Example]:
    """The examples of ``rounds`` seeded self-play rounds of ``policy``, in order."""
    bot = make_bot(policy)
    for index in range(rounds):
        deal_seed = round_seed(seed, index)
        rnd = Round.from_seed(deal_seed, dealer=index % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            if view.phase is Phase.PLAYING and sum(isinstance(a, Play) for a in view.legal_actions):
                example = _example(index, rnd, seat)
                if example is not None:
                    yield example
            rnd.push(bot.act(view, decision_rng(deal_seed, 0, step)), seat)
            step += 1


def _example(index: int, rnd: Round, seat: int) -> Example | None:
    view = rnd.view(seat)
    k = knowledge_of(view)
    seats = ((seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4)
    holders = [rnd.hand_mask(s) for s in seats]
    facts = seat_facts(view)
    done = len(view.tricks)
    cards = []
    mask = k.unseen
    while mask:
        low = mask & -mask
        c = low.bit_length() - 1
        mask ^= low
        prior = free_places(k, c)
        if sum(1 for q in prior if q > 0.0) < 2:
            continue  # nothing to learn: only one seat may hold it
        true = next(r for r in range(3) if holders[r] >> c & 1)
        features = tuple(tuple(pair_features(c, k.trump, facts[s], done)) for s in seats)
        cards.append((features, true, prior))
    if not cards:
        return None
    return Example(index, tuple(cards))


def loss(model: LocationModel, data: list[Example]) -> tuple[float, float]:
    """Mean cross-entropy per uncertain card: the model's, and the free-places baseline's."""
    total = base = 0.0
    n = 0
    for ex in data:
        for features, true, prior in ex.cards:
            p = model.probabilities([list(f) for f in features], prior)
            total -= math.log(max(p[true], 1e-12))
            base -= math.log(max(prior[true], 1e-12))
            n += 1
    return (total / n, base / n) if n else (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class FitReport:
    """What a fit did: examples and cards on each side, and the losses by epoch."""

    train_examples: int
    held_examples: int
    train_cards: int
    held_cards: int
    epochs: tuple[tuple[int, float, float], ...]
    """(epoch, training loss, held-out loss) after each epoch; epoch 0 is the start"""
    baseline_train: float
    baseline_held: float


def fit(
    data: list[Example],
    *,
    epochs: int = 3,
    rate: float = 0.02,
    l2: float = 1e-4,
    seed: int = 1,
    on_epoch: Callable[[int, float, float], None] | None = None,
) -> tuple[LocationModel, FitReport]:
    """SGD on the training rounds (every fifth round held out), one example at a time."""
    train = [ex for ex in data if ex.round_index % 5 != 4]
    held = [ex for ex in data if ex.round_index % 5 == 4]
    model = LocationModel()
    w = model.weights
    rng = random.Random(seed)
    order = list(range(len(train)))
    tr, base_tr = loss(model, train)
    ho, base_ho = loss(model, held)
    history = [(0, tr, ho)]
    if on_epoch is not None:
        on_epoch(0, tr, ho)
    for epoch in range(1, epochs + 1):
        rng.shuffle(order)
        for i in order:
            for features, true, prior in train[i].cards:
                fs = [list(f) for f in features]
                p = model.probabilities(fs, prior)
                for r in range(3):
                    if prior[r] <= 0.0:
                        continue
                    g = p[r] - (1.0 if r == true else 0.0)
                    for f in fs[r]:
                        w[f] -= rate * (g + l2 * w[f])
        tr, _ = loss(model, train)
        ho, _ = loss(model, held)
        history.append((epoch, tr, ho))
        if on_epoch is not None:
            on_epoch(epoch, tr, ho)
    report = FitReport(
        train_examples=len(train),
        held_examples=len(held),
        train_cards=sum(len(ex.cards) for ex in train),
        held_cards=sum(len(ex.cards) for ex in held),
        epochs=tuple(history),
        baseline_train=base_tr,
        baseline_held=base_ho,
    )
    return model, report
