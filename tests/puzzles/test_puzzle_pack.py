"""The puzzle pack (``bela.archive.puzzle_pack``): real lines read, hostile lines skipped.

A pack line is untrusted (a player may drop any file into ``<data dir>/puzzles``), so
every way a line can lie is tried here: markup and escapes where text goes, numbers
too large, a seat that is not to act, actions that do not replay, an answer that is
not legal, a typical deal that does not agree with the moment. Each must be skipped
with a reason, the rest of the file read, and nothing raised.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puzzle_fixtures import bid_lines, sample_data, sample_lines, ship

from bela.archive.puzzle_pack import (
    PUZZLE_FORMAT,
    THEMES,
    Pack,
    load_pack,
    moment_id,
    own_dir,
    read_lines,
)
from bela.archive.records import parse_action
from bela.engine import Phase, Play, Round
from bela.engine.actions import choice_of
from bela.engine.rules import DEFAULT_RULES
from bela.lab import puzzle_gen, puzzle_themes


def test_the_archive_knows_the_labs_format_themes_and_ids() -> None:
    # the archive may not import the lab (the layers contract): the copies must agree
    assert PUZZLE_FORMAT == puzzle_gen.PUZZLE_FORMAT
    assert THEMES is puzzle_themes.THEMES  # one list, in bela.foundation
    for data in sample_data():
        args = (data["seed"], data["dealer"], data["actions"])
        assert moment_id(*args) == puzzle_gen.puzzle_id(*args) == data["id"]


def test_real_puzzles_read_and_reach_their_moment() -> None:
    lines = sample_lines() + bid_lines()
    pack = read_lines(lines)
    assert pack.skipped == ()
    assert len(pack.puzzles) == len(lines)
    assert {p.kind for p in pack.puzzles} == {"card", "bid"}
    for puzzle, line in zip(pack.puzzles, lines, strict=True):
        data = json.loads(line)
        rnd = puzzle.moment()
        assert rnd.to_act == puzzle.seat == data["seat"]
        assert (rnd.phase is Phase.BIDDING) == (puzzle.kind == "bid")
        assert [str(a) for a in puzzle.answer] == data["answer"]
        assert pack.by_id[data["id"]] is puzzle
        assert puzzle.themes == tuple(data["themes"])
        legal = {choice_of(a) for a in rnd.view(puzzle.seat).legal_actions}
        for action in puzzle.answer:
            assert choice_of(action) in legal
            assert puzzle.is_right(action)
            assert puzzle.choice_of(action) is puzzle.choices[0]
        for action in puzzle.choices[1].actions:
            assert not puzzle.is_right(action)
            assert puzzle.choice_of(action) is puzzle.choices[1]


def test_a_card_answer_is_right_with_or_without_bela() -> None:
    puzzle = read_lines(sample_lines()).puzzles[0]
    card = puzzle.answer[0]
    assert isinstance(card, Play)
    assert puzzle.is_right(Play(card.card, True))
    assert puzzle.is_right(Play(card.card, False))
    assert not puzzle.is_right(parse_action("dalje"))


def test_themes_are_counted_in_the_menus_order() -> None:
    pack = read_lines(sample_lines() + bid_lines())
    counts = pack.themes()
    assert list(counts) == [t for t in THEMES if t in counts]
    for theme, n in counts.items():
        assert n == sum(theme in p.themes for p in pack.puzzles) > 0


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def _broken(change: Any) -> str:
    data = copy.deepcopy(sample_data()[2])
    change(data)
    return _line(data)


def _set(key: str, value: Any) -> Any:
    return lambda d: d.__setitem__(key, value)


HOSTILE: dict[str, Any] = {
    "markup id": _set("id", "[@click=app.quit]x"),
    "escape id": _set("id", "\x1b]0;pwned\x07"),
    "long id": _set("id", "a" * 100),
    "another puzzle's id": _set("id", "841453bfc4"),
    "huge seed": _set("seed", 1 << 70),
    "negative seed": _set("seed", -1),
    "float seed": _set("seed", 12.0),
    "bool dealer": _set("dealer", True),
    "dealer 4": _set("dealer", 4),
    "wrong seat": lambda d: d.__setitem__("seat", (d["seat"] + 1) % 4),
    "seat as text": lambda d: d.__setitem__("seat", str(d["seat"])),
    "illegal action": lambda d: d["actions"].__setitem__(5, "AH"),
    "a card not in the hand late": lambda d: d["actions"].__setitem__(-1, "AH"),
    "bela on a card that cannot carry it": lambda d: d["actions"].__setitem__(-1, "9C bela"),
    "unknown action": lambda d: d["actions"].__setitem__(0, "[blink]"),
    "action too long": lambda d: d["actions"].__setitem__(0, "dalje" + " " * 100),
    "round over": lambda d: d.__setitem__("actions", [*d["actions"], *["x"] * 0] * 3),
    "illegal answer": _set("answer", ["AH"]),
    "answer not a card": _set("answer", ["dalje"]),
    "answer twice": lambda d: d.__setitem__("answer", [d["answer"][0], d["answer"][0]]),
    "answer is not the first choice": lambda d: d.__setitem__("answer", d["choices"][1]["actions"]),
    "one choice": lambda d: d.__setitem__("choices", d["choices"][:1]),
    "choices share": lambda d: d["choices"][1].__setitem__("actions", d["answer"]),
    "worse first": lambda d: d["choices"][1].__setitem__("written", 1e3),
    "huge written": lambda d: d["choices"][0].__setitem__("written", 1e308),
    "share over 1": lambda d: d["choices"][0].__setitem__("best", 1.5),
    "wrong kind": _set("kind", "bid"),
    "wrong trick": _set("trick", 7),
    "deals 0": _set("deals", 0),
    "unknown theme": _set("themes", ["[bold]lead"]),
    "rating huge": _set("rating", 1e300),
    "rating bool": _set("rating", True),
    "bots unknown": _set("bots", {"[x]": True}),
    "bots not bool": _set("bots", {"easy": "yes"}),
    "format 2": _set("format", 2),
    "typical not four hands": lambda d: d["typical"].__setitem__(
        "hands", d["typical"]["hands"][:3]
    ),
    "typical gives the seat another hand": lambda d: d["typical"]["hands"].__setitem__(
        d["seat"], d["typical"]["hands"][(d["seat"] + 1) % 4]
    ),
    "typical hands of the wrong sizes": lambda d: d["typical"]["hands"][(d["seat"] + 1) % 4].append(
        d["typical"]["hands"][(d["seat"] + 2) % 4].pop()
    ),
    "typical card twice": lambda d: d["typical"]["hands"][0].append(d["typical"]["hands"][1][0]),
    "typical line's points": lambda d: d["typical"]["lines"][0].__setitem__("written", [162, 0]),
    "typical line illegal": lambda d: d["typical"]["lines"][0]["actions"].reverse(),
    "typical line of the other choice": lambda d: d["typical"]["lines"].reverse(),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_lying_line_is_skipped_with_a_reason(name: str) -> None:
    good = sample_lines()
    bad = _broken(HOSTILE[name])
    pack = read_lines([good[0], bad, good[1]], "own.jsonl")
    assert [p.id for p in pack.puzzles] == [json.loads(good[0])["id"], json.loads(good[1])["id"]]
    assert len(pack.skipped) == 1
    skipped = pack.skipped[0]
    assert (skipped.source, skipped.line) == ("own.jsonl", 2)
    assert skipped.reason and "\n" not in skipped.reason and "\x1b" not in skipped.reason
    assert len(skipped.reason) <= 200


def test_a_held_card_against_the_rules_after_the_first_trick_is_refused() -> None:
    # every card the seat holds but may not play, at every moment after the first trick
    refused = 0
    for data in sample_data():
        rnd = Round.from_seed(data["seed"], data["dealer"], DEFAULT_RULES)
        for at, text in enumerate(data["actions"]):
            if rnd.phase is Phase.PLAYING and rnd.tricks_won != (0, 0):
                seat = rnd.to_act
                assert seat is not None
                held = {c for c in rnd.view(seat).hand}
                legal = {a.card for a in rnd.view(seat).legal_actions if isinstance(a, Play)}
                for card in sorted(held - legal):
                    bad = copy.deepcopy(data)
                    bad["actions"] = [*data["actions"][:at], str(card)]
                    bad["seat"] = (seat + 1) % 4
                    pack = read_lines([json.dumps(bad)])
                    assert pack.puzzles == () and "do not replay" in pack.skipped[0].reason
                    refused += 1
            rnd.push(parse_action(text))
    assert refused > 20


@pytest.mark.parametrize(
    "text",
    [
        "",  # blank lines are no puzzle and no fault
        "   ",
    ],
)
def test_blank_lines_are_passed_over(text: str) -> None:
    assert read_lines([text]) == Pack((), ())


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[1, 2]",
        "null",
        '{"format": NaN}',
        '{"format": Infinity}',
        "[" * 100_000 + "]" * 100_000,
        '{"format": 1, "id": "' + "a" * 70_000 + '"}',
        '{"format": 1, "seed": 1' + "0" * 5000 + "}",
        json.dumps({"format": True}),
    ],
)
def test_garbage_is_skipped(text: str) -> None:
    pack = read_lines([text])
    assert pack.puzzles == () and len(pack.skipped) == 1


def test_an_id_already_read_is_skipped() -> None:
    line = sample_lines()[0]
    pack = read_lines([line, line])
    assert len(pack.puzzles) == 1 and len(pack.skipped) == 1
    assert "already" in pack.skipped[0].reason


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, 10),
    key=st.sampled_from(
        [
            "seed",
            "dealer",
            "actions",
            "seat",
            "kind",
            "trick",
            "answer",
            "choices",
            "deals",
            "themes",
            "rating",
            "bots",
            "typical",
            "id",
        ]
    ),
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        ),
        max_leaves=12,
    ),
)
def test_any_field_replaced_is_read_or_skipped_never_raised(
    index: int, key: str, value: Any
) -> None:
    data = sample_data()[index]
    data[key] = value
    pack = read_lines([json.dumps(data)])
    assert len(pack.puzzles) + len(pack.skipped) == 1
    for puzzle in pack.puzzles:  # what was read holds: its moment replays to its seat
        assert puzzle.moment().to_act == puzzle.seat


def test_load_pack_reads_the_shipped_pack_then_the_players_files(
    data_dir: Path, no_shipped_pack: Path
) -> None:
    lines = sample_lines()
    ship(no_shipped_pack, lines[:4])
    own = own_dir(data_dir)
    own.mkdir(parents=True)
    (own / "b-own.jsonl").write_text("\n".join([lines[5], "garbage", lines[0]]) + "\n")
    (own / "a-own.jsonl").write_text(lines[4] + "\n")
    (own / "ignored.txt").write_text(lines[6] + "\n")
    pack = load_pack(data_dir)
    ids = [json.loads(lines[i])["id"] for i in (0, 1, 2, 3, 4, 5)]
    assert [p.id for p in pack.puzzles] == ids
    assert [p.shipped for p in pack.puzzles] == [True] * 4 + [False] * 2
    assert [p.id for p in pack.shipped] == ids[:4]
    # the garbage line, and the shipped puzzle the player's file repeats
    assert [(s.source, s.line) for s in pack.skipped] == [("b-own.jsonl", 2), ("b-own.jsonl", 3)]


def test_no_shipped_pack_and_no_folder_is_an_empty_pack(data_dir: Path) -> None:
    assert load_pack(data_dir) == Pack((), ())
    assert load_pack(None) == Pack((), ())


def test_a_damaged_shipped_pack_is_one_skipped_line(no_shipped_pack: Path, data_dir: Path) -> None:
    (no_shipped_pack / "puzzles.jsonl.gz").write_bytes(b"not gzip at all")
    pack = load_pack(data_dir)
    assert pack.puzzles == () and len(pack.skipped) == 1


def test_an_unreadable_own_file_is_one_skipped_line(data_dir: Path) -> None:
    own = own_dir(data_dir)
    (own / "dir.jsonl").mkdir(parents=True)
    (own / "good.jsonl").write_text(sample_lines()[0] + "\n")
    pack = load_pack(data_dir)
    assert len(pack.puzzles) == 1
    assert [s.source for s in pack.skipped] == ["dir.jsonl"]
