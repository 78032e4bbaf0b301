"""Decision time per bot: p50 / p99 / max over every decision of many seeded rounds.

Run: ``.venv/bin/python benchmarks/bench_bots.py [--rounds N] [--seed S] [bots...]``.
One process, one core. Each round is dealt from a seed and played by four
copies of the bot; only the ``act`` call is timed (building the view is the
engine's cost, not the bot's). The heuristic bot's p99 must stay under 5 ms.

Two clocks are reported: the thread's CPU time (what the decision costs; a
busy machine does not inflate it) and wall time (which also counts the time
the process waited for a core, so it is only meaningful on an idle machine).
"""

from __future__ import annotations

import argparse
import statistics
import time

from bela.ai import BOT_KINDS, decision_rng, make_bot
from bela.engine import Round, round_seed


def time_bot(kind: str, rounds: int, seed: int, clock: str) -> list[float]:
    """Seconds per decision (bids and plays) over ``rounds`` self-play rounds."""
    bot = make_bot(kind)
    times: list[float] = []
    now = time.thread_time if clock == "cpu" else time.perf_counter
    for i in range(rounds):
        deal_seed = round_seed(seed, i)
        rnd = Round.from_seed(deal_seed, dealer=i % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            rng = decision_rng(deal_seed, 0, step)
            start = now()
            action = bot.act(view, rng)
            times.append(now() - start)
            rnd.push(action, seat)
            step += 1
    return times


def _quantile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "bots",
        nargs="*",
        default=[k for k in BOT_KINDS if k != "hard"],
        help="default: all but hard",
    )
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    print(f"{args.rounds} self-play rounds per bot, seed {args.seed}; ms per decision")
    print(f"{'bot':<10} {'clock':<5} {'decisions':>9} {'p50':>7} {'p99':>7} {'max':>7} {'mean':>7}")
    for kind in args.bots:
        for clock in ("cpu", "wall"):
            ms = [t * 1000 for t in time_bot(kind, args.rounds, args.seed, clock)]
            print(
                f"{kind:<10} {clock:<5} {len(ms):>9} {_quantile(ms, 0.5):>7.3f} "
                f"{_quantile(ms, 0.99):>7.3f} {max(ms):>7.3f} {statistics.fmean(ms):>7.3f}"
            )


if __name__ == "__main__":
    main()
