"""How many full random-legal rounds per second the engine plays on one core.

Each round: a seeded deal, random bids until trump is named (the forced dealer
included), zvanja, eight tricks of uniformly random legal cards, scoring.
Three paths are timed in the same process, so the ratios between them hold
on any machine:

- ``fast``: ``Round.play_out_random`` (the inlined loop random rollouts use, bids included);
- ``push``: ``legal_mask`` + ``push_card`` per card (search's in-place path);
- ``apply``: ``legal_actions`` + ``apply`` per action (the validated, immutable public API).

Run: ``make bench`` or ``python benchmarks/bench_engine.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bela.engine import Phase, Round


def _bid_randomly(rnd: Round, rng: random.Random) -> None:
    while rnd.phase is Phase.BIDDING:
        actions = rnd.legal_actions()
        rnd.push(actions[int(rng.random() * len(actions))])


def fast_round(index: int, rng: random.Random) -> None:
    Round.from_seed(index, index & 3).play_out_random(rng)


def push_round(index: int, rng: random.Random) -> None:
    rnd = Round.from_seed(index, index & 3)
    _bid_randomly(rnd, rng)
    rand = rng.random
    while rnd.result is None:
        legal = rnd.legal_mask()
        k = int(rand() * legal.bit_count())
        while k:
            legal &= legal - 1
            k -= 1
        card = (legal & -legal).bit_length() - 1
        rnd.push_card(card, rnd.can_announce_bela(card))


def apply_round(index: int, rng: random.Random) -> None:
    rnd = Round.from_seed(index, index & 3)
    while not rnd.is_finished:
        actions = rnd.legal_actions()
        rnd = rnd.apply(actions[int(rng.random() * len(actions))])


def rounds_per_second(
    play: Callable[[int, random.Random], None], rounds: int, repeats: int
) -> float:
    """Best-of-``repeats`` rate (the least disturbed run on a shared machine)."""
    rates = []
    for rep in range(repeats):
        rng = random.Random(rep)
        start = time.process_time()
        for i in range(rounds):
            play(i, rng)
        rates.append(rounds / (time.process_time() - start))
    return max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per path (best kept)")
    args = parser.parse_args()
    paths = {"fast": fast_round, "push": push_round, "apply": apply_round}
    results = {}
    for name, play in paths.items():
        n = args.rounds if name != "apply" else max(1, args.rounds // 5)
        results[name] = rounds_per_second(play, n, args.repeats)
    base = results["apply"]
    print(f"{'path':<8}{'rounds/s':>12}{'µs/round':>11}{'× apply':>9}")
    for name, rate in results.items():
        print(f"{name:<8}{rate:>12,.0f}{1e6 / rate:>11.1f}{rate / base:>9.1f}")
    print(f"(best of {args.repeats} runs per path; goal: fast >= 20,000 rounds/s on one core)")


if __name__ == "__main__":
    main()
