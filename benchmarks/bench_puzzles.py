"""How many verified puzzles a CPU-minute finds (issue #25), and a pack's figures (issue #36).

Looks for puzzles in ``--deals`` deals (seeds from ``--seed``) in this process, as
``bela puzzles generate`` and the pack's generation do (96 guessed deals a judgement,
the quick look first, bids and cards), and prints the puzzles found, the CPU time,
and the rate, with the build that ran (the compiled one is about three times faster),
then the found puzzles' figures (``bela.lab.puzzle_figures``: answered by the cheapest
legal card, three or more legal cards, near-duplicates, ratings, themes). ``--pack FILE``
prints those figures for any pack file instead (the shipped one:
``src/bela/archive/puzzles.jsonl.gz``). Figures are printed, never asserted.

    python benchmarks/bench_puzzles.py                    # 40 deals
    python benchmarks/bench_puzzles.py --deals 200 --seed 5000000
    python benchmarks/bench_puzzles.py --no-variety       # the selection before issue #36
    python benchmarks/bench_puzzles.py --pack src/bela/archive/puzzles.jsonl.gz
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=4_000_000)
    parser.add_argument("--no-bids", action="store_true", help="judge card moments only")
    parser.add_argument(
        "--no-variety", action="store_true", help="keep two-card and cheapest-card puzzles"
    )
    parser.add_argument("--pack", type=Path, help="print this pack file's figures and stop")
    args = parser.parse_args()

    from bela.lab.puzzle_figures import figures

    if args.pack is not None:
        from bela.lab.puzzle_check import read_pack

        for line in figures(read_pack(args.pack)).lines():
            print(line)
        return

    from bela.foundation.native import build
    from bela.lab.puzzle_gen import GenSettings, puzzles_of_deal

    settings = GenSettings(bids=not args.no_bids, variety=not args.no_variety)
    found = []
    cpu = time.process_time()
    wall = time.perf_counter()
    for seed in range(args.seed, args.seed + args.deals):
        found.extend(puzzles_of_deal(seed, settings))
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    kinds = Counter(p["kind"] for p in found)
    tricks = Counter(p["trick"] for p in found)
    print(f"build: {build()}")
    print(f"{len(found)} verified puzzles in {args.deals} deals:", end=" ")
    print(f"{cpu:.0f} s of CPU ({wall:.0f} s wall)")
    print(f"rate: {len(found) / (cpu / 60):.1f} verified puzzles a CPU-minute")
    print("kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print("tricks: " + ", ".join(f"{k} {n}" for k, n in sorted(tricks.items())))
    if found:
        for line in figures(found).lines():
            print(line)


if __name__ == "__main__":
    main()
