"""Issue #37: the start screen does less before its first paint (not a timing test:
``benchmarks/bench_first_screen.py`` measures the time; these pin the work left out).

- Textual restyles a screen's every widget when it is shown (``ScreenResume``), a moment
  after styling them all at mounting: the start screen skips that once, the first time.
- Each radio set highlighted its first button when mounted, then the pressed one: now the
  pressed one at once (one restyle of the set, not two).
- ``App.current_theme`` (asked for every widget styled) no longer copies every theme.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.screen import Screen

from bela.tui import BelaApp
from bela.tui.screens.start import Choices, StartScreen


async def test_the_start_screen_is_not_restyled_when_first_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    resumed: list[bool] = []
    resume = Screen._on_screen_resume

    def recording(screen: Screen[object], event: events.ScreenResume) -> None:
        if isinstance(screen, StartScreen):
            resumed.append(event.refresh_styles)
        resume(screen, event)

    monkeypatch.setattr(Screen, "_on_screen_resume", recording)
    app = BelaApp(seed=1, bot_delay=0, resume=None)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert resumed == [False]  # shown: styled at mounting a moment ago, not again
        later = events.ScreenResume()
        screen._on_screen_resume(later)  # any later resume: as Textual says
        assert later.refresh_styles is True


async def test_each_radio_set_highlights_its_choice_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    highlighted: list[int | None] = []
    watch = Choices.watch__selected

    def counting(radios: Choices) -> None:
        highlighted.append(radios._selected)
        watch(radios)

    monkeypatch.setattr(Choices, "watch__selected", counting)
    app = BelaApp(seed=1, bot_delay=0, resume=None, target=1001)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StartScreen)
        target = screen.query_one("#target", Choices)
        assert target._selected == target.pressed_index == 3  # 1001, the last of four
    # the targets' and the bots' (normal), each once: never their first button before it
    assert [h for h in highlighted if h is not None] == [3, 1]


def test_the_current_theme_is_the_one_named() -> None:
    app = BelaApp(seed=1)
    app.theme = "textual-light"
    assert app.current_theme.name == "textual-light"
