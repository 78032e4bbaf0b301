"""A puzzle pack's figures, and the selection that keeps a pack worth solving (issue #36).

Measured on a pack's lines (``python -m bela.lab.puzzle_figures PACK``, or
``benchmarks/bench_puzzles.py --pack PACK``):

* how many puzzles are answered by the **cheapest legal card** (a legal card worth the
  fewest card points, a trump's as a trump's; of two worth nothing, either): "always play
  the cheapest card" must not solve the pack (the goal is at most 25%);
* how many offer **three or more legal cards** (the goal is at least 60%);
* **near-duplicates**: puzzles that share their *hand shape* (how many trumps the seat
  holds and the lengths of its other suits), the trick (its number and how many cards
  are on the table) and the answer (its rank and whether it is a trump) with another;
* the **ratings**: how many start at 1550 and at 1700 or more (the goal: a fifth at 1700);
* the themes.

``select`` applies those goals to generated puzzles: each near-duplicate group kept once
(its highest-rated puzzle), then puzzles answered by the cheapest card and puzzles of two
legal cards dropped, lowest rated first, until they are within the shares asked.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bela.engine import Card, Play
from bela.engine.actions import parse_action
from bela.engine.tricks import CARD_POINTS
from bela.engine.view import SeatView
from bela.lab.puzzle_check import moment_of, read_pack

__all__ = [
    "CHEAPEST_SHARE",
    "MANY_SHARE",
    "PackFigures",
    "answer_facts",
    "facts_of",
    "figures",
    "is_cheapest",
    "moment_key",
    "select",
]

CHEAPEST_SHARE: Final = 0.25
"""At most this share of a pack may be answered by the cheapest legal card."""
MANY_SHARE: Final = 0.6
"""At least this share of a pack offers three or more legal cards."""
HIGH_RATING: Final = 1700.0
"""At least a fifth of a pack should start at this rating or more."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What the figures need of one card puzzle: its legal cards' count, whether its answer
    is the cheapest legal card, and its near-duplicate key."""

    legal: int
    cheapest: bool
    key: tuple[Any, ...]


def facts_of(puzzle: Mapping[str, Any]) -> Facts | None:
    """The facts of a card puzzle (None for a bid puzzle)."""
    if puzzle.get("kind") != "card":
        return None
    rnd = moment_of(puzzle)
    seat = rnd.to_act
    assert seat is not None
    answer = [a.card for a in map(parse_action, puzzle["answer"]) if isinstance(a, Play)]
    return answer_facts(rnd.view(seat), int(puzzle["trick"]), answer)


def answer_facts(view: SeatView, trick: int, answer: Iterable[Card]) -> Facts:
    """The facts of the card moment ``view`` (of ``trick``) answered by ``answer`` (equivalent
    cards: the key is the lowest's), for a pack line and for the generator's verdicts alike."""
    assert view.trump is not None
    cards = set(answer)
    legal = sorted({a.card for a in view.legal_actions if isinstance(a, Play)})
    cheapest = is_cheapest(legal, cards, int(view.trump))
    return Facts(len(legal), cheapest, moment_key(view, trick, min(cards, key=int)))


def moment_key(view: SeatView, trick: int, card: Card) -> tuple[Any, ...]:
    """The near-duplicate key of a card moment answered by ``card``: the seat's hand shape
    (its trumps and its other suits' lengths), the trick and the place in it, and the
    answer's rank and whether it is a trump."""
    assert view.trump is not None
    trump = int(view.trump)
    trumps = sum(1 for c in view.hand if int(c) >> 3 == trump)
    others = sorted(
        (sum(1 for c in view.hand if int(c) >> 3 == s) for s in range(4) if s != trump),
        reverse=True,
    )
    return (trumps, tuple(others), trick, len(view.trick), int(card) >> 3 == trump, int(card) & 7)


def is_cheapest(legal: Iterable[Card], answer: Iterable[Card], trump: int) -> bool:
    """Whether one of the ``answer`` cards is a legal card worth the fewest card points (a
    trump's as a trump's): "always play the cheapest card" would find it."""
    worth = [CARD_POINTS[trump * 32 + int(c)] for c in legal]
    low = min(worth)
    return any(CARD_POINTS[trump * 32 + int(c)] == low for c in answer)


@dataclass(frozen=True, slots=True)
class PackFigures:
    """A pack's figures (card puzzles unless said)."""

    puzzles: int
    cards: int
    bids: int
    cheapest: int
    many: int
    duplicated: int
    groups: int
    rated_1550: int
    rated_1700: int
    themes: dict[str, int]

    def lines(self) -> list[str]:
        """The figures as the benchmark prints them."""

        def share(n: int, of: int) -> str:
            return f"{n:,} of {of:,} ({n / of:.1%})" if of else f"{n} of 0"

        return [
            f"{self.puzzles:,} puzzles: {self.cards:,} card, {self.bids:,} bid",
            f"answered by the cheapest legal card: {share(self.cheapest, self.cards)} "
            f"(goal: at most {CHEAPEST_SHARE:.0%})",
            f"three or more legal cards: {share(self.many, self.cards)} "
            f"(goal: at least {MANY_SHARE:.0%})",
            f"sharing hand shape, trick and answer with another: "
            f"{share(self.duplicated, self.cards)}; {self.groups:,} distinct",
            f"rated 1550 or more: {share(self.rated_1550, self.puzzles)}; "
            f"1700 or more: {share(self.rated_1700, self.puzzles)} (goal: a fifth)",
            "themes: " + ", ".join(f"{t} {n}" for t, n in self.themes.items()),
        ]


def figures(puzzles: Sequence[Mapping[str, Any]]) -> PackFigures:
    """The figures of a pack's puzzles (its JSON lines, as ``read_pack`` gives them)."""
    facts = [f for f in map(facts_of, puzzles) if f is not None]
    keys = Counter(f.key for f in facts)
    themes = Counter(t for p in puzzles for t in p.get("themes", ()))
    ratings = [float(p.get("rating", 0.0)) for p in puzzles]
    return PackFigures(
        puzzles=len(puzzles),
        cards=len(facts),
        bids=len(puzzles) - len(facts),
        cheapest=sum(f.cheapest for f in facts),
        many=sum(f.legal >= 3 for f in facts),
        duplicated=sum(1 for f in facts if keys[f.key] > 1),
        groups=len(keys),
        rated_1550=sum(r >= 1550 for r in ratings),
        rated_1700=sum(r >= HIGH_RATING for r in ratings),
        themes=dict(themes.most_common()),
    )


def select(
    puzzles: Iterable[Mapping[str, Any]],
    cheapest_share: float = CHEAPEST_SHARE,
    many_share: float = MANY_SHARE,
) -> list[dict[str, Any]]:
    """The puzzles a pack keeps: each near-duplicate group once (its highest-rated puzzle,
    then the first), then, lowest rated first, puzzles answered by the cheapest legal card
    dropped until they are at most ``cheapest_share`` of the card puzzles, and puzzles of
    two legal cards until those of three or more are at least ``many_share``. Bid puzzles
    are kept as they are. The order of the input is kept."""
    rows = [dict(p) for p in puzzles]
    facts = {i: f for i, f in enumerate(map(facts_of, rows)) if f is not None}
    best: dict[tuple[Any, ...], int] = {}
    for i, f in facts.items():
        held = best.get(f.key)
        if held is None or float(rows[i]["rating"]) > float(rows[held]["rating"]):
            best[f.key] = i
    keep = {i for i in range(len(rows)) if i not in facts or best[facts[i].key] == i}

    def kept() -> list[Facts]:
        return [facts[i] for i in keep if i in facts]

    def cheap_ok() -> bool:
        cards = kept()
        return sum(f.cheapest for f in cards) <= cheapest_share * len(cards)

    def many_ok() -> bool:
        cards = kept()
        return sum(f.legal >= 3 for f in cards) >= many_share * len(cards)

    def thin(unwanted: Callable[[Facts], bool], ok: Callable[[], bool]) -> None:
        # the lowest-rated unwanted ones go first, one at a time, until the share is met
        pool = sorted(
            (i for i in keep if i in facts and unwanted(facts[i])),
            key=lambda i: (float(rows[i]["rating"]), -i),
        )
        while pool and not ok():
            keep.discard(pool.pop(0))

    while not (cheap_ok() and many_ok()):  # dropping for one share can move the other
        before = len(keep)
        thin(lambda f: f.cheapest, cheap_ok)
        thin(lambda f: f.legal < 3, many_ok)
        if len(keep) == before:
            break
    return [rows[i] for i in sorted(keep)]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bela.lab.puzzle_figures",
        description="Print a puzzle pack's figures: the cheapest-card answers, the legal "
        "cards offered, near-duplicates, the ratings and the themes.",
    )
    parser.add_argument("pack", type=Path, help="the pack file (JSON lines, .gz allowed)")
    args = parser.parse_args(None if argv is None else list(argv))
    for line in figures(read_pack(args.pack)).lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
