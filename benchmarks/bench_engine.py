"""How many full random-legal rounds per second the engine plays on one core.

Each round: a seeded deal, random bids until trump is named (the forced dealer
included), zvanja, eight tricks of uniformly random legal cards, scoring.
Three paths are timed in the same process, so the ratios between them hold
on any machine:

- ``fast``: ``Round.play_out_random`` (the inlined loop random rollouts use, bids included);
- ``push``: ``legal_mask`` + ``push_card`` per card (search's in-place path);
- ``apply``: ``legal_actions`` + ``apply`` per action (the validated, immutable public API).

Each path is timed in both builds (issue #26), one child process each, alternating: the pure
Python one (``BELA_PURE=1``) and the mypyc-compiled one (``make compiled``), and the table gives
the compiled/pure ratio measured in this one run. ``--this-build`` times only the build this
process runs (what the children do).

Run: ``make bench`` or ``python benchmarks/bench_engine.py [--rounds N] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
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


def this_build(rounds: int, repeats: int) -> dict[str, float]:
    paths = {"fast": fast_round, "push": push_round, "apply": apply_round}
    return {
        name: rounds_per_second(play, rounds if name != "apply" else max(1, rounds // 5), repeats)
        for name, play in paths.items()
    }


def in_child(pure: bool, rounds: int, repeats: int) -> tuple[str, dict[str, float]]:
    """The build's name and its rates, from a fresh process (a build is chosen at import)."""
    env = {k: v for k, v in os.environ.items() if k != "BELA_PURE"}
    if pure:
        env["BELA_PURE"] = "1"
    args = [sys.executable, __file__, "--this-build", "--rounds", str(rounds)]
    out = subprocess.run(
        [*args, "--repeats", str(repeats)], env=env, capture_output=True, text=True, check=True
    ).stdout
    data = json.loads(out)
    return data["build"], data["rates"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per path (best kept)")
    parser.add_argument("--this-build", action="store_true", help="time this process's build")
    args = parser.parse_args()
    if args.this_build:
        from bela.foundation.native import build

        rates = this_build(args.rounds, args.repeats)
        print(json.dumps({"build": str(build()), "rates": rates}))
        return
    # alternate the builds, one repeat each, so a change in the machine's load hits both
    pure: dict[str, float] = {}
    compiled: dict[str, float] = {}
    name = ""
    for _ in range(args.repeats):
        for rates, is_pure in ((pure, True), (compiled, False)):
            built, got = in_child(is_pure, args.rounds, 1)
            if not is_pure:
                name = built
            for path, rate in got.items():
                rates[path] = max(rates.get(path, 0.0), rate)
    print(f"compiled build: {name}")
    print(
        f"{'path':<8}{'pure r/s':>11}{'µs/round':>10}{'compiled r/s':>14}{'µs/round':>10}{'×':>7}"
    )
    for path in pure:
        p, c = pure[path], compiled[path]
        print(f"{path:<8}{p:>11,.0f}{1e6 / p:>10.1f}{c:>14,.0f}{1e6 / c:>10.1f}{c / p:>7.2f}")
    print(
        f"(best of {args.repeats} runs per path and build, one CPU; goals: fast >= 20,000 "
        "rounds/s pure, compiled/pure >= 5 on the fast path)"
    )


if __name__ == "__main__":
    main()
