"""The app with the mađarice deck (issue #35): switched in F2, the table draws and names the
German-suited cards, the suit keys follow the names, and the choice is saved."""

from __future__ import annotations

import json

import pytest
from tui_pilot import make_app, settle, table

from bela.deck import GERMAN as GERMAN_DECK
from bela.deck import set_deck
from bela.engine import Rules, Suit
from bela.i18n import set_language
from bela.settings import settings_path
from bela.tui.screens.help import help_text
from bela.tui.screens.settings import SettingsScreen
from bela.tui.screens.start import Choice
from bela.tui.widgets import BidMenu, Hand

FRENCH = set("♥♦♠♣")
GERMAN = set("❤◉❦♁")


async def test_switching_to_madjarice_in_f2_redraws_the_table_in_croatian() -> None:
    app = make_app(seed=7, language="hr")
    async with app.run_test(size=(100, 32)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        hand = str(screen.query_one(Hand).render())
        assert set(hand) & FRENCH and not set(hand) & GERMAN
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        german = next(c for c in app.screen.query(Choice) if c.name == "german")
        await pilot.click(german)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        hand = str(screen.query_one(Hand).render())
        assert set(hand) & GERMAN and not set(hand) & FRENCH, hand
        menu = str(screen.query_one(BidMenu).render())
        for line in ("[s] ❤ Srce", "[u] ◉ Bundeva", "[t] ❦ List", "[ž] ♁ Žir"):
            assert line in menu, menu
        assert "Herc" not in menu
        saved = json.loads(settings_path().read_text(encoding="utf-8"))
        assert saved["deck"] == "german"
        await pilot.press("u")  # bundeva: diamonds are trump, the record says D
        await pilot.pause()
        rnd = screen.match.current
        assert rnd is not None and rnd.trump is Suit.DIAMONDS and rnd.caller == 0


async def test_the_saved_deck_and_the_flag() -> None:
    """The saved deck opens the app; ``--deck`` wins for the run and F2 says so."""
    app = make_app(seed=7, deck="german")
    async with app.run_test(size=(100, 32)) as pilot:
        assert await settle(pilot) == "turn"
        hand = str(table(app).query_one(Hand).render())
        assert set(hand) & GERMAN and not set(hand) & FRENCH
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        differ = str(app.screen.query_one("#settings-differ").render())
        assert "Cards: mađarice" in differ and "given on the command line" in differ


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(bela_on_second=True), Rules(no_bela=True), Rules(tens_over_kings=True)],
)
@pytest.mark.parametrize("auto_bela", [True, False])
def test_the_croatian_help_names_the_madjarice_cards(rules: Rules, auto_bela: bool) -> None:
    """F1 with mađarice: srce, bundeva, list, žir; bela is the king and the baba, the fours
    count babe, not dame (the French queen is named once, where the cards are matched)."""
    set_language("hr")
    set_deck(GERMAN_DECK)
    text = help_text(rules, auto_bela=auto_bela)
    assert "srce ❤, bundeva ◉, list ❦ i žir ♁" in text
    assert "♥" not in text and "herc" not in text
    if not rules.no_bela:
        assert "Adutski kralj i baba" in text
    else:
        assert "adutski kralj i baba" in text
    assert "kralja ili babe sto" in text
    assert text.count("dama") == 1  # "u francuskim kartama J i Q, dama"
    assert "s u t ž" in text
