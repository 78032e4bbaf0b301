"""A pack's figures and the selection for variety (issue #36): cheapest-card answers, three
or more legal cards, near-duplicates, ratings; on the generator's sample puzzles."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bela.lab.puzzle_figures import facts_of, figures, main, select

SAMPLE = Path(__file__).parents[1] / "puzzles" / "fixtures" / "sample.jsonl"


def _sample() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


def test_the_figures_of_the_sample() -> None:
    found = figures(_sample())
    assert (found.puzzles, found.cards, found.bids) == (11, 11, 0)
    assert found.cheapest == 9  # all but 10♣ (over K♣) and 10♥ (over Q♥)
    assert found.many == 3 and found.duplicated == 0 and found.groups == 11
    assert (found.rated_1550, found.rated_1700) == (2, 0)
    text = "\n".join(found.lines())
    assert "answered by the cheapest legal card: 9 of 11 (81.8%)" in text
    assert "three or more legal cards: 3 of 11 (27.3%)" in text


def test_the_cheapest_card_is_counted_by_card_points() -> None:
    facts = {p["id"]: facts_of(p) for p in _sample()}
    first = facts["841453bfc4"]  # 9♠ (0 points) against J♥ (2): the cheapest
    assert first is not None and first.cheapest and first.legal == 2
    ten = facts["b5b3240c99"]  # 10♣ over K♣: not the cheapest
    assert ten is not None and not ten.cheapest


def test_a_near_duplicate_is_counted_and_kept_once(capsys: Any, tmp_path: Path) -> None:
    rows = _sample()
    twin = dict(rows[6], rating=1800.0)  # the same moment again, rated higher
    found = figures([*rows, twin])
    assert found.duplicated == 2 and found.groups == 11
    kept = select([*rows, twin], cheapest_share=1.0, many_share=0.0)
    assert len(kept) == 11 and kept[-1]["rating"] == 1800.0  # the higher-rated twin
    pack = tmp_path / "pack.jsonl"
    pack.write_text("\n".join(json.dumps(r) for r in [*rows, twin]) + "\n", encoding="utf-8")
    assert main([str(pack)]) == 0
    assert "sharing hand shape, trick and answer with another: 2 of 12 (16.7%)" in (
        capsys.readouterr().out
    )


@settings(max_examples=25, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.integers(0, 2**16))
def test_the_selection_meets_its_shares_or_keeps_nothing(
    cheap: float, many: float, seed: int
) -> None:
    rows = _sample()
    Random(seed).shuffle(rows)
    kept = select(rows, cheapest_share=cheap, many_share=many)
    ids = [r["id"] for r in rows]
    assert [ids.index(k["id"]) for k in kept] == sorted(ids.index(k["id"]) for k in kept)
    facts = [facts_of(k) for k in kept]
    assert all(f is not None for f in facts)
    if kept:
        n = len(kept)
        assert sum(f.cheapest for f in facts if f) <= cheap * n + 1e-9
        assert sum(f.legal >= 3 for f in facts if f) >= many * n - 1e-9
    assert len({f.key for f in facts if f}) == len(kept)


def test_assembling_a_pack_keeps_its_variety(tmp_path: Path) -> None:
    import gzip

    from bela.lab.puzzle_assemble import main as assemble_main

    out = tmp_path / "pack.jsonl.gz"
    assert assemble_main([str(out), str(SAMPLE), "--keep-all"]) == 0
    with gzip.open(out, "rt") as f:
        every = [json.loads(line) for line in f]
    assert len(every) == 8  # three of the sample were found at the bar, before the room to spare
    assert assemble_main([str(out), str(SAMPLE)]) == 0
    with gzip.open(out, "rt") as f:
        kept = [json.loads(line) for line in f]
    assert [p["id"] for p in kept] == [p["id"] for p in select(every)]
    assert len(kept) < len(every)  # most of them are answered by the cheapest card


def test_an_assembled_pack_is_rated_on_the_solvers_ladder_fitted_to_it(tmp_path: Path) -> None:
    import gzip

    from bela.lab.puzzle_assemble import main as assemble_main
    from bela.lab.puzzle_rating import LEVELS, fit

    out = tmp_path / "pack.jsonl.gz"
    assert assemble_main([str(out), str(SAMPLE), "--keep-all"]) == 0
    with gzip.open(out, "rt") as f:
        rated = [json.loads(line) for line in f]
    cards = [p for p in rated if p["kind"] == "card"]
    assert cards and all(set(p["misses"]) == set(LEVELS) for p in cards)
    ratings, _ = fit([p["misses"] for p in cards])
    assert [p["rating"] for p in cards] == [round(r) for r in ratings]
    assert assemble_main([str(out), str(SAMPLE), "--keep-all", "--no-rate"]) == 0
    with gzip.open(out, "rt") as f:
        assert all("misses" not in json.loads(line) for line in f)


def test_the_second_judgement_keeps_only_puzzles_clear_with_room_to_spare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bela.lab import puzzle_assemble, puzzle_check

    rows = _sample()[:5]
    asked: list[str] = []
    fresh = [  # (stays clear with the same answer, share, gap) on the second set of deals
        (True, 0.97, 31.0),  # kept
        (False, 0.80, 3.0),  # unclear
        (True, 0.92, 40.0),  # clear, but best on too few deals to stay so
        (True, 1.00, 12.0),  # clear, but too few points ahead to stay so
        (True, 0.94, 15.0),  # just the room asked
    ]

    second = {p["id"]: r for p, r in zip(rows, fresh, strict=True)}
    third = {rows[0]["id"]: (True, 1.0, 40.0), rows[4]["id"]: (True, 0.93, 40.0)}
    judged: dict[str, list[str]] = {}

    def fake(puzzles: Any, salt: str, jobs: int = 1) -> list[tuple[str, bool, float, float]]:
        asked.append(salt)
        judged[salt] = [p["id"] for p in puzzles]
        table = second if salt == puzzle_assemble.SECOND_SALT else third
        return [(p["id"], *table[p["id"]]) for p in puzzles]

    monkeypatch.setattr(puzzle_check, "judge_again", fake)
    kept, unclear = puzzle_assemble.second_judgement(rows)
    # the third set is asked only of the two that stood on the second, and one falls there
    assert unclear == 4 and [p["id"] for p in kept] == [rows[0]["id"]]
    assert asked == list(puzzle_assemble.SALTS) and "rejudge" not in asked  # not the check's
    assert judged[puzzle_assemble.THIRD_SALT] == [rows[i]["id"] for i in (0, 4)]


def test_room_to_spare_is_above_the_judges_bar() -> None:
    from bela.lab.puzzle_assemble import ROOM_GAP, ROOM_SHARE, has_room
    from bela.lab.puzzle_judge import BEST_SHARE, MIN_GAP

    assert ROOM_SHARE > BEST_SHARE and ROOM_GAP > MIN_GAP
    assert not has_room(BEST_SHARE, 100.0) and not has_room(1.0, MIN_GAP)
    assert has_room(ROOM_SHARE, ROOM_GAP)


def test_a_key_whose_chosen_puzzle_falls_to_the_second_judgement_keeps_another(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two lines of one near-duplicate key: the higher-rated is chosen, falls on fresh deals,
    and the other, which stands, takes its place; the judgements are cached and not redone."""
    from bela.lab import puzzle_assemble, puzzle_check
    from bela.lab.puzzle_figures import facts_of

    rows = [p for p in _sample() if p["kind"] == "card"]
    by_key: dict[Any, list[dict[str, Any]]] = {}
    for p in rows:
        facts = facts_of(p)
        assert facts is not None
        by_key.setdefault(facts.key, []).append(p)
    solo = [ps[0] for ps in by_key.values()]
    twin = dict(solo[0], id="twin-" + solo[0]["id"], rating=solo[0]["rating"] - 100)
    puzzles = [*solo, twin]
    judged: list[str] = []

    def fake(puzzles: Any, salt: str, jobs: int = 1) -> list[tuple[str, bool, float, float]]:
        judged.extend(p["id"] for p in puzzles)
        return [(p["id"], p["id"] != solo[0]["id"], 1.0, 40.0) for p in puzzles]

    monkeypatch.setattr(puzzle_check, "judge_again", fake)
    cache: puzzle_assemble.Cache = {}
    anything = (1.0, 0.0)  # no quotas: the sample is mostly cheapest-card puzzles
    kept, fallen = puzzle_assemble.select_judged(puzzles, cache=cache, shares=anything)
    ids = {p["id"] for p in kept}
    assert fallen == 1 and twin["id"] in ids and solo[0]["id"] not in ids
    assert judged.count(solo[0]["id"]) == 1  # it fell on the first set: not asked again
    assert judged.count(twin["id"]) == len(puzzle_assemble.SALTS)
    path = tmp_path / "cache.jsonl"
    puzzle_assemble.write_cache(path, cache, {})
    assert puzzle_assemble.read_cache(path) == cache
    judged.clear()
    again, _ = puzzle_assemble.select_judged(
        puzzles, cache=puzzle_assemble.read_cache(path), shares=anything
    )
    assert judged == [] and again == kept
