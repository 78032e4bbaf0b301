"""Every key is documented, from one table (``bela.keys``): README, F1 help and the palette.

Issue #12: the README's key table and the F1 help left out ``i`` (hint), ``a``
(analysis) and ``n`` (new match), and the command palette had no hint.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.widgets import Markdown
from tui_pilot import make_app, play_round, settle, table

from bela.engine import Pass, Suit
from bela.i18n import LANGUAGES, set_language
from bela.keys import (
    ACTIONS,
    KEYS,
    LETTERS,
    MOMENTS,
    help_lines,
    key_table,
    letters_of,
    readme_letters_table,
    readme_table,
)
from bela.tui import BelaApp
from bela.tui.commands import BelaCommands
from bela.tui.screens.help import HelpScreen
from bela.tui.screens.summary import RoundSummaryScreen
from bela.tui.screens.table import TableScreen

README = Path(__file__).resolve().parents[2] / "README.md"


def bound_keys() -> set[str]:
    """Every key the table screen and the app bind, and the summary's analysis key
    (the letters of every language: ``bind_letters`` binds them)."""
    bindings = [*TableScreen.BINDINGS, *BelaApp.BINDINGS]
    bindings += [b for b in RoundSummaryScreen.BINDINGS if isinstance(b, Binding)]
    keys: set[str] = set()
    for binding in bindings:
        assert isinstance(binding, Binding)
        if isinstance(binding.action, str) and binding.action == "close":
            continue  # the summary's "carry on" keys are the table's Enter/Space/Escape
        keys.update(binding.key.split(","))
    for code in LANGUAGES:
        keys.update(letters_of(code).values())
    return keys


def test_every_bound_key_is_in_the_key_table() -> None:
    listed = {name for key in KEYS for code in LANGUAGES for name in key.key_names(code)}
    missing = bound_keys() - listed
    assert not missing, f"keys bound but not in bela.keys.KEYS: {sorted(missing)}"
    assert {"i", "a", "n"} <= listed


def test_the_readme_shows_the_key_table_word_for_word() -> None:
    assert readme_table() in README.read_text(encoding="utf-8"), (
        "README.md's key table differs from bela.keys.readme_table(): paste its output"
    )


@pytest.mark.slow
async def test_f1_shows_every_key() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one(Markdown).source
        assert help_lines() in source
        for key in KEYS:
            assert f"- **{key.keys_shown()}**: {key.what}" in source


@pytest.mark.slow
async def test_the_palette_offers_the_hint_at_the_table_and_the_analysis_after_a_round() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        names = [name for name, _, _ in BelaCommands(table(app))._commands()]
        assert "Hint" in names and "Analysis" not in names
        await play_round(pilot)
        summary = app.screen
        assert isinstance(summary, RoundSummaryScreen)
        names = [name for name, _, _ in BelaCommands(summary)._commands()]
        assert "Analysis" in names and "Hint" not in names
        assert "Bot in my seat" in names


def test_the_croatian_readme_shows_the_croatian_key_table() -> None:
    """README.hr.md's key table is the hr catalog's words (paste ``key_table()`` under hr)."""
    set_language("hr")
    table = key_table()
    assert "| tipka | što radi |" in table
    assert table in (README.parent / "README.hr.md").read_text(encoding="utf-8")


def test_no_letter_does_two_things_in_any_moment_in_any_language() -> None:
    """Issue #22: in hr ``p`` is pik and ``k`` karo, so dalje and dosta need other letters."""
    assert set(LETTERS) == set(LANGUAGES)
    for code in LANGUAGES:
        table = letters_of(code)
        assert set(table) == set(ACTIONS), code
        for moment in MOMENTS:
            acting = [a for a, spec in ACTIONS.items() if moment in spec.moments]
            keys = [table[a] for a in acting]
            clashes = {k for k in keys if keys.count(k) > 1}
            assert not clashes, f"{code}, {moment}: {clashes} do two things"


def test_croatian_keys_are_the_suits_initials() -> None:
    hr = letters_of("hr")
    assert [hr[s] for s in ("hearts", "diamonds", "spades", "clubs")] == ["h", "k", "p", "t"]
    assert hr["pass"] not in "hkpt" and hr["dosta"] not in "hkpt"


def test_the_readme_shows_every_languages_letters() -> None:
    table = readme_letters_table()
    assert "| Dalje | p | d |" in table
    assert table in README.read_text(encoding="utf-8"), (
        "README.md's letters table differs from bela.keys.readme_letters_table()"
    )


@pytest.mark.slow
async def test_in_croatian_p_names_pik_and_d_says_dalje() -> None:
    app = make_app(seed=7, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        await pilot.press("p")  # pik: spades are trump (it passed before)
        await pilot.pause()
        rnd = screen.match.current
        assert rnd is not None and rnd.trump is Suit.SPADES and rnd.caller == 0
        await pilot.press("f1")
        await pilot.pause()
        source = app.screen.query_one(Markdown).source
        assert "- **h k p t**:" in source and "- **d**:" in source


async def test_in_croatian_d_says_dalje() -> None:
    app = make_app(seed=7, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        screen = table(app)
        await pilot.press("d")
        await pilot.pause()
        rnd = screen.match.current
        assert rnd is not None and rnd.bids and rnd.bids[0] == (0, Pass())


async def test_switching_language_at_the_table_switches_the_letters() -> None:
    app = make_app(seed=7, language="en")
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        app.change_language("hr")
        await pilot.pause()
        await pilot.press("k")  # karo in Croatian (it was dosta in English)
        await pilot.pause()
        rnd = table(app).match.current
        assert rnd is not None and rnd.trump is Suit.DIAMONDS and rnd.caller == 0
    set_language("en")


def test_the_croatian_readme_lists_every_target_and_numbers_the_seats_1_to_4() -> None:
    """Issue #35: README.hr.md offered 501 / 701 / 1001 (no brza 163) and sat the player at
    "mjesto 0", where every screen numbers the seats 1-4."""
    from bela.engine import TARGETS

    text = (README.parent / "README.hr.md").read_text(encoding="utf-8")
    assert " / ".join(str(t) for t in sorted(TARGETS)) in text
    assert not re.search(r"mjest[oau] 0\b", text)
    assert "mjesto 1" in text
