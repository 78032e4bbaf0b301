"""Pictures of the app at 80 × 24 (and 120 × 40 and 160 × 50, where the table grows; dark and light)
on pinned seeds.

Regenerate with ``pytest tests/tui/test_tui_snapshots.py --snapshot-update`` and
look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_pilot import human_move, make_app, play_round, settle, table, until_zvanja

from bela.ai import make_bot
from bela.ai.driver import play_bots_until
from bela.engine import Match, Phase
from bela.tui import BelaApp
from bela.tui.screens.match_end import MatchEndScreen
from bela.tui.screens.zvanja import ZvanjaScreen

SIZE = (80, 24)
Snap = Callable[..., bool]
SIZES = pytest.mark.parametrize(
    "size", [(80, 24), (120, 40), (160, 50)], ids=["80x24", "120x40", "160x50"]
)
THEMES = pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])


def still_app(**kwargs: Any) -> BelaApp:
    """An app that shows no toasts: they time out, so whether one is on a picture is timing.

    The bots play at random (the simplest, most stable player), so the pictures change
    only when the app or the deal changes, not when the stronger bots are tuned.
    """
    app = make_app(**{"difficulty": "random", **kwargs})
    app.notify = lambda *args, **kw: None  # type: ignore[method-assign]
    return app


async def quiet(pilot: Pilot[Any]) -> None:
    """Let the screen settle before the picture."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def test_start_screen(snap_compare: Snap) -> None:
    app = still_app(seed=7, resume=None, difficulty="normal")

    async def ready(pilot: Pilot[Any]) -> None:
        await quiet(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=ready)


@pytest.mark.slow
def test_calling_trump(snap_compare: Snap) -> None:
    """The human speaks first: six cards up, the talon face down, the bid menu."""
    app = still_app(seed=7)

    async def to_the_call(pilot: Pilot[Any]) -> None:
        assert await settle(pilot) == "turn"
        await quiet(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=to_the_call)


@SIZES
@THEMES
@pytest.mark.slow
def test_trick_in_progress(snap_compare: Snap, size: tuple[int, int], theme: str) -> None:
    """A trick in progress: three cards down, the human to follow, the cards not allowed dimmed."""
    app = still_app(seed=7)

    async def mid_trick(pilot: Pilot[Any]) -> None:
        pilot.app.theme = theme
        while True:
            assert await settle(pilot) == "turn"
            screen = table(pilot.app)  # type: ignore[arg-type]
            rnd = screen.match.current
            assert rnd is not None
            if rnd.phase is Phase.PLAYING and rnd.trick:
                await quiet(pilot)
                return
            await human_move(pilot, screen)

    assert snap_compare(app, terminal_size=size, run_before=mid_trick)


@SIZES
@THEMES
@pytest.mark.slow
def test_zvanja_moment(snap_compare: Snap, size: tuple[int, int], theme: str) -> None:
    """The zvanja said in turn at the first trick (seed 18: Marko's 20 beats Ana's, do dame)."""
    app = still_app(seed=18, hold_delay=60)  # the moment comes only when tricks are held

    async def at_the_moment(pilot: Pilot[Any]) -> None:
        pilot.app.theme = theme
        assert isinstance(await until_zvanja(pilot), ZvanjaScreen)
        await quiet(pilot)

    assert snap_compare(app, terminal_size=size, run_before=at_the_moment)


@SIZES
@THEMES
@pytest.mark.slow
def test_round_summary(snap_compare: Snap, size: tuple[int, int], theme: str) -> None:
    app = still_app(seed=7)

    async def to_the_summary(pilot: Pilot[Any]) -> None:
        pilot.app.theme = theme
        await play_round(pilot)
        await quiet(pilot)

    assert snap_compare(app, terminal_size=size, run_before=to_the_summary)


def _finished_match() -> Match:
    """A whole 501 match played by four bots, deterministic for the seed."""
    bots = {seat: make_bot("random") for seat in range(4)}
    match = Match.new(2, 501)
    while not match.is_over:
        match = play_bots_until(match, bots, stop_at_round_end=False)
    return match


@pytest.mark.slow
def test_match_end(snap_compare: Snap) -> None:
    app = still_app(seed=2)
    match = _finished_match()

    async def at_the_end(pilot: Pilot[Any]) -> None:
        assert await settle(pilot) == "turn"
        await pilot.app.push_screen(MatchEndScreen(match))
        await quiet(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=at_the_end)


@pytest.mark.slow
def test_settings_screen(snap_compare: Snap, monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings (F2) over the start screen; the path is pinned for the picture."""
    monkeypatch.setenv("BELA_CONFIG_DIR", "/home/ana/.config/bela")
    # the compiled build's picture on either build (the pure one adds a line on its hard bot)
    from bela.foundation import native

    monkeypatch.setattr(native, "_chosen", native.Build(""))
    app = still_app(seed=7, resume=None, difficulty="normal")

    async def on_settings(pilot: Pilot[Any]) -> None:
        await quiet(pilot)
        await pilot.press("f2")
        await quiet(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=on_settings)
