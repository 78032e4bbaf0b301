"""Does bidding by the match score win more matches? ``normal`` with and without it.

Both versions of ``normal`` (the fitted bid model; ``match_aware`` on or off)
play the same full matches to the target against the same opponent, seats
swapped (the arena's match seeds and seatings). Most matches never reach a
score where the adjustment applies and come out the same, so the paired
difference in matches won is measured with little noise. Printed: each
version's share of matches won and the paired difference, with 95% intervals::

    .venv/bin/python benchmarks/bench_match_bidding.py --matches 500 --against normal-v1 --jobs 2
"""

from __future__ import annotations

import argparse
from typing import Any

from bela.ai import registry
from bela.ai.levels import make_normal
from bela.ai.normal.bidding import BidModel
from bela.ai.normal.heuristic import HeuristicBot
from bela.lab.arena import Estimate, match_seed_of, play_match
from bela.lab.runner import map_tasks


def _blind() -> Any:
    bot = make_normal("normal-match-blind")
    assert isinstance(bot, HeuristicBot)
    return HeuristicBot(bot.name, BidModel(learned=True, match_aware=False), bot.style)


def _register() -> None:
    registry._FACTORIES.setdefault("normal-match-blind", _blind)


def _pair(task: tuple[int, int, str, int]) -> tuple[int, int, int, int]:
    """(aware won seating 0, seating 1, blind won seating 0, seating 1) for one match seed."""
    _register()
    seed, index, against, target = task
    ms = match_seed_of(seed, index)
    return (
        play_match("normal", against, ms, target, 0),
        play_match("normal", against, ms, target, 1),
        play_match("normal-match-blind", against, ms, target, 0),
        play_match("normal-match-blind", against, ms, target, 1),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=500, help="match seeds (x2 seatings)")
    parser.add_argument("--against", default="normal-v1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=1001)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    _register()
    tasks = [(args.seed, i, args.against, args.target) for i in range(args.matches)]
    rows = map_tasks(_pair, tasks, jobs=args.jobs)
    aware = Estimate.of([(r[0] + r[1]) / 2 for r in rows])
    blind = Estimate.of([(r[2] + r[3]) / 2 for r in rows])
    diff = Estimate.of([(r[0] + r[1] - r[2] - r[3]) / 2 for r in rows])
    changed = sum(1 for r in rows if (r[0], r[1]) != (r[2], r[3]))
    print(f"{2 * len(rows)} matches to {args.target} against {args.against}, seed {args.seed}")
    for label, est in (("match-aware bids", aware), ("blind to score", blind)):
        print(f"  normal ({label:<17}) won {100 * est.mean:5.1f}% ± {100 * est.half_width:.1f}")
    print(
        f"  difference (paired)        {100 * diff.mean:+5.1f}% ± {100 * diff.half_width:.1f} "
        f"[{100 * diff.low:+.1f}, {100 * diff.high:+.1f}]; {changed} of {len(rows)} seeds "
        "had a different result"
    )


if __name__ == "__main__":
    main()
