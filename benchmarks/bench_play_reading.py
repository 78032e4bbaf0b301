"""Reading the play, measured alone: do the guessed deals place the unseen cards better?

Plays seeded rounds with ``hard-v2`` in all four seats (the opponents ``hard`` is measured
against) and, at card decisions of tricks 3 to 7, guesses the hidden cards for the seat to act
twice from the same sampler (the bids read as ``hard`` reads them): ``n`` deals as drawn (what
``hard`` searches), and ``n`` drawn again from ``reading_pool`` times as many by how well the
heuristic policy explains the others' play (``hard`` with ``play_reading=PLAY_READING``,
``HardBot._deals``).
For each deal it counts the share of unseen cards guessed into the hand that really holds
them, and prints both averages, their difference per position with a 95% interval, and the
time the reading costs per decision.

Run: ``python benchmarks/bench_play_reading.py [--rounds 30] [--seed 909] [--deals 48]``.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import replace
from random import Random

from bela.ai.base import decision_rng
from bela.ai.guessing import GuessSampler
from bela.ai.hard import HARD, PLAY_READING, HardBot
from bela.ai.registry import make_bot
from bela.engine import Phase, Round, round_seed
from bela.search.sampling import Hands, knowledge_of


def placed(hands: Hands, truth: list[int], seat: int, unseen: int) -> float:
    """The share of the unseen cards that ``hands`` puts with the player who holds them."""
    right = sum((hands[s] & truth[s]).bit_count() for s in range(4) if s != seat)
    return right / unseen.bit_count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="rounds to play (default 30)")
    parser.add_argument("--seed", type=int, default=909)
    parser.add_argument("--deals", type=int, default=48, help="deals guessed per decision")
    args = parser.parse_args()
    config = replace(HARD, play_reading=PLAY_READING)
    reader = HardBot("reader", config)
    players = make_bot("hard-v2")
    plain: list[float] = []
    read: list[float] = []
    cost = 0.0
    for index in range(args.rounds):
        seed = round_seed(args.seed, index)
        rnd = Round.from_seed(seed, dealer=index % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            view = rnd.view(seat)
            if view.phase is Phase.PLAYING and 2 <= len(view.tricks) <= 6 and step % 3 == 0:
                knowledge = knowledge_of(view)
                sampler = GuessSampler(knowledge, HARD.reading, HARD.evidence)
                truth = [rnd.hand_mask(s) for s in range(4)]
                rng = Random(seed * 1_000 + step)
                drawn = [sampler.sample(rng) for _ in range(args.deals)]
                start = time.process_time()
                guessed = list(
                    reader._deals(view, Random(seed * 1_000 + step), sampler, args.deals)
                )
                cost += time.process_time() - start
                plain.append(sum(placed(h, truth, seat, knowledge.unseen) for h in drawn))
                read.append(sum(placed(h, truth, seat, knowledge.unseen) for h in guessed))
                plain[-1] /= args.deals
                read[-1] /= args.deals
            rnd.push(players.act(view, decision_rng(seed, 0, step)), seat)
            step += 1
    n = len(plain)
    diffs = [b - a for a, b in zip(plain, read, strict=True)]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    print(
        f"{n} decisions from {args.rounds} rounds of hard-v2 (seed {args.seed}), {args.deals} deals"
    )
    print(f"unseen cards guessed into the right hand, as drawn:      {sum(plain) / n:7.2%}")
    print(f"reading the play ({config.reading_pool}x the deals, resampled):  {sum(read) / n:7.2%}")
    print(f"difference per decision: {mean:+.2%} ± {1.96 * sd / math.sqrt(n):.2%} (95%)")
    print(f"the reading's time: {cost / n * 1000:.0f} ms a decision (CPU, this build)")


if __name__ == "__main__":
    main()
