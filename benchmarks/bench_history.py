"""How fast the match history opens and the statistics add up, over a large archive.

Issue #13's goal: with 1,000 archived matches the history opens and the
statistics are computed in under 0.5 s. The matches are played by fast bots
(``random`` and ``easy``, labelled with the three difficulties in turn) and
archived in a temporary data directory, or in ``--keep DIR`` to reuse them in
the next run. Then it times, printing figures (never asserting them):

- building the index from scratch (the first run, or after an upgrade);
- opening it again when nothing changed (what every later look costs);
- listing the history, computing the statistics, and one match's score race;
- ``bela history`` and ``bela stats`` as whole processes (Python's start included).

    python benchmarks/bench_history.py                      # 1,000 matches, thrown away
    python benchmarks/bench_history.py --keep /tmp/bela-1k  # kept for the next run
    python benchmarks/bench_history.py --matches 5000 --keep /tmp/bela-5k
"""

from __future__ import annotations

import argparse
import os
import statistics as stats_module
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GOAL_SECONDS = 0.5
LEVELS = (("easy", "random"), ("normal", "easy"), ("hard", "random"))


def generate(directory: Path, count: int) -> int:
    """Archive matches in ``directory/matches`` until it holds ``count``; how many were added."""
    os.environ["BELA_DATA_DIR"] = str(directory)
    from bela.ai import make_bot
    from bela.ai.driver import play_bots_until
    from bela.archive.records import record_from_match
    from bela.archive.storage import archive_match, matches_dir
    from bela.engine import TARGETS, Match

    have = len(list(matches_dir().glob("*.json"))) if matches_dir().is_dir() else 0
    bots = {kind: {seat: make_bot(kind) for seat in range(4)} for _, kind in LEVELS}
    targets = [t for t in TARGETS if t >= 501]
    start = time.perf_counter()
    for seed in range(have, count):
        level, kind = LEVELS[seed % len(LEVELS)]
        match = Match.new(seed, targets[seed % len(targets)])
        stop = None if seed % 10 else 2  # one in ten left unfinished after two rounds
        while match.current is not None and (stop is None or len(match.rounds) < stop):
            match = play_bots_until(match, bots[kind])
        archive_match(record_from_match(match, level))
        done = seed + 1 - have
        if done % 100 == 0:
            rate = done / (time.perf_counter() - start)
            print(f"  archived {seed + 1:,} of {count:,} ({rate:.0f} matches/s)", flush=True)
    return max(count - have, 0)


def timed(action: Callable[[], object], repeat: int = 1) -> float:
    """The median wall time of ``action`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return stats_module.median(times)


def run(directory: Path, count: int, repeat: int) -> None:
    added = generate(directory, count)
    from bela.archive.history import INDEX_NAME, open_history
    from bela.archive.stats import results_over_time, score_race, statistics
    from bela.archive.storage import matches_dir

    files = len(list(matches_dir().glob("*.json")))
    print(f"archive: {files:,} matches in {matches_dir()} ({added:,} generated now)")
    index = directory / INDEX_NAME

    def build() -> None:
        index.unlink(missing_ok=True)
        open_history().close()

    full = timed(build)
    size = index.stat().st_size
    reopen = timed(lambda: open_history().close(), repeat)
    history = open_history()
    listing = timed(history.matches, repeat)
    computing = timed(lambda: statistics(history), repeat)
    newest = history.matches(limit=1)[0].file
    race = timed(lambda: score_race(history, newest), repeat)
    series = timed(lambda: results_over_time(history), repeat)
    rows = len(history.matches())
    history.close()

    def whole_look() -> None:
        with open_history() as look:
            look.matches()
            statistics(look)

    opened = timed(whole_look, repeat)
    env = {**os.environ, "BELA_DATA_DIR": str(directory)}

    def command(*argv: str) -> None:
        subprocess.run(
            [sys.executable, "-m", "bela", *argv], env=env, check=True, stdout=subprocess.DEVNULL
        )

    history_cmd = timed(lambda: command("history"), 3)
    stats_cmd = timed(lambda: command("stats"), 3)

    print(f"index: {size / 1024:.0f} KiB, {rows:,} matches listed")
    print(f"build the index from scratch      {full * 1000:8.1f} ms  (first run only)")
    print(f"open + refresh, nothing new       {reopen * 1000:8.1f} ms")
    print(f"list the history                  {listing * 1000:8.1f} ms")
    print(f"compute the statistics            {computing * 1000:8.1f} ms")
    print(f"one match's score race            {race * 1000:8.1f} ms")
    print(f"results over time (series)        {series * 1000:8.1f} ms")
    print(f"open + list + statistics          {opened * 1000:8.1f} ms", end="  ")
    print(f"(goal < {GOAL_SECONDS * 1000:.0f} ms: {'met' if opened < GOAL_SECONDS else 'NOT met'})")
    print(
        f"bela history, whole process       {history_cmd * 1000:8.1f} ms  (Python start included)"
    )
    print(f"bela stats, whole process         {stats_cmd * 1000:8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1000, help="archive size (default 1000)")
    parser.add_argument("--keep", type=Path, help="data directory to fill and keep for reuse")
    parser.add_argument("--repeat", type=int, default=5, help="runs per timing (median)")
    args = parser.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        run(args.keep, args.matches, args.repeat)
        return
    with tempfile.TemporaryDirectory(prefix="bela-bench-history-") as temp:
        run(Path(temp), args.matches, args.repeat)


if __name__ == "__main__":
    main()
