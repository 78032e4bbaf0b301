"""A long fuzz run of everything that takes outside input: records, the command line, the engine.

``make test`` runs the same properties with a few hundred examples each; this
runs them for minutes, from a seed, and prints what it tried and anything that
escaped as something other than the one error each layer promises:

- record text (mutated real records, hostile keys, random bytes) → a record or ``RecordError``;
- ``bela`` with random arguments → an exit code and at most one line on stderr, no traceback;
- the engine's public API with arbitrary values → a result or the engine's ``BelaError``;
- a puzzle pack line (the shipped pack's lines mutated) → a puzzle or a one-line ``ValueError``;
- a puzzle journal (real attempts, one line mutated) → the other attempts kept, the file
  untouched, no exception;
- a coach lesson from the cache (real lessons mutated) → a lesson within its bounds or a
  one-line ``ValueError``;
- the settings file (mutated) → used, or set aside whole with a one-line notice.

Mutations replace one value anywhere by something hostile (``mutate_json``), or one
number by a hostile number (``mutate_number``: beyond a double, negative, NaN, infinite,
a bool, a string), or flip bytes.

    python benchmarks/fuzz_hostile.py --seconds 120 --seed 1
    python benchmarks/fuzz_hostile.py --seconds 30 pack journal coach settings
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import random
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
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


HOSTILE_NUMBERS: list[Any] = [
    10**400,
    -(10**400),
    2**63,
    2**64,
    -1,
    -6,
    777_777,
    1e308,
    0.5,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    None,
    "1",
    "[/]",
    [],
]


def mutate_number(rng: random.Random, value: Any) -> Any:
    """Replace one number anywhere in the tree (if there is one) by a hostile number."""
    paths: list[tuple[Any, ...]] = []

    def walk(item: Any, path: tuple[Any, ...]) -> None:
        if isinstance(item, dict):
            for key, sub in item.items():
                walk(sub, (*path, key))
        elif isinstance(item, list):
            for index, sub in enumerate(item):
                walk(sub, (*path, index))
        elif isinstance(item, int | float):
            paths.append(path)

    walk(value, ())
    if not paths:
        return value
    path = rng.choice(paths)
    if not path:
        return rng.choice(HOSTILE_NUMBERS)
    place = value
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = (
        rng.choice(HOSTILE_NUMBERS) if rng.random() < 0.9 else rng.randrange(-(10**30), 10**30)
    )
    return value


def mutated_text(rng: random.Random, text: str) -> str | bytes:
    """``text`` (one JSON document) with one value, one number or a few bytes made hostile."""
    kind = rng.randrange(4)
    if kind == 0:
        return json.dumps(mutate_json(rng, json.loads(text)))
    if kind in (1, 2):
        return json.dumps(mutate_number(rng, json.loads(text)))
    raw = bytearray(text.encode())
    for _ in range(rng.randrange(1, 5)):
        raw[rng.randrange(len(raw))] = rng.randrange(256)
    return bytes(raw)


def _one_line(text: str) -> None:
    assert "\n" not in text and "\x1b" not in text and len(text) < 1000, text


def record_case(rng: random.Random, good: list[str]) -> None:
    text = rng.choice(good)
    kind = rng.randrange(5)
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
    elif kind == 3:
        data = json.dumps(mutate_number(rng, json.loads(text)))
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


@functools.cache
def _pack_lines() -> list[str]:
    import gzip
    from importlib import resources

    from bela.archive.puzzle_pack import PACK_NAME

    data = resources.files("bela.archive").joinpath(PACK_NAME).read_bytes()
    return gzip.decompress(data).decode("utf-8").splitlines()[:400]


def pack_case(rng: random.Random, _good: list[str]) -> None:
    from bela.archive.puzzle_pack import parse_puzzle

    text = mutated_text(rng, rng.choice(_pack_lines()))
    try:
        parse_puzzle(text if isinstance(text, str) else text.decode("utf-8", errors="replace"))
    except ValueError as exc:
        _one_line(str(exc))


@functools.cache
def _journal_lines() -> list[str]:
    from datetime import UTC, datetime, timedelta

    from bela.archive.history import INDEX_NAME
    from bela.archive.puzzle_pack import read_lines
    from bela.archive.puzzle_store import JOURNAL_NAME, PuzzleStore

    pack = read_lines(_pack_lines()[:20])
    with tempfile.TemporaryDirectory() as folder:
        with PuzzleStore(Path(folder) / INDEX_NAME) as store:
            for n, p in enumerate(pack.puzzles[:8]):
                action = p.answer[0] if n % 3 else p.choices[1].actions[0]
                store.record(p, action, 1.5 * n, datetime(2026, 12, 1, tzinfo=UTC) + timedelta(n))
        return (Path(folder) / JOURNAL_NAME).read_text().splitlines()


def journal_case(rng: random.Random, _good: list[str]) -> None:
    from bela.archive.history import INDEX_NAME
    from bela.archive.puzzle_store import JOURNAL_NAME, PuzzleStore, _attempt_of

    lines = list(_journal_lines())
    at = rng.randrange(len(lines))
    bad = mutated_text(rng, lines[at])
    bad_text = bad if isinstance(bad, str) else bad.decode("utf-8", errors="replace")
    if "\n" in bad_text or "\r" in bad_text:
        return  # a flipped byte made two lines of one: not the case this layer checks
    _attempt_of(bad_text)  # an attempt or None, never an exception
    if rng.random() < 0.05:  # now and then the whole store over such a journal
        lines[at] = bad_text
        data = ("\n".join(lines) + "\n").encode("utf-8", errors="surrogatepass")
        with tempfile.TemporaryDirectory() as folder:
            journal = Path(folder) / JOURNAL_NAME
            journal.write_bytes(data)
            with PuzzleStore(Path(folder) / INDEX_NAME) as store:
                assert len(store.attempts()) >= len(lines) - 1, store.skipped
                assert store.notice is None, store.notice
            assert journal.read_bytes() == data  # nothing written over the journal


@functools.cache
def _lessons() -> list[tuple[str, int]]:
    from bela.lab.coach import lesson_of

    out = []
    for seed in range(6):
        rng = random.Random(seed)
        match = Match.new(seed, target=163)
        while match.current is not None:
            match = match.apply(rng.choice(match.current.legal_actions()))
        out.append((json.dumps(lesson_of(match, 0, with_bot=False).to_json()), len(match.rounds)))
    return out


def coach_case(rng: random.Random, _good: list[str]) -> None:
    import sqlite3

    from bela.archive.coach_cache import load_lessons, store_lessons
    from bela.lab.coach import Lesson

    text, rounds = rng.choice(_lessons())
    bad = mutated_text(rng, text)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        store_lessons(conn, [("m.json", {})], False)
        conn.execute("UPDATE coach_lessons SET data = ?", (bad,))
        stored = load_lessons(conn, ["m.json"], False)
    finally:
        conn.close()
    if "m.json" not in stored:
        return  # not JSON: the match is read again
    try:
        lesson = Lesson.from_json(stored["m.json"], rounds)
    except ValueError as exc:
        _one_line(str(exc))
        return
    assert 0 <= lesson.rounds <= rounds and all(0 <= s.round <= 2_000_000 for s in lesson.slips)
    assert sum(c for c, _x in lesson.by_role) == lesson.cards


def settings_case(rng: random.Random, _good: list[str]) -> None:
    from bela.settings import CONFIG_DIR_ENV, Settings, load_settings, settings_path

    bad = mutated_text(rng, Settings().to_json())
    data = bad if isinstance(bad, bytes) else bad.encode()
    with tempfile.TemporaryDirectory() as folder:
        old = os.environ.get(CONFIG_DIR_ENV)
        os.environ[CONFIG_DIR_ENV] = folder
        try:
            settings_path().write_bytes(data)
            loaded = load_settings()
        finally:
            if old is None:
                del os.environ[CONFIG_DIR_ENV]
            else:
                os.environ[CONFIG_DIR_ENV] = old
        if loaded.notice is not None:
            _one_line(loaded.notice)
            (aside,) = [p for p in Path(folder).iterdir() if p.name != "settings.json"]
            assert aside.read_bytes() == data


CASES = {
    "records": record_case,
    "cli": cli_case,
    "engine": engine_case,
    "pack": pack_case,
    "journal": journal_case,
    "coach": coach_case,
    "settings": settings_case,
}


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
