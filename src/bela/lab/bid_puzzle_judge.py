"""Is one bid clearly right? The judge of bid puzzles: call or dalje, which suit, pod mus.

A bid is judged on guessed deals consistent with the bids so far
(``bela.ai.guessing``, the sampler the hard bot, the card judge and the coach use:
a player who said dalje seldom held a strong suit). On every guessed deal, each
choice the seat has (dalje and the four suits; the four suits pod mus) is played
on as the hard bot's own bid search plays it (``bela.ai.hard.play_out``: the
other seats bid and play as the rollout player does, the last four tricks are
solved exactly), all choices with the same random numbers, and turned into what
the round writes: the seat's team minus the other, with the pad test, the zvanja
and bela as the table writes them.

A choice is

* **best**: the highest average;
* **also good**: within ``ALSO_GOOD`` written points of the best on average (two
  suits about as strong; a player who names either has not erred);
* otherwise a miss.

A moment is a puzzle (``BidVerdict.clear``) when the choice a player weighs is
settled: every miss is at least ``CLEAR_GAP`` written points below the best on
average and at least ``CLEAR_Z`` standard errors of the deal-by-deal difference
(a round's written points swing by a hundred from one deal to the next, so a
small difference over a hundred deals can be noise), and, for a free bid, the
best and the also-good answers are all calls or dalje alone (call or dalje is
decided, whatever the suit).

Pure and seeded: the same moment and seed give the same verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from random import Random
from typing import Final

from bela.ai.base import Bot
from bela.ai.guessing import guess_bidding_deals
from bela.ai.hard import HARD, play_out, rollout_policy
from bela.engine import Action, Call, Pass, Phase, Round
from bela.search.sampling import Hands

__all__ = [
    "ALSO_GOOD",
    "CLEAR_GAP",
    "CLEAR_Z",
    "DEALS",
    "GOOD_CREDIT",
    "BidOption",
    "BidVerdict",
    "judge_bid",
]

DEALS: Final = 192
"""Guessed deals a bid puzzle is judged on."""
ALSO_GOOD: Final = 5.0
"""A choice within this many written points of the best, on average, is also good."""
CLEAR_GAP: Final = 10.0
"""Every other choice is at least this many written points below the best on average..."""
CLEAR_Z: Final = 2.0
"""...and that many standard errors of the deal-by-deal difference below it."""
GOOD_CREDIT: Final = 0.5
"""The score an also-good answer earns (the best earns 1, a miss 0): half a win in the rating."""
ROLLOUT_TO: Final = HARD.bid_rollout_to
"""Tricks solved exactly at the end of each play-out (the hard bot's bid search's)."""
NODE_LIMIT: Final = 4_000_000


@dataclass(frozen=True, slots=True)
class BidOption:
    """One bid and its record over the deals: the average written points (the seat's team
    minus the other), on how many deals it wrote more than the best choice, as much, less,
    and the standard error of its average difference from the best (0 for the best)."""

    action: Action
    written: float
    more: int
    equal: int
    less: int
    error: float


@dataclass(frozen=True, slots=True)
class BidVerdict:
    """The judge's finding at one bid moment: the options, best first, over ``deals`` deals.

    ``typical``: the guessed deal (eight cards a seat) on which the best choice's lead over
    the alternative is nearest its median; ``forced``: the dealer must name a suit.
    """

    seat: int
    forced: bool
    options: tuple[BidOption, ...]
    deals: int
    typical: Hands | None

    @property
    def best(self) -> BidOption:
        return self.options[0]

    @property
    def good(self) -> tuple[BidOption, ...]:
        """The also-good options (not the best)."""
        top = self.options[0].written
        return tuple(o for o in self.options[1:] if o.written >= top - ALSO_GOOD - 1e-9)

    @property
    def misses(self) -> tuple[BidOption, ...]:
        top = self.options[0].written
        return tuple(o for o in self.options[1:] if o.written < top - ALSO_GOOD - 1e-9)

    @property
    def alternative(self) -> BidOption:
        """The choice a player weighs against the answer: dalje against a call, the best call
        against dalje, the best suit that misses pod mus."""
        best = self.options[0].action
        misses = self.misses
        if not self.forced:
            if isinstance(best, Call):
                return next(o for o in self.options if isinstance(o.action, Pass))
            return next(o for o in self.options if isinstance(o.action, Call))
        return misses[0] if misses else self.options[1]

    @property
    def clear(self) -> bool:
        """See the module docstring: the misses clearly below, call or dalje settled."""
        if self.deals < 2 or not self.misses:
            return False
        top = self.options[0].written
        for o in self.misses:
            gap = top - o.written
            if gap < CLEAR_GAP - 1e-9 or gap < CLEAR_Z * o.error - 1e-9:
                return False
        if not self.forced:
            kinds = {isinstance(o.action, Call) for o in (self.options[0], *self.good)}
            if len(kinds) > 1:
                return False
        return True

    def credit(self, action: Action) -> float:
        """1 for the best, ``GOOD_CREDIT`` for an also-good bid, 0 for a miss."""
        if action == self.options[0].action:
            return 1.0
        return GOOD_CREDIT if any(o.action == action for o in self.good) else 0.0


def bid_values(
    rnd: Round, rng: Random, deals: int
) -> tuple[list[Action], list[list[int]], list[Hands]]:
    """The options at ``rnd``'s bid, what each writes on each guessed deal, and the deals."""
    seat = rnd.to_act
    if seat is None or rnd.phase is not Phase.BIDDING:
        raise ValueError("a bid puzzle is a moment of the bidding")
    view = rnd.view(seat)
    options: list[Action] = [a for a in view.legal_actions if isinstance(a, (Pass, Call))]
    policy: Bot = rollout_policy()
    team = seat & 1
    values: list[list[int]] = [[] for _ in options]
    seen: list[Hands] = []
    for hands, talons in guess_bidding_deals(view, rng, deals):
        base = Round(view.dealer, hands, talons, view.rules)
        for _, bid in view.bids:
            base.push(bid)
        seed = rng.getrandbits(64)
        for i, option in enumerate(options):
            after = base.copy()
            after.push(option)
            # the same play-out choices for every option of this deal (common random numbers)
            pts = play_out(after, policy, Random(seed), ROLLOUT_TO, NODE_LIMIT)
            values[i].append(pts[team] - pts[1 - team])
        h = [hands[s] | talons[s] for s in range(4)]
        seen.append((h[0], h[1], h[2], h[3]))
    return options, values, seen


def judge_bid(rnd: Round, rng: Random, deals: int = DEALS) -> BidVerdict:
    """The verdict at ``rnd``'s current bid, for the seat to act."""
    options, values, seen = bid_values(rnd, rng, deals)
    return verdict_of(rnd, options, values, seen)


def verdict_of(
    rnd: Round, options: list[Action], values: list[list[int]], seen: list[Hands]
) -> BidVerdict:
    """The verdict from each option's values deal by deal (``bid_values``)."""
    seat = rnd.to_act
    assert seat is not None
    forced = Pass() not in rnd.view(seat).legal_actions
    n = len(seen)
    means = [sum(v) / n if n else 0.0 for v in values]
    order = sorted(range(len(options)), key=lambda i: (-round(means[i], 6), i))
    top = order[0]
    out: list[BidOption] = []
    for i in order:
        diffs = [values[i][d] - values[top][d] for d in range(n)]
        mean = sum(diffs) / n if n else 0.0
        var = sum((x - mean) ** 2 for x in diffs) / (n - 1) if n > 1 else 0.0
        out.append(
            BidOption(
                options[i],
                means[i],
                sum(1 for x in diffs if x > 0),
                sum(1 for x in diffs if x == 0),
                sum(1 for x in diffs if x < 0),
                math.sqrt(var / n) if n else 0.0,
            )
        )
    verdict = BidVerdict(seat, forced, tuple(out), n, None)
    typical: Hands | None = None
    if n and len(out) >= 2:
        alt = options.index(verdict.alternative.action)
        lead = sorted(values[top][d] - values[alt][d] for d in range(n))
        median = lead[n // 2]
        d = min(range(n), key=lambda d: (abs(values[top][d] - values[alt][d] - median), d))
        typical = seen[d]
    return BidVerdict(seat, forced, tuple(out), n, typical)
