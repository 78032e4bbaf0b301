"""The arena: duplicate deals, reproducible whatever the number of workers."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from bela.lab.arena import (
    ArenaReport,
    Estimate,
    play_deal,
    render_report,
    report_to_dict,
    run_arena,
)


def test_the_report_does_not_depend_on_the_number_of_jobs() -> None:
    one, two = (
        run_arena(
            "easy",
            "random",
            deal_pairs=30,
            seed=5,
            jobs=jobs,
            matches=2,
            target=501,
            progress=False,
        )
        for jobs in (1, 2)
    )
    assert one == two
    assert report_to_dict(one) == report_to_dict(two)
    assert one.deal_pairs == 30 and one.match_pairs == 2


def test_a_bot_against_itself_scores_exactly_even_on_duplicate_deals() -> None:
    # The heuristic ignores its RNG, so both seatings of a deal are the same game mirrored.
    report = run_arena("normal", "normal", deal_pairs=6, seed=9, jobs=1, progress=False)
    assert report.written == Estimate(0.0, 0.0, 6)
    assert report.card_points == Estimate(0.0, 0.0, 6)
    assert report.a.called == report.b.called


def test_each_deal_is_played_with_the_same_cards_and_the_seats_swapped() -> None:
    first = play_deal("normal", "random", 3, 0, 0)
    second = play_deal("normal", "random", 3, 0, 1)
    # A's written points in one seating are B's in the other only when both are the same
    # bot; here they differ, but each play writes a complete, consistent row.
    for row in (first, second):
        a_written, b_written, a_cards, b_cards, side, _fell, belot = row
        assert side in (-1, 0, 1)
        if not belot:
            assert a_cards + b_cards == 162
            assert a_written + b_written >= 162


def test_estimate_is_the_mean_with_a_normal_95_percent_interval() -> None:
    e = Estimate.of([1.0, 2.0, 3.0, 4.0])
    assert e.mean == pytest.approx(2.5)
    # sample sd of 1..4 is sqrt(5/3); half width 1.96 * sd / sqrt(4)
    assert e.half_width == pytest.approx(1.96 * (5 / 3) ** 0.5 / 2)
    assert (e.low, e.high) == pytest.approx((2.5 - e.half_width, 2.5 + e.half_width))
    assert Estimate.of([]) == Estimate(0.0, 0.0, 0)


def test_report_as_json_and_as_a_table() -> None:
    report = run_arena(
        "normal", "random", deal_pairs=4, seed=2, jobs=1, matches=1, target=501, progress=False
    )
    assert isinstance(report, ArenaReport)
    data = report_to_dict(report)
    assert json.loads(json.dumps(data)) == data
    assert data["written_points_per_deal_a_minus_b"]["n"] == 4
    assert data["a_match_win_share"]["n"] == 1
    console = Console(width=120, record=True)
    console.print(render_report(report))
    text = console.export_text()
    assert "written points per deal" in text and "matches to 501 won by A" in text


def test_unknown_bots_are_refused_before_any_work() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        run_arena("nobody", "random", deal_pairs=1, seed=1, progress=False)


def test_the_identical_bot_control_is_b_against_b_on_the_same_deals() -> None:
    """``control``: B against itself on the same deals and seeds, printed beside the result,
    and A − B less the control deal by deal (issue #38)."""
    report = run_arena(
        "easy", "random", deal_pairs=12, seed=4, jobs=1, progress=False, control=True
    )
    alone = run_arena("random", "random", deal_pairs=12, seed=4, jobs=1, progress=False)
    plain = run_arena("easy", "random", deal_pairs=12, seed=4, jobs=1, progress=False)
    assert report.control == alone.written  # the same deals and decision seeds
    assert report.written == plain.written
    assert report.paired is not None and report.paired.n == 12
    assert report.paired.mean == pytest.approx(plain.written.mean - alone.written.mean)
    data = report_to_dict(report)
    assert data["control_written_points_per_deal_b_minus_b"]["n"] == 12
    assert report_to_dict(plain)["control_written_points_per_deal_b_minus_b"] is None
    console = Console(width=160, record=True)
    console.print(render_report(report))
    assert "identical-bot control" in console.export_text()
    # a bot against itself with its control: the halves are told apart by order
    same = run_arena("random", "random", deal_pairs=5, seed=4, jobs=2, progress=False, control=True)
    assert same.control == same.written and same.paired == Estimate(0.0, 0.0, 5)
