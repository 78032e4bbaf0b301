"""How long the hard bot takes per decision, on one core.

Plays seeded rounds with the hard bot in all four seats (each decision with
the driver's per-decision RNG, as in the arena) and times every decision:
prints p50 / p90 / p99 / max milliseconds over all decisions, then by kind of
decision (bids, and card plays by the number of tricks left). Decisions with
a single legal card count too: they are part of what a player waits for.

The goals (issue 6): p50 <= 150 ms and p99 <= 1 s per decision on one core,
with the default (deterministic) budgets. Each decision is timed twice: CPU
time of this process (what one core spends on it, the figure the goals are
about, and fairly steady on a shared machine) and wall-clock time (what a
player waits when the machine is otherwise idle; inflated when it is not).

Each bot named (default ``hard`` and ``hard-v2``, issue 26) plays the same
seeded rounds in all four seats, one after the other, and gets its own table,
so the new player's time is read next to the old one's from the same run.

Without the compiled build (``BELA_PURE=1``, or no C compiler) ``hard`` searches a share of
its deals (``bela.ai.hard.PURE_SHARE``): the goals hold for both builds.

A name that is not in the registry is a variant of ``benchmarks/bench_hard_variants.py``
(``deep6``, ``cheap``: ``hard-v3`` with one change, issue #38).

Run: ``python benchmarks/bench_hard.py [--rounds N] [--seed S] [--bots hard hard-v2 deep6]``.
"""

from __future__ import annotations

import argparse
import time

from bela.ai.base import Bot, decision_rng
from bela.ai.registry import make_bot
from bela.engine import Phase, Round, round_seed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(label: str, times: list[float], wall: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (
        f"{label:>10} {len(ms):>6} {percentile(ms, 0.5):>9.1f} {percentile(ms, 0.9):>9.1f} "
        f"{percentile(ms, 0.99):>9.1f} {max(ms):>9.1f} {percentile(wall, 0.5) * 1000:>9.1f} "
        f"{percentile(wall, 0.99) * 1000:>9.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="rounds to play (default 40)")
    parser.add_argument("--seed", type=int, default=2_024)
    parser.add_argument("--bots", nargs="+", default=["hard", "hard-v2"], help="bots to time")
    args = parser.parse_args()
    from bela.foundation.native import build

    print(f"build: {build()}")
    for name in args.bots:
        print(f"\n{name}: {args.rounds} rounds, seed {args.seed}, all four seats")
        bench(name, args.rounds, args.seed)
    print("goals: p50 <= 150 ms, p99 <= 1000 ms per decision (one core)")


def _bot(name: str) -> Bot:
    """A bot of the registry, or a variant of ``bench_hard_variants.py`` by its name."""
    try:
        return make_bot(name)
    except ValueError:
        from bench_hard_variants import VARIANTS

        if name not in VARIANTS:
            raise
        from bela.ai.hard import HardBot

        return HardBot(f"hard-{name}", VARIANTS[name]())


def bench(name: str, rounds: int, seed0: int) -> None:
    """Play ``rounds`` seeded rounds with ``name`` in every seat and print its timing table."""
    bot = _bot(name)
    by_kind: dict[str, list[float]] = {}
    wall_by_kind: dict[str, list[float]] = {}
    every: list[float] = []
    every_wall: list[float] = []
    for index in range(rounds):
        seed = round_seed(seed0, index)
        rnd = Round.from_seed(seed, dealer=index % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            rng = decision_rng(seed, 0, step)
            start, cpu = time.perf_counter(), time.process_time()
            action = bot.act(view, rng)
            elapsed, wall = time.process_time() - cpu, time.perf_counter() - start
            kind = "bid" if view.phase is Phase.BIDDING else f"{8 - len(view.tricks)} left"
            by_kind.setdefault(kind, []).append(elapsed)
            wall_by_kind.setdefault(kind, []).append(wall)
            every.append(elapsed)
            every_wall.append(wall)
            rnd.push(action, seat)
            step += 1
    print(f"{'':>17} {'CPU time':^39} {'wall clock':^19}")
    print(
        f"{'decision':>10} {'n':>6} {'p50 ms':>9} {'p90 ms':>9} {'p99 ms':>9} {'max ms':>9} "
        f"{'p50 ms':>9} {'p99 ms':>9}"
    )
    print(line("all", every, every_wall))
    for kind in sorted(by_kind, key=lambda k: (k != "bid", k)):
        print(line(kind, by_kind[kind], wall_by_kind[kind]))


if __name__ == "__main__":
    main()
