"""A card puzzle's first rating: how often bots of seven strengths miss it, on the Elo scale.

Issue #36 asks for ratings that spread like a real ladder. Three bots, each asked once,
gave four ratings (1300, 1450, 1550, ...) and a fifth of a percent of the pack at 1700 or
more: the hard bot, judging on 48 guessed deals, nearly always finds what the judge found
on 96. So each puzzle is put to a ladder of solvers (``LEVELS``): ``easy``, ``normal``,
and the hard bot searching 2, 4, 8, 16 and its full 48 guessed deals, each ``TRIALS``
times with its own seed (the guessed deals differ, so a weak search sometimes finds the
answer and sometimes not). Each attempt is a game between a solver and the puzzle, scored
on the Elo curve, as Lichess rates its puzzles against players:

    P(a solver of strength a solves a puzzle rated d) = 1 / (1 + 10^((d - a) / 400))

``fit`` finds the solvers' strengths and the puzzles' ratings together (the maximum a
posteriori under a normal prior on each puzzle, mean 1500 and deviation 350, Glicko's
first rating and deviation: a puzzle every solver finds is not infinitely easy), from a
whole pack's misses; it is how ``LEVEL_RATINGS`` was found (``python -m
bela.lab.puzzle_rating PACK --fit``). ``first_rating`` rates one puzzle against those
fixed strengths (a new puzzle, or your own). The ratings then move with the players'
answers (``bela.archive.puzzle_ratings``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from random import Random
from typing import Any, Final

from bela.ai import make_bot
from bela.ai.base import Bot
from bela.ai.hard import HardBot, default_hard
from bela.engine import Round
from bela.engine.actions import choice_of, parse_action
from bela.lab.bid_puzzle_judge import GOOD_CREDIT

__all__ = [
    "BID_LEVEL_RATINGS",
    "LEVELS",
    "LEVEL_PRIOR",
    "LEVEL_RATINGS",
    "PACK_BOTS",
    "TRIALS",
    "bots_found",
    "first_rating",
    "fit",
    "misses_of",
    "rate_and_fit",
]

LEVELS: Final = ("easy", "normal", "hard-2", "hard-4", "hard-8", "hard-16", "hard")
"""The solvers, weakest first by design (the fit finds their real order)."""

TRIALS: Final[Mapping[str, int]] = {
    "easy": 1,
    "normal": 1,
    "hard-2": 4,
    "hard-4": 4,
    "hard-8": 4,
    "hard-16": 4,
    "hard": 4,
}
"""Attempts of each solver at each puzzle, each with its own seed. ``easy`` and ``normal``
decide the same whatever the seed at a card moment: a second attempt would only count
their one answer twice."""

LEVEL_PRIOR: Final[Mapping[str, float]] = {
    "easy": 1100.0,
    "normal": 1300.0,
    "hard-2": 1500.0,
    "hard-4": 1700.0,
    "hard-8": 1900.0,
    "hard-16": 2100.0,
    "hard": 2300.0,
}
"""Where the fit starts each solver, 200 apart, with the deviation ``PRIOR_DEVIATION``: a
solver that never misses in a pack is strong, not infinitely so."""

LEVEL_RATINGS: Final[Mapping[str, float]] = {
    "easy": 1531.0,
    "normal": 1857.0,
    "hard-2": 1847.0,
    "hard-4": 1972.0,
    "hard-8": 2072.0,
    "hard-16": 2159.0,
    "hard": 2257.0,
}
"""The solvers' strengths on the puzzles' scale, from ``fit`` over the 3,288 card puzzle lines
put together into the shipped pack (5 December 2026, the third rebuild; ``python -m
bela.lab.puzzle_assemble`` prints them). ``normal``, a heuristic with the table's
conventions, comes out above the hard bot searching two deals."""

BID_LEVEL_RATINGS: Final[Mapping[str, float]] = {
    "easy": 1624.0,
    "normal": 2593.0,
    "hard-2": 2373.0,
    "hard-4": 2419.0,
    "hard-8": 2539.0,
    "hard-16": 2821.0,
    "hard": 2956.0,
}
"""The same solvers' strengths at bid puzzles, fitted apart (a bid is another skill: ``normal``
bids by the fitted model the hard bot starts from, so it stands far above ``easy``), over the
441 shipped bid puzzles (5 December 2026, each standing on two fresh sets of deals:
``python -m bela.lab.bid_puzzle_gen --assemble --second-judgement`` prints them)."""

LOWEST: Final = 100.0
HIGHEST: Final = 4000.0
"""The ratings a pack line may carry (``bela.archive.puzzle_pack``); a first rating stays in."""
PRIOR_MEAN: Final = 1500.0
PRIOR_DEVIATION: Final = 350.0
_SCALE: Final = 400.0 / math.log(10.0)  # Elo points per unit of the logistic's argument


def solver(level: str) -> Bot:
    """The solver of a ladder level: a fast bot, or the hard bot guessing fewer deals (at a
    card, the deals it solves; at a bid, the deals a borderline bid is searched on, in the
    same proportion to the full bot's: 192 for 48, so ``hard-2`` searches a bid on 8)."""
    if level in ("easy", "normal"):
        return make_bot(level)
    full = default_hard()
    if level == "hard":
        return HardBot("hard", full)
    n = int(level.split("-")[1])
    config = replace(
        full,
        solver_samples=n,
        rollout_samples=n,
        min_samples=min(n, full.min_samples),
        decision_nodes=max(1, full.decision_nodes * n // full.solver_samples),
        bid_samples=max(1, full.bid_samples * n // full.solver_samples),
    )
    return HardBot(level, config)


def misses_of(
    puzzle: Mapping[str, Any], rnd: Round, trials: Mapping[str, int] = TRIALS
) -> dict[str, float]:
    """How many of its ``trials`` attempts each level misses the answer at the moment ``rnd``
    (seeded by the puzzle's id, so a pack's misses are reproducible). At a bid puzzle an
    also-good bid is half a miss (``GOOD_CREDIT``: the player's credit for it too)."""
    seat = int(puzzle["seat"])
    view = rnd.view(seat)
    answer = {choice_of(parse_action(a)) for a in puzzle["answer"]}
    good = {choice_of(parse_action(a)) for a in puzzle.get("bid", {}).get("good", ())}
    out: dict[str, float] = {}
    for level in LEVELS:
        bot = solver(level)
        missed = 0.0
        for k in range(trials[level]):
            chosen = choice_of(bot.act(view, Random(f"{puzzle['id']}:{level}:{k}")))
            missed += 0.0 if chosen in answer else (1.0 - GOOD_CREDIT) if chosen in good else 1.0
        out[level] = int(missed) if missed.is_integer() else missed
    return out


def _solves(strength: float, rating: float) -> float:
    return 1.0 / (1.0 + math.exp((rating - strength) / _SCALE))


def _slope(
    rating: float,
    misses: Mapping[str, float],
    strengths: Mapping[str, float],
    trials: Mapping[str, int],
) -> float:
    """The log posterior's slope in a puzzle's rating (it falls as the rating grows: the
    posterior is concave, so its single peak is where the slope crosses zero)."""
    slope = (PRIOR_MEAN - rating) / PRIOR_DEVIATION**2
    for level, missed in misses.items():
        p = _solves(strengths[level], rating)  # the solver's chance; a miss is the puzzle's win
        slope += (missed - trials[level] * (1.0 - p)) / _SCALE
    return slope


def first_rating(
    misses: Mapping[str, float],
    strengths: Mapping[str, float] = LEVEL_RATINGS,
    trials: Mapping[str, int] = TRIALS,
) -> float:
    """A puzzle's rating from its misses against solvers of known ``strengths``: the peak of
    its posterior, found by halving (Newton's steps from 1500 overshot to below zero for a
    puzzle nearly every solver missed, a first rebuild of the pack found)."""
    low, high = LOWEST, HIGHEST
    for _ in range(60):
        mid = (low + high) / 2
        if _slope(mid, misses, strengths, trials) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def fit(
    pack_misses: Sequence[Mapping[str, float]],
    trials: Mapping[str, int] = TRIALS,
    rounds: int = 200,
) -> tuple[list[float], dict[str, float]]:
    """The puzzles' ratings and the solvers' strengths that explain ``pack_misses`` best.

    Alternating Newton steps: each puzzle's rating given the strengths, then each
    solver's strength given the ratings (with ``LEVEL_PRIOR``'s normal prior: the puzzles'
    prior fixes where the scale sits). Returns the ratings in the input's order.
    """
    strengths = dict(LEVEL_PRIOR)
    ratings = [PRIOR_MEAN] * len(pack_misses)
    for _ in range(rounds):
        ratings = [first_rating(m, strengths, trials) for m in pack_misses]
        moved = 0.0
        for level in LEVELS:
            grad = (LEVEL_PRIOR[level] - strengths[level]) / PRIOR_DEVIATION**2
            hess = -1.0 / PRIOR_DEVIATION**2
            n = trials[level]
            for m, d in zip(pack_misses, ratings, strict=True):
                if level not in m:
                    continue
                p = _solves(strengths[level], d)
                grad += (n - m[level] - n * p) / _SCALE
                hess -= n * p * (1.0 - p) / _SCALE**2
            step = -grad / hess
            strengths[level] += step
            moved = max(moved, abs(step))
        if moved < 0.05:
            break
    return ratings, strengths


def rate_pack(
    lines: Iterable[dict[str, Any]],
    moment: Callable[[Mapping[str, Any]], Round],
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """The puzzles of ``lines`` with their ``misses`` (computed where missing) and their
    first ``rating`` from ``first_rating``, against the card or the bid strengths."""
    out: list[dict[str, Any]] = []
    for i, line in enumerate(lines):
        row = dict(line)
        if row.get("kind") in ("card", "bid"):
            if set(row.get("misses", {})) != set(LEVELS):
                row["misses"] = misses_of(row, moment(row))
            strengths = LEVEL_RATINGS if row["kind"] == "card" else BID_LEVEL_RATINGS
            row["rating"] = round(first_rating(row["misses"], strengths))
        out.append(row)
        if progress is not None:
            progress(i + 1)
    return out


PACK_BOTS: Final = ("easy", "normal", "hard")
"""The bots a pack line names (``bela.archive.puzzle_pack.BOTS``, a layer above the lab)."""


def bots_found(misses: Mapping[str, float]) -> dict[str, bool]:
    """The pack line's ``bots``: whether each bot it names finds the answer in most of its
    attempts."""
    return {name: misses[name] * 2 < TRIALS[name] for name in PACK_BOTS}


def rate_and_fit(
    lines: Iterable[dict[str, Any]], moment: Callable[[Mapping[str, Any]], Round], kind: str
) -> list[dict[str, Any]]:
    """``lines`` put to the ladder (``rate_pack``; every hundredth said on stderr), then the
    ``kind`` puzzles' ratings fitted together with the solvers' strengths (``fit``), which
    are printed: how a pack is rated when it is put together."""
    todo = list(lines)

    def step(done: int) -> None:
        if done % 100 == 0:
            print(f"{done} of {len(todo)} put to the solvers", file=sys.stderr, flush=True)

    rated = rate_pack(todo, moment, step)
    rows = [p for p in rated if p.get("kind") == kind]
    ratings, strengths = fit([p["misses"] for p in rows])
    for p, rating in zip(rows, ratings, strict=True):
        p["rating"] = round(rating)
    print("solvers: " + ", ".join(f"{k} {v:.0f}" for k, v in strengths.items()))
    return rated


def main(argv: Iterable[str] | None = None) -> int:
    from bela.lab.puzzle_check import moment_of, read_pack

    parser = argparse.ArgumentParser(
        prog="python -m bela.lab.puzzle_rating",
        description="Put a pack's card puzzles to the solvers' ladder and rate them.",
    )
    parser.add_argument("pack", type=Path, help="a pack or generated lines (.jsonl or .jsonl.gz)")
    parser.add_argument("--out", type=Path, help="write the rated lines here (.jsonl.gz)")
    parser.add_argument(
        "--fit", action="store_true", help="fit the solvers' strengths to the pack and print them"
    )
    args = parser.parse_args(None if argv is None else list(argv))
    lines = list(read_pack(args.pack))

    def step(done: int) -> None:
        if done % 100 == 0:
            print(f"{done} of {len(lines)} rated", file=sys.stderr, flush=True)

    rated = rate_pack(lines, moment_of, step)
    cards = [r for r in rated if r.get("kind") == "card"]
    if args.fit:
        ratings, strengths = fit([r["misses"] for r in cards])
        print("solvers: " + ", ".join(f"{k} {v:.0f}" for k, v in strengths.items()))
        for row, rating in zip(cards, ratings, strict=True):
            row["rating"] = round(rating)
    if args.out is not None:
        tmp = args.out.with_name(args.out.name + ".tmp")
        with gzip.GzipFile(tmp, "wb", mtime=0) as raw:
            for row in rated:
                raw.write((json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n").encode())
        tmp.replace(args.out)
    values = sorted(float(r["rating"]) for r in cards)
    if values:
        high = sum(v >= 1700 for v in values) / len(values)
        quart = [values[int(q * (len(values) - 1))] for q in (0.1, 0.25, 0.5, 0.75, 0.9)]
        print(
            f"{len(values)} card puzzles; ratings at 10/25/50/75/90%: "
            + " / ".join(f"{v:.0f}" for v in quart)
            + f"; {high:.1%} at 1700 or more"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
