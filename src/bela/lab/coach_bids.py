"""The coach's bidding: a dalje, or a suit named pod mus, that the hard bot's search finds
clearly worse than another choice.

For each bid where the player said dalje, and each suit they named as the dealer who
had to (pod mus), the hard bot's own bid search (``HardBot.bid_outcomes``: guessed
deals of the 26 cards the player could not see, consistent with the bids before
theirs; every choice played on by the heuristic for all four seats and the last
tricks solved exactly) writes each choice they had, dalje and the four suits, on
the same ``samples`` deals. The bid is a slip when the choice worth most beats it

* by at least ``CLEAR_MARGIN`` written points (ours minus theirs) on average, and
* by at least ``CLEAR_Z`` standard errors of that average difference: a round's
  written points swing by a hundred and more from one guessed deal to the next, so a
  difference of ten over a hundred deals can be the deals' noise alone; a coach who
  blames a sound bid teaches the wrong thing.

A dalje with a hand the fitted bid model (fitted to this very search's values,
``bela.lab.bid_fit``) puts more than ``SURE_PASS`` below dalje for every suit is
not searched: the hard bot passes such hands without searching either, and the
search never found one clearly worth calling (docs/training.md gives the count).

Deterministic: the guessed deals come from ``decision_rng(match seed, round, step)``,
as the rest of the coach's questions do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from random import Random

from bela.ai.base import decision_rng
from bela.ai.hard import HARD, HardBot
from bela.ai.normal.bidding import learned_values, load_bid_weights
from bela.engine import Action, Call, Pass, Phase, Round, SeatView, Suit

__all__ = [
    "BID_SAMPLES",
    "CLEAR_MARGIN",
    "CLEAR_Z",
    "SURE_PASS",
    "BidJudgement",
    "BidSlip",
    "bid_slips",
    "judge_bid",
]

BID_SAMPLES = 96
"""Guessed deals per judged bid (the puzzles' count; the hard bot searches its own with 144)."""

CLEAR_MARGIN = 10
"""Written points on average by which another choice must beat the bid to be a slip."""

CLEAR_Z = 2.0
"""Standard errors by which it must beat it too (about 98% sure it was better at all)."""

SURE_PASS = 40.0
"""Written points below dalje (the fitted model's, best suit) past which a dalje is not searched."""


@dataclass(frozen=True, slots=True)
class BidSlip:
    """A bid of the player's that another choice beat clearly (see the module docstring).

    ``round`` is the round's index in the match, ``step`` the bid's action index in
    the round; ``forced``: the dealer had to name a suit (pod mus). ``chosen`` is
    ``"dalje"`` or the suit named, ``best`` the suit worth most, as the engine writes
    suits (``"H"``); ``lost`` what ``best`` was worth more on average, over ``samples``
    guessed deals.
    """

    round: int
    step: int
    forced: bool
    chosen: str
    best: str
    lost: int
    samples: int

    @property
    def trick(self) -> int:
        """Where the history's step-through shows the bid: 0, the deal and the bids."""
        return 0


@dataclass(frozen=True, slots=True)
class BidJudgement:
    """The search's verdict on one bid: the choice worth most, what it was worth more
    than the bid on average (``gain``, 0 when the bid was it) and that average's
    standard error, over ``samples`` deals."""

    best: Action
    gain: float
    error: float
    samples: int

    @property
    def clear(self) -> bool:
        """Whether the bid is a slip: beaten by ``CLEAR_MARGIN`` and ``CLEAR_Z`` errors."""
        return self.gain >= CLEAR_MARGIN and self.gain >= CLEAR_Z * self.error


_JUDGES: dict[int, HardBot] = {}


def _judge(samples: int) -> HardBot:
    bot = _JUDGES.get(samples)
    if bot is None:
        bot = _JUDGES[samples] = HardBot("coach", replace(HARD, bid_samples=samples))
    return bot


def judge_bid(view: SeatView, chosen: Action, rng: Random, samples: int) -> BidJudgement | None:
    """The search's verdict on ``chosen`` (dalje, or a suit named pod mus) in ``view``;
    None for a dalje the fitted model calls a sure pass (``SURE_PASS``: not searched)."""
    forced = Pass() not in view.legal_actions
    if not forced and max(learned_values(view, load_bid_weights())) < -SURE_PASS:
        return None
    options: list[Action] = [] if forced else [Pass()]
    options += [Call(suit) for suit in Suit]
    outcomes = _judge(samples).bid_outcomes(view, rng, options)
    n = len(outcomes)
    means = {a: sum(o[a] for o in outcomes) / n for a in options}
    best = max(options, key=lambda a: (means[a], a == chosen))
    diffs = [o[best] - o[chosen] for o in outcomes]
    gain = sum(diffs) / n
    spread = sum((d - gain) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return BidJudgement(best, gain, math.sqrt(spread / n), n)


def bid_slips(
    replay: Round,
    actions: Sequence[Action],
    seat: int,
    match_seed: int,
    index: int,
    samples: int,
) -> tuple[int, list[BidSlip]]:
    """(how many times ``seat`` said dalje, the clear slips among its bids) in round
    ``index`` of the match of ``match_seed``: ``replay`` freshly dealt (it is played
    on through the bids), ``actions`` as the round went.

    ``samples`` 0 only counts the dalje (the coach without the hard bot)."""
    passes = 0
    slips: list[BidSlip] = []
    for step, action in enumerate(actions):
        if replay.phase is not Phase.BIDDING:
            break
        if replay.to_act == seat:
            view = replay.view(seat)
            forced = Pass() not in view.legal_actions
            passes += isinstance(action, Pass)
            if samples > 0 and (isinstance(action, Pass) or forced):
                verdict = judge_bid(view, action, decision_rng(match_seed, index, step), samples)
                if verdict is not None and verdict.clear:
                    assert isinstance(verdict.best, Call)
                    chosen = action.suit.letter if isinstance(action, Call) else "dalje"
                    slips.append(
                        BidSlip(
                            round=index,
                            step=step,
                            forced=forced,
                            chosen=chosen,
                            best=verdict.best.suit.letter,
                            lost=round(verdict.gain),
                            samples=verdict.samples,
                        )
                    )
        replay.push(action)
    return passes, slips
