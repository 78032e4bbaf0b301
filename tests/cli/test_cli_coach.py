"""The coach (``bela.lab.coach``, ``bela coach``): lessons, their cache, the report.

What a lesson adds up is recounted here from ``analyze_round`` and the match's own
rounds, by plain loops, so a wrong sum cannot hide behind the same code.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from archived import archive, hard_in_seat_zero, random_match
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import bela.lab.coach as coach_module
from bela.archive.history import open_history
from bela.cli import main
from bela.engine import Call, Match, Pass
from bela.i18n import set_language
from bela.lab.card_review import review_round, reviewable_rounds
from bela.lab.coach import BidSlip, Lesson, Slip, lesson_of, report
from bela.lab.coach_text import render_report, report_json
from bela.search.analysis import analyze_round


def _recount(match: Match, seat: int) -> dict[str, Any]:
    cards = lost = called = fell = forced = passed = 0
    by_trick = [0] * 8
    for played in match.rounds:
        r = played.result
        if r.redeal or r.belot is not None or r.claim is not None:
            continue
        rnd = match.deal(played.index).replay(played.actions)
        passed += sum(1 for s, b in rnd.bids if s == seat and isinstance(b, Pass))
        if r.caller == seat:
            called += 1
            fell += r.fell
            bids = [b for _s, b in rnd.bids]
            forced += len(bids) == 4 and not any(isinstance(b, Call) for b in bids[:3])
        for move in analyze_round(rnd).moves:
            if move.seat == seat:
                cards += 1
                lost += move.lost_written
                by_trick[move.trick - 1] += move.lost_written
    return {
        "cards": cards,
        "lost": lost,
        "called": called,
        "fell": fell,
        "pod_mus": forced,
        "passed": passed,
        "by_trick": by_trick,
    }


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 5_000), seat=st.integers(0, 3))
def test_a_lesson_adds_up_what_the_analysis_says(seed: int, seat: int) -> None:
    match = random_match(seed, steps=160)
    lesson = lesson_of(match, seat, with_bot=False)
    expected = _recount(match, seat)
    assert lesson.cards == expected["cards"] == sum(c for c, _l in lesson.by_role)
    assert lesson.lost == expected["lost"] == sum(x for _c, x in lesson.by_trick)
    assert [x for _c, x in lesson.by_trick] == expected["by_trick"]
    assert (lesson.called, lesson.fell, lesson.pod_mus) == (
        expected["called"],
        expected["fell"],
        expected["pod_mus"],
    )
    assert lesson.passed == expected["passed"]
    assert lesson.bid_slips == []  # bids are judged by the hard bot's search only
    assert lesson.vs_hard == 0 and all(s.hard is None for s in lesson.slips)
    assert sum(s.lost for s in lesson.slips) == lesson.lost  # every costly card is a slip
    assert Lesson.from_json(json.loads(json.dumps(lesson.to_json()))) == lesson


def test_a_card_the_hard_bot_plays_from_the_same_view_is_not_blamed() -> None:
    # seat 0 is the hard bot itself: every card is the hard bot's choice from that view, and
    # one of them is not the double dummy's best (8 written points given away "with all
    # cards seen"): the coach must not call it a fault, nor build a habit of it
    lesson = lesson_of(hard_in_seat_zero(4), 0, with_bot=True)
    costly = [s for s in lesson.slips if s.lost > 0]
    assert costly and all(s.hard == s.played for s in costly)
    assert lesson.vs_hard == 0 and all(s.vs_hard == 0 for s in lesson.slips)
    result = report([("a.json", lesson), ("b.json", lesson), ("c.json", lesson)])
    assert result.habits == []


def test_the_trend_and_the_tables_do_not_count_a_card_the_hard_bot_also_plays() -> None:
    # the same round: the double dummy says a card of the hard bot's gave 8 points away, but
    # the hard bot plays it from the same information, so the trend over matches and the
    # tables by place and by trick say nothing was given away
    lesson = lesson_of(hard_in_seat_zero(4), 0, with_bot=True)
    assert lesson.lost > 0  # against every card seen...
    result = report([("a.json", lesson), ("b.json", lesson)])
    assert result.trend == [("a.json", 0.0), ("b.json", 0.0)]  # ...but not against the bot
    assert result.trend_best[0][1] > 0  # the double dummy's trend, for --no-bot, is kept
    assert [x for _c, x in result.by_role_hard] == [0, 0, 0, 0]
    assert [x for _c, x in result.by_trick_hard] == [0] * 8
    assert sum(c for c, _x in result.by_role_hard) == result.cards
    data = report_json(result)
    assert [r["vs_hard"] for r in data["by_role"]] == [0, 0, 0, 0]
    assert sum(r["lost"] for r in data["by_role"]) == result.lost > 0
    assert [t["vs_hard_per_round"] for t in data["trend"]] == [0.0, 0.0]
    console = Console(record=True, width=200, file=io.StringIO())
    console.print(render_report(result, True))
    text = console.export_text()
    words = " ".join(text.split())  # a table's title wraps to the table's width
    assert "By your place in the trick, against the hard bot from your cards" in words
    rows = [line.split() for line in text.splitlines() if line.split()[:1] == ["leading"]]
    assert len(rows) == 1 and rows[0][2] == "0"  # the leads gave nothing away


def test_the_tables_add_up_each_cards_loss_against_the_hard_bot() -> None:
    match = random_match(8, steps=60)
    lesson = lesson_of(match, 1, with_bot=True)
    by_role, by_trick = [0] * 4, [0] * 8
    for index in reviewable_rounds(match):
        for card in review_round(match, index, 1, from_trick=3).cards:
            by_role[card.order] += round(card.loss)
            by_trick[card.trick - 1] += round(card.loss)
    assert [x for _c, x in lesson.by_role_hard] == by_role
    assert [x for _c, x in lesson.by_trick_hard] == by_trick
    assert sum(by_role) == lesson.vs_hard > 0  # something was given away, and it is counted
    assert [c for c, _x in lesson.by_role_hard] == [c for c, _x in lesson.by_role]
    result = report([("a.json", lesson)])
    assert result.trend == [("a.json", lesson.vs_hard / lesson.rounds)]
    assert Lesson.from_json(json.loads(json.dumps(lesson.to_json()))) == lesson
    edited = lesson.to_json()
    edited["by_role_hard"][0][1] += 1  # no longer adds up to vs_hard
    with pytest.raises(ValueError):
        Lesson.from_json(edited)


def test_the_hard_bots_comparison_is_its_own_values_from_the_players_view() -> None:
    match = random_match(8, steps=60)  # a round or two
    lesson = lesson_of(match, 1, with_bot=True)
    assert lesson.cards > 0
    total = 0
    for index in reviewable_rounds(match):
        for card in review_round(match, index, 1, from_trick=3).cards:
            total += round(card.loss)
            slip = next(
                (
                    s
                    for s in lesson.slips
                    if (s.round, s.trick, s.order) == (index, card.trick, card.order)
                ),
                None,
            )
            if card.loss >= 0.5:
                assert slip is not None and slip.hard == card.hard
                assert slip.vs_hard == round(card.loss)
                assert card.values[card.hard] == max(card.values.values())
    assert lesson.vs_hard == total


def _slip(vs_hard: int, trick: int, order: int, round: int = 0, lost: int = 0) -> Slip:
    return Slip(
        round=round,
        trick=trick,
        order=order,
        played="7H",
        best="AH",
        hard="AH",
        lost=lost,
        vs_hard=vs_hard,
    )


def _bid(lost: int, forced: bool = False, round: int = 0) -> BidSlip:
    return BidSlip(
        round=round,
        step=1,
        forced=forced,
        chosen="H" if forced else "dalje",
        best="C",
        lost=lost,
        samples=96,
    )


def _lesson(
    slips: list[Slip], falls: list[list[int]] | None = None, bids: list[BidSlip] | None = None
) -> Lesson:
    falls = falls or []
    return Lesson(
        seat=0,
        rounds=10,
        cards=len(slips),
        lost=sum(s.lost for s in slips),
        vs_hard=sum(s.vs_hard for s in slips),
        by_role=[[0, 0]] * 4,
        by_trick=[[0, 0]] * 8,
        called=len(falls),
        fell=len(falls),
        fell_lost=sum(cost for _r, cost in falls),
        pod_mus=0,
        pod_mus_fell=0,
        slips=slips,
        passed=3,
        bid_slips=bids or [],
        falls=falls,
    )


def test_one_card_is_not_a_habit_three_rounds_are() -> None:
    once = _lesson([_slip(60, 3, 1, round=0)])
    assert report([("a.json", once)]).habits == []
    twice = _lesson([_slip(60, 3, 1, round=0), _slip(30, 4, 1, round=0)])  # one round, twice
    assert report([("a.json", twice), ("b.json", once)]).habits == []
    thrice = report([("a.json", twice), ("b.json", once), ("c.json", once)])
    assert [(h.kind, h.count, h.lost) for h in thrice.habits] == [("second:early", 3, 180)]


def test_the_report_says_why_it_names_no_habit_yet() -> None:
    """Issue #36's play test: after a brza 163 the coach listed its tables and then said
    nothing of habits, where the player looks for them; it says that a habit needs a
    fault that was a round's costliest three times."""
    from rich.console import Console

    once = _lesson([_slip(60, 3, 1, round=0)])

    def said(lessons: list[tuple[str, Any]]) -> str:
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(render_report(report(lessons), True))
        return console.export_text()

    text = said([("a.json", once)])
    assert "No habit yet: a habit is a kind of fault that was a round's costliest" in text
    habits = said([("a.json", once), ("b.json", once), ("c.json", once)])
    assert "No habit yet" not in habits and "Your costliest habits" in habits


def test_the_tables_show_the_hard_bots_card_beside_the_costliest_one() -> None:
    a = _lesson([_slip(30, 3, 1, round=0), _slip(50, 4, 1, round=2), _slip(5, 6, 0, round=1)])
    b = _lesson([_slip(0, 5, 3, round=0, lost=9), _slip(12, 7, 3, round=4)])
    result = report([("a.json", a), ("b.json", b)])
    assert result.role_examples == [
        ("a.json", a.slips[2]),
        ("a.json", a.slips[1]),  # the costlier of the two second-hand cards
        None,  # no third-hand card gave anything away
        ("b.json", b.slips[1]),  # not the one only the double dummy blames
    ]
    assert result.trend_examples == [("a.json", a.slips[1]), ("b.json", b.slips[1])]
    console = Console(record=True, width=100, file=io.StringIO())
    console.print(render_report(result, True))
    rows = [line.split() for line in console.export_text().splitlines()]
    assert ["second", "hand", "0", "0", "–", "7♥", "A♥"] in rows  # the table's cards are 0
    assert ["third", "hand", "0", "0", "–"] in rows
    assert ["1", "8.5", "7♥", "A♥", "round", "3,", "trick", "4"] in rows
    assert ["2", "1.2", "7♥", "A♥", "round", "5,", "trick", "7"] in rows
    data = report_json(result)
    assert data["by_role"][1]["example"] == {
        "file": "a.json",
        "round": 3,
        "trick": 4,
        "played": "7H",
        "hard": "AH",
        "vs_hard": 50,
    }
    assert data["by_role"][2]["example"] is None
    assert [t["example"]["trick"] for t in data["trend"]] == [4, 7]
    without = report_json(result, with_bot=False)  # --no-bot: no hard bot's card to show
    assert all(r["example"] is None for r in without["by_role"])


def test_a_costly_round_counts_once_under_its_costliest_fault() -> None:
    # each round fell (180 written points) and held a costly card and a dalje judged worse
    rounds = [[_slip(40, 7, 0, round=r), _bid(25, round=r)] for r in range(3)]
    lesson = _lesson(
        [s for r in rounds for s in r if isinstance(s, Slip)],
        falls=[[r, 180] for r in range(3)],
        bids=[b for r in rounds for b in r if isinstance(b, BidSlip)],
    )
    result = report([("a.json", lesson)])
    assert [(h.kind, h.count, h.lost) for h in result.habits] == [("fell", 3, 540)]
    assert (result.passed_slips, result.passed_lost) == (3, 75)  # still counted as bids


def test_the_three_costliest_habits_with_their_costliest_example() -> None:
    a = _lesson([_slip(30, 3, 1, round=r) for r in range(3)] + [_slip(50, 4, 1, round=3)])
    b = _lesson(
        [_slip(20, 8, 0, round=r) for r in range(3)] + [_slip(45, 6, 0, round=3, lost=9)],
        falls=[[r, 70] for r in (4, 5, 6)],
    )
    result = report([("a.json", a), ("b.json", b)])
    assert [(h.kind, h.count, h.lost) for h in result.habits] == [
        ("fell", 3, 210),
        ("second:early", 4, 140),
        ("lead:late", 4, 105),
    ]
    assert result.habits[1].example == ("a.json", a.slips[3])
    assert result.habits[2].example == ("b.json", b.slips[3])
    assert result.trend == [("a.json", 14.0), ("b.json", 10.5)]  # against the hard bot
    assert result.trend_best == [("a.json", 0.0), ("b.json", 0.9)]


def test_bids_the_search_found_clearly_worse_are_habits_with_their_costliest_example() -> None:
    a = _lesson([_slip(30, 3, 1)], bids=[_bid(25, round=1), _bid(40, round=2)])
    b = _lesson([_slip(20, 8, 0)], bids=[_bid(35, forced=True), _bid(15, round=3)])
    result = report([("a.json", a), ("b.json", b)])
    assert (result.passed, result.passed_slips, result.passed_lost) == (6, 3, 80)
    assert (result.pod_mus_slips, result.pod_mus_lost) == (1, 35)
    # b's round 0 counts once, under its pod mus: the second hand's 20 is not counted
    assert [(h.kind, h.count, h.lost) for h in result.habits] == [("passed", 3, 80)]
    assert result.habits[0].example == ("a.json", a.bid_slips[1])


def _rendered(lesson: Lesson, with_bot: bool = True) -> str:
    from rich.console import Console

    console = Console(width=300, file=io.StringIO(), color_system=None)
    console.print(render_report(report([("m.json", lesson)]), with_bot))
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def _bidding_lesson() -> Lesson:
    """Three dalje judged worse (42 at round 5, 10 and 10) and three suits pod mus (12 each)."""
    passes = [_bid(42, round=4), _bid(10, round=5), _bid(10, round=6)]
    return _lesson([], bids=passes + [_bid(12, forced=True, round=r) for r in range(3)])


def test_the_report_says_the_bidding_slips_and_shows_their_example() -> None:
    lesson = _bidding_lesson()
    text = _rendered(lesson)
    assert "of them calling was clearly worth more" in text
    assert "written points lost by saying dalje" in text
    assert (
        "Saying dalje when calling was worth more: 62 written points given away in 3 rounds" in text
    )
    assert "Round 5, the bidding: you said dalje; naming ♣ clubs was worth 42 more" in text
    assert "Round 1, pod mus: you named ♥ hearts; ♣ clubs was worth 12 more" in text
    assert "bela replay m.json --round 5" in text
    without = _rendered(lesson, with_bot=False)  # not judged without the hard bot: not said
    assert "clearly worth more" not in without and "rounds you said dalje" in without
    data = report_json(report([("m.json", lesson)]))
    assert data["bidding"]["passed"] == 3
    assert data["bidding"]["passed_worth_more"] == {"count": 3, "lost": 62}
    assert data["bidding"]["pod_mus_weaker_suit"] == {"count": 3, "lost": 36}
    example = data["habits"][0]["example"]
    assert example == {
        "file": "m.json",
        "round": 5,
        "trick": 0,
        "bid": "dalje",
        "forced": False,
        "best": "C",
        "lost": 42,
        "samples": 96,
    }
    unjudged = report_json(report([("m.json", lesson)]), with_bot=False)["bidding"]
    assert unjudged["passed_worth_more"] is None and unjudged["pod_mus_weaker_suit"] is None


def test_the_bidding_slips_in_croatian() -> None:
    set_language("hr")
    text = _rendered(_bidding_lesson())
    # said without a gender the app cannot know (issue #35): "tvoj dalje", not "rekao si dalje"
    assert "tvoj dalje" in text and "tref" in text and "herc" in text
    assert "rekao si" not in text
    assert not any(
        words in text for words in ("worth more", "the bidding", "you named", "Saying dalje")
    )


def _coach(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(["coach", *argv, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_bela_coach_reports_and_reads_each_match_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    matches = [random_match(seed) for seed in (21, 22, 23)]
    for match in matches:
        archive(match)
    data = _coach(["--no-bot", "--jobs", "1"], capsys)
    lessons = [lesson_of(m, 0, with_bot=False) for m in matches]
    assert data["matches"] == 3
    assert data["lost"] == sum(x.lost for x in lessons)
    assert data["bidding"]["fell"] == sum(x.fell for x in lessons)
    assert data["bidding"]["passed"] == sum(x.passed for x in lessons)
    assert data["bidding"]["passed_worth_more"] is None  # --no-bot does not judge the bids

    def refuse(task: Any) -> Any:
        raise AssertionError("a stored lesson was read again")

    original = coach_module.lesson_task
    monkeypatch.setattr(coach_module, "lesson_task", refuse)
    assert _coach(["--no-bot", "--jobs", "1"], capsys) == data  # from the history database
    with open_history() as history:  # a stored lesson of another version is read again
        history.connection.execute("UPDATE coach_lessons SET data = '{\"version\": 0}'")
    monkeypatch.setattr(coach_module, "lesson_task", original)
    assert _coach(["--no-bot", "--jobs", "1", "--last", "2"], capsys)["matches"] == 2


def test_bela_coach_text_in_croatian(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "hr_HR.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "BELA_LANG"):
        monkeypatch.delenv(name, raising=False)
    archive(random_match(30))
    assert main(["coach", "--no-bot", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "Trener" in out and "Po štihu" in out
    assert not any(word in out for word in ("given away", "By trick", "Bidding", "habits"))


def test_an_empty_archive_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach"]) == 0  # nothing to read yet is no error
    assert "no finished match" in capsys.readouterr().out


def test_a_lesson_kept_by_the_coach_before_is_read_again() -> None:
    # version 2 judged the cards by the double dummy and kept no falls; version 3 kept the
    # tables by place and by trick against the double dummy only: never believed now
    lesson = lesson_of(random_match(8, steps=60), 1, with_bot=False).to_json()
    del lesson["by_role_hard"], lesson["by_trick_hard"]
    lesson["version"] = 3
    with pytest.raises(ValueError):
        Lesson.from_json(lesson)
    del lesson["falls"]
    lesson["version"] = 2
    with pytest.raises(ValueError):
        Lesson.from_json(lesson)
    assert coach_module.LESSON_VERSION == 4
