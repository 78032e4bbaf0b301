"""The ladder's Bradley–Terry fit recovers known strengths; its pairs are the arena's."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bela.lab.arena import report_to_dict, run_arena
from bela.lab.ladder import ELO_SCALE, fit_elo, ladder_to_dict, run_ladder


def expected(r_i: float, r_j: float) -> float:
    return 1 / (1 + 10 ** ((r_j - r_i) / ELO_SCALE))


def simulate(truth: list[float], games: int, seed: int) -> list[tuple[int, int, float, float]]:
    """Every pair plays ``games`` games drawn from the Bradley–Terry model itself."""
    rng = random.Random(seed)
    out = []
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            p = expected(truth[i], truth[j])
            wins = sum(1 for _ in range(games) if rng.random() < p)
            out.append((i, j, float(wins), float(games)))
    return out


@given(
    st.lists(st.floats(-300, 300), min_size=2, max_size=5),
    st.integers(0, 2**32),
)
@settings(max_examples=15, deadline=None)
def test_the_fit_recovers_strengths_from_their_own_model(truth: list[float], seed: int) -> None:
    anchored = [r - truth[0] for r in truth]
    fitted = fit_elo(len(truth), simulate(truth, 4000, seed))
    assert fitted[0] == 0.0
    # 4,000 games a pair: a rating's standard error is some 10 Elo; 60 is far outside it
    for got, want in zip(fitted, anchored, strict=True):
        assert abs(got - want) < 60


def test_exact_expected_scores_give_back_the_ratings_almost_exactly() -> None:
    truth = [0.0, 150.0, -80.0, 400.0]
    games = [
        (i, j, 10_000 * expected(truth[i], truth[j]), 10_000.0)
        for i in range(4)
        for j in range(i + 1, 4)
    ]
    # the one virtual draw per pair pulls each rating in by a fraction of an Elo point
    for got, want in zip(fit_elo(4, games), truth, strict=True):
        assert math.isclose(got, want, abs_tol=1.0)


def test_a_clean_sweep_is_rated_finitely_above() -> None:
    ratings = fit_elo(2, [(0, 1, 0.0, 50.0)])
    assert math.isfinite(ratings[1]) and ratings[1] > 400


def test_symmetric_results_rate_everyone_equal() -> None:
    ratings = fit_elo(3, [(0, 1, 5.0, 10.0), (1, 2, 5.0, 10.0), (0, 2, 5.0, 10.0)])
    assert all(abs(r) < 1e-6 for r in ratings)


def test_a_pair_of_the_ladder_is_what_the_arena_reports_for_it() -> None:
    report = run_ladder(
        ["random", "easy", "normal"], deal_pairs=6, seed=4, jobs=1, progress=False, bootstrap=20
    )
    assert [(p.bot_a, p.bot_b) for p in report.pairs] == [
        ("random", "easy"),
        ("random", "normal"),
        ("easy", "normal"),
    ]
    pair = report.pairs[1]
    alone = run_arena("random", "normal", deal_pairs=6, seed=4, jobs=1, progress=False)
    assert report_to_dict(pair.arena) == report_to_dict(alone)
    assert pair.deal_pairs == 6 and 0.0 <= pair.a_score <= 1.0
    ratings = {r.bot: r for r in report.ratings}
    assert ratings["random"].elo == 0.0 and ratings["random"].deal_pairs == 12
    elos = [r.elo for r in report.ratings]
    assert elos == sorted(elos, reverse=True)  # best first
    for r in report.ratings:
        assert r.low <= r.elo + 1e-9 and r.elo - 1e-9 <= r.high


def test_caps_limit_the_pairs_of_a_slow_bot_and_the_report_is_reproducible() -> None:
    def play(jobs: int) -> dict[str, object]:
        report = run_ladder(
            ["random", "easy", "normal"],
            deal_pairs=8,
            seed=2,
            jobs=jobs,
            caps={"normal": 3},
            progress=False,
            bootstrap=20,
        )
        return ladder_to_dict(report)

    one = play(1)
    assert [p["deal_pairs"] for p in one["pairs"]] == [8, 3, 3]  # type: ignore[index]
    assert one["caps"] == {"normal": 3}
    assert play(2) == one
