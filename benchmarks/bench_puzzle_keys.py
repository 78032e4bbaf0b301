"""How many near-duplicate keys a card pack can hold at all (issue #36's 3,000 puzzles).

A pack keeps each near-duplicate key once (``bela.lab.puzzle_figures.moment_key``: the seat's
hand shape, its trumps and its other suits' lengths; the trick and the place in it; the
answer's rank and whether it is a trump). This plays ``--deals`` deals with the ``normal``
bots, as the generator does, and at every card moment the generator may judge (tricks 2 to
7, two different cards or more) takes the key each legal card would give as the answer: the
keys any puzzle could have, clear or not. It prints how many there are, how many were seen
once (and Chao1's estimate of all there are, from those seen once and twice), how many of
them a card that is not a cheapest legal card gives (a pack may have at most 25% answered by
the cheapest card), and how many of them ``--pack`` and ``--lines`` files hold. Figures are
printed, never asserted.

    python benchmarks/bench_puzzle_keys.py                  # 4,000 deals, the shipped pack
    python benchmarks/bench_puzzle_keys.py --deals 1000 --lines RUN.jsonl
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path
from typing import Any

PACK = Path(__file__).parents[1] / "src" / "bela" / "archive" / "puzzles.jsonl.gz"


def _chao1(counts: Counter[Any]) -> float:
    """Chao1's estimate of how many kinds there are, from how many were seen once and twice."""
    once = sum(1 for n in counts.values() if n == 1)
    twice = sum(1 for n in counts.values() if n == 2)
    extra = once * once / (2 * twice) if twice else once * (once - 1) / 2
    return len(counts) + extra


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=9_000_000)
    parser.add_argument("--pack", type=Path, default=PACK, help="a pack whose keys are counted")
    parser.add_argument("--lines", type=Path, nargs="*", default=[], help="generated lines too")
    args = parser.parse_args()

    from bela.engine import Phase, Play
    from bela.lab.pack_run import known_keys
    from bela.lab.puzzle_figures import is_cheapest, moment_key
    from bela.lab.puzzle_gen import _play_deal

    start = time.process_time()
    every: Counter[tuple[Any, ...]] = Counter()
    dear: Counter[tuple[Any, ...]] = Counter()
    # a finer reading of "the same answer": the same rank from a suit of the same length
    every_finer: Counter[tuple[Any, ...]] = Counter()
    dear_finer: Counter[tuple[Any, ...]] = Counter()
    moments = 0
    for seed in range(args.seed, args.seed + args.deals):
        first, actions = _play_deal(seed)
        rnd = first.copy()
        for action in actions:
            trick = len(rnd.tricks) + 1
            if rnd.phase is Phase.PLAYING and 2 <= trick <= 7 and rnd.to_act is not None:
                view = rnd.view(rnd.to_act)
                legal = sorted({a.card for a in view.legal_actions if isinstance(a, Play)})
                if len(legal) > 1 and view.trump is not None:
                    moments += 1
                    for card in legal:
                        key = moment_key(view, trick, card)
                        length = sum(1 for c in view.hand if int(c) >> 3 == int(card) >> 3)
                        finer = (*key, length)
                        every[key] += 1
                        every_finer[finer] += 1
                        if not is_cheapest(legal, [card], int(view.trump)):
                            dear[key] += 1
                            dear_finer[finer] += 1
            rnd.push(action)
    took = time.process_time() - start
    print(f"{args.deals:,} deals, {moments:,} card moments of tricks 2 to 7, {took:.0f} s CPU")
    for title, (all_keys, dear_keys) in (
        ("the pack's key", (every, dear)),
        ("the key with the answer's suit length (a finer reading)", (every_finer, dear_finer)),
    ):
        print(f"{title}:")
        for name, counts in (("any legal card", all_keys), ("not a cheapest card", dear_keys)):
            once = sum(1 for n in counts.values() if n == 1)
            print(
                f"  keys answered by {name}: {len(counts):,} seen ({once:,} once), "
                f"about {_chao1(counts):,.0f} in all (Chao1)"
            )
        ceiling = min(_chao1(all_keys), _chao1(dear_keys) / 0.75)
        print(
            f"  a pack keeping each key once, at most 25% answered by the cheapest card, holds "
            f"at most about {ceiling:,.0f} puzzles, and only if every key had a clear puzzle"
        )
    for path in [args.pack, *args.lines]:
        keys = known_keys([path])
        inside = sum(1 for k in keys if k in every)
        print(f"{path.name}: {len(keys):,} keys ({inside:,} of them seen here)")


if __name__ == "__main__":
    main()
