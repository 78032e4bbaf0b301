"""How long the double-dummy solver takes, by the number of tricks left.

For each size, random positions: a seeded deal, random bids until trump is
named, random legal cards until that many tricks are left (at a trick
boundary, the next leader to play). Each position is solved twice:

- ``solve``: the exact value of every legal card (what a sampling bot and the
  post-mortem analysis need);
- ``value``: only the best outcome (one alpha-beta search).

Prints median / p90 / max milliseconds and the mean number of cards searched.
The goals (one core, pure Python): 4 tricks left median <= 2 ms, 5 tricks <= 20 ms.
Timings on a shared machine are noisy: run it a few times and compare medians.

Each size is timed in both builds (issue #26), one child process each: the pure Python one
(``BELA_PURE=1``) and the mypyc-compiled one (``make compiled``); the last column is the
compiled/pure ratio of the medians, measured in this one run (goal: 3 or more).
``--this-build`` times only the build this process runs (what the children do).

Run: ``python benchmarks/bench_solver.py [--sizes 4 5 6 8] [--count N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

from bela.engine import Phase, Round, cards_in
from bela.search.solver import Position, Solver

# Default number of positions per size (full deals are slow: a handful).
DEFAULT_COUNTS = {1: 200, 2: 200, 3: 200, 4: 200, 5: 200, 6: 60, 7: 12, 8: 6}


def random_positions(tricks_left: int, count: int, seed: int) -> list[Position]:
    """``count`` positions with ``tricks_left`` tricks to play, from seeds after ``seed``."""
    out = []
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        rnd = Round.from_seed(seed, dealer=seed % 4)
        while rnd.phase is Phase.BIDDING:
            rnd.push(rng.choice(rnd.legal_actions()))
        if rnd.phase is not Phase.PLAYING:
            continue
        for _ in range((8 - tricks_left) * 4):
            rnd.push_card(rng.choice(cards_in(rnd.legal_mask())))
        out.append(Position.from_round(rnd))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_all(positions: list[Position], full: bool) -> tuple[list[float], float]:
    """Milliseconds per position and the mean number of cards searched."""
    times = []
    nodes = 0
    for pos in positions:
        start = time.perf_counter()
        solver = Solver(pos.trump)
        if full:
            solver.solve(pos)
        else:
            solver.value(pos)
        nodes += solver.nodes
        times.append((time.perf_counter() - start) * 1000)
    return times, nodes / len(positions)


def in_child(pure: bool, argv: list[str]) -> dict[str, list[float]]:
    """Milliseconds and nodes per size and kind, timed in a fresh process of one build."""
    env = {k: v for k, v in os.environ.items() if k != "BELA_PURE"}
    if pure:
        env["BELA_PURE"] = "1"
    out = subprocess.run(
        [sys.executable, __file__, *argv, "--this-build"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data: dict[str, list[float]] = json.loads(out)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 8])
    parser.add_argument("--count", type=int, default=0, help="positions per size (0: defaults)")
    parser.add_argument("--seed", type=int, default=1_000)
    parser.add_argument("--value-only", action="store_true", help="time only the best value")
    parser.add_argument("--this-build", action="store_true", help="time this process's build")
    args = parser.parse_args()
    kinds = [False] if args.value_only else [True, False]
    if args.this_build:
        out: dict[str, list[float]] = {}
        for size in args.sizes:
            positions = random_positions(
                size, args.count or DEFAULT_COUNTS[size], args.seed + 100_000 * size
            )
            for full in kinds:
                times, nodes = time_all(positions, full)
                out[f"{size} {'solve' if full else 'value'}"] = [*times, nodes]
        print(json.dumps(out))
        return
    argv = sys.argv[1:]
    pure, compiled = in_child(True, argv), in_child(False, argv)
    print(
        f"{'tricks':>6} {'kind':>5} {'n':>4} {'pure median':>12} {'p90 ms':>8} "
        f"{'compiled median':>16} {'p90 ms':>8} {'×':>6} nodes"
    )
    for key, p_all in pure.items():
        size, kind = key.split()
        p_times, nodes = p_all[:-1], p_all[-1]
        c_times = compiled[key][:-1]
        p_med, c_med = statistics.median(p_times), statistics.median(c_times)
        p90, c90 = percentile(p_times, 0.9), percentile(c_times, 0.9)
        print(
            f"{size:>6} {kind:>5} {len(p_times):>4} {p_med:>12.2f} {p90:>8.2f} "
            f"{c_med:>16.2f} {c90:>8.2f} {p_med / c_med:>6.2f} {nodes:.0f}",
            flush=True,
        )
    print(
        "goals: 4 tricks median <= 2 ms, 5 tricks median <= 20 ms (solve, one core, pure); "
        "compiled/pure >= 3"
    )


if __name__ == "__main__":
    main()
