"""Peak memory and time of loading hostile record files, against a real record.

Every shape is loaded in a fresh process (``ru_maxrss`` of a child is its own
peak), just under the limits (``RECORD_SIZE_LIMIT`` bytes, ``RECORD_VALUE_LIMIT``
values) and just over them, and compared with the peak of loading a real match
record in the same run. Before the limits, a 200 MB record with one unknown
100-million-element array peaked at 6.7 GB; the point of the limits is that no
file, whatever its shape, gets far past the baseline.

    python benchmarks/bench_hostile_records.py            # every shape
    python benchmarks/bench_hostile_records.py arrays     # some of them
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path

from bela.archive.records import RECORD_SIZE_LIMIT, RECORD_VALUE_LIMIT

CHILD = textwrap.dedent(
    """
    import resource, sys, time
    from bela.archive.records import RecordError, match_from_record
    from bela.archive.storage import read_record
    start = time.perf_counter()
    try:
        match_from_record(read_record(__import__("pathlib").Path(sys.argv[1])))
        outcome = "loaded"
    except (RecordError, OSError) as exc:
        outcome = type(exc).__name__
    took = time.perf_counter() - start
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, took, outcome)
    """
)

HEAD = '{"schema_version": 1, '


def real_record() -> str:
    import random

    from bela.archive.records import dumps, record_from_match
    from bela.engine import Match

    rng = random.Random(1)
    match = Match.new(1, target=1001)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    return dumps(record_from_match(match, "normal"))


def _values(item: str, count: int) -> str:
    return HEAD + '"x": [' + ",".join([item] * count) + "]}"


SHAPES: dict[str, Callable[[int], str]] = {
    # name: text with about ``scale`` values (or bytes, for the one-value shapes)
    "arrays": lambda n: _values("0", n),
    "nested-empties": lambda n: _values("[{}]", n // 3),
    "strings": lambda n: _values('"' + "x" * 15 + '"', n),
    "floats": lambda n: _values("1.5e300", n),
    "object": lambda n: HEAD + '"x": {' + ",".join(f'"{i:020d}":0' for i in range(n)) + "}}",
    "long-key": lambda n: (
        HEAD + '"' + "k" * (n * RECORD_SIZE_LIMIT // RECORD_VALUE_LIMIT) + '": 1}'
    ),
    "deep": lambda n: HEAD + '"x": ' + "[" * (n // 2) + "]" * (n // 2) + "}",
}


def measure(path: Path) -> tuple[float, float, str]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
    ).stdout.split()
    return int(out[0]) / 1024, float(out[1]), out[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shapes", nargs="*", choices=[*SHAPES, []], help="shapes to try")
    args = parser.parse_args()
    chosen = args.shapes or list(SHAPES)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "real.json"
        base.write_text(real_record(), encoding="utf-8")
        base_mb, base_s, base_outcome = measure(base)
        print(
            f"limits: {RECORD_SIZE_LIMIT:,} bytes, {RECORD_VALUE_LIMIT:,} values; "
            f"python {sys.version.split()[0]}, pid {os.getpid()}"
        )
        print(f"{'shape':<22}{'size':>11}{'peak MB':>9}{'× real':>8}{'seconds':>9}  outcome")
        print(
            f"{'real match':<22}{base.stat().st_size:>11,}{base_mb:>9.1f}{1:>8.2f}"
            f"{base_s:>9.3f}  {base_outcome}"
        )
        for name in chosen:
            for label, scale in (
                ("under", RECORD_VALUE_LIMIT - 100),
                ("over", RECORD_VALUE_LIMIT * 2),
            ):
                text = SHAPES[name](scale)
                path = Path(tmp) / f"{name}-{label}.json"
                path.write_text(text, encoding="utf-8")
                peak, took, outcome = measure(path)
                print(
                    f"{name + ' ' + label:<22}{len(text):>11,}{peak:>9.1f}{peak / base_mb:>8.2f}"
                    f"{took:>9.3f}  {outcome}"
                )
                path.unlink()
        print(json.dumps({"baseline_peak_mb": round(base_mb, 1)}))


if __name__ == "__main__":
    main()
