"""The app in every language (issue #15): pictures at 80 × 24, nothing cut off, switching.

The pictures are the start screen, a trick in progress and the round summary in
each shipped language (English's are in ``test_tui_snapshots.py``); Chinese
characters take two cells, so a label that fits in English may not. Beside the
pictures, a check that can fail without anyone looking at them: every button,
label and footer key is whole on the screen, its words inside its box.

Regenerate with ``pytest tests/tui/test_tui_languages.py --snapshot-update`` and
look at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Footer, Label, Select
from textual.widgets._footer import FooterKey
from textual.widgets._toggle_button import ToggleButton
from tui_pilot import human_move, make_app, play_round, settle, table

from bela.engine import Phase
from bela.i18n import LANGUAGES, _, current_language
from bela.settings import Settings, save_settings
from bela.tui import BelaApp
from bela.tui.screens.help import HelpScreen
from bela.tui.screens.settings import SettingsScreen
from bela.tui.screens.start import StartScreen
from bela.tui.screens.summary import RoundSummaryScreen
from bela.tui.widgets.table_talk import TableTalk

SIZE = (80, 24)
Snap = Callable[..., bool]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
LANGS = pytest.mark.parametrize("lang", TRANSLATED)


def still_app(lang: str, **kwargs: Any) -> BelaApp:
    """As ``test_tui_snapshots.still_app``: random bots, no toasts; in ``lang``."""
    app = make_app(**{"difficulty": "random", "language": lang, **kwargs})
    app.notify = lambda *args, **kw: None  # type: ignore[method-assign]
    return app


async def quiet(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def assert_nothing_cut(app: BelaApp) -> None:
    """Every button, label and footer key lies inside the screen, its words inside it."""
    width, height = app.size
    cut = []
    for widget in app.screen.query("*"):
        if not widget.display or not widget.region.area:
            continue
        region = widget.region
        outside = region.right > width or region.bottom > height
        if isinstance(widget, (Button, Label, FooterKey)) and outside:
            cut.append((type(widget).__name__, region))
        if isinstance(widget, ToggleButton) and region.right > _room(widget):
            cut.append((str(widget.label), region.right, _room(widget)))  # cut by a box's edge
        if isinstance(widget, Button):
            words = str(widget.label)
            if cell_len(words) > widget.content_region.width:
                cut.append((words, widget.content_region.width))
        if isinstance(widget, FooterKey):
            shown = cell_len(widget.description) + cell_len(widget.key_display) + 1
            if shown > region.width:
                cut.append((widget.description, region.width))
    for footer in app.screen.query(Footer):  # no key runs under the palette's, docked right
        keys = list(footer.query(FooterKey))
        palette = [key for key in keys if key.has_class("-command-palette")]
        end = palette[0].region.x if palette else footer.region.right
        for key in keys:
            if key not in palette and key.region.right > end:
                cut.append(("footer", key.description, key.region.right, end))
    assert not cut, cut


def _room(widget: Widget) -> int:
    """The rightmost column the boxes around ``widget`` leave it (their content's edge)."""
    edges = [
        node.content_region.right
        for node in widget.ancestors
        if isinstance(node, Widget) and node.content_region.width
    ]
    return min(edges, default=widget.app.size.width)


async def to_mid_trick(pilot: Pilot[Any]) -> None:
    while True:
        assert await settle(pilot) == "turn"
        screen = table(pilot.app)  # type: ignore[arg-type]
        rnd = screen.match.current
        assert rnd is not None
        if rnd.phase is Phase.PLAYING and rnd.trick:
            await quiet(pilot)
            return
        await human_move(pilot, screen)


@pytest.mark.slow
@LANGS
def test_start_screen(snap_compare: Snap, lang: str) -> None:
    app = still_app(lang, seed=7, resume=None, difficulty="normal")

    async def ready(pilot: Pilot[Any]) -> None:
        await quiet(pilot)
        assert isinstance(app.screen, StartScreen)
        assert_nothing_cut(app)

    assert snap_compare(app, terminal_size=SIZE, run_before=ready)


@pytest.mark.slow
@LANGS
def test_trick_in_progress(snap_compare: Snap, lang: str) -> None:
    app = still_app(lang, seed=7)

    async def mid_trick(pilot: Pilot[Any]) -> None:
        await to_mid_trick(pilot)
        assert_nothing_cut(app)

    assert snap_compare(app, terminal_size=SIZE, run_before=mid_trick)


@LANGS
@pytest.mark.slow
def test_round_summary(snap_compare: Snap, lang: str) -> None:
    app = still_app(lang, seed=7)

    async def to_the_summary(pilot: Pilot[Any]) -> None:
        await play_round(pilot)
        await quiet(pilot)
        assert isinstance(app.screen, RoundSummaryScreen)
        assert_nothing_cut(app)

    assert snap_compare(app, terminal_size=SIZE, run_before=to_the_summary)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.slow
async def test_the_settings_fit_at_80x24(lang: str) -> None:
    """F2 in every language: each choice whole on its row (Russian's speeds once were not)."""
    app = make_app(resume=None, language=lang)
    async with app.run_test(size=SIZE) as pilot:
        await quiet(pilot)
        await pilot.press("f2")
        await quiet(pilot)
        assert isinstance(app.screen, SettingsScreen)
        assert_nothing_cut(app)


@pytest.mark.slow
async def test_the_saved_language_is_spoken_and_the_flag_wins() -> None:
    assert save_settings(Settings(language="hr")) is None
    app = make_app(resume=None)
    async with app.run_test(size=SIZE) as pilot:
        await quiet(pilot)
        assert current_language() == "hr"
        assert app.screen.query_one("#new-match", Button).label.plain == "Nova partija (^N)"
    app = make_app(resume=None, language="es")
    async with app.run_test(size=SIZE):
        assert current_language() == "es"


@pytest.mark.slow
async def test_the_settings_switch_the_language_and_keep_it() -> None:
    """F2, the language picker: the open screens redraw in the new language; it is saved."""
    app = make_app(resume=None)
    async with app.run_test(size=(100, 36)) as pilot:
        await quiet(pilot)
        await pilot.press("f2")
        await quiet(pilot)
        assert isinstance(app.screen, SettingsScreen)
        picker = app.screen.query_one("#language", Select)
        picker.value = "ru"
        await quiet(pilot)
        assert current_language() == "ru"
        assert app.settings_store.saved.language == "ru"
        title = app.screen.query(".title").first()
        assert str(title.render()) == _("Settings") != "Settings"
        await pilot.press("escape")
        await quiet(pilot)
        assert isinstance(app.screen, StartScreen)
        button = app.screen.query_one("#new-match", Button)
        assert button.label.plain == _("New match (^N)") != "New match (^N)"


@pytest.mark.slow
async def test_the_help_screen_switches_the_language() -> None:
    app = make_app(resume=None)
    async with app.run_test(size=(100, 36)) as pilot:
        await quiet(pilot)
        await pilot.press("f1")
        await quiet(pilot)
        assert isinstance(app.screen, HelpScreen)
        app.screen.query_one("#language", Select).value = "zh"
        await quiet(pilot)
        assert current_language() == "zh"
        assert isinstance(app.screen, HelpScreen)
        from textual.widgets import Markdown

        source = app.screen.query_one(Markdown).source
        assert _("Bela: rules and keys") in source and "Bela: rules and keys" not in source


@pytest.mark.slow
async def test_a_game_in_croatian_speaks_croatian_at_the_table() -> None:
    """The table's words in hr: the status line, the talk, an illegal card's reason."""
    app = make_app(language="hr", seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        rnd = screen.match.current
        assert rnd is not None
        talk = " ".join(entry.plain for entry in screen.query_one("#log", TableTalk).entries)
        assert "Partija do 501" in talk and "Match to" not in talk
        while rnd.phase is not Phase.PLAYING or not rnd.trick:
            await human_move(pilot, screen)
            assert await settle(pilot) == "turn"
            rnd = screen.match.current
            assert rnd is not None
        legal = {int(c) for c in range(32) if rnd.legal_mask() >> c & 1}
        cards = screen.hand_cards()
        refused = [i for i, card in enumerate(cards) if int(card) not in legal]
        if refused:
            await pilot.press(str(refused[0] + 1), "enter")
            await pilot.pause()
            message = str(screen.query_one("#message").render())
            assert "nije dopuštena" in message, message
        assert current_language() == "hr"
