"""Names (issue #22): the player names themselves and the three bots in the settings (F2);
every screen, the records and a network table use them. Names are the player's text:
shown as text (never markup), cut to a sane length, a bad one refused in one line."""

from __future__ import annotations

import json
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_pilot import make_app, settle, table

from bela.archive.storage import load_autosave
from bela.cli.net import default_name, login_name
from bela.i18n import set_language
from bela.settings import (
    NAME_LIMIT,
    Settings,
    clean_name,
    parse_settings,
    save_settings,
    settings_path,
)
from bela.table_text import SEAT_NAMES
from bela.tui import BelaApp
from bela.tui.screens.settings import SettingsScreen
from bela.tui.widgets import SeatBadge

SIZE = (100, 40)


async def type_name(pilot: Pilot[Any], seat: int, name: str) -> Input:
    screen = pilot.app.screen
    assert isinstance(screen, SettingsScreen)
    field = screen.query_one(f"#name-{seat}", Input)
    field.focus()
    field.value = ""
    await pilot.pause()
    await pilot.press(*name, "enter")
    await pilot.pause()
    return field


def notices(app: BelaApp) -> list[str]:
    seen: list[str] = []
    real = app.notify

    def record(message: str, **kwargs: Any) -> None:
        seen.append(message)
        real(message, **kwargs)

    app.notify = record  # type: ignore[method-assign]
    return seen


@pytest.mark.slow
async def test_the_bots_named_in_f2_sit_at_the_table_and_the_name_is_saved() -> None:
    app = BelaApp(resume=None, hold_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        await type_name(pilot, 2, "Mate")
        await type_name(pilot, 0, "Lucija")
        assert app.bot_names == ("Ivo", "Mate", "Ana")
        assert app.player_name == "Lucija"
        assert SEAT_NAMES[2] == "Mate"
    saved = json.loads(settings_path().read_text())
    assert saved["bot_names"] == ["Ivo", "Mate", "Ana"] and saved["player_name"] == "Lucija"

    app = make_app(seed=7)  # a restart: the names come back from the file
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        badges = [b.model.name for b in table(app).query(SeatBadge) if b.model is not None]
        assert "Mate" in badges and "Marko" not in badges
        record = load_autosave()
        assert record is not None and record.players == ("Lucija", "Ivo", "Mate", "Ana")


@pytest.mark.slow
async def test_a_bad_name_is_refused_in_one_line_and_changes_nothing() -> None:
    app = BelaApp(resume=None, hold_delay=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen = notices(app)
        await pilot.press("f2")
        await pilot.pause()
        field = await type_name(pilot, 1, " ")  # a bot must have a name
        assert field.value == "Ivo"
        assert app.bot_names == ("Ivo", "Marko", "Ana")
        assert seen and "\n" not in seen[-1] and "1 to" in seen[-1]
    assert not settings_path().exists() or "bot_names" not in settings_path().read_text()


@pytest.mark.slow
async def test_a_name_with_markup_is_shown_as_it_was_typed() -> None:
    save_settings(Settings(bot_names=("[b]Ivo[/b]", "Marko", "Ana")))
    app = make_app(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert SEAT_NAMES[1] == "[b]Ivo[/b]"
        texts = [str(b.render()) for b in table(app).query(SeatBadge)]
        assert any("[b]Ivo[/b]" in t for t in texts)


def test_names_are_cleaned_and_bounded() -> None:
    assert clean_name("  Ana\x1b[31m ") == "Ana[31m"
    assert clean_name("", empty=True) == ""
    with pytest.raises(ValueError, match="1 to"):
        clean_name("x" * (NAME_LIMIT + 1))
    with pytest.raises(ValueError):
        clean_name("\n\t")


def test_a_settings_file_with_a_bad_name_is_refused() -> None:
    good = Settings(bot_names=("A", "B", "C"), player_name="Ja").to_json()
    assert parse_settings(good.encode()).bot_names == ("A", "B", "C")
    for bad in ('["A", "B"]', '["A", "B", ""]', '["A", "B", "' + "x" * 40 + '"]', '"ABC"'):
        data = json.loads(good)
        data["bot_names"] = json.loads(bad)
        with pytest.raises(ValueError):
            parse_settings(json.dumps(data).encode())


def test_the_network_table_takes_the_players_name_from_the_settings() -> None:
    set_language("hr")
    assert default_name("host") == "Domaćin"
    assert default_name("join") == login_name()  # the host's line is pasted as it is
    save_settings(Settings(player_name="Lucija"))
    assert default_name("host") == "Lucija"
    assert default_name("join") == "Lucija"


def test_every_screen_that_names_the_bots_names_them_as_the_player_did() -> None:
    """Start screen, match end, help and statistics named Marko, Ivo and Ana in their words."""
    from bela.engine import Match
    from bela.tui.screens.help import help_text
    from bela.tui.screens.match_end import winner_text
    from bela.tui.screens.start import _intro
    from bela.wording import set_bot_names

    set_language("hr")
    set_bot_names(("Joško", "*Mate*", "Dora"))
    assert _intro() == "Hrvatska bela: ti i *Mate* ste na bloku „mi”, a Joško i Dora „vi”."
    won = Match(seed=1, target=501, scores=(523, 410), winner=0)
    lost = Match(seed=1, target=501, scores=(300, 515), winner=1)
    assert winner_text(won).startswith("Ti i *Mate* ste pobijedili")
    assert winner_text(lost).startswith("Joško i Dora su pobijedili")
    help_markdown = help_text()
    assert r"**\*Mate\***" in help_markdown  # the name's stars are the name's, not emphasis
    for text in (_intro(), winner_text(won), winner_text(lost), help_markdown):
        assert "Marko" not in text and "Ivo" not in text and "Ana " not in text


async def test_the_players_name_from_f2_sits_at_the_table_and_speaks_in_the_talk() -> None:
    """Issue #35: with a name given in F2 the table still called the player "Ti" ("Ti:
    dalje", "▶ Ti · mi"): the pronoun used as a name. The name is used instead."""
    save_settings(Settings(player_name="Lucija"))
    app = make_app(seed=7, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        badges = [b.model.name for b in screen.query(SeatBadge) if b.model is not None]
        assert "Lucija" in badges and "Ti" not in badges
        await pilot.press("d")  # dalje (or, forced as dealer, nothing happens)
        await settle(pilot)
        talk = "\n".join(str(line) for line in screen.query_one("#log").lines)  # type: ignore[attr-defined]
        assert "Lucija: " in talk and "Ti: " not in talk, talk
    assert SEAT_NAMES[0] == "Lucija"


@pytest.mark.parametrize(
    ("target", "head"),
    [(501, "Runda 2 · dijeliš ti · mi "), (163, "Dijeljenje 1 od 3 · dijeliš ti")],
)
async def test_when_the_player_deals_the_header_says_dijelis_ti(target: int, head: str) -> None:
    """Issue #35: the status line said "dijeli Ti" (the pronoun in a name's place)."""
    app = make_app(seed=7, start_round=1, target=target, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        screen = table(app)
        assert screen.match.current is not None and screen.match.current.dealer == 0
        status = str(screen.query_one("#status", Static).content)
        assert status.startswith(head), status
        assert "dijeli Ti" not in status


async def test_enter_is_choose_while_naming_trump_and_play_after() -> None:
    """Issue #35: the footer said "⏎ Baci" (play) while the player was naming trump."""
    from textual.widgets._footer import FooterKey

    def enter_word(screen: Any) -> str:
        words = [k.description for k in screen.query(FooterKey) if k.key == "enter"]
        assert len(words) == 1, words
        return str(words[0])

    app = make_app(seed=7, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        assert screen._bidding_now()
        await pilot.pause()
        assert enter_word(screen) == "Zovi"  # as short as "Baci": the footer fits 80 columns
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        keys = list(screen.query(FooterKey))
        assert keys and all(screen.region.contains_region(k.region) for k in keys)
        for i, key in enumerate(keys):  # none under another (the palette's, docked right)
            assert not any(key.region.overlaps(other.region) for other in keys[i + 1 :])
        await pilot.resize_terminal(100, 36)
        await pilot.pause()
        await pilot.press("h")  # hearts: seat 0 speaks first
        assert await settle(pilot) == "turn"
        await pilot.pause()
        assert not screen._bidding_now()
        assert enter_word(screen) == "Baci"
