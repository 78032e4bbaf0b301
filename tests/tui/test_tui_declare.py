"""Keeping zvanja back at the table (issue #22): asked only with "declare for me" off.

Seed 6: the human (seat 0) is the first player of round 1 and holds J♠ Q♠ K♠ A♠ (50),
so the question comes at their first card, before anybody has played.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tui_pilot import MAX_WAIT, human_move, make_app, play_round, table

from bela.engine import Silent
from bela.settings import Settings, parse_settings
from bela.tui import BelaApp
from bela.tui.screens.prompts import DeclarePrompt
from bela.tui.screens.settings import SettingsScreen
from bela.tui.screens.zvanja import ZvanjaScreen
from bela.tui.widgets.table_talk import TableTalk

SEED = 6


async def until_asked(pilot: Pilot[Any]) -> DeclarePrompt:
    app = pilot.app
    for _ in range(MAX_WAIT):
        await pilot.pause()
        if isinstance(app.screen, DeclarePrompt):
            return app.screen
        screen = table(app)  # type: ignore[arg-type]
        if app.screen is screen and screen.human_turn():
            rnd = screen.match.current
            assert rnd is None or not rnd.can_stay_silent(), "the human was not asked"
            await human_move(pilot, screen)
    raise AssertionError("the question never came")


@pytest.mark.slow
async def test_kept_back_the_zvanja_do_not_count() -> None:
    app = make_app(seed=SEED, difficulty="random", always_declare=False)
    async with app.run_test(size=(100, 36)) as pilot:
        await until_asked(pilot)
        rnd = table(app).match.current
        assert rnd is not None and rnd.to_act == 0 and not rnd.trick
        assert rnd.zvanja_team == 0  # as things stand, the human's 50 counts
        await pilot.press("escape")
        await pilot.pause()
        rnd = table(app).match.current
        assert rnd is not None
        assert rnd.silent_seats == (0,)
        assert Silent() in rnd.actions
        assert not rnd.trick  # the key that answered played no card
        assert rnd.zvanja_points[0] == 0
        log = "\n".join(line.text for line in table(app).query_one("#log", TableTalk).lines)
        assert "šutim" in log


def log_text(app: BelaApp) -> str:
    return "\n".join(line.text for line in table(app).query_one("#log", TableTalk).lines)


@pytest.mark.slow
async def test_declared_the_zvanja_count() -> None:
    app = make_app(seed=SEED, difficulty="random", always_declare=False)
    async with app.run_test(size=(100, 36)) as pilot:
        await until_asked(pilot)
        assert "zvanja count" not in log_text(app)  # nothing said before the answer
        await pilot.press("enter")
        await pilot.pause()
        assert "Our zvanja count: 50" in log_text(app)
        rnd = table(app).match.current
        assert rnd is not None and rnd.silent_seats == () and not rnd.trick
        assert rnd.zvanja_team == 0 and rnd.zvanja_points[0] >= 50
        await play_round(pilot)
        assert table(app).match.rounds[0].result.zvanja[0] >= 50


@pytest.mark.slow
async def test_by_default_nobody_is_asked() -> None:
    """The setting on (today's game): the human's zvanja are declared for them."""
    app = make_app(seed=SEED, difficulty="random")
    assert app.always_declare is True
    async with app.run_test(size=(100, 36)) as pilot:
        await play_round(pilot)  # would stop at an unexpected question: settle never returns
        played = table(app).match.rounds[0]
        assert Silent() not in played.actions
        assert played.result.zvanja[0] >= 50


@pytest.mark.slow
async def test_the_moment_after_keeping_back_says_nothing_for_the_human() -> None:
    """The exchange comes after the answer and tells the silence, not "nemam"."""
    app = make_app(seed=SEED, difficulty="random", always_declare=False, hold_delay=60)
    async with app.run_test(size=(100, 36)) as pilot:
        await until_asked(pilot)
        await pilot.press("escape")
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, ZvanjaScreen):
                break
        assert isinstance(app.screen, ZvanjaScreen)
        said = [s for s in app.screen.talk.said if s.seat == 0]
        assert said and all(s.silent for s in said)


@pytest.mark.slow
async def test_the_setting_is_on_f2_and_saved() -> None:
    app = make_app(seed=SEED)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        app.action_settings()
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        box = app.screen.query_one("#set-declare")
        box.value = False  # type: ignore[attr-defined]
        await pilot.pause()
        assert app.always_declare is False
    again = BelaApp(resume=False, seed=SEED)
    assert again.always_declare is False


def test_the_settings_file_keeps_it() -> None:
    text = Settings(always_declare=False).to_json().encode()
    assert parse_settings(text).always_declare is False
    assert Settings().always_declare is True


def test_the_help_says_zvanja_may_be_kept_back() -> None:
    from bela.i18n import set_language
    from bela.tui.screens.help import help_text

    set_language("hr")
    assert "**Šutim.**" in help_text() and "prije svoje karte" in help_text()


@pytest.mark.slow
async def test_nobodys_zvanja_are_on_show_while_the_player_decides() -> None:
    """Issue #35: the side panel showed the zvanja (the partner's among them) while the
    question "declare or keep back?" was still open."""
    from bela.tui.widgets.zvanja import ZvanjaPanel

    app = make_app(seed=SEED, difficulty="random", always_declare=False)
    async with app.run_test(size=(100, 36)) as pilot:
        await until_asked(pilot)
        screen = table(app)
        assert screen.query_one("#zvanja", ZvanjaPanel).talk is None
        await pilot.press("enter")  # declare: now the zvanja are told
        await pilot.pause()
        for _ in range(50):
            await pilot.pause()
            if screen.query_one("#zvanja", ZvanjaPanel).talk is not None:
                break
        assert screen.query_one("#zvanja", ZvanjaPanel).talk is not None
