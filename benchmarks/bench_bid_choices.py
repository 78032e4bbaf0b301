"""How well each bot bids, against bidding situations labelled by search.

The situations come from ``bela lab bid-data`` (each line: a seat's six cards,
its place in the bidding, and what every choice is worth in written points by
a search over guessed deals). Each bot decides every situation from the seat's
view; its loss is the label's best value minus the value of its choice. The
first bot is the baseline: every other bot's mean loss is compared with it
situation by situation (a paired 95% interval). The labels are themselves a
noisy search, so a bot that searches the same way is not favoured: its deals
are not the label's.

Label a fresh set the fitted model never saw, then compare (figures in
docs/bots.md, "hard's bids")::

    bela lab bid-data --situations 600 --seed 7 --samples 96 --policy normal --out fresh.jsonl
    .venv/bin/python benchmarks/bench_bid_choices.py fresh.jsonl hard hard-v1 normal --jobs 2
"""

from __future__ import annotations

import argparse
import math
import time
from random import Random

from bela.ai.registry import make_bot
from bela.lab.bid_fit import choice_key, load_situations, situation_view
from bela.lab.runner import map_tasks

PLACES = ("first", "after 1", "after 2", "forced")


def _losses(task: tuple[str, str]) -> tuple[list[tuple[float, bool, int]], list[float]]:
    """(loss, same as the label's best, place 0..3) per situation, and CPU seconds per bid."""
    name, path = task
    bot = make_bot(name)
    rows: list[tuple[float, bool, int]] = []
    times: list[float] = []
    for s in load_situations(path):
        view = situation_view(s)
        start = time.process_time()
        action = bot.act(view, Random(s.deal * 4 + s.seat))
        times.append(time.process_time() - start)
        key = choice_key(action)
        rows.append((s.values[s.best] - s.values[key], key == s.best, 3 if s.forced else s.passes))
    return rows, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", help="labelled situations (bela lab bid-data --out)")
    parser.add_argument("bots", nargs="+", help="bots to compare; the first is the baseline")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    results = map_tasks(_losses, [(b, args.data) for b in args.bots], jobs=args.jobs)
    base = [loss for loss, _, _ in results[0][0]]
    n = len(base)
    print(f"{n} situations from {args.data}; loss = written points below the label's best")
    for name, (rows, times) in zip(args.bots, results, strict=True):
        loss = [r[0] for r in rows]
        agree = sum(r[1] for r in rows)
        diff = [a - b for a, b in zip(loss, base, strict=True)]
        mean = sum(diff) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / (n - 1)) if n > 1 else 0.0
        by = " / ".join(
            f"{sum(r[0] for r in rows if r[2] == p) / max(1, sum(r[2] == p for r in rows)):.2f}"
            for p in range(4)
        )
        times.sort()
        p99 = times[min(n - 1, int(0.99 * n))]
        print(
            f"  {name:<10} same as label {100 * agree / n:5.1f}%  loss per bid {sum(loss) / n:5.2f}"
            f"  vs {args.bots[0]} {mean:+.2f} ± {1.96 * sd / math.sqrt(n):.2f}"
            f"  by place ({', '.join(PLACES)}) {by}  CPU p99 {1000 * p99:.0f} ms"
        )


if __name__ == "__main__":
    main()
