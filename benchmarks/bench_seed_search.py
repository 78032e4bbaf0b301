"""How long a seated player would need to find the match seed from their own six cards.

The attack (issue #33): a player knows their first six cards and which seat deals; they try
seeds one after another, deal each, and keep those that give them those six cards. With the
seed found, they know every hand of every round. This times that search's inner loop as an
attacker would write it with bela's own fastest dealing code (``bela.engine.deal.dealt``, the
compiled build where there is one), on this machine, and prints what it means for a seed of
32 bits (bela's network matches before issue #33) and of 128 bits (every new match now).

Run: ``python benchmarks/bench_seed_search.py [--seconds S]``. It prints figures only: no
assertion, nothing stored.
"""

from __future__ import annotations

import argparse
import time

from bela.engine.deal import SEED_BITS, dealt
from bela.foundation.native import build

_YEAR = 365.25 * 24 * 3600


def rate(seconds: float, start: int) -> tuple[float, int]:
    """Seeds tried a second on one core, and how many of them gave the player's six cards
    (about one seed in 906,192 does: the talon and the first cards played then sort them)."""
    target = dealt(start - 1, 3)[0][0]  # the six cards the player holds
    seed, tried, candidates = start, 0, 0
    began = time.perf_counter()
    deadline = began + seconds
    while True:
        for _ in range(2000):
            if dealt(seed, 3)[0][0] == target:
                candidates += 1
            seed += 1
        tried += 2000
        now = time.perf_counter()
        if now >= deadline:
            return tried / (now - began), candidates


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:,.0f} s"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:,.1f} hours"
    if seconds < _YEAR:
        return f"{seconds / 86400:,.0f} days"
    return f"{seconds / _YEAR:.2e} years"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time each width (default 5)")
    parser.add_argument("--cores", type=int, default=2, help="cores the attacker has (default 2)")
    args = parser.parse_args()
    print(f"build: {build()}; the attacker's cores: {args.cores}")
    whole_space = f"search all, {args.cores} cores"
    print(f"{'seed width':>12} {'seeds/s (1 core)':>18} {whole_space:>22}")
    for bits, start in ((32, 1), (64, 1 << 40), (SEED_BITS, 1 << 127)):
        per_second, _candidates = rate(args.seconds, start)
        whole = 2**bits / (per_second * args.cores)
        print(f"{bits:>9} bit {per_second:>18,.0f} {_duration(whole):>22}")
    print(
        "A seed of 32 bits falls to this loop within hours; bela now deals every new match from "
        f"{SEED_BITS} bits (bela.engine.deal.new_seed), which no search can cover."
    )


if __name__ == "__main__":
    main()
