"""Put generated puzzles together into a pack: one line per moment, themes read again.

``python -m bela.lab.puzzle_assemble OUT.jsonl.gz IN.jsonl [IN.jsonl ...]``

Generation runs append what they find to JSON-lines files, possibly overlapping
(the same deal looked at twice gives the same moment, and the same id). This keeps
the first line of each id; drops lines that do not replay to their moment
(``moment_of``) or are not clear with the room to spare a pack asks (``verified``);
reads the themes again with today's ``themes_of`` (so a sharper theme rule does not
need the judging redone); finds a better typical deal for a puzzle whose example
shows nothing (``retypical``); rates the card puzzles on the solvers' ladder fitted to
the whole pack (``bela.lab.puzzle_rating``; ``--no-rate`` keeps the lines' ratings);
keeps the pack's variety (``bela.lab.puzzle_figures.select``: near-duplicates once, at
most 25% answered by the cheapest card, at least 60% of three or more legal cards;
``--keep-all`` skips it); with ``--second-judgement``, judges each kept puzzle again on
fresh deals and drops the unclear ones, choosing again among the rest until every chosen
puzzle stands (``select_judged``; ``--cache`` keeps the judgements for the next run);
and writes the pack sorted
by id, gzipped, one JSON object per line, as ``bela.archive.puzzle_pack`` reads it.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from random import Random
from typing import Any, Final

from bela.engine.actions import parse_action
from bela.lab.puzzle_check import moment_of, read_pack
from bela.lab.puzzle_gen import typical_of, verified
from bela.lab.puzzle_judge import DEALS, Choice, Verdict, judge
from bela.lab.puzzle_themes import themes_of

__all__ = [
    "SALTS",
    "assemble",
    "read_cache",
    "retypical",
    "second_judgement",
    "select_judged",
    "shows_nothing",
    "verdict_of",
    "write_cache",
]


def verdict_of(puzzle: Mapping[str, Any]) -> Verdict:
    """The verdict a puzzle line records (enough of it for the themes)."""
    deals = int(puzzle["deals"])
    choices = tuple(
        Choice(
            tuple(parse_action(t) for t in c["actions"]),
            float(c["written"]),
            round(float(c["best"]) * deals),
        )
        for c in puzzle["choices"]
    )
    return Verdict(puzzle["kind"], int(puzzle["seat"]), choices, deals, True)


RETYPICAL_DEALS = 24
"""Guessed deals looked at to find a better typical deal (``retypical``)."""


def _team_lead(line: Mapping[str, Any], team: int) -> int:
    written = line["written"]
    return int(written[team]) - int(written[1 - team])


def shows_nothing(puzzle: Mapping[str, Any]) -> bool:
    """The typical deal's two lines write the same for the seat's team: no example at all."""
    typical = puzzle.get("typical")
    if puzzle["kind"] != "card" or not typical or len(typical["lines"]) < 2:
        return False
    team = int(puzzle["seat"]) & 1
    first, second = typical["lines"][:2]
    return _team_lead(first, team) <= _team_lead(second, team)


def retypical(puzzle: Mapping[str, Any]) -> dict[str, Any]:
    """The puzzle with a typical deal on which its answer does better, where one is found.

    Puzzles generated before the judge chose its typical deal among those where the
    answer does better may show a deal where both choices write the same. This looks
    at ``RETYPICAL_DEALS`` fresh guessed deals (seeded by the id) and, if the two best
    choices there are the puzzle's two, plays the new typical deal out both ways.
    """
    rnd = moment_of(puzzle)
    look = judge(rnd, Random(f"typical:{puzzle['id']}"), RETYPICAL_DEALS, early_stop=False)
    wanted = [c["actions"] for c in puzzle["choices"][:2]]
    if [[str(a) for a in c.actions] for c in look.choices[:2]] != wanted:
        return dict(puzzle)
    typical = typical_of(rnd, look)
    if typical is None:
        return dict(puzzle)
    better = dict(puzzle, typical=typical)
    return better if not shows_nothing(better) else dict(puzzle)


def assemble(
    lines: Iterable[Mapping[str, Any]], deals: int = DEALS
) -> tuple[list[dict[str, Any]], int]:
    """The pack's puzzles (unique ids, themes read again, sorted) and how many were dropped;
    ``deals``: the fewest guessed deals a puzzle may stand on (the pack's floor)."""
    seen: dict[str, dict[str, Any]] = {}
    dropped = 0
    for line in lines:
        pid = line.get("id")
        if not isinstance(pid, str) or pid in seen:
            dropped += 1
            continue
        try:
            rnd = moment_of(line)
        except (ValueError, KeyError, TypeError):
            dropped += 1
            continue
        if not verified(verdict_of(line), deals):  # at the bar, before the room to spare
            dropped += 1
            continue
        puzzle = retypical(line) if shows_nothing(line) else dict(line)
        puzzle["themes"] = list(themes_of(rnd, verdict_of(line)))
        seen[pid] = puzzle
    return [seen[k] for k in sorted(seen)], dropped


SECOND_SALT = "second-judgement"
"""Names the second judgement's deals: not ``puzzle_check``'s, so ``make puzzles-check``
measures a pack on deals that chose none of its puzzles."""
THIRD_SALT = "third-judgement"
"""Names a third set: a card puzzle stands on both (``second_judgement``), as a bid puzzle
does. Judged on one, the third rebuild's 984 stayed clear on the check's deals at 96.95%."""
SALTS: Final = (SECOND_SALT, THIRD_SALT)

ROOM_SHARE: Final = 0.94
ROOM_GAP: Final = 15.0
"""What the second judgement asks beyond the judge's bar (best on 90%, 10 points ahead): a
puzzle just over the bar on 96 fresh deals is as likely as not to fall under it on the next
96. The first judgement cannot say how much room there is (it chose the puzzle, so it is
biased upwards); the second, on deals that chose nothing, can. 0.94 is the bar plus about one
and a third of a 96-deal share's standard deviation near it (sqrt(0.9 * 0.1 / 96) = 0.031);
15 points the bar plus half of it. Set from the judge's sampling error, before any check:
``make puzzles-check`` measures the pack on a third set of deals."""


def has_room(share: float, gap: float) -> bool:
    """The second judgement's verdict clears the bar with room to spare."""
    return share >= ROOM_SHARE - 1e-9 and gap >= ROOM_GAP - 1e-9


Fresh = tuple[bool, float, float]
"""A second judgement's result: clear with the same answer, the share, the gap."""
Cache = dict[tuple[str, str], Fresh]
"""Judgements by (salt, puzzle id): a judgement is a function of the puzzle and the salt."""


def second_judgement(
    puzzles: list[dict[str, Any]],
    jobs: int = 1,
    cache: Cache | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """The puzzles that stay clear, with the same answer and room to spare (``ROOM_SHARE``,
    ``ROOM_GAP``), on each of two fresh sets of 96 guessed deals (``SALTS``), and how many did
    not. Judged once, 6.6% of the first rebuilt pack's 561 puzzles came out unclear on fresh
    deals; judged twice at the bar alone, 4.8% of 502 (issue #36 asks at most 3%): 20 of
    those 24 were best on 90-100% of the deals but under 10 points ahead. With room to spare
    on one set, the second rebuild's 613 stayed clear at 97.1% and the third's 984 at 96.95%
    on the check's deals: a puzzle now stands on two sets, the third asked only of those that
    stood on the second.

    ``cache`` holds results by (salt, id): those are not judged again, and the new ones are
    added to it."""
    from bela.lab.puzzle_check import judge_again

    known: Cache = cache if cache is not None else {}
    kept = list(puzzles)
    for salt in SALTS:
        todo = [p for p in kept if (salt, p["id"]) not in known]
        for pid, ok, share, gap in judge_again(todo, salt, jobs) if todo else []:
            known[(salt, pid)] = (ok, share, gap)
        kept = [p for p in kept if _passes(known[(salt, p["id"])])]
    return kept, len(puzzles) - len(kept)


def _passes(fresh: Fresh) -> bool:
    ok, share, gap = fresh
    return ok and has_room(share, gap)


def select_judged(
    puzzles: list[dict[str, Any]],
    jobs: int = 1,
    cache: Cache | None = None,
    shares: tuple[float, float] | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """``select``'s pack with every puzzle clear on the second judgement, and how many chosen
    puzzles fell to it.

    Judging only what ``select`` chose, then dropping the unclear ones, loses a near-duplicate
    key whose chosen puzzle falls even when another line of the key would stand, and leaves
    the cheapest-card and two-card quotas short. So this goes round: ``select`` among the
    puzzles not yet found unclear, the second judgement of those it chose that are not yet
    judged, until every chosen puzzle stands (each round drops at least one, so it ends).
    ``shares``: ``select``'s cheapest and three-or-more shares, when not the pack's."""
    from bela.lab.puzzle_figures import CHEAPEST_SHARE, MANY_SHARE, select

    cheapest, many = shares if shares is not None else (CHEAPEST_SHARE, MANY_SHARE)

    results: Cache = cache if cache is not None else {}
    fallen: set[str] = set()
    while True:
        chosen = select([p for p in puzzles if p["id"] not in fallen], cheapest, many)
        stand, unclear = second_judgement(chosen, jobs, results)
        if not unclear:
            return chosen, len(fallen)
        fallen |= {p["id"] for p in chosen} - {p["id"] for p in stand}
        print(f"{len(fallen)} not clear on a second set of guessed deals", file=sys.stderr)


def read_cache(path: Path | None) -> Cache:
    """Judgements written by earlier runs (``--cache``), by (salt, puzzle id), of ``SALTS``."""
    out: Cache = {}
    if path is None or not path.exists():
        return out
    for row in read_pack(path):
        if row.get("salt") in SALTS:
            key = (str(row["salt"]), str(row["id"]))
            out[key] = (bool(row["ok"]), float(row["share"]), float(row["gap"]))
    return out


def write_cache(path: Path | None, cache: Mapping[tuple[str, str], Fresh], had: Cache) -> None:
    """Append the judgements ``had`` did not hold to ``path``."""
    if path is None:
        return
    with open(path, "a", encoding="utf-8") as f:
        for (salt, pid), (ok, share, gap) in cache.items():
            if (salt, pid) not in had:
                row = {"id": pid, "salt": salt, "ok": ok, "share": share, "gap": gap}
                f.write(json.dumps(row) + "\n")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bela.lab.puzzle_assemble",
        description="Join generated puzzle files into one pack (unique ids, themes read again).",
    )
    parser.add_argument("out", type=Path, help="the pack to write (.jsonl.gz)")
    parser.add_argument("inputs", type=Path, nargs="+", help="generated JSON-lines files")
    parser.add_argument(
        "--keep-all",
        action="store_true",
        help="keep near-duplicates and every cheapest-card and two-card puzzle (no select)",
    )
    parser.add_argument(
        "--no-rate",
        action="store_true",
        help="keep the lines' ratings (do not put the card puzzles to the solvers' ladder)",
    )
    parser.add_argument(
        "--second-judgement",
        action="store_true",
        help="judge each kept puzzle again on fresh deals of its own and drop the unclear ones",
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes for it (default 1)")
    parser.add_argument(
        "--deals",
        type=int,
        default=DEALS,
        help=f"the fewest guessed deals a puzzle may be judged on (default {DEALS})",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="JSON lines of second judgements already made (read, and the new ones appended)",
    )
    args = parser.parse_args(None if argv is None else list(argv))
    lines: list[dict[str, Any]] = []
    for path in args.inputs:
        lines.extend(read_pack(path))
    puzzles, dropped = assemble(lines, args.deals)
    if not args.no_rate:  # the solvers' ladder, fitted to this pack (bela.lab.puzzle_rating)
        from bela.lab.puzzle_rating import rate_and_fit

        puzzles = rate_and_fit(puzzles, moment_of, "card")
    cache = read_cache(args.cache)
    had = dict(cache)
    if args.second_judgement and not args.keep_all:  # the pack's goals, every puzzle judged twice
        puzzles, unclear = select_judged(puzzles, args.jobs, cache)
        print(f"{unclear} not clear on a second set of guessed deals", file=sys.stderr)
        dropped = len(lines) - len(puzzles)
    elif args.second_judgement:
        puzzles, unclear = second_judgement(puzzles, args.jobs, cache)
        print(f"{unclear} not clear on a second set of guessed deals", file=sys.stderr)
        dropped += unclear
    elif not args.keep_all:  # the pack's goals (issue #36): bela.lab.puzzle_figures
        from bela.lab.puzzle_figures import select

        kept = select(puzzles)
        dropped += len(puzzles) - len(kept)
        puzzles = kept
    write_cache(args.cache, cache, had)
    tmp = args.out.with_name(args.out.name + ".tmp")
    with gzip.GzipFile(tmp, "wb", mtime=0) as raw:
        for p in puzzles:
            raw.write((json.dumps(p, ensure_ascii=False, sort_keys=True) + "\n").encode())
    tmp.replace(args.out)
    themes = Counter(t for p in puzzles for t in p["themes"])
    kinds = Counter(p["kind"] for p in puzzles)
    tricks = Counter(p["trick"] for p in puzzles)
    print(f"{len(puzzles)} puzzles written to {args.out} ({dropped} lines dropped)")
    print("kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print("tricks: " + ", ".join(f"{k} {n}" for k, n in sorted(tricks.items())))
    print("themes: " + ", ".join(f"{k} {n}" for k, n in themes.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
