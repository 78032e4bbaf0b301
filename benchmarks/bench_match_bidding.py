"""Does bidding (or playing) by the match score win more matches? ``normal`` with and without.

Both versions of ``normal`` (``--what bids``: the fitted bid model's ``match_aware`` on
or off; ``--what play``: the exact endgame's ``PlayStyle.match_play`` on or off) play
the same full matches to the target against the same opponent, seats
swapped (the arena's match seeds and seatings). Most matches never reach a
score where the adjustment applies and come out the same, so the paired
difference in matches won is measured with little noise. Printed: each
version's share of matches won and the paired difference, with 95% intervals::

    .venv/bin/python benchmarks/bench_match_bidding.py --matches 500 --against normal-v1 --jobs 2
    .venv/bin/python benchmarks/bench_match_bidding.py --what play --matches 500 --jobs 2
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from bela.ai import registry
from bela.ai.levels import make_normal
from bela.ai.normal.bidding import BidModel
from bela.ai.normal.heuristic import HeuristicBot
from bela.lab.arena import Estimate, match_seed_of, play_match
from bela.lab.runner import map_tasks


def _variant(bids: bool, play: bool) -> Any:
    bot = make_normal()
    assert isinstance(bot, HeuristicBot)
    style = replace(bot.style, match_play=play)
    return HeuristicBot(bot.name, BidModel(learned=True, match_aware=bids), style)


_VARIANTS = {
    # name: (match-aware bids, match play)
    "bids-aware": (True, False),
    "bids-blind": (False, False),
    "play-aware": (True, True),
    "play-blind": (True, False),
}


def _register() -> None:
    for name, (bids, play) in _VARIANTS.items():
        registry._FACTORIES.setdefault(f"normal-{name}", lambda b=bids, p=play: _variant(b, p))


def _pair(task: tuple[int, int, str, int, str]) -> tuple[int, int, int, int]:
    """(aware won seating 0, seating 1, blind won seating 0, seating 1) for one match seed."""
    _register()
    seed, index, against, target, what = task
    ms = match_seed_of(seed, index)
    aware, blind = f"normal-{what}-aware", f"normal-{what}-blind"
    return (
        play_match(aware, against, ms, target, 0),
        play_match(aware, against, ms, target, 1),
        play_match(blind, against, ms, target, 0),
        play_match(blind, against, ms, target, 1),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=500, help="match seeds (x2 seatings)")
    parser.add_argument("--against", default="normal-v1")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=1001)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--what", choices=("bids", "play"), default="bids")
    args = parser.parse_args()
    _register()
    tasks = [(args.seed, i, args.against, args.target, args.what) for i in range(args.matches)]
    rows = map_tasks(_pair, tasks, jobs=args.jobs)
    aware = Estimate.of([(r[0] + r[1]) / 2 for r in rows])
    blind = Estimate.of([(r[2] + r[3]) / 2 for r in rows])
    diff = Estimate.of([(r[0] + r[1] - r[2] - r[3]) / 2 for r in rows])
    changed = sum(1 for r in rows if (r[0], r[1]) != (r[2], r[3]))
    print(f"{2 * len(rows)} matches to {args.target} against {args.against}, seed {args.seed}")
    for label, est in ((f"match-aware {args.what}", aware), ("blind to score", blind)):
        print(f"  normal ({label:<17}) won {100 * est.mean:5.1f}% ± {100 * est.half_width:.1f}")
    print(
        f"  difference (paired)        {100 * diff.mean:+5.1f}% ± {100 * diff.half_width:.1f} "
        f"[{100 * diff.low:+.1f}, {100 * diff.high:+.1f}]; {changed} of {len(rows)} seeds "
        "had a different result"
    )


if __name__ == "__main__":
    main()
