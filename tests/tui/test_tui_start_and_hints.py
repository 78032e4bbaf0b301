"""Issue #12: hints in a player's words (numbers on request), a start screen that is true.

Each test here failed on the code before the fix (6e80a25): the hint showed
only averages over guessed deals, the start screen highlighted 501 while 1001
was chosen, and it opened on 1001 whatever match was played last.
"""

from __future__ import annotations

import json
import random as random_module
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, RadioButton, RadioSet, Static
from tui_pilot import human_move, make_app, settle, table

from bela.archive.records import record_from_match
from bela.archive.storage import archive_match, save_autosave
from bela.cli import main
from bela.engine import Match, Phase
from bela.tui import BelaApp
from bela.tui.screens.start import StartScreen
from bela.tui.screens.table import TableScreen


async def wait_for(pilot: Pilot[Any], check: Any, tries: int = 600) -> None:
    for _ in range(tries):
        await pilot.pause(0.05)
        if check():
            return
    raise AssertionError("timed out waiting")


def message(app: Any) -> str:
    return str(table(app).query_one("#message", Static).content)


# ---------------------------------------------------------------------- hints


@pytest.mark.slow
async def test_a_card_hint_says_why_in_words_and_the_numbers_on_a_second_press() -> None:
    app = make_app(seed=11)
    async with app.run_test(size=(100, 36)) as pilot:
        while True:  # through the bidding to the first card of the human's
            assert await settle(pilot) == "turn"
            rnd = table(app).match.current
            assert rnd is not None
            if rnd.phase is Phase.PLAYING:
                break
            await human_move(pilot, table(app))
        await pilot.press("i")
        await wait_for(pilot, lambda: message(app).startswith("Hint: "))
        words = message(app)
        assert words.startswith(("Hint: lead ", "Hint: play ")), words
        assert words.endswith("(i again: the numbers)"), words
        assert "guessed deals" not in words and "averages" not in words
        assert any(suit in words for suit in "♥♦♠♣")  # cards shown with suit symbols

        await pilot.press("i")
        await wait_for(pilot, lambda: message(app).startswith("Hint, the numbers: "))
        numbers = message(app)
        assert "guessed deals" in numbers or "only card" in numbers, numbers
        assert numbers.endswith("(i: in words)")

        await pilot.press("i")  # and back to the words
        await wait_for(pilot, lambda: message(app) == words)


async def test_a_bid_hint_names_the_cards_behind_it() -> None:
    app = make_app(seed=11)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        await pilot.press("i")
        await wait_for(pilot, lambda: message(app).startswith("Hint: "))
        text = message(app)
        assert text.startswith(("Hint: say dalje: ", "Hint: name ")), text
        assert "hand worth" not in text and "guessed deals" not in text


# ---------------------------------------------------------------------- the start screen


def radio_state(screen: StartScreen, set_id: str) -> tuple[str, str, list[str]]:
    """(the pressed button, the highlighted one, the buttons drawn with ●) of a radio set."""
    radios = screen.query_one(f"#{set_id}", RadioSet)
    buttons = list(radios.query(RadioButton))
    pressed = radios.pressed_button
    assert pressed is not None
    highlighted = [b for b in buttons if b.has_class("-selected")]
    assert len(highlighted) == 1, highlighted
    dotted = [str(b.name) for b in buttons if b.BUTTON_INNER == "●"]
    return str(pressed.name), str(highlighted[0].name), dotted


async def start_screen(pilot: Pilot[Any]) -> StartScreen:
    for _ in range(100):
        await pilot.pause()
        if isinstance(pilot.app.screen, StartScreen):
            await pilot.pause()
            return pilot.app.screen
    raise AssertionError("no start screen")


async def test_the_highlight_is_on_the_chosen_target_and_level() -> None:
    """It sat on 501 (the first button) while 1001 was chosen."""
    app = make_app(resume=None, target=1001, difficulty="hard")
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await start_screen(pilot)
        assert radio_state(screen, "target") == ("1001", "1001", ["1001"])
        assert radio_state(screen, "difficulty") == ("hard", "hard", ["hard"])
        # moving the highlight and choosing with Space moves the ● along with it
        screen.query_one("#target", RadioSet).focus()
        await pilot.press("left", "space")
        assert radio_state(screen, "target") == ("701", "701", ["701"])


async def test_the_start_screen_offers_the_unfinished_matchs_settings() -> None:
    """Resuming a 501 match showed 1001 (and normal) on the start screen."""
    unfinished = Match.new(5, 501)
    save_autosave(record_from_match(unfinished, "easy"))
    app = BelaApp(resume=None, bot_delay=0.0, hold_delay=0.0)  # no target or level given
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await start_screen(pilot)
        assert screen.saved is not None and screen.saved.match.target == 501
        assert radio_state(screen, "target") == ("501", "501", ["501"])
        assert radio_state(screen, "difficulty") == ("easy", "easy", ["easy"])


@pytest.mark.slow
async def test_the_start_screen_is_drawn_before_the_save_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Reading a save costs pydantic and a replay: the first screen does not wait for it.

    The save is read once the start screen is on show; then the screen offers it
    exactly as if it had been read first: its line, Resume focused, its settings.
    """
    import bela.tui.app as app_module

    unfinished = Match.new(5, 501)
    save_autosave(record_from_match(unfinished, "easy"))
    screens_when_read: list[object] = []
    read = app_module.load_saved

    def spy() -> Any:
        screens_when_read.append(app_module.BelaApp.screen.fget(app))  # type: ignore[attr-defined]
        return read()

    monkeypatch.setattr(app_module, "load_saved", spy)
    app = BelaApp(resume=None, bot_delay=0.0, hold_delay=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await start_screen(pilot)
        assert len(screens_when_read) == 1 and screens_when_read[0] is screen
        assert not screen.query("#start-looking")
        assert "Unfinished match: round 1" in str(screen.query_one("#saved", Static).render())
        assert app.focused is screen.query_one("#resume")
        assert radio_state(screen, "target") == ("501", "501", ["501"])
        await pilot.press("enter")
        assert await settle(pilot) == "turn"
        assert table(app).match.seed == 5


@pytest.mark.slow
async def test_a_damaged_save_found_after_the_first_paint_is_reported_there() -> None:
    from bela.archive.storage import autosave_path

    autosave_path().parent.mkdir(parents=True, exist_ok=True)
    autosave_path().write_text("{ not json [b]bold[/b]", encoding="utf-8")
    app = BelaApp(resume=None, bot_delay=0.0, hold_delay=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await start_screen(pilot)
        assert screen.saved is None and not screen.query("#resume")
        problem = str(screen.query_one("#start-problem", Static).render())
        assert "[b]bold[/b]" not in problem  # the file's text is not shown, let alone as markup
        assert "could not be resumed" in problem and "autosave.corrupt-" in problem
        assert app.focused is screen.query_one("#target")  # the first choice, not a start


@pytest.mark.slow
async def test_without_an_unfinished_match_the_newest_archived_one_sets_the_start() -> None:
    archive_match(record_from_match(Match.new(1, 1001), "hard"))
    archive_match(record_from_match(Match.new(2, 701), "easy"))  # the newer one
    app = BelaApp(resume=None, bot_delay=0.0, hold_delay=0.0)  # no target or level given
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await start_screen(pilot)
        assert screen.saved is None
        assert radio_state(screen, "target") == ("701", "701", ["701"])
        assert radio_state(screen, "difficulty") == ("easy", "easy", ["easy"])


async def test_settings_given_on_the_command_line_win_over_the_last_ones() -> None:
    archive_match(record_from_match(Match.new(2, 701), "easy"))
    app = BelaApp(resume=None, target=501, bot_delay=0.0, hold_delay=0.0)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = await start_screen(pilot)
        assert radio_state(screen, "target")[0] == "501"
        assert radio_state(screen, "difficulty")[0] == "easy"


# ---------------------------------------------------------------------- the seed named at exit


@pytest.mark.slow
def test_the_seed_printed_at_exit_is_the_seed_typed_on_the_start_screen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    """Issue #12, as reported: ``bela``, Seed 777, Ctrl+N, Ctrl+Q.

    It printed the random seed the command line had chosen (before the app ran)
    while the match dealt and saved had seed 777.
    """
    run = BelaApp.run

    async def player(pilot: Pilot[Any]) -> None:
        screen = await start_screen(pilot)
        screen.query_one("#seed", Input).value = "777"
        await pilot.press("ctrl+n")
        for _ in range(200):
            await pilot.pause()
            if isinstance(pilot.app.screen, TableScreen):
                break
        await pilot.press("ctrl+q")

    def headless_run(self: BelaApp) -> Any:
        self.bot_delay = 0.0
        return run(self, headless=True, size=(100, 36), auto_pilot=player)

    monkeypatch.setattr(BelaApp, "run", headless_run)
    monkeypatch.setattr(random_module, "SystemRandom", lambda: random_module.Random(3))
    import bela.cli.play  # a terminal that can run the app (pytest's output is not one)

    monkeypatch.setattr(bela.cli.play, "wants_plain", lambda *args: False)
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out == (
        "bela: your match used seed 777 (the same cards: bela play --seed 777 --new; "
        "your match: bela history)\n"
    )
    saved = json.loads((data_dir / "autosave.json").read_text())
    assert saved["seed"] == 777


@pytest.mark.slow
async def test_a_long_hint_is_shown_whole_at_80_columns() -> None:
    """At 80×24 the bid hint's numbers take three lines: the message grows to show them all
    (it was two lines high, and the end, "(i: in words)", was cut), and the hand stays."""
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot) == "turn"
        await pilot.press("i")
        await wait_for(pilot, lambda: message(app).startswith("Hint: "))
        await pilot.press("i")
        await wait_for(pilot, lambda: message(app).startswith("Hint, the numbers: "))
        await pilot.pause()
        shown = app.screen.query_one("#message")
        lines = [line.text.rstrip() for line in shown.render_lines(shown.region.reset_offset)]
        text = " ".join(line for line in lines if line)
        assert message(app).endswith("(i: in words)") and text.endswith("(i: in words)"), lines
        hand = app.screen.query_one("#hand")
        assert hand.region.bottom <= app.screen.region.bottom - 1  # above the footer


async def test_left_left_left_enter_chooses_and_never_starts_a_match_unseen() -> None:
    """Issue #22: the arrows did nothing on the start screen, so ← ← ← Enter started a
    match to the old target (1001) while the player thought they had chosen another."""
    app = make_app(resume=None, target=1001, difficulty="normal")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_screen(pilot)
        assert app.focused is screen.query_one("#target")
        await pilot.press("left", "left", "left")
        # the ● moved with the highlight: what is on show is what is chosen
        assert radio_state(screen, "target") == ("163", "163", ["163"])
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # no match started: Enter went on to the next row
        assert app.focused is screen.query_one("#difficulty")


@pytest.mark.slow
async def test_the_arrows_move_through_target_bots_seed_and_buttons_in_order() -> None:
    app = make_app(resume=None, target=501, difficulty="normal")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_screen(pilot)
        seen = [app.focused.id if app.focused else None]
        for key in ("down", "right", "down", "down", "right", "right", "left", "left", "left"):
            await pilot.press(key)
            seen.append(app.focused.id if app.focused else None)
        assert seen == [
            "target",
            "difficulty",
            "difficulty",
            "seed",
            "new-match",
            "rules",
            "history",
            "rules",
            "new-match",
            "new-match",  # ← stops at the first button: it never wraps round to Quit
        ]
        assert radio_state(screen, "difficulty") == ("hard", "hard", ["hard"])
        await pilot.press("up", "up", "up", "up")
        assert app.focused is screen.query_one("#target")
        await pilot.press("down", "down", "down", "enter")
        assert await settle(pilot) == "turn"
        match = table(app).match
        assert match.target == 501 and table(app).difficulty == "hard"


@pytest.mark.parametrize("lang", ["hr", "es", "ru", "ar", "en"])
async def test_with_a_match_to_resume_every_start_button_is_whole_at_80x24(lang: str) -> None:
    """Issue #35, read at 80x24 in hr: with Resume offered, Quit was cut to "Kr" at the
    row's edge. Where the five do not fit, Resume and New match lose their key hints."""
    from textual.widgets import Button

    save_autosave(record_from_match(Match.new(5, 501), "easy"))
    app = BelaApp(resume=None, bot_delay=0.0, hold_delay=0.0, language=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start_screen(pilot)
        await wait_for(pilot, lambda: screen.saved is not None and screen.query("#resume"))
        await pilot.pause()
        row = screen.query_one("#start .buttons")
        buttons = list(row.query(Button))
        assert [b.id for b in buttons] == ["resume", "new-match", "rules", "history", "quit"]
        for button in buttons:
            assert button.region.right <= row.content_region.right, (
                lang,
                [(b.id, str(b.label), b.region) for b in buttons],
            )
            assert button.region.width >= len(str(button.label)) + 2, (lang, button.id)
        if lang == "en":
            assert str(buttons[0].label) == "Resume (^R)"
