"""Do the shipped puzzles stay clear when judged again on fresh guessed deals?

A puzzle was found clear on one set of 96 guessed deals. Judged again on another
set, a borderline one may come out unclear (its answer best on 89% of the deals,
or 9 points ahead) or, rarely, with another answer. The pack's *stability* is the
share that stays clear with the same answer; issue #36 asks for at least 97% (it was 95%).

``python -m bela.lab.puzzle_check PACK... [--sample N] [--jobs J] [--salt S]`` prints
it for each pack (``make puzzles-check`` runs the whole shipped card and bid packs, a bid
puzzle judged again by the bid judge; the test suite re-judges a sample). ``moment_of``
rebuilds a puzzle's round from its seed, dealer and actions, checking every step, so a pack
line that does not replay is an error here too.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

from bela.engine import Round
from bela.engine.actions import choice_of, parse_action
from bela.engine.rules import DEFAULT_RULES
from bela.lab.bid_puzzle_judge import DEALS as BID_DEALS
from bela.lab.bid_puzzle_judge import BidVerdict, judge_bid
from bela.lab.puzzle_judge import DEALS, Verdict, judge
from bela.lab.runner import map_tasks, usable_cpus

__all__ = [
    "STABILITY_GOAL",
    "CheckReport",
    "bid_stays_clear",
    "check_pack",
    "judge_again",
    "moment_of",
    "read_pack",
    "rejudge",
    "rejudge_bid",
    "stays_clear",
]

STABILITY_GOAL = 0.97
"""The share of a pack that must stay clear, with the same answer, on fresh deals."""


def moment_of(puzzle: Mapping[str, Any]) -> Round:
    """The round at the puzzle's moment; ``ValueError`` if the puzzle does not replay to it."""
    rnd = Round.from_seed(puzzle["seed"], puzzle["dealer"], DEFAULT_RULES)
    for text in puzzle["actions"]:
        rnd.push(parse_action(text))
    if rnd.to_act != puzzle["seat"]:
        raise ValueError(f"puzzle {puzzle['id']}: seat {puzzle['seat']} is not the one to act")
    return rnd


def _salted(puzzle_id: str, salt: str) -> int:
    digest = hashlib.blake2b(f"{salt}:{puzzle_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def rejudge(puzzle: Mapping[str, Any], salt: str = "rejudge", deals: int = DEALS) -> Verdict:
    """The judge's verdict at the puzzle's moment on fresh guessed deals (seeded by ``salt``)."""
    return judge(moment_of(puzzle), Random(_salted(puzzle["id"], salt)), deals, early_stop=False)


def stays_clear(puzzle: Mapping[str, Any], verdict: Verdict) -> bool:
    """The verdict is clear and its answer is the puzzle's."""
    if not verdict.clear:
        return False
    shipped = {choice_of(parse_action(t)) for t in puzzle["answer"]}
    return {choice_of(a) for a in verdict.answer} == shipped


def rejudge_bid(puzzle: Mapping[str, Any], salt: str = "rejudge", deals: int = 0) -> BidVerdict:
    """The bid judge's verdict at a bid puzzle's moment on fresh guessed deals."""
    rng = Random(_salted(puzzle["id"], salt))
    return judge_bid(moment_of(puzzle), rng, deals or int(puzzle.get("deals", BID_DEALS)))


def bid_stays_clear(puzzle: Mapping[str, Any], verdict: BidVerdict) -> bool:
    """The bid verdict is clear and its best bid is the puzzle's answer."""
    shipped = {choice_of(parse_action(t)) for t in puzzle["answer"]}
    return verdict.clear and choice_of(verdict.best.action) in shipped


def _task(task: tuple[dict[str, Any], str, int]) -> tuple[str, bool, float, float]:
    puzzle, salt, deals = task
    if puzzle.get("kind") == "bid":
        bid = rejudge_bid(puzzle, salt, deals)
        other = bid.alternative
        share = (other.less + other.equal) / bid.deals if bid.deals else 0.0
        return puzzle["id"], bid_stays_clear(puzzle, bid), share, bid.best.written - other.written
    verdict = rejudge(puzzle, salt, deals)
    return puzzle["id"], stays_clear(puzzle, verdict), verdict.share, verdict.gap


@dataclass(frozen=True, slots=True)
class CheckReport:
    """How many of the puzzles re-judged stayed clear, and which did not (id, share, gap)."""

    judged: int
    clear: int
    unclear: tuple[tuple[str, float, float], ...]
    seconds: float

    @property
    def stability(self) -> float:
        return self.clear / self.judged if self.judged else 1.0


def judge_again(
    puzzles: Sequence[Mapping[str, Any]], salt: str, jobs: int = 1
) -> list[tuple[str, bool, float, float]]:
    """Each puzzle re-judged on fresh deals named by ``salt``: its id, whether it stays clear
    with the same answer, and the fresh verdict's share and gap (in the puzzles' order)."""
    tasks = [(dict(p), salt, int(p.get("deals", DEALS))) for p in puzzles]
    return map_tasks(_task, tasks, jobs=jobs)


def check_pack(
    puzzles: Sequence[Mapping[str, Any]], salt: str = "rejudge", jobs: int = 1
) -> CheckReport:
    """Re-judge every puzzle given on fresh deals (spread over ``jobs`` processes)."""
    start = time.perf_counter()
    results = judge_again(puzzles, salt, jobs)
    unclear = tuple((pid, share, gap) for pid, ok, share, gap in results if not ok)
    seconds = time.perf_counter() - start
    return CheckReport(len(results), len(results) - len(unclear), unclear, seconds)


def read_pack(path: Path) -> list[dict[str, Any]]:
    """The puzzles of a pack file (JSON lines, gzipped when the name ends in .gz)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _sample(puzzles: Sequence[dict[str, Any]], n: int, seed: int) -> list[dict[str, Any]]:
    if n <= 0 or n >= len(puzzles):
        return list(puzzles)
    return Random(seed).sample(list(puzzles), n)


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bela.lab.puzzle_check",
        description="Re-judge a puzzle pack on fresh guessed deals and print its stability.",
    )
    parser.add_argument(
        "packs", type=Path, nargs="+", help="the pack files (JSON lines, .gz allowed)"
    )
    parser.add_argument("--sample", type=int, default=0, help="judge this many, drawn at random")
    parser.add_argument(
        "--jobs", type=int, default=usable_cpus(), help="worker processes (default: every CPU)"
    )
    parser.add_argument("--salt", default="rejudge", help="names the fresh deals")
    args = parser.parse_args(None if argv is None else list(argv))
    status = 0
    for path in args.packs:
        puzzles = _sample(read_pack(path), args.sample, 7)
        report = check_pack(puzzles, args.salt, args.jobs)
        print(
            f"{path.name}: {report.clear} of {report.judged} puzzles stay clear on fresh deals "
            f"({report.stability:.1%}; the goal is 97%) in {report.seconds:.0f} s"
        )
        kinds = {p["id"]: p.get("kind") for p in puzzles}
        for pid, share, gap in report.unclear:
            if kinds.get(pid) == "bid":  # not clear, or another best bid, on the fresh deals
                print(
                    f"  {pid}: {gap:+.1f} written points over the bid weighed, "
                    f"not less on {share:.0%}"
                )
            else:
                print(f"  {pid}: best on {share:.0%}, {gap:+.1f} written points ahead")
        status = status if report.stability >= STABILITY_GOAL else 1
    return status


if __name__ == "__main__":
    sys.exit(main())
