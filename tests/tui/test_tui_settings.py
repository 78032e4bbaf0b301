"""Settings that stay (issue #13): the settings screen, the palette, flags, house rules in play.

Each test has its own config directory (``tests/conftest.py``) and data
directory (``tests/tui/conftest.py``); "a restart" is a second app on the same
directories.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown, RadioButton, Static
from tui_pilot import make_app, settle, table

from bela.engine import Rules
from bela.settings import Settings, load_settings, save_settings, settings_path
from bela.tui import BelaApp
from bela.tui.commands import BelaCommands
from bela.tui.screens.help import HelpScreen
from bela.tui.screens.settings import SettingsScreen, Tick
from bela.tui.screens.start import StartScreen
from bela.tui.widgets import ScoreSheet, SeatBadge

SIZE = (100, 36)


def start_app(**kwargs: Any) -> BelaApp:
    """The app on its start screen, with nothing given but instant bots (no flags)."""
    return BelaApp(resume=None, hold_delay=0.0, **kwargs)


def notices(app: BelaApp) -> list[str]:
    seen: list[str] = []
    real = app.notify

    def record(message: str, **kwargs: Any) -> None:
        seen.append(message)
        real(message, **kwargs)

    app.notify = record  # type: ignore[method-assign]
    return seen


async def open_settings(pilot: Pilot[Any]) -> SettingsScreen:
    await pilot.press("f2")
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, SettingsScreen)
    return screen


def choose(screen: SettingsScreen, set_id: str, name: str) -> None:
    (button,) = [b for b in screen.query(f"#{set_id} RadioButton") if b.name == name]
    assert isinstance(button, RadioButton)
    button.value = True


def pressed(screen: StartScreen, set_id: str) -> str | None:
    return next(b.name for b in screen.query(f"#{set_id} RadioButton") if b.value)


@pytest.mark.slow
async def test_settings_changed_on_the_screen_are_there_after_a_restart() -> None:
    app = start_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_settings(pilot)
        choose(screen, "set-target", "701")
        choose(screen, "set-difficulty", "hard")
        choose(screen, "set-speed", "1.2")
        await pilot.pause()
        await pilot.click("#set-bela")
        await pilot.click("#rule-dosta")
        await pilot.click("#rule-stiglja_bonus")
        await pilot.pause()
        assert (app.target, app.difficulty, app.bot_delay) == (701, "hard", 1.2)
        assert app.auto_bela is False and app.rules == Rules(dosta=True, stiglja_bonus=100)
        await pilot.press("escape")
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert pressed(start, "target") == "701" and pressed(start, "difficulty") == "hard"
        line = str(start.query_one("#start-rules", Static).content)
        assert "štiglja 100, na dosta" in line

    saved = load_settings().settings
    assert saved == Settings(
        target=701,
        difficulty="hard",
        bot_delay=1.2,
        auto_bela=False,
        rules=Rules(dosta=True, stiglja_bonus=100),
    )

    again = start_app()  # the restart
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = again.screen
        assert isinstance(start, StartScreen)
        assert pressed(start, "target") == "701" and pressed(start, "difficulty") == "hard"
        assert "štiglja 100, na dosta" in str(start.query_one("#start-rules", Static).content)
        assert again.bot_delay == 1.2 and again.auto_bela is False
        screen = await open_settings(pilot)
        assert screen.query_one("#rule-dosta", Tick).value is True
        assert screen.query_one("#rule-visi", Tick).value is False


@pytest.mark.slow
async def test_a_new_match_uses_the_saved_house_rules_and_shows_them() -> None:
    save_settings(Settings(rules=Rules(dosta=True, visi=True)))
    app = make_app(target=None, difficulty=None)  # no --rules: the saved ones
    async with app.run_test(size=SIZE) as pilot:
        assert await settle(pilot) == "turn"
        match = table(app).match
        assert match.rules == Rules(dosta=True, visi=True)
        assert table(app).query_one(ScoreSheet).rules == "na dosta, visi"
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one(Markdown).source
        assert "## House rules of this match" in source
        assert "Na dosta" in source and "Visi" in source and "No bela" not in source


@pytest.mark.slow
async def test_the_match_at_the_table_keeps_its_rules_when_they_change() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert await settle(pilot) == "turn"
        screen = await open_settings(pilot)
        assert "keeps its own: standard" in str(screen.query_one("#settings-in-play").content)
        # below the fold since the Cards row and the bell: scrolled to, as a player would
        screen.query_one("#rule-no_bela").scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click("#rule-no_bela")
        await pilot.pause()
        assert app.rules == Rules(no_bela=True)
        assert table(app).match.rules == Rules()
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one(Markdown).source
        assert "None: the standard game" in source  # the rules of the match in progress
    assert load_settings().settings.rules == Rules(no_bela=True)


@pytest.mark.slow
async def test_flags_win_for_one_run_and_are_not_saved() -> None:
    save_settings(Settings(target=1001, difficulty="easy", rules=Rules(visi=True)))
    before = settings_path().read_bytes()
    app = start_app(target=501, difficulty="hard", rules=Rules(dosta=True), bot_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert pressed(start, "target") == "501" and pressed(start, "difficulty") == "hard"
        screen = await open_settings(pilot)
        # F2 shows what is saved, and says what this run uses instead, and why (issue #22)
        assert screen.query_one("#rule-visi", Tick).value is True
        assert screen.query_one("#rule-dosta", Tick).value is False
        differ = str(screen.query_one("#settings-differ", Static).content)
        assert "Play to: 501 in this run, given on the command line (saved: 1001)." in differ
        assert "Bots: Hard in this run, given on the command line (saved: Easy)." in differ
        assert (
            "House rules: na dosta in this run, given on the command line (saved: visi)." in differ
        )
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+n")  # a new match, on the flags' settings
        assert await settle(pilot) == "turn"
        assert table(app).match.rules == Rules(dosta=True) and table(app).match.target == 501
    assert settings_path().read_bytes() == before  # nothing was changed in the app

    changed = start_app(target=501, bot_delay=0.0)
    async with changed.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_settings(pilot)
        choose(screen, "set-target", "701")  # the player changes one setting: only it is saved
        await pilot.pause()
    assert load_settings().settings == Settings(
        target=701, difficulty="easy", rules=Rules(visi=True)
    )


async def test_a_damaged_settings_file_is_said_once_and_the_app_starts_on_defaults(
    config_dir: Path,
) -> None:
    config_dir.mkdir()
    settings_path().write_text('{"schema_version": 1, "target": "[b]x"}', encoding="utf-8")
    app = start_app()
    seen = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert app.target == 1001 and app.rules == Rules()
    about = [n for n in seen if "Settings could not be used" in n]
    assert len(about) == 1 and "\n" not in about[0] and "settings.corrupt-" in about[0]
    (aside,) = config_dir.glob("settings.corrupt-*.json")
    assert json.loads(aside.read_text(encoding="utf-8"))["target"] == "[b]x"


async def test_the_palette_changes_a_house_rule_and_saves_it() -> None:
    app = start_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        commands = {name: run for name, _, run in BelaCommands(app.screen)._commands()}
        commands["House rule on: Visi (an exact tie hangs)"]()
        commands["Play to 501"]()
        await pilot.pause()
        assert app.rules == Rules(visi=True) and app.target == 501
        start = app.screen
        assert isinstance(start, StartScreen)
        assert "visi" in str(start.query_one("#start-rules", Static).content)
        assert pressed(start, "target") == "501"
        names = [name for name, _, _ in BelaCommands(app.screen)._commands()]
        assert "House rule off: Visi (an exact tie hangs)" in names and "Settings" in names
    assert load_settings().settings == Settings(target=501, rules=Rules(visi=True))


@pytest.mark.slow
async def test_speed_and_theme_changed_in_play_are_saved() -> None:
    app = start_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.change_speed(1)
        app.theme = "nord"
        await pilot.pause()
    assert load_settings().settings == Settings(bot_delay=0.8, theme="nord")
    again = start_app()
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.theme == "nord" and again.bot_delay == 0.8


@pytest.mark.slow
async def test_looking_at_played_tricks_can_be_a_house_rule() -> None:
    app = make_app(rules=Rules(hide_played_tricks=True))
    async with app.run_test(size=SIZE) as pilot:
        assert await settle(pilot) == "turn"
        await pilot.press("l")
        await pilot.pause()
        message = str(table(app).query_one("#message", Static).content)
        assert "played tricks are not looked at again" in message


async def test_clockwise_play_seats_ivo_on_the_left() -> None:
    def x_of(app: BelaApp, seat: int) -> int:
        return table(app).query_one(f"#seat-{seat}", SeatBadge).region.x

    for clockwise in (False, True):
        app = make_app(rules=Rules(clockwise=clockwise))
        async with app.run_test(size=SIZE) as pilot:
            assert await settle(pilot) == "turn"
            ivo_left = x_of(app, 1) < x_of(app, 3)
            assert ivo_left is clockwise


@pytest.mark.slow
async def test_a_settings_write_that_fails_is_said_once_and_play_goes_on(
    monkeypatch: Any,
) -> None:
    """Tests run as root (a read-only directory would not stop them): the rename fails here."""
    import bela.settings

    def denied(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(bela.settings.os, "replace", denied)
    app = start_app()
    seen = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.toggle_auto_bela()
        app.change_speed(1)
        screen = await open_settings(pilot)
        choose(screen, "set-target", "501")
        await pilot.pause()
        assert app.target == 501 and app.bot_delay == 0.8 and app.auto_bela is False
    failures = [n for n in seen if "could not save the settings" in n]
    assert len(failures) == 1 and "Permission denied" in failures[0]
    assert not settings_path().exists()


async def test_a_saved_theme_that_does_not_exist_is_named_and_ignored() -> None:
    save_settings(Settings(theme="[b]gone"))
    app = start_app()
    seen = notices(app)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
    assert any("'[b]gone' is not available" in n for n in seen)


@pytest.mark.slow
async def test_the_unfinished_matchs_settings_are_offered_and_f2_says_they_are_not_saved() -> None:
    """Issue #22: the start screen took the unfinished match's target and bots but the
    saved house rules, and F2 showed the match's target as if it were saved."""
    from bela.archive.records import record_from_match
    from bela.archive.storage import save_autosave
    from bela.engine import Match

    save_settings(Settings(target=1001, difficulty="normal", rules=Rules()))
    save_autosave(record_from_match(Match.new(5, 501, Rules(dosta=True)), "easy"))
    app = start_app(bot_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(5):
            await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert pressed(start, "target") == "501" and pressed(start, "difficulty") == "easy"
        assert "House rules: na dosta" in str(start.query_one("#start-rules", Static).content)
        screen = await open_settings(pilot)
        saved_target = [b.name for b in screen.query("#set-target RadioButton") if b.value]
        assert saved_target == ["1001"]  # what is saved
        differ = str(screen.query_one("#settings-differ", Static).content)
        assert "Play to: 501 on the start screen, the unfinished match's (saved: 1001)." in differ
        assert "Bots: Easy on the start screen, the unfinished match's (saved: Normal)." in differ
        assert "House rules: na dosta on the start screen" in differ
        choose(screen, "set-target", "701")  # chosen here: in use and saved, no longer a line
        await pilot.pause()
        differ = str(screen.query_one("#settings-differ", Static).content)
        assert "Play to" not in differ and app.target == 701
    assert load_settings().settings.target == 701


@pytest.mark.slow
async def test_f2_and_o_open_the_settings_on_the_match_end_dialog() -> None:
    from bela.engine import Match
    from bela.tui.screens.match_end import MatchEndScreen

    app = start_app(bot_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        over = Match(1, 501, scores=(512, 300), winner=0)
        for key in ("f2", "o"):
            await app.push_screen(MatchEndScreen(over))
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, SettingsScreen), key
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MatchEndScreen)
            app.pop_screen()
            await pilot.pause()


@pytest.mark.slow
async def test_the_arrows_choose_and_move_between_settings() -> None:
    """← → choose (and save) as on the start screen; ↓ goes to the next setting."""
    app = start_app(target=None, difficulty=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_settings(pilot)
        assert app.focused is screen.query_one("#set-target")
        await pilot.press("down")
        assert app.focused is screen.query_one("#set-difficulty")
        await pilot.press("right")  # normal -> hard, saved at once
        await pilot.pause()
        assert app.difficulty == "hard"
    assert load_settings().settings.difficulty == "hard"


async def test_f2_and_esc_keep_the_target_chosen_on_the_start_screen() -> None:
    """Issue #35: 501 chosen on the start screen, F2, Esc: the start screen said 1001 again
    (the settings' saved target), and Start began a match to 1001."""
    app = start_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        start = app.screen
        assert isinstance(start, StartScreen)
        assert pressed(start, "target") == "1001"
        (button,) = [b for b in start.query("#target RadioButton") if b.name == "501"]
        assert isinstance(button, RadioButton)
        button.value = True
        (level,) = [b for b in start.query("#difficulty RadioButton") if b.name == "hard"]
        assert isinstance(level, RadioButton)
        level.value = True
        await pilot.pause()
        await open_settings(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is start
        assert pressed(start, "target") == "501" and pressed(start, "difficulty") == "hard"
        # a target changed in the settings is shown on the start screen as before
        screen = await open_settings(pilot)
        choose(screen, "set-target", "701")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert pressed(start, "target") == "701" and pressed(start, "difficulty") == "hard"


async def test_f2_says_the_language_in_use_comes_from_lang() -> None:
    """Issue #35: with ``--lang hr`` and nothing saved, F2 showed "automatski (iz sustava)"
    as the language, with no word that the command line chose Croatian for this run."""
    app = BelaApp(resume=None, hold_delay=0.0, language="hr")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = await open_settings(pilot)
        differ = str(screen.query_one("#settings-differ", Static).content)
        assert (
            "Jezik: Hrvatski u ovom pokretanju, zadano u naredbenom retku "
            "(spremljeno: automatski (iz sustava))."
        ) in differ


async def test_f1_says_the_language_in_use_comes_from_lang() -> None:
    """Issue #35: F1's picker showed "automatski (iz sustava)" under ``--lang hr``, with no
    word why the help was Croatian."""
    from bela.tui.screens.help import HelpScreen

    app = BelaApp(resume=None, hold_delay=0.0, language="hr")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        why = str(screen.query_one("#help-language-why", Static).content)
        assert why.startswith("Jezik: Hrvatski u ovom pokretanju, zadano u naredbenom retku")
