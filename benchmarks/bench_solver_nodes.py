"""How many cards the solver searches on the hard bot's guessed deals, by tricks left.

``hard`` solves every guessed deal exactly from ``solver_tricks`` tricks left and skips a
deal whose solve passes ``node_limit`` searched cards (issue #38). This plays seeded rounds
with ``normal`` in every seat and, at each lead with 5, 6 or 7 tricks left, draws six
guessed deals from the leader's view and solves each without a cap (every card's value, as
the bot does): it prints the searched cards per solve (p50, p90, max), the share that a cap
of 40,000 would skip, and the CPU time per solve.

Run: ``python benchmarks/bench_solver_nodes.py [--rounds 40] [--seed 99]``.
"""

from __future__ import annotations

import argparse
import random
import time

from bela.ai.base import decision_rng
from bela.ai.registry import make_bot
from bela.engine import Phase, Round, round_seed
from bela.search.sampling import BidEvidence, DealSampler, knowledge_of
from bela.search.solver import Position, Solver

CAP = 40_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--per-size", type=int, default=300, help="solves per size at most")
    args = parser.parse_args()
    normal = make_bot("normal")
    found: dict[int, list[tuple[int, float]]] = {5: [], 6: [], 7: []}
    for index in range(args.rounds):
        seed = round_seed(args.seed, index)
        rnd = Round.from_seed(seed, dealer=index % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            left = 8 - len(view.tricks)
            at = found.get(left)
            if view.phase is Phase.PLAYING and at is not None and not view.trick:
                sampler = DealSampler(knowledge_of(view), BidEvidence())
                rng = random.Random(step)
                assert view.trump is not None
                for _ in range(6):
                    if len(at) >= args.per_size:
                        break
                    hands = sampler.sample(rng)
                    solver = Solver(int(view.trump), node_limit=None)
                    start = time.process_time()
                    solver.card_margins(Position.from_view(view, hands))
                    at.append((solver.nodes, time.process_time() - start))
            rnd.push(normal.act(view, decision_rng(seed, 0, step)), seat)
            step += 1
    print("left  solves   p50 nodes   p90 nodes   max nodes  over 40k  CPU p50 ms  CPU p99 ms")
    for left, rows in found.items():
        nodes = sorted(n for n, _ in rows)
        cpu = sorted(t for _, t in rows)
        if not rows:
            continue
        over = sum(1 for n in nodes if n > CAP) / len(nodes)

        def q(xs: list[float] | list[int], p: float) -> float:
            return xs[min(len(xs) - 1, int(p * len(xs)))]

        print(
            f"{left:>4} {len(rows):>7} {q(nodes, 0.5):>11,} {q(nodes, 0.9):>11,} "
            f"{nodes[-1]:>11,} {over:>8.0%} {q(cpu, 0.5) * 1000:>11.1f} "
            f"{q(cpu, 0.99) * 1000:>11.1f}"
        )


if __name__ == "__main__":
    main()
