"""The start screen is styled for the window's size once, not twice (issue #26).

Textual gives a screen its breakpoint classes (``-wide-enough``, ``-tall``,
``-too-narrow``...) at its first resize, after every widget on it was styled,
and then styles them all again. The app gives the start screen those classes
before it is mounted, so the widgets are styled once. These tests pin that the
classes are there from the start, that they are the ones Textual settles on, and
that the picture is exactly what a full restyle draws (nothing is left stale).
Not a timing test: ``benchmarks/bench_first_screen.py`` measures the time.
"""

from __future__ import annotations

import pytest
from textual.app import ComposeResult

from bela.tui import BelaApp
from bela.tui.screens.start import StartScreen

SIZES = [(80, 24), (100, 40), (120, 40), (160, 50), (60, 20), (100, 20)]


def size_classes(screen: StartScreen) -> list[str]:
    """The breakpoint classes of ``screen`` (the app's classes start with a dash)."""
    return sorted(name for name in screen.classes if name.startswith("-"))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_start_screen_has_its_size_classes_when_its_widgets_are_made(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[str]] = []
    compose = StartScreen.compose

    def composing(screen: StartScreen) -> ComposeResult:
        seen.append(size_classes(screen))
        return compose(screen)

    monkeypatch.setattr(StartScreen, "compose", composing)
    app = BelaApp(seed=1, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        settled = size_classes(screen)  # after Textual's own resize
    assert len(settled) == 2  # one for the width, one for the height
    assert seen[0] == settled


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
async def test_the_start_screen_as_first_drawn_is_what_a_full_restyle_draws(
    size: tuple[int, int],
) -> None:
    app = BelaApp(seed=1, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        first = app.export_screenshot()
        app.screen.update_node_styles(animate=False)
        await pilot.pause()
        assert app.export_screenshot() == first
