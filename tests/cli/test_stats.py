"""Statistics (bela.archive.stats) against counts made straight from the record files."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from archived import archive, direct_counts, long_match, random_match, records
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bela.archive.history import open_history
from bela.archive.stats import Statistics, results_over_time, score_race, statistics
from bela.archive.storage import matches_dir, read_record
from bela.engine import Rules


def assert_matches_direct(stats: Statistics, counted: dict[str, Any]) -> None:
    outcome, by_level, n = counted["outcome"], counted["by_level"], counted["n"]
    assert (stats.won, stats.lost, stats.unfinished) == (
        outcome["won"],
        outcome["lost"],
        outcome["unfinished"],
    )
    assert {
        level.difficulty: (level.won, level.lost, level.unfinished) for level in stats.by_difficulty
    } == {level: (c["won"], c["lost"], c["unfinished"]) for level, c in by_level.items()}
    assert (stats.rounds, stats.redeals) == (n["rounds"], n["redeals"])
    for who, record in (("you", stats.you), ("mi", stats.mi), ("vi", stats.vi)):
        assert (record.called, record.made) == (n[f"{who}_called"], n[f"{who}_made"]), who
    for name, pair in (
        ("written", stats.written),
        ("zvanja_rounds", stats.zvanja_rounds),
        ("zvanja_points", stats.zvanja_points),
        ("bela", stats.bela),
        ("stiglja", stats.stiglja),
        ("belot", stats.belot),
    ):
        assert pair == (n[f"{name}_mi"], n[f"{name}_vi"]), name


def test_network_copies_count_from_the_seat_their_player_sat_in(data_dir: Path) -> None:
    """A player's copy of a network match (``MatchRecord.me``) counts from their seat:
    the same finished match is won from one team's seats and lost from the other's."""
    match = random_match(21)
    assert match.winner is not None
    for me in range(4):
        archive(match, "normal", me=me)
    archive(random_match(22, 70), "hard", me=3)  # unfinished, from seat 3
    with open_history() as history:
        stats = statistics(history)
        outcomes = sorted(row.outcome.value for row in history.matches())
    assert_matches_direct(stats, direct_counts(records()))
    assert outcomes == sorted(["won", "won", "lost", "lost", "unfinished"])


def test_statistics_equal_counts_from_the_records(data_dir: Path) -> None:
    for seed in range(8):
        steps = 60 if seed % 4 == 3 else None
        rules = Rules(visi=True) if seed % 3 == 0 else None
        archive(
            random_match(seed, steps, (501, 701, 1001)[seed % 3], rules), ("easy", "hard")[seed % 2]
        )
    archive(long_match(6), "normal")
    (matches_dir() / "broken.json").write_text("{")
    with open_history() as history:
        stats = statistics(history)
    counted = direct_counts(records())
    assert_matches_direct(stats, counted)
    assert stats.damaged == 1 and stats.matches == 10 and stats.played == 9
    assert stats.redeals == 6  # the long match's void deals
    assert stats.average_written is not None
    assert stats.average_written[0] == pytest.approx(
        counted["n"]["written_mi"] / (stats.rounds - stats.redeals)
    )
    assert stats.mi.pad_rate == pytest.approx(stats.mi.fell / stats.mi.called)


def test_statistics_of_one_difficulty(data_dir: Path) -> None:
    for seed in range(6):
        archive(random_match(seed), ("easy", "hard", "hard")[seed % 3])
    with open_history() as history:
        hard = statistics(history, "hard")
        everything = statistics(history)
    only_hard = [r for r in records() if r.difficulty == "hard"]
    assert_matches_direct(hard, direct_counts(only_hard))
    assert hard.matches == 4 and everything.matches == 6
    assert [level.difficulty for level in everything.by_difficulty] == ["easy", "hard"]


def test_no_matches_no_rates(data_dir: Path) -> None:
    with open_history() as history:
        stats = statistics(history)
    assert stats.matches == 0 and stats.rounds == 0
    assert stats.win_rate is None and stats.average_written is None
    assert stats.you.pad_rate is None and stats.by_difficulty == ()


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 10_000),
            st.one_of(st.none(), st.integers(0, 200)),
            st.sampled_from([501, 701, 1001]),
            st.booleans(),
            st.sampled_from(["easy", "normal", "hard"]),
        ),
        min_size=1,
        max_size=5,
    )
)
def test_statistics_equal_direct_counts_for_any_archive(
    monkeypatch: pytest.MonkeyPatch, matches: list[tuple[int, int | None, int, bool, str]]
) -> None:
    with tempfile.TemporaryDirectory() as temp:
        monkeypatch.setenv("BELA_DATA_DIR", temp)
        for seed, steps, target, visi, level in matches:
            rules = Rules(visi=True, no_forced_trump=True) if visi else None
            archive(random_match(seed, steps, target, rules), level)
        with open_history() as history:
            stats = statistics(history)
            race_ends = {row.file: score_race(history, row.file)[-1] for row in history.matches()}
        assert_matches_direct(stats, direct_counts(records()))
        for name, end in race_ends.items():
            record = read_record(Path(temp) / "matches" / name)
            assert (end.mi, end.vi) == record.scores


def test_the_score_race_is_the_sheet_summed(data_dir: Path) -> None:
    match = random_match(11, target=1001)
    path = archive(match)
    with open_history() as history:
        race = score_race(history, path.name)
    assert race[0] == (race[0].__class__(0, 0, 0))
    assert len(race) == len(match.rounds) + 1
    mi = vi = 0
    for point, played in zip(race[1:], match.rounds, strict=True):
        mi, vi = mi + played.written[0], vi + played.written[1]
        assert (point.round, point.mi, point.vi) == (played.index + 1, mi, vi)
    assert (race[-1].mi, race[-1].vi) == match.scores


def test_results_over_time_oldest_first_with_a_running_tally(data_dir: Path) -> None:
    winners = []
    for seed in range(7):
        match = random_match(seed, None if seed != 3 else 20)
        archive(match, "easy" if seed % 2 else "hard")
        winners.append(match.winner)
    with open_history() as history:
        series = results_over_time(history)
        hard = results_over_time(history, "hard")
    finished = [w for w in winners if w is not None]
    assert [point.won for point in series] == [w == 0 for w in finished]
    assert [p.finished_so_far for p in series] == list(range(1, len(finished) + 1))
    assert series[-1].won_so_far == finished.count(0)
    assert [p.played_at for p in series] == sorted(p.played_at for p in series)
    assert all((p.margin > 0) == p.won for p in series)
    assert {p.difficulty for p in hard} == {"hard"}
