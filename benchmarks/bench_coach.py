"""How fast the coach's report opens once its lessons are stored (issue #25: under 2 s for 100).

It archives ``--matches`` matches played by the ``easy`` bots in a temporary data
directory (or ``--keep DIR``, reused next time), runs ``bela coach`` once to read
them all (the first reading: timed and printed, with or without the hard bot),
then times the report again, in-process and as a whole ``bela coach`` process
(Python's start included). Figures are printed, never asserted.

    python benchmarks/bench_coach.py                       # 100 matches, --no-bot first reading
    python benchmarks/bench_coach.py --bot --matches 20    # the first reading with the hard bot
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def generate(directory: Path, count: int) -> None:
    os.environ["BELA_DATA_DIR"] = str(directory)
    from bela.ai import make_bot
    from bela.ai.driver import play_bots_until
    from bela.archive.records import record_from_match
    from bela.archive.storage import archive_match, matches_dir
    from bela.engine import Match

    have = len(list(matches_dir().glob("*.json"))) if matches_dir().is_dir() else 0
    bots = {seat: make_bot("easy") for seat in range(4)}
    for seed in range(have, count):
        match = Match.new(seed, 501)
        while match.current is not None:
            match = play_bots_until(match, bots)
        archive_match(record_from_match(match, "easy"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--keep", type=Path, help="a data directory to keep the matches in")
    parser.add_argument("--bot", action="store_true", help="compare with the hard bot too")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    directory = args.keep or Path(tempfile.mkdtemp(prefix="bela-coach-"))
    directory.mkdir(parents=True, exist_ok=True)
    generate(directory, args.matches)
    from bela.cli import main as bela

    flags = ["coach", "--last", str(args.matches), "--json"] + ([] if args.bot else ["--no-bot"])
    start, cpu = time.perf_counter(), time.process_time()
    sys.stdout = io.StringIO()
    try:
        bela(flags)
    finally:
        sys.stdout = sys.__stdout__
    print(
        f"first reading of {args.matches} matches: {time.perf_counter() - start:.1f} s wall, "
        f"{time.process_time() - cpu:.1f} s CPU in this process (workers not counted)"
    )
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        sys.stdout = io.StringIO()
        try:
            bela(flags)
        finally:
            sys.stdout = sys.__stdout__
        times.append(time.perf_counter() - start)
    print(
        f"report from stored lessons, in-process: median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}; goal under 2 s)"
    )
    env = {**os.environ, "BELA_DATA_DIR": str(directory)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "bela", *flags], env=env, check=True, stdout=subprocess.DEVNULL
    )
    print(f"bela coach as a whole process: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
