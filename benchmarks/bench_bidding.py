"""How a bot bids in self-play: how often the dealer is forced, and how often the caller falls.

The four seats play the arena's seeded deals (deal ``i`` dealt from
``round_seed(seed, i)`` by seat ``i % 4``, every decision's RNG from the arena's
derivation), with the same bot everywhere. In self-play both seatings of a
duplicate deal are the same game, so each deal is played once. Printed per bot:

* dealer forced: rounds in which three players said dalje and the dealer had
  to name trump ("pod mus");
* caller fell: rounds played to the end whose caller did not make it (pad);
* who named trump, by place in the bidding;

each share with a 95% Wilson interval. Figures, not assertions (issue #14's
goals: ``normal`` forced at most 30% and falling at most 20%, ``easy`` forced
at most 45%)::

    .venv/bin/python benchmarks/bench_bidding.py normal normal-v1 easy --deals 2000 --jobs 2
"""

from __future__ import annotations

import argparse
import math

from bela.ai.base import decision_rng
from bela.ai.registry import make_bot
from bela.engine import Round, round_seed
from bela.lab.runner import map_tasks

CHUNK = 50


def wilson(k: int, n: int) -> tuple[float, float, float]:
    """The share k/n and its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def _chunk(task: tuple[str, int, int, int]) -> list[tuple[int, bool, bool]]:
    """(place of the call 0..3 or -1, played to the end, caller fell) for deals start..stop."""
    kind, seed, start, stop = task
    bot = make_bot(kind)
    out: list[tuple[int, bool, bool]] = []
    for i in range(start, stop):
        deal_seed = round_seed(seed, i)
        rnd = Round.from_seed(deal_seed, dealer=i % 4)
        step = 0
        while rnd.to_act is not None:
            seat = rnd.to_act
            rnd.push(bot.act(rnd.view(seat), decision_rng(deal_seed, 0, step)), seat)
            step += 1
        result = rnd.result
        assert result is not None
        place = len(rnd.bids) - 1 if rnd.caller is not None else -1
        played = result.caller is not None and result.belot is None
        out.append((place, played, bool(result.fell) if played else False))
    return out


def _share(label: str, k: int, n: int) -> str:
    p, lo, hi = wilson(k, n)
    return f"  {label:<32} {100 * p:5.1f}%  [{100 * lo:4.1f}, {100 * hi:4.1f}]  ({k}/{n})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bots", nargs="+", help="bot kinds, e.g. normal normal-v1 easy")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"self-play, {args.deals} deals, seed {args.seed} (the arena's deals)")
    for kind in args.bots:
        tasks = [
            (kind, args.seed, s, min(s + CHUNK, args.deals)) for s in range(0, args.deals, CHUNK)
        ]
        rows = [r for chunk in map_tasks(_chunk, tasks, jobs=args.jobs) for r in chunk]
        n = len(rows)
        called = [r for r in rows if r[0] >= 0]
        played = [r for r in rows if r[1]]
        print(f"{kind}:")
        print(_share("dealer forced (pod mus)", sum(r[0] == 3 for r in rows), n))
        print(_share("caller fell (of rounds played)", sum(r[2] for r in played), len(played)))
        forced = [r for r in played if r[0] == 3]
        free = [r for r in played if 0 <= r[0] < 3]
        print(_share("  of those the forced dealer", sum(r[2] for r in forced), len(forced)))
        print(_share("  of those a free call", sum(r[2] for r in free), len(free)))
        for place, name in enumerate(("first", "second", "third")):
            print(_share(f"named by the {name} to speak", sum(r[0] == place for r in called), n))


if __name__ == "__main__":
    main()
