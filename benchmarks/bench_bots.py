"""Decision time per bot: p50 / p99 / max over every decision of many seeded rounds.

Run: ``.venv/bin/python benchmarks/bench_bots.py [--rounds N] [--seed S] [bots...]``.
One process, one core. Each round is dealt from a seed and played by four
copies of the bot; only the ``act`` call is timed (building the view is the
engine's cost, not the bot's). The heuristic bot's p99 must stay under 5 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bela.ai import BOT_KINDS, decision_rng, make_bot
from bela.engine import Phase, Round, round_seed


def time_bot(kind: str, rounds: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds per bidding decision and per card decision of ``rounds`` self-play rounds."""
    bot = make_bot(kind)
    bids: list[float] = []
    plays: list[float] = []
    clock = time.perf_counter
    for i in range(rounds):
        deal_seed = round_seed(seed, i)
        rnd = Round.from_seed(deal_seed, dealer=i % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            rng = decision_rng(deal_seed, 0, step)
            start = clock()
            action = bot.act(view, rng)
            elapsed = clock() - start
            (bids if view.phase is Phase.BIDDING else plays).append(elapsed)
            rnd.push(action, seat)
            step += 1
    return bids, plays


def _quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", default=list(BOT_KINDS))
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    print(f"{args.rounds} self-play rounds per bot, seed {args.seed}; times in ms")
    print(f"{'bot':<10} {'decisions':>9} {'p50':>7} {'p99':>7} {'max':>7} {'mean':>7}")
    for kind in args.bots:
        bids, plays = time_bot(kind, args.rounds, args.seed)
        every = bids + plays
        ms = [t * 1000 for t in every]
        print(
            f"{kind:<10} {len(ms):>9} {_quantile(ms, 0.5):>7.3f} {_quantile(ms, 0.99):>7.3f} "
            f"{max(ms):>7.3f} {statistics.fmean(ms):>7.3f}"
        )


if __name__ == "__main__":
    main()
