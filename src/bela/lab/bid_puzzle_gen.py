"""Bid puzzles found in seeded deals: call or dalje, which suit, pod mus.

A task is one deal (its seed): ``Round.from_seed(seed, seed % 4)`` under the default
rules, bid by ``normal`` bots until someone names trump (or the dealer must). Each
bid of that bidding is a moment a real table reaches; a moment is put to the bid
judge (``bela.lab.bid_puzzle_judge``) unless the hand is a sure pass (the fitted bid
model puts every suit more than ``SURE_PASS`` below dalje: nobody needs a puzzle to
pass those). A quick look on ``SCREEN_DEALS`` guessed deals of its own first; then
the judgement on ``DEALS`` fresh ones, and the moment is kept when it is clear. A
deal gives at most ``PER_DEAL`` bid puzzles.

Each puzzle is the pack's JSON line (``bela.lab.puzzle_gen.PUZZLE_FORMAT``, kind
``bid``) with a ``bid`` object more: the also-good answers and, for every choice, on
how many deals it wrote more, as much and less than the answer (the explanation's
"how often"). Its first rating comes from the solvers' ladder (``bela.lab.puzzle_rating``:
``easy``, ``normal`` and the hard bot searching a borderline bid on fewer guessed deals, an
also-good bid half a miss) against the ladder's strengths at bids, ``BID_LEVEL_RATINGS``;
``--assemble`` fits those strengths and the pack's ratings together.

Run as ``python -m bela.lab.bid_puzzle_gen --deals N --seed S --jobs J --out FILE``
(a progress bar on stderr; the puzzles are appended to FILE as each chunk ends, so
stopping keeps what was found).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import sys
import time
from collections.abc import Sequence
from random import Random
from typing import Any, Final

from bela.ai import make_bot
from bela.ai.normal.bidding import learned_values, load_bid_weights
from bela.engine import Action, Call, Pass, Phase, Round
from bela.engine.actions import parse_action
from bela.engine.cards import Card, cards_in
from bela.engine.rules import DEFAULT_RULES
from bela.lab.bid_puzzle_judge import DEALS, BidVerdict, bid_values, verdict_of
from bela.lab.progress import ProgressBar
from bela.lab.puzzle_check import bid_stays_clear, moment_of, rejudge_bid
from bela.lab.puzzle_gen import PUZZLE_FORMAT, puzzle_id
from bela.lab.puzzle_rating import (
    BID_LEVEL_RATINGS,
    PRIOR_MEAN,
    bots_found,
    first_rating,
    misses_of,
    rate_and_fit,
)
from bela.lab.runner import map_tasks

__all__ = [
    "PER_DEAL",
    "SCREEN_DEALS",
    "SECOND_SALT",
    "SURE_PASS",
    "THIRD_SALT",
    "assemble",
    "bid_moments",
    "bid_puzzle",
    "bid_puzzles_of_deal",
    "main",
    "second_judgement",
    "weighed_lead",
]

PER_DEAL: Final = 2
SCREEN_DEALS: Final = 32
"""Guessed deals of the quick look (its own, not reused by the judgement)."""
SCREEN_GAP: Final = 6.0
"""The quick look lets a moment through when every miss is this far below the best."""
SURE_PASS: Final = 40.0
"""A hand whose every suit the fitted model puts this far below dalje is not judged."""
SHIP_GAP: Final = 15.0
SHIP_Z: Final = 3.0
"""A clear moment is kept only with room to spare: every miss at least 15 written points and
three standard errors below the best (the bar is 10 and two), so that judged again on
fresh deals it stays clear."""


def _mix(seed: int, index: int) -> int:
    digest = hashlib.blake2b(f"bid:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def bid_moments(seed: int) -> tuple[Round, list[Action]]:
    """The deal of ``seed`` and its bids as ``normal`` bots make them (the last one a call)."""
    start = Round.from_seed(seed, seed % 4, DEFAULT_RULES)
    bot = make_bot("normal")
    rng = Random(seed)
    rnd = start.copy()
    bids: list[Action] = []
    while rnd.phase is Phase.BIDDING:
        seat = rnd.to_act
        assert seat is not None
        action = bot.act(rnd.view(seat), rng)
        bids.append(action)
        rnd.push(action)
    return start, bids


def _worth_judging(rnd: Round) -> bool:
    seat = rnd.to_act
    assert seat is not None
    view = rnd.view(seat)
    if Pass() not in view.legal_actions:
        return True
    return max(learned_values(view, load_bid_weights())) >= -SURE_PASS


def _screen(verdict: BidVerdict) -> bool:
    if not verdict.misses:
        return False
    top = verdict.best.written
    if any(top - o.written < SCREEN_GAP for o in verdict.misses):
        return False
    if not verdict.forced:
        kinds = {isinstance(o.action, Call) for o in (verdict.best, *verdict.good)}
        return len(kinds) == 1
    return True


def bid_puzzles_of_deal(
    seed: int, deals: int = DEALS, bot_check: bool = True
) -> list[dict[str, Any]]:
    """The clear bid puzzles of the deal of ``seed`` (at most ``PER_DEAL``)."""
    start, bids = bid_moments(seed)
    out: list[dict[str, Any]] = []
    rnd = start.copy()
    for i, action in enumerate(bids):
        if len(out) >= PER_DEAL:
            break
        if _worth_judging(rnd):
            look_opts, look_vals, look_seen = bid_values(
                rnd, Random(_mix(seed, -i - 1)), SCREEN_DEALS
            )
            if _screen(verdict_of(rnd, look_opts, look_vals, look_seen)):
                options, values, seen = bid_values(rnd, Random(_mix(seed, i)), deals)
                verdict = verdict_of(rnd, options, values, seen)
                if _shipped(verdict):
                    out.append(
                        bid_puzzle(seed, start, bids[:i], rnd, verdict, values, options, bot_check)
                    )
        rnd.push(action)
    return out


def _shipped(verdict: BidVerdict) -> bool:
    """Clear with room to spare (``SHIP_GAP``, ``SHIP_Z``)."""
    if not verdict.clear:
        return False
    top = verdict.best.written
    return all(
        top - o.written >= SHIP_GAP and top - o.written >= SHIP_Z * o.error for o in verdict.misses
    )


def bid_puzzle(
    seed: int,
    start: Round,
    before: Sequence[Action],
    rnd: Round,
    verdict: BidVerdict,
    values: Sequence[Sequence[int]],
    options: Sequence[Action],
    bot_check: bool = True,
) -> dict[str, Any]:
    """The pack line of a bid puzzle (see the module docstring)."""
    seat = rnd.to_act
    assert seat is not None
    texts = [str(a) for a in before]
    n = verdict.deals
    best_counts = []
    for o in verdict.options:
        i = list(options).index(o.action)
        best_counts.append(sum(1 for d in range(n) if values[i][d] >= max(v[d] for v in values)))
    if verdict.forced:
        theme = "pod-mus"
    elif isinstance(verdict.best.action, Call):
        theme = "call"
    else:
        theme = "pass"
    typical = None
    if verdict.typical is not None:
        typical = {
            "hands": [[str(Card(c)) for c in cards_in(h)] for h in verdict.typical],
            "lines": [],
        }
    line: dict[str, Any] = {
        "format": PUZZLE_FORMAT,
        "id": puzzle_id(seed, start.dealer, texts),
        "seed": seed,
        "dealer": start.dealer,
        "actions": texts,
        "seat": seat,
        "kind": "bid",
        "trick": 0,
        "answer": [str(verdict.best.action)],
        "choices": [
            {"actions": [str(o.action)], "written": round(o.written, 2), "best": round(b / n, 4)}
            for o, b in zip(verdict.options, best_counts, strict=True)
        ],
        "deals": n,
        "themes": [theme],
        "rating": round(PRIOR_MEAN),
        "bots": {},
        "typical": typical,
        "bid": {
            "good": [str(o.action) for o in verdict.good],
            "versus": [[o.more, o.equal, o.less] for o in verdict.options],
        },
    }
    if bot_check:  # the first rating: how often the solvers' ladder misses it
        misses = misses_of(line, rnd)
        line["misses"] = misses
        line["bots"] = bots_found(misses)
        line["rating"] = round(first_rating(misses, BID_LEVEL_RATINGS))
    return line


SECOND_SALT: Final = "bid-second-judgement"
"""Names the second judgement's deals (``puzzle_check``'s are "rejudge")."""
THIRD_SALT: Final = "bid-third-judgement"
"""Names a third set: a bid puzzle must stand on both (``second_judgement``)."""


def _second_task(task: tuple[dict[str, Any], str]) -> bool:
    line, salt = task
    verdict = rejudge_bid(line, salt)
    return bid_stays_clear(line, verdict) and _shipped(verdict)


def second_judgement(
    lines: Sequence[dict[str, Any]],
    jobs: int = 1,
    salts: Sequence[str] = (SECOND_SALT, THIRD_SALT),
) -> tuple[list[dict[str, Any]], int]:
    """The lines whose answer is still the best bid, clear with the generator's room to
    spare (``SHIP_GAP``, ``SHIP_Z``), on each of two sets of 192 guessed deals of their own
    (``salts``), and how many were not. The first judgement chose the puzzle, so its room is
    biased upwards: judged again on fresh deals, 601 of the 686 bid puzzles shipped before
    (87.6%) stayed clear with the same answer, where issue #36 asks 97% of a pack. After one
    more judgement, 506 stayed, and of those 95.5% stayed clear on the check's deals: a
    bid's judgement is noisier than a card's (the whole play is solved after each bid, and
    the talon and the others' hands decide more), so a bid puzzle stands on two."""
    kept = list(lines)
    for salt in salts:
        flags = map_tasks(_second_task, [(dict(x), salt) for x in kept], jobs=jobs)
        kept = [x for x, ok in zip(kept, flags, strict=True) if ok]
    return kept, len(lines) - len(kept)


OBVIOUS_LEAD: Final = 80.0
"""A puzzle every bot solves whose answer leads the bid weighed by this many written points
or more is left out of the pack: nobody learns from it."""


def weighed_lead(line: dict[str, Any]) -> float:
    """How far the answer of a pack line leads the bid a player weighs (written points)."""
    choices = line["choices"]
    best = choices[0]
    good = set(line["bid"]["good"])
    answer = best["actions"][0]
    if "pod-mus" in line["themes"]:
        alt = next((c for c in choices[1:] if c["actions"][0] not in good), choices[-1])
    elif answer == "dalje":
        alt = next(c for c in choices if c["actions"][0] != "dalje")
    else:
        alt = next(c for c in choices if c["actions"][0] == "dalje")
    return float(best["written"] - alt["written"])


def _shape(line: dict[str, Any]) -> tuple[object, ...]:
    """A bid moment's shape: the place in the bidding, the answer, and the hand's ranks by
    suit with the answer's suit apart (two such hands teach the same thing)."""
    rnd = Round.from_seed(line["seed"], line["dealer"], DEFAULT_RULES)
    for text in line["actions"]:
        rnd.push(parse_action(text))
    hand = rnd.view(line["seat"]).hand
    answer = parse_action(line["answer"][0])
    named = int(answer.suit) if isinstance(answer, Call) else -1
    suits = [tuple(sorted(int(c) & 7 for c in hand if int(c.suit) == s)) for s in range(4)]
    trump = suits[named] if named >= 0 else ()
    others = tuple(sorted(suits[s] for s in range(4) if s != named))
    return (len(line["actions"]), isinstance(answer, Call), trump, others)


def assemble(lines: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pack from generated lines: each id once, each shape once, the obvious left out
    (every bot finds it and it leads by ``OBVIOUS_LEAD`` or more), sorted by id."""
    kept: dict[str, dict[str, Any]] = {}
    shapes: set[tuple[object, ...]] = set()
    for line in lines:
        if line["id"] in kept:
            continue
        if all(line["bots"].values()) and weighed_lead(line) >= OBVIOUS_LEAD:
            continue
        shape = _shape(line)
        if shape in shapes:
            continue
        shapes.add(shape)
        kept[line["id"]] = line
    return [kept[k] for k in sorted(kept)]


def _task(task: tuple[int, int]) -> tuple[list[dict[str, Any]], float]:
    seed, deals = task
    t0 = time.process_time()
    found = bid_puzzles_of_deal(seed, deals)
    return found, time.process_time() - t0


def main(argv: Sequence[str] | None = None) -> int:
    """Generate bid puzzles from seeded deals (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m bela.lab.bid_puzzle_gen")
    parser.add_argument("--deals", type=int, default=20, help="deals to look at")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--guesses", type=int, default=DEALS, help="guessed deals a judgement")
    parser.add_argument("--out", required=True, help="the JSON lines file to append to")
    parser.add_argument(
        "--assemble",
        nargs="+",
        metavar="FILE",
        help="no generating: make the pack OUT (gzip'd) from these generated files",
    )
    parser.add_argument(
        "--second-judgement",
        action="store_true",
        help="with --assemble: judge each puzzle again on fresh deals, drop the unclear ones",
    )
    args = parser.parse_args(argv)
    if args.assemble:
        lines = []
        for name in args.assemble:
            with open(name, encoding="utf-8") as f:
                lines += [json.loads(text) for text in f if text.strip()]
        pack = assemble(lines)
        if args.second_judgement:
            pack, unclear = second_judgement(pack, args.jobs)
            print(f"{unclear} not clear on a second set of guessed deals", file=sys.stderr)
        pack = rate_and_fit(pack, moment_of, "bid")
        for p in pack:
            p["bots"] = bots_found(p["misses"])
        values = sorted(float(p["rating"]) for p in pack)
        if values:
            high = sum(v >= 1700 for v in values) / len(values)
            print(f"{high:.1%} of the bid puzzles rated 1700 or more", file=sys.stderr)
        text = "".join(json.dumps(p, separators=(",", ":")) + "\n" for p in pack)
        with gzip.open(args.out, "wt", encoding="utf-8") as g:
            g.write(text)
        print(f"{len(pack)} of {len(lines)} puzzles kept", file=sys.stderr)
        return 0
    seeds = list(range(args.seed, args.seed + args.deals))
    found = 0
    cpu = 0.0
    size = max(4 * args.jobs, 4)
    with ProgressBar(True, len(seeds), "bid puzzles") as bar:
        for at in range(0, len(seeds), size):
            part = seeds[at : at + size]

            def step(d: int, _t: int, base: int = at) -> None:
                bar(base + d, len(seeds))

            results = map_tasks(
                _task, [(s, args.guesses) for s in part], jobs=args.jobs, progress=step
            )
            with open(args.out, "a", encoding="utf-8") as f:
                for puzzles, seconds in results:
                    cpu += seconds
                    for p in puzzles:
                        f.write(json.dumps(p, separators=(",", ":")) + "\n")
                        found += 1
                f.flush()
                os.fsync(f.fileno())
            print(
                f"{at + len(part)} deals, {found} puzzles, {cpu:.0f} s CPU, "
                f"{found / max(cpu / 60, 1e-9):.2f} a CPU-minute",
                file=sys.stderr,
                flush=True,
            )
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    raise SystemExit(main())
