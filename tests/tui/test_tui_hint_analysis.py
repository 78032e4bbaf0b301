"""The hint key asks the hard bot; the round summary opens the double-dummy post-mortem."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from tui_pilot import make_app, play_round, settle, table

from bela.search.analysis import analyze_round
from bela.tui.screens.analysis import AnalysisScreen, analysis_lines
from bela.tui.screens.summary import RoundSummaryScreen


async def wait_for(pilot: Pilot[Any], check: Any, tries: int = 600) -> None:
    for _ in range(tries):
        await pilot.pause(0.05)
        if check():
            return
    raise AssertionError("timed out waiting")


async def test_the_hint_key_shows_a_legal_suggestion_with_a_reason() -> None:
    app = make_app(seed=11)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        message = screen.query_one("#message", Static)
        await pilot.press("i")

        def shown() -> bool:
            return str(message.content).startswith("Hint: ")

        await wait_for(pilot, shown)
        text = str(message.content)
        rnd = screen.match.current
        assert rnd is not None
        assert any(word in text for word in ("say dalje", "name ")), text  # a bid, while bidding
        assert ": " in text[len("Hint: ") :]  # the action, then why


@pytest.mark.slow
async def test_the_summary_opens_the_analysis_of_the_round() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        await play_round(pilot)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        await pilot.press("a")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await wait_for(pilot, lambda: screen.analysis is not None)
        record = summary.record
        expected = analyze_round(table(app).match.deal(record.index).replay(record.actions))
        assert screen.analysis == expected
        body = str(screen.query_one("#analysis-text", Static).content)
        assert body == "\n".join(str(line) for line in analysis_lines(expected))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundSummaryScreen)


def test_the_post_mortem_never_says_minus_zero() -> None:
    """Issue #35: a card that cost written points but no card points read "−0 bodova u
    kartama", and the reverse "−0 upisano". Only what was lost is said."""
    from bela.engine import Card
    from bela.i18n import set_language
    from bela.search.analysis import CardChoice, MoveAnalysis, RoundAnalysis

    def move(lost_points: int, lost_written: int) -> MoveAnalysis:
        choices = (
            CardChoice(Card.parse("AH"), value=10, margin=40, written=12),
            CardChoice(
                Card.parse("7H"), value=10 - lost_points, margin=30, written=12 - lost_written
            ),
        )
        return MoveAnalysis(5, 0, 0, Card.parse("7H"), choices, lost_points, lost_written)

    analysis = RoundAnalysis(0, None, 0, 3, (move(0, 12), move(7, 0), move(4, 10)))
    set_language("hr")
    try:
        lines = [str(line) for line in analysis_lines(analysis)][1:4]
    finally:
        set_language("en")
    assert not any("−0" in line for line in lines), lines
    assert lines[0].endswith(": −12 upisano")
    assert lines[1].endswith(": −7 bodova u kartama")
    assert lines[2].endswith(": −4 boda u kartama, −10 upisano")


def test_a_signed_figure_that_rounds_to_zero_has_no_sign() -> None:
    from bela.archive.retake_text import signed

    assert signed(-0.04) == "0.0" and signed(0.04) == "0.0" and signed(0) == "0.0"
    assert signed(-1.25) == "\u22121.2" and signed(2.0) == "+2.0"
