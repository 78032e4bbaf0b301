"""A card pack's generation run: ``python -m bela.lab.pack_run OUT --seed S --deals N``.

``bela puzzles generate`` looks for card and bid puzzles for one player, into their data
directory. A pack is made of card puzzles alone (the bid pack is its own), from long runs
that append to one file as they go and can be stopped at any time: this is that run, with
``GenSettings.known`` read from the lines given with ``--known`` (the pack being built), so
that moments which could only repeat one of its near-duplicate keys are not judged. The
lines are then put together by ``python -m bela.lab.puzzle_assemble`` (docs/training.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bela.lab.puzzle_check import read_pack
from bela.lab.puzzle_figures import facts_of
from bela.lab.puzzle_gen import GenSettings, generate
from bela.lab.puzzle_themes import CHANCE_THEMES as FOCUS

__all__ = ["known_keys", "main"]


def known_keys(paths: Iterable[Path]) -> frozenset[tuple[Any, ...]]:
    """The near-duplicate keys of the card puzzles in ``paths``."""
    keys: set[tuple[Any, ...]] = set()
    for path in paths:
        for line in read_pack(path):
            facts = facts_of(line)
            if facts is not None:
                keys.add(facts.key)
    return frozenset(keys)


PART = 64
"""Deals judged with one set of known keys; after each part the run's own finds are added
(and, every ``--reread`` seconds, the ``--known`` files read again if they changed)."""


def _stamps(paths: Iterable[Path]) -> list[tuple[int, int]]:
    """The files' sizes and times: whether one changed since it was read."""
    out = []
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            out.append((-1, -1))
        else:
            out.append((st.st_size, st.st_mtime_ns))
    return out


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bela.lab.pack_run",
        description="Look for card puzzles in bot-played deals, for a pack (appends to OUT).",
    )
    parser.add_argument("out", type=Path, help="the JSON-lines file the puzzles are added to")
    parser.add_argument("--seed", type=int, required=True, help="the first deal's seed")
    parser.add_argument("--deals", type=int, required=True, help="how many deals to look in")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--known", type=Path, nargs="*", default=[], help="lines whose keys are not wanted again"
    )
    parser.add_argument(
        "--focus",
        default="",
        metavar="THEMES",
        help=f"judge only moments that may be these themes, comma-separated ({', '.join(FOCUS)})",
    )
    parser.add_argument(
        "--cheap-keep",
        type=float,
        metavar="P",
        help="the chance a puzzle answered by the cheapest legal card is kept (default "
        "puzzle_gen.CHEAP_KEEP; 0 when the lines already hold more than the pack takes)",
    )
    parser.add_argument(
        "--reread",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="read the --known files again this often when they changed (default 600: "
        "two runs can each name the other's output)",
    )
    args = parser.parse_args(None if argv is None else list(argv))
    if args.cheap_keep is not None and not 0.0 <= args.cheap_keep <= 1.0:
        parser.error("--cheap-keep: a chance from 0 to 1")
    focus = frozenset(t for t in args.focus.split(",") if t)
    if focus - set(FOCUS):
        parser.error(f"--focus: unknown themes {', '.join(sorted(focus - set(FOCUS)))}")
    known = set(known_keys(args.known))
    print(f"{len(known)} near-duplicate keys known", file=sys.stderr, flush=True)
    start = time.monotonic()
    found = 0
    stamps = _stamps(args.known)
    read_at = start
    with open(args.out, "a", encoding="utf-8") as handle:

        def sink(batch: list[dict[str, Any]]) -> None:
            nonlocal found
            for row in batch:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
            found += len(batch)
            # what this run found is known from now on: a pack keeps each key once
            known.update(f.key for f in map(facts_of, batch) if f is not None)

        for at in range(args.seed, args.seed + args.deals, PART):
            now = _stamps(args.known) if time.monotonic() - read_at >= args.reread else stamps
            if now != stamps:
                # another run appending to a --known file: its keys are not wanted here either
                read_at = time.monotonic()
                try:
                    known.update(known_keys(args.known))
                except (ValueError, OSError) as exc:  # caught mid-line: read it next time
                    print(f"--known not read again ({exc}); later", file=sys.stderr)
                else:
                    stamps = now

            def progress(done: int, _total: int, at: int = at) -> None:
                took = time.monotonic() - start
                print(
                    f"{at - args.seed + done} of {args.deals} deals, {found} puzzles, "
                    f"{len(known)} keys known, {took:.0f} s",
                    file=sys.stderr,
                )

            generate(
                range(at, min(at + PART, args.seed + args.deals)),
                sink,
                GenSettings(
                    bids=False, known=frozenset(known), focus=focus, cheap_keep=args.cheap_keep
                ),
                jobs=args.jobs,
                chunk=16,
                progress=progress,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
