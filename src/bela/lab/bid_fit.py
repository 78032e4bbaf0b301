"""Fitting ``normal``'s bid model to the situations ``bid_data`` labelled by search.

Each situation's six cards give, for each suit, the features of
``bela.ai.normal.bidding.bid_features``. Two kinds of model, both ridge
regressions (scikit-learn, the ``lab`` extra):

* for a player who may say dalje (0, 1 or 2 passes before, one weight set for
  each place): each suit's row is fitted to *value of naming that suit minus
  value of dalje*, so the decision is "name the best suit if its predicted
  advantage is above zero";
* for the dealer who must name a suit: only the differences between suits
  count, so both the features and the values are taken relative to their mean
  over the four suits of the situation, and no intercept is fitted.

Situations of every fifth deal (``deal % 5 == 0``) are held out. The report
says how often the model's choice is the search's best choice on them, and
how much it loses where it is not (in the search's own written points), next
to the threshold model of ``normal-v1`` on the same situations. The weights
are written as JSON for ``bidding.parse_bid_weights``: the shipped player
reads them with the standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bela.ai.normal.bidding import (
    BID_FEATURES,
    BidModel,
    BidWeights,
    bid_features,
    choose_bid,
    parse_bid_weights,
)
from bela.engine import Call, Pass, Round

__all__ = [
    "Evaluation",
    "choice_key",
    "evaluate",
    "fit_weights",
    "load_situations",
    "main_fit",
    "situation_view",
]

HOLDOUT_EVERY = 5
NON_FORCED_PLACES = 3


@dataclass(frozen=True, slots=True)
class Situation:
    """One labelled bidding situation (a line of the data file)."""

    deal: int
    seat: int
    dealer: int
    passes: int
    forced: bool
    hand: int
    values: dict[str, float]

    @property
    def best(self) -> str:
        return max(self.values, key=lambda k: self.values[k])


def load_situations(path: str | Path) -> list[Situation]:
    """The situations of a ``bid_data`` file (JSON lines)."""
    out: list[Situation] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            row = json.loads(line)
            hand = 0
            for c in row["hand"]:
                hand |= 1 << int(c)
            out.append(
                Situation(
                    deal=int(row["deal"]),
                    seat=int(row["seat"]),
                    dealer=int(row["dealer"]),
                    passes=int(row["passes"]),
                    forced=bool(row["forced"]),
                    hand=hand,
                    values={str(k): float(v) for k, v in row["values"].items()},
                )
            )
    return out


def _ridge(x: Any, y: Any, alpha: float, intercept: bool) -> tuple[float, list[float]]:
    from sklearn.linear_model import Ridge

    model = Ridge(alpha=alpha, fit_intercept=intercept)
    model.fit(x, y)
    b = float(model.intercept_) if intercept else 0.0
    return b, [float(w) for w in model.coef_]


def fit_weights(situations: Sequence[Situation], alpha: float = 1.0) -> dict[str, Any]:
    """The weights (as the JSON structure ``parse_bid_weights`` reads) fitted to the situations."""
    import numpy as np

    call: list[dict[str, Any]] = []
    for place in range(NON_FORCED_PLACES):
        rows: list[list[float]] = []
        ys: list[float] = []
        for s in situations:
            if s.forced or s.passes != place:
                continue
            for suit in range(4):
                rows.append(bid_features(s.hand, suit))
                ys.append(s.values[str(suit)] - s.values["dalje"])
        if not rows:
            raise ValueError(f"no situations with {place} passes to fit")
        b, w = _ridge(np.array(rows), np.array(ys), alpha, True)
        call.append({"intercept": round(b, 4), "weights": [round(x, 4) for x in w], "n": len(ys)})
    frows: list[list[float]] = []
    fys: list[float] = []
    for s in situations:
        if not s.forced:
            continue
        feats = np.array([bid_features(s.hand, suit) for suit in range(4)])
        vals = np.array([s.values[str(suit)] for suit in range(4)])
        frows.extend((feats - feats.mean(axis=0)).tolist())
        fys.extend((vals - vals.mean()).tolist())
    if not frows:
        raise ValueError("no forced dealers to fit")
    _, fw = _ridge(np.array(frows), np.array(fys), alpha, False)
    return {
        "features": list(BID_FEATURES),
        "call": call,
        "forced": [round(x, 4) for x in fw],
        "fitted_on": len(situations),
    }


def situation_view(s: Situation) -> Any:
    """The seat's view of a situation (the other hands do not matter to a bid decision)."""
    rest = [c for c in range(32) if not s.hand >> c & 1]
    hands = [0, 0, 0, 0]
    talons = [0, 0, 0, 0]
    hands[s.seat] = s.hand
    at = 0
    for seat in range(4):
        if seat != s.seat:
            for c in rest[at : at + 6]:
                hands[seat] |= 1 << c
            at += 6
        for c in rest[at : at + 2]:
            talons[seat] |= 1 << c
        at += 2
    rnd = Round(s.dealer, hands, talons)
    for _ in range(s.passes):
        rnd.push(Pass())
    return rnd.view(s.seat)


def choice_key(action: Any) -> str:
    """The label's name of a bid: "dalje" or the suit's number."""
    return str(int(action.suit)) if isinstance(action, Call) else "dalje"


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How a bidder's choices compare with the search's best on labelled situations."""

    name: str
    n: int
    agree: int
    loss_when_differs: float
    mean_loss: float

    def line(self) -> str:
        share = 100 * self.agree / self.n if self.n else 0.0
        return (
            f"{self.name:<22} {share:5.1f}% same as search ({self.agree}/{self.n}); "
            f"loss where it differs {self.loss_when_differs:5.2f}, per situation "
            f"{self.mean_loss:5.2f} written points"
        )


def evaluate(
    name: str, situations: Iterable[Situation], model: BidModel | BidWeights
) -> Evaluation:
    """Agreement with the search's best choice and the points lost where it differs."""
    from bela.ai.normal.bidding import learned_bid

    n = agree = 0
    lost: list[float] = []
    for s in situations:
        view = situation_view(s)
        action = (
            learned_bid(view, model) if isinstance(model, BidWeights) else choose_bid(view, model)
        )
        key = choice_key(action)
        n += 1
        loss = s.values[s.best] - s.values[key]
        if key == s.best:
            agree += 1
        else:
            lost.append(loss)
    total = sum(lost)
    return Evaluation(
        name,
        n,
        agree,
        total / len(lost) if lost else 0.0,
        total / n if n else 0.0,
    )


def split(situations: Sequence[Situation]) -> tuple[list[Situation], list[Situation]]:
    """(training, held-out): every ``HOLDOUT_EVERY``-th deal is held out."""
    train = [s for s in situations if s.deal % HOLDOUT_EVERY]
    held = [s for s in situations if not s.deal % HOLDOUT_EVERY]
    return train, held


def report(held: Sequence[Situation], weights: BidWeights) -> list[str]:
    """The held-out comparison, overall and by place in the bidding."""
    lines = [f"held-out situations: {len(held)} (deals with deal % {HOLDOUT_EVERY} == 0)"]
    groups: list[tuple[str, list[Situation]]] = [("all", list(held))]
    for place in range(4):
        part = [s for s in held if s.passes == place]
        label = "forced dealer" if place == 3 else f"after {place} passes"
        if part:
            groups.append((label, part))
    for label, part in groups:
        lines.append(f"  {label}:")
        lines.append("    " + evaluate("fitted model", part, weights).line())
        lines.append("    " + evaluate("threshold (normal-v1)", part, BidModel()).line())
    return lines


def main_fit(data: str | Path, out: str | Path, alpha: float = 1.0) -> list[str]:
    """Fit on the training part of ``data``, write the weights to ``out``, return the report.

    The weights written are refitted on all situations once the held-out
    figures are known (more data, same method).
    """
    from bela.foundation.files import replace_atomically

    situations = load_situations(data)
    train, held = split(situations)
    if not train or not held:
        raise ValueError("too few situations to hold some out: generate more deals")
    weights = parse_bid_weights(fit_weights(train, alpha))
    lines = report(held, weights)
    final = fit_weights(situations, alpha)
    replace_atomically(Path(out), json.dumps(final, indent=1) + "\n", ".bid-weights-")
    lines.append(f"weights fitted on all {len(situations)} situations written to {out}")
    return lines
