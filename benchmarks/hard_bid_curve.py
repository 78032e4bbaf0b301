"""Where a search bidder calls: the curve ``BidReading`` (``bela.ai.inference``) is read off.

Plays the bidding of seeded deals with ``hard-v1`` in every seat and, for each
unforced bid, records the heuristic's evaluation of the hand's best suit
(``call_strength``) and whether the player called. Prints the share of calls
by strength band and the logistic curve (place and width, on a grid) with the
highest likelihood: the ``call_at`` and ``width`` that ``hard`` reads a bid with.

Run: ``python benchmarks/hard_bid_curve.py [--deals 110] [--seed 99]`` (about
0.2 s a searched bid on one core).
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict

from bela.ai.base import decision_rng
from bela.ai.hard import make_hard_v1
from bela.ai.normal.bidding import BidModel, call_strength
from bela.engine import Pass, Phase, Round, round_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=110)
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args()
    bot = make_hard_v1()
    model = BidModel()
    seen: list[tuple[float, bool]] = []
    for index in range(args.deals):
        seed = round_seed(args.seed, index)
        rnd = Round.from_seed(seed, dealer=index % 4)
        step = 0
        while rnd.phase is Phase.BIDDING and rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            action = bot.act(view, decision_rng(seed, 0, step))
            if Pass() in view.legal_actions:  # the forced dealer's call says nothing of strength
                hand = 0
                for c in view.hand:
                    hand |= 1 << c
                best = max(call_strength(hand, s, model) for s in range(4))
                seen.append((best, not isinstance(action, Pass)))
            rnd.push(action, seat)
            step += 1
    bands: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for strength, called in seen:
        band = bands[int(strength // 10) * 10]
        band[0] += 1
        band[1] += called
    print(f"{len(seen)} unforced bids in {args.deals} deals")
    for low in sorted(bands):
        n, calls = bands[low]
        print(f"  strength {low:>3}-{low + 9:<3} {n:>4} bids, called {calls / n:.0%}")
    best_fit = max(
        (
            (log_likelihood(seen, at, width), at, width)
            for at in range(30, 80)
            for width in (4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20)
        ),
    )
    print(f"logistic fit: call_at {best_fit[1]}, width {best_fit[2]} (log-lik {best_fit[0]:.1f})")


def log_likelihood(seen: list[tuple[float, bool]], at: float, width: float) -> float:
    total = 0.0
    for strength, called in seen:
        p = 1.0 / (1.0 + math.exp(-(strength - at) / width))
        p = min(max(p, 1e-3), 1 - 1e-3)
        total += math.log(p if called else 1.0 - p)
    return total


if __name__ == "__main__":
    main()
