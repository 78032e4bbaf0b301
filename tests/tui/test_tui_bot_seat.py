"""The round summary's "bot in my seat" (m): the same deal, the bot in the player's seat."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static
from tui_pilot import make_app, play_round, table

import bela.tui.screens.bot_seat as bot_seat_module
from bela.archive.records import dumps, record_from_match
from bela.archive.storage import matches_dir
from bela.engine import Match
from bela.lab.bot_in_seat import swap_round
from bela.tui.screens.bot_seat import BotSeatScreen
from bela.tui.screens.history import HistoryScreen, ReplayScreen
from bela.tui.screens.summary import RoundSummaryScreen


def random_match(seed: int, steps: int) -> Match:
    """The match of ``seed`` after ``steps`` random legal actions: people playing at random."""
    rng = random.Random(seed)
    match = Match.new(seed, target=501)
    for _ in range(steps):
        if match.current is None:
            break
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


async def wait_for(pilot: Pilot[Any], check: Any, tries: int = 1200) -> None:
    for _ in range(tries):
        await pilot.pause(0.05)
        if check():
            return
    raise AssertionError("timed out waiting")


@pytest.mark.slow
async def test_m_on_the_summary_retakes_the_round_with_a_bot_in_the_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the hard bot takes a second or two a round; normal shows the same path in a moment
    monkeypatch.setattr(bot_seat_module, "DEFAULT_SEAT_BOT", "normal")
    app = make_app(seed=5)
    async with app.run_test(size=(100, 36)) as pilot:
        await play_round(pilot)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        assert summary.query("#bot-seat")  # the button is there
        await pilot.press("m")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BotSeatScreen)
        await wait_for(pilot, lambda: screen.swap is not None)
        swap = screen.swap
        assert swap is not None
        match = table(app).match
        record = summary.record
        assert swap.played.actions == record.actions  # the round as the player played it
        expected = swap_round(match, record.index, 0, screen.level, "normal")
        assert swap.retaken.actions == expected.retaken.actions
        assert swap.gain == expected.gain
        console = Console(record=True, width=80, file=io.StringIO())
        console.print(screen.query_one("#bot-seat-text", Static).content)
        text = console.export_text()
        assert f"Round {record.index + 1}" in text and "Bot in your seat" in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundSummaryScreen)


@pytest.mark.slow
async def test_m_in_the_historys_step_through_retakes_the_round_from_the_readers_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A network copy read from seat 3: the bot takes seat 3, the names are plain text."""
    monkeypatch.setattr(bot_seat_module, "DEFAULT_SEAT_BOT", "normal")
    match = random_match(5, steps=120)
    names = ("Ana", "[b]Ivo", "Mara", "Luka")
    record = record_from_match(match, "easy").model_copy(update={"players": names, "me": 3})
    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "20260110T120000Z-5.json").write_text(dumps(record), encoding="utf-8")
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("down")  # round 2's deal
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, BotSeatScreen))
        screen = app.screen
        assert isinstance(screen, BotSeatScreen)
        await wait_for(pilot, lambda: screen.swap is not None)
        swap = screen.swap
        assert swap is not None and (swap.index, swap.seat) == (1, 3)
        assert swap.played.actions == match.rounds[1].actions
        expected = swap_round(match, 1, 3, "easy", "normal")
        assert swap.retaken.actions == expected.retaken.actions
        console = Console(record=True, width=80, file=io.StringIO())
        console.print(screen.query_one("#bot-seat-text", Static).content)
        text = console.export_text()
        # the reader is named as the record names them, and spoken to as "you" in the sentence
        assert "you are Luka · seat 4 (mi)" in text and "Round 2" in text
