"""The player's puzzles (``bela.archive.puzzle_store``): kept, rated, chosen, never lost."""

from __future__ import annotations

import dataclasses
import itertools
import json
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzle_fixtures import sample_lines

from bela.archive.glicko import NEW_RD, Rating, idle, update
from bela.archive.history import INDEX_NAME, open_history
from bela.archive.puzzle_pack import Pack, Puzzle, read_lines
from bela.archive.puzzle_store import (
    JOURNAL_NAME,
    NEAR,
    PUZZLE_RD,
    RETRY_AFTER,
    PuzzleStore,
    Streak,
    daily_puzzle,
)
from bela.engine import Action

T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _pack() -> Pack:
    return read_lines(sample_lines(), shipped=True)


def _right(p: Puzzle) -> Action:
    return p.answer[0]


def _wrong(p: Puzzle) -> Action:
    return p.choices[1].actions[0]


def _store(data_dir: Path) -> PuzzleStore:
    data_dir.mkdir(parents=True, exist_ok=True)
    return PuzzleStore(data_dir / INDEX_NAME)


def _rows(data_dir: Path) -> int:
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM puzzle_attempts").fetchone()[0])
    finally:
        conn.close()


def _play(store: PuzzleStore, pack: Pack, rights: list[bool]) -> None:
    for n, right in enumerate(rights):
        p = pack.puzzles[n % len(pack.puzzles)]
        store.record(p, _right(p) if right else _wrong(p), 3.5, T0 + timedelta(minutes=n))


def test_a_fresh_player_is_rated_1500_with_a_wide_deviation(data_dir: Path) -> None:
    with _store(data_dir) as store:
        assert store.player() == Rating(1500.0, 350.0, 0.06)
        assert store.streak() == Streak(0, 0)
        assert store.solved_count() == 0 and store.history() == []


def test_an_answer_is_rated_by_glicko2_against_the_puzzle(data_dir: Path) -> None:
    pack = _pack()
    p = pack.puzzles[0]
    with _store(data_dir) as store:
        outcome = store.record(p, _right(p), 4.0, T0)
    puzzle_first = Rating(p.rating, PUZZLE_RD)
    assert outcome.right and outcome.rated
    assert outcome.before == Rating()
    assert outcome.after == update(Rating(), [(puzzle_first, 1.0)])
    assert outcome.puzzle_rating == update(puzzle_first, [(Rating(), 0.0)]).rating
    assert outcome.after.rating > 1500 > outcome.puzzle_rating - 1000
    assert outcome.streak == Streak(1, 1)


def test_time_away_widens_the_deviation_and_lets_the_next_answer_move_the_rating_more(
    data_dir: Path,
) -> None:
    pack = _pack()
    with _store(data_dir) as store:
        _play(store, pack, [True, False, True, True, False, True])
        settled = store.player(T0 + timedelta(hours=1))
        assert settled == store._attempts[-1].player_after  # within a period: as left
        week = store.player(T0 + timedelta(days=8))
        months = store.player(T0 + timedelta(days=120))
        years = store.player(T0 + timedelta(days=3650))
        assert settled.rd < week.rd < months.rd < years.rd <= NEW_RD
        assert settled.rating == week.rating == months.rating == years.rating
        assert week == update(settled, [])  # one period: the paper's step once
        p = pack.puzzles[7 % len(pack.puzzles)]
        back = store.record(p, _wrong(p), 3.0, T0 + timedelta(days=120))
    assert back.before == months
    soon = update(settled, [(Rating(p.rating, PUZZLE_RD), 0.0)])
    assert settled.rating - soon.rating < months.rating - back.after.rating


def test_a_rating_left_long_enough_is_as_unsure_as_a_new_ones_and_no_more() -> None:
    assert idle(Rating(1620.0, 340.0, 0.06), 10_000) == Rating(1620.0, NEW_RD, 0.06)
    assert idle(Rating(1620.0, 60.0, 0.06), 0) == Rating(1620.0, 60.0, 0.06)
    assert idle(Rating(1620.0, 60.0, 0.06), -3) == Rating(1620.0, 60.0, 0.06)


def test_only_a_puzzles_first_try_is_rated(data_dir: Path) -> None:
    pack = _pack()
    p = pack.puzzles[0]
    with _store(data_dir) as store:
        first = store.record(p, _wrong(p), 4.0, T0)
        again = store.record(p, _right(p), 4.0, T0 + timedelta(minutes=1))
    assert first.rated and first.after.rating < 1500
    assert not again.rated and again.before == again.after == first.after
    assert again.right and again.streak == Streak(1, 1)


def test_attempts_survive_reopening(data_dir: Path) -> None:
    pack = _pack()
    with _store(data_dir) as store:
        _play(store, pack, [True, True, False, True])
        before = (store.attempts(), store.player(), store.streak(), store.history())
    with _store(data_dir) as store:
        assert (store.attempts(), store.player(), store.streak(), store.history()) == before
        assert store.notice is None
    assert _rows(data_dir) == 4
    assert len((data_dir / JOURNAL_NAME).read_text().splitlines()) == 4


@settings(max_examples=40, deadline=None)
@given(rights=st.lists(st.booleans(), max_size=30))
def test_the_streak_counts_right_answers_in_a_row(
    tmp_path_factory: pytest.TempPathFactory, rights: list[bool]
) -> None:
    folder = tmp_path_factory.mktemp("streak")
    with _store(folder) as store:
        _play(store, _pack(), rights)
        streak = store.streak()
    runs = "".join("1" if r else "0" for r in rights).split("0")
    assert streak.best == max((len(r) for r in runs), default=0)
    assert streak.current == len(runs[-1])


def test_a_damaged_database_loses_no_attempt(data_dir: Path) -> None:
    pack = _pack()
    with _store(data_dir) as store:
        _play(store, pack, [True, False, True])
        kept = store.attempts()
    (data_dir / INDEX_NAME).write_bytes(b"this is not a database" * 100)
    with _store(data_dir) as store:
        assert store.notice is not None  # said, and the journal alone is used
        assert store.attempts() == kept
        store.record(pack.puzzles[5], _right(pack.puzzles[5]), 1.0, T0 + timedelta(hours=1))
    # the history replaces the damaged index (it is its cache) ...
    with open_history(data_dir) as history:
        history.refresh()
    # ... and the table is filled again from the journal
    with _store(data_dir) as store:
        assert store.notice is None
        assert len(store.attempts()) == 4 and store.attempts()[:3] == kept
    assert _rows(data_dir) == 4


def test_a_lost_journal_is_written_again_from_the_database(data_dir: Path) -> None:
    pack = _pack()
    with _store(data_dir) as store:
        _play(store, pack, [True, False])
        kept = store.attempts()
    (data_dir / JOURNAL_NAME).unlink()
    with _store(data_dir) as store:
        assert store.attempts() == kept
    assert len((data_dir / JOURNAL_NAME).read_text().splitlines()) == 2


def test_a_bad_journal_line_is_skipped_and_the_rest_kept(data_dir: Path) -> None:
    pack = _pack()
    with _store(data_dir) as store:
        _play(store, pack, [True, True])
    journal = data_dir / JOURNAL_NAME
    lines = journal.read_text().splitlines()
    bad = json.loads(lines[0])
    bad["player_after"] = [1e400, 1, 1]
    journal.write_text("\n".join([lines[0], "{garbage", json.dumps(bad), lines[1]]) + "\n")
    (data_dir / INDEX_NAME).unlink()
    with _store(data_dir) as store:
        assert store.skipped == 2
        assert len(store.attempts()) == 2


def _rated_pack(ratings: list[float]) -> Pack:
    base = _pack().puzzles[0]
    return Pack(
        tuple(dataclasses.replace(base, id=f"{n:08x}", rating=r) for n, r in enumerate(ratings))
    )


@settings(max_examples=30, deadline=None)
@given(
    ratings=st.lists(st.floats(900, 2400), min_size=NEAR + 1, max_size=40),
    seed=st.integers(0, 1000),
)
def test_the_next_puzzle_is_among_those_nearest_the_players_rating(
    tmp_path_factory: pytest.TempPathFactory, ratings: list[float], seed: int
) -> None:
    pack = _rated_pack(ratings)
    with _store(tmp_path_factory.mktemp("near")) as store:
        chosen = store.next_puzzle(pack, rng=Random(seed))
        assert chosen is not None
        me = store.player().rating
        distances = sorted(abs(r - me) for r in ratings)
        assert abs(chosen.rating - me) <= distances[NEAR - 1]


def test_the_next_puzzle_follows_the_rating(data_dir: Path) -> None:
    pack = _rated_pack([1000.0] * 10 + [2200.0] * 10)
    with _store(data_dir) as store:
        for n in range(6):  # a strong player: right every time
            p = store.next_puzzle(pack, rng=Random(n))
            assert p is not None
            store.record(p, _right(p), 2.0, T0 + timedelta(minutes=n))
        assert store.player().rating > 1700
        p = store.next_puzzle(pack, rng=Random(99))
        assert p is not None and p.rating == 2200.0


def test_a_missed_puzzle_comes_back_later_and_a_solved_one_never(data_dir: Path) -> None:
    pack = _rated_pack([1500.0] * (RETRY_AFTER + 3))
    with _store(data_dir) as store:
        missed = store.next_puzzle(pack, rng=Random(1))
        assert missed is not None
        store.record(missed, _wrong(missed), 2.0, T0)
        seen = []
        for n in range(RETRY_AFTER):
            p = store.next_puzzle(pack, rng=Random(n))
            assert p is not None and p.id != missed.id
            store.record(p, _right(p), 2.0, T0 + timedelta(minutes=n + 1))
            seen.append(p.id)
        assert len(set(seen)) == RETRY_AFTER  # solved ones do not come back
        back = store.next_puzzle(pack, rng=Random(7))
        assert back is not None and back.id == missed.id
        store.record(back, _right(back), 2.0, T0 + timedelta(hours=1))
        rest = [p for p in pack.puzzles if p.id not in {*seen, missed.id}]
        for n, p in enumerate(rest):
            store.record(p, _right(p), 2.0, T0 + timedelta(hours=2, minutes=n))
        assert store.next_puzzle(pack) is None  # every puzzle solved
        assert store.solved_count() == len(pack.puzzles)


def test_a_theme_keeps_to_its_puzzles(data_dir: Path) -> None:
    pack = _pack()
    with _store(data_dir) as store:
        for seed in range(20):
            p = store.next_puzzle(pack, "save-ten", rng=Random(seed))
            assert p is not None and "save-ten" in p.themes
        assert store.next_puzzle(pack, "pod-mus") is None


def test_the_daily_puzzle_is_the_same_for_a_date_whatever_else_is_in_the_pack(
    data_dir: Path,
) -> None:
    shipped = read_lines(sample_lines()[:8], shipped=True)
    lines = sample_lines()
    other = read_lines(lines[8:], shipped=False)
    mine = Pack(shipped.puzzles + other.puzzles)
    theirs = Pack(tuple(reversed(shipped.puzzles)))  # another order, no own files
    days = [date(2026, 12, 1) + timedelta(days=n) for n in range(40)]
    chosen = [daily_puzzle(mine, d) for d in days]
    assert chosen == [daily_puzzle(theirs, d) for d in days]
    assert all(p is not None and p.shipped for p in chosen)
    assert len({p.id for p in chosen if p is not None}) > 3  # it changes from day to day
    with _store(data_dir) as store:
        assert store.daily(mine, days[0]) == chosen[0]
    assert daily_puzzle(other, days[0]) is None  # no shipped pack: no daily puzzle


def test_daily_solved_and_theme_stats(data_dir: Path) -> None:
    pack = _pack()
    day = date(2026, 12, 2)
    p = daily_puzzle(pack, day)
    assert p is not None
    with _store(data_dir) as store:
        store.record(p, _wrong(p), 1.0, T0, daily=day)
        assert store.daily_solved() == 0
        store.record(p, _right(p), 1.0, T0 + timedelta(minutes=1), daily=day)
        assert store.daily_solved() == 1
        stats = store.by_theme(pack)
    for theme, numbers in stats.items():
        assert numbers.puzzles == sum(theme in q.themes for q in pack.puzzles)
        assert numbers.tried == numbers.solved == int(theme in p.themes)


def test_a_store_in_a_new_data_directory(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "data"
    p = _pack().puzzles[0]
    with PuzzleStore.in_data_dir(folder) as store:
        assert store.notice is None
        store.record(p, _right(p), 1.0, T0)
    assert _rows(folder) == 1


def test_an_answer_that_cannot_be_kept_raises_and_changes_nothing(data_dir: Path) -> None:
    p = _pack().puzzles[0]
    (data_dir / JOURNAL_NAME).mkdir(parents=True)  # the journal's name taken by a folder
    with _store(data_dir) as store:
        with pytest.raises(OSError):
            store.record(p, _right(p), 1.0, T0)
        assert store.attempts() == [] and store.player() == Rating()
    assert _rows(data_dir) == 0


def test_a_tampered_row_is_left_out_and_the_rest_kept(data_dir: Path) -> None:
    with _store(data_dir) as store:
        _play(store, _pack(), [True, False, True])
        kept = store.attempts()
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    conn.execute("UPDATE puzzle_attempts SET player_after = '[1e999, \"x\"]' WHERE n = 1")
    conn.commit()
    conn.close()
    with _store(data_dir) as store:  # the journal is whole: it wins, the table is refilled
        assert store.attempts() == kept
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    (after,) = conn.execute("SELECT player_after FROM puzzle_attempts WHERE n = 1").fetchone()
    conn.close()
    assert json.loads(after)[0] == kept[1].player_after.rating
    (data_dir / JOURNAL_NAME).unlink()
    conn = sqlite3.connect(data_dir / INDEX_NAME)
    conn.execute("UPDATE puzzle_attempts SET right = 'yes' WHERE n = 1")
    conn.commit()
    conn.close()
    with _store(data_dir) as store:  # no journal: the readable rows are what is left
        assert store.attempts() == [kept[0], kept[2]]
    assert len((data_dir / JOURNAL_NAME).read_text().splitlines()) == 2


def test_two_windows_answering_in_turn_rate_from_the_latest_rating(data_dir: Path) -> None:
    pack = _pack()
    with _store(data_dir) as one, _store(data_dir) as two:
        for n, p in enumerate(pack.puzzles[:6]):
            store = one if n % 2 == 0 else two
            store.record(p, _right(p) if n % 3 else _wrong(p), 2.0, T0 + timedelta(minutes=n))
        last = two.player()
    with _store(data_dir) as store:
        attempts = store.attempts()
        assert len(attempts) == 6 and store.player() == last
        for earlier, later in itertools.pairwise(attempts):
            assert later.player_before == earlier.player_after  # one unbroken chain
    assert _rows(data_dir) == 6
