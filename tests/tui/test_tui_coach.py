"""The coach's screen (F5): the report from the history database, habits that open
their example in the history's step-through."""

from __future__ import annotations

import random
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_pilot import make_app

from bela.archive.records import record_from_match
from bela.archive.storage import archive_match
from bela.engine import Match, Pass
from bela.lab.coach import lesson_of, report
from bela.tui.screens.coach import CoachScreen
from bela.tui.screens.history import ReplayScreen
from coach_matches import SEAT, find_seed, must_call, played_bid


def random_match(seed: int) -> Match:
    """A brza 163 played at random: three deals, so the hard bot's reading is short."""
    rng = random.Random(seed)
    match = Match.new(seed, target=163)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


async def wait_for(pilot: Pilot[Any], check: Any, tries: int = 2400) -> None:
    for _ in range(tries):
        await pilot.pause(0.05)
        if check():
            return
    raise AssertionError("timed out waiting")


@pytest.mark.slow
async def test_f5_reads_the_matches_and_a_habit_opens_its_example() -> None:
    # the first brza 163 played at random in which seat 0 gave points away with a card
    match = next(
        m
        for m in map(random_match, range(40, 80))
        if any(s.lost for s in lesson_of(m, 0, with_bot=False).slips)
    )
    for _copy in range(3):  # a habit is a fault of three rounds: the match three times
        archive_match(record_from_match(match, "normal"))
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        await pilot.press("f5")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        screen = app.screen
        assert isinstance(screen, CoachScreen)
        await wait_for(pilot, lambda: screen.report is not None)
        # the screen's report is the coach's over the three copies, hard bot included
        lesson = lesson_of(match, 0, with_bot=True)
        expected = report([(f"x{n}", lesson) for n in range(3)])
        assert screen.report.lost == expected.lost and screen.report.fell == expected.fell
        assert screen.report.vs_hard == expected.vs_hard
        assert screen.examples, "a random player gives points away: a habit with an example"
        ident, (file, index, trick) = next(iter(screen.examples.items()))
        # the button is mounted after the report is set: on a busy machine the click could
        # come before it has a place on the screen and press nothing
        await wait_for(pilot, lambda: bool(screen.query(f"#{ident}")))
        await wait_for(pilot, lambda: screen.query_one(f"#{ident}").region.area > 0)
        screen.query_one(f"#{ident}").scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click(f"#{ident}")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.row.file == file
        position, shown_trick = replay.step
        assert replay.views[position].index == index and shown_trick == trick


@pytest.mark.slow  # the app, and the hard bot's search on every bid and card of three deals
async def test_a_dalje_that_should_have_called_is_a_habit_that_opens_at_the_bids() -> None:
    # the player said dalje with a hand that must call; the rest of the brza 163 at random
    match = played_bid(find_seed(must_call), Pass(), rounds=3)
    assert match.is_over
    for _copy in range(3):  # a habit is a fault of three rounds: the match three times
        archive_match(record_from_match(match, "normal"))
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.pause()
        await pilot.press("f5")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        screen = app.screen
        assert isinstance(screen, CoachScreen)
        await wait_for(pilot, lambda: screen.report is not None)
        assert screen.report.passed_slips >= 1
        number = next(n for n, h in enumerate(screen.report.habits, start=1) if h.kind == "passed")
        ident = f"habit-{number}"
        file, index, trick = screen.examples[ident]
        assert (index, trick) == (0, 0)  # the first round's deal and bids
        screen.query_one(f"#{ident}").focus()  # below the report: reached by the keyboard
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.row.file == file
        position, shown_trick = replay.step
        assert replay.views[position].index == 0 and shown_trick == 0
        assert "dalje" in replay.step_text().plain and SEAT == 0
