"""A compiled build older than its source is said on the first screen (issue #26).

``bela.foundation.native`` runs the pure build when a source changed after ``make
compiled`` (the compiled one would play the old code); the game is the same, only
slower, and the player is told why and what to run. ``bela --version`` says it too
(``tests/cli/test_cli_args.py``).
"""

from __future__ import annotations

import pytest

from bela.foundation import native
from bela.i18n import set_language
from bela.tui import BelaApp
from bela.tui.screens.start import StartScreen


def notices(app: BelaApp) -> list[str]:
    return [notice.message for notice in app._notifications]


async def start(monkeypatch: pytest.MonkeyPatch, chosen: native.Build, **kwargs: str) -> list[str]:
    """The notices of the app's first screen with ``chosen`` as the build that runs."""
    monkeypatch.setattr(native, "_chosen", chosen)
    app = BelaApp(seed=1, bot_delay=0, **kwargs)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        return notices(app)


async def test_a_stale_compiled_build_is_said_on_the_start_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said = await start(monkeypatch, native.Build("stale", "bela.engine.round"))
    stale = [line for line in said if "out of date" in line]
    assert stale == [
        "Compiled build out of date (bela/engine/round.py changed): pure Python, slower, "
        "until make compiled."
    ]


@pytest.mark.parametrize("lang", ["hr", "es", "ru", "zh", "ar"])
async def test_it_is_said_in_the_players_language(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = await start(monkeypatch, native.Build("stale", "bela.search.solver"), language=lang)
    set_language("en")
    (line,) = [line for line in said if "bela/search/solver.py" in line]
    assert "make compiled" in line and "out of date" not in line


@pytest.mark.parametrize("reason", ["", "absent", "forced"])
async def test_a_current_absent_or_forced_build_says_nothing(
    reason: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No compiler (the usual case) or BELA_PURE is no news to the player."""
    said = await start(monkeypatch, native.Build(reason))
    assert [line for line in said if "make compiled" in line] == []


@pytest.mark.parametrize(
    ("chosen", "said"), [(native.Build("absent"), True), (native.Build(""), False)]
)
async def test_settings_say_the_pure_build_s_hard_bot_is_the_lighter_search(
    monkeypatch: pytest.MonkeyPatch, chosen: native.Build, said: bool
) -> None:
    """Installed without a compiler, the hard bot searches fewer deals: F2, where the bots are
    chosen, says so beside them; the compiled build says nothing (issue #37)."""
    from textual.widgets import Static

    from bela.tui.screens.settings import SettingsScreen

    monkeypatch.setattr(native, "_chosen", chosen)
    app = BelaApp(seed=1, bot_delay=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        found = list(app.screen.query("#settings-lighter-hard"))
        assert bool(found) == said
        if said:
            (line,) = found
            assert isinstance(line, Static)
            assert "hard bot searches fewer guessed deals" in str(line.render())
