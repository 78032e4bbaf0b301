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
