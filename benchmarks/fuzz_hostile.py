"""A long fuzz run of everything that takes outside input: records, the command line, the engine.

``make test`` runs the same properties with a few hundred examples each; this
runs them for minutes, from a seed, and prints what it tried and anything that
escaped as something other than the one error each layer promises:

- record text (mutated real records, hostile keys, random bytes) → a record or ``RecordError``;
- ``bela`` with random arguments → an exit code and at most one line on stderr, no traceback;
- the engine's public API with arbitrary values → a result or the engine's ``BelaError``.

    python benchmarks/fuzz_hostile.py --seconds 120 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import time
import traceback
from collections.abc import Callable
from typing import Any

from bela.archive.records import RecordError, dumps, loads, match_from_record, record_from_match
from bela.engine import BelaError, Call, Card, Match, Pass, Play, Round, Suit, legal_plays

HOSTILE_TEXT = [
    "[@click=app.screenshot('x.svg','/tmp')]x[/]",
    "[/x]",
    "\x1b]0;title\x07\x1b[2J",
    "a\nb",
    "\u202egnp.exe",
    "\x9b31m",
    "k" * 5000,
    "",
    "💥",
]


def good_records(rng: random.Random, count: int) -> list[str]:
    texts = []
    for seed in range(count):
        match = Match.new(seed, target=rng.choice((501, 701, 1001)))
        steps = rng.randrange(1, 400)
        while match.current is not None and steps:
            match = match.apply(rng.choice(match.current.legal_actions()))
            steps -= 1
        texts.append(dumps(record_from_match(match, "normal")))
    return texts


def mutate_json(rng: random.Random, value: Any) -> Any:
    """Replace one value anywhere in the tree by something hostile."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        if rng.random() < 0.2:
            value[rng.choice(HOSTILE_TEXT)] = value.pop(key)
        else:
            value[key] = mutate_json(rng, value[key])
        return value
    if isinstance(value, list) and value and rng.random() < 0.8:
        index = rng.randrange(len(value))
        value[index] = mutate_json(rng, value[index])
        return value
    return rng.choice(
        [None, True, -1, 2**70, 1.5, "", rng.choice(HOSTILE_TEXT), [], {}, [0] * 50, "call X"]
    )


def record_case(rng: random.Random, good: list[str]) -> None:
    text = rng.choice(good)
    kind = rng.randrange(4)
    data: str | bytes
    if kind == 0:
        data = text[: rng.randrange(len(text))]
    elif kind == 1:
        raw = bytearray(text.encode())
        for _ in range(rng.randrange(1, 5)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
        data = bytes(raw)
    elif kind == 2:
        data = json.dumps(mutate_json(rng, json.loads(text)))
    else:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
    try:
        match_from_record(loads(data))
    except RecordError as exc:
        message = str(exc)
        assert "\n" not in message and "\x1b" not in message and len(message) < 1000, message


def cli_case(rng: random.Random, _good: list[str]) -> None:
    from bela.cli import main

    words = ["--seed", "--round", "--deals", "--jobs", "--json", "--target", "--matches"]
    words += ["-1", "0", "1", "2", "99999999999999999999", "--help", "x.json", "/dev/zero"]
    # replay only: without a command bela opens the app, and arena runs take minutes
    argv = ["replay"] + [rng.choice(words + HOSTILE_TEXT) for _ in range(rng.randrange(1, 6))]
    err, out = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stderr(err),
        contextlib.redirect_stdout(out),
        contextlib.suppress(SystemExit),
    ):
        main(argv)
    text = err.getvalue()
    assert "Traceback" not in text and "\x1b" not in text, (argv, text)
    assert text.count("\n") <= 1 or "usage:" in text, (argv, text)


def _garbage(rng: random.Random) -> Any:
    return rng.choice(
        [-1, -32, 4, 32, 31, 1.5, None, True, "7H", "XX", b"7H", [], [0, 0], object(), 2**70, "H"]
    )


def engine_case(rng: random.Random, _good: list[str]) -> None:
    rnd = Round.from_seed(rng.randrange(1000), dealer=rng.randrange(4))
    calls: list[Callable[[], object]] = [
        lambda: Card(_garbage(rng)),
        lambda: Card.parse(_garbage(rng)),
        lambda: Suit.parse(_garbage(rng)),
        lambda: Play(_garbage(rng)),
        lambda: Call(_garbage(rng)),
        lambda: rnd.view(_garbage(rng)),
        lambda: rnd.hand(_garbage(rng)),
        lambda: rnd.apply(rng.choice([Pass(), Call(Suit.HEARTS), _garbage(rng)]), _garbage(rng)),
        lambda: legal_plays([_garbage(rng)], [_garbage(rng)] * rng.randrange(6), _garbage(rng)),
        lambda: Match.new(_garbage(rng), _garbage(rng)),
    ]
    try:
        rng.choice(calls)()
    except BelaError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1000, str(exc)


CASES = {"records": record_case, "cli": cli_case, "engine": engine_case}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="time per kind (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("kinds", nargs="*", choices=[*CASES, []], help="what to fuzz (all)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    good = good_records(rng, 40)
    failures = 0
    for name in args.kinds or list(CASES):
        case, tried, deadline = CASES[name], 0, time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            tried += 1
            try:
                case(rng, good)
            except Exception:
                failures += 1
                if failures <= 10:
                    print(f"{name} case {tried}: {traceback.format_exc(limit=3)}")
        print(f"{name}: {tried:,} cases in {args.seconds:.0f} s")
    print(f"unexpected: {failures}")
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
