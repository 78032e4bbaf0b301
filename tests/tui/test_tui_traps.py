"""Issue #22, "Traps": the keys that used to lose a card, a claim or a match.

Each test drives the app by keys, as a player would, and fails on the code
before the fix.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Markdown, Static
from tui_pilot import human_move, make_app, play_round, settle, table

from bela.engine import Phase, Rules
from bela.tui.screens.help import HelpScreen, help_text
from bela.tui.screens.table import TableScreen
from bela.tui.standing import standing_after
from bela.tui.widgets import Hand


def message(screen: TableScreen) -> str:
    return str(screen.query_one("#message", Static).content)


async def until_hand_of(pilot: Any, screen: TableScreen, size: int) -> None:
    """The human's moves until it is their turn to play with ``size`` cards in hand."""
    while True:
        state = await settle(pilot)
        if state == "bela":
            await pilot.press("y")
            continue
        assert state == "turn"
        rnd = screen.match.current
        assert rnd is not None
        if rnd.phase is Phase.PLAYING and len(rnd.hand(0)) == size:
            return
        await human_move(pilot, screen)


async def test_a_number_past_the_hand_says_so_and_enter_then_plays_nothing() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = table(app)
        await until_hand_of(pilot, screen, 7)
        before = screen.match
        await pilot.press("8")
        await pilot.pause()
        assert "there is no card 8" in message(screen)
        assert "7 cards" in message(screen)
        assert screen.query_one("#hand", Hand).model.cursor is None  # nothing looks chosen
        await pilot.press("enter")
        await pilot.pause()
        assert screen.match is before  # Enter played nothing
        assert "No card is chosen" in message(screen)
        await pilot.press("right")  # an arrow chooses again, and Enter plays that card
        await pilot.pause()
        chosen = screen.query_one("#hand", Hand).model.cursor
        assert chosen is not None
        card = screen.hand_cards()[chosen]
        rnd = screen.match.current
        assert rnd is not None
        if rnd.legal_mask() >> card & 1:
            await pilot.press("enter")
            await pilot.pause()
            assert screen.match is not before
            assert card not in screen.match.current.hand(0)  # type: ignore[union-attr]


def test_the_help_says_the_bela_rule_in_play() -> None:
    """F1 said bela comes "with the second of them (you are asked)" under the default:
    the first card carries it, announced by the app."""
    standard = help_text(Rules())
    assert "announced with the first of them to be played" in standard
    assert "the app announces it for you" in standard
    assert "second" not in standard
    old = help_text(Rules(bela_on_second=True), auto_bela=False)
    assert "announced with the second of them to be played" in old and "you are asked" in old
    assert "not played in this match" in help_text(Rules(no_bela=True))


def test_the_help_follows_every_house_rule_it_names() -> None:
    standard = help_text(Rules())
    changed = {
        "stiglja_bonus": (Rules(stiglja_bonus=100), "gets 100 extra"),
        "visi": (Rules(visi=True), "**Visi.**"),
        "dosta": (Rules(dosta=True), "**Na dosta**"),
        "no_zvanja": (Rules(no_zvanja=True), "are not played in this match"),
        "no_forced_trump": (Rules(no_forced_trump=True), "the deal is void"),
        "clockwise": (Rules(clockwise=True), "Play goes clockwise"),
        "bela_always_counts": (Rules(bela_always_counts=True), "Bela se uvijek piše"),
        "tens_over_kings": (Rules(tens_over_kings=True), "tens rank above kings"),
    }
    for field, (rules, words) in changed.items():
        assert words not in standard, field
        assert words in help_text(rules), field
    assert "gets 90 extra" in standard


def test_the_help_names_brza_163_and_the_target_in_play() -> None:
    assert "Brza 163" in help_text(Rules())
    quick = help_text(Rules(), target=163)
    assert "three deals" in quick and "501, 701 or 1001" not in quick
    assert "played to 701" in help_text(Rules(), target=701)


async def test_f1_at_the_table_describes_its_house_rules() -> None:
    app = make_app(seed=7, rules=Rules(bela_on_second=True), auto_bela=False)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        source = app.screen.query_one(Markdown).source
        assert "announced with the second of them to be played" in source
        assert "This one is played to 501" in source


def standing(app: Any) -> str:
    return str(app.screen.query_one("#standing", Static).content)


async def test_brza_163_counts_its_three_deals_and_never_says_to_163() -> None:
    app = make_app(seed=7, target=163)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = table(app)
        assert await settle(pilot) == "turn"
        status = str(screen.query_one("#status", Static).content)
        assert status.startswith("Brza 163: deal 1 of 3 · dealer Ana")
        assert "to 163" not in status
        assert "deal 1 of 3" in str(screen.query_one("#sheet").render())
        deals = 0
        while True:
            await play_round(pilot)
            deals += 1
            words = standing(app)
            assert "163)" not in words and "to 163" not in words, words
            if deals < 3:
                assert f"(brza 163: deal {deals} of 3)" in words, words
            await pilot.press("enter")
            state = await settle(pilot)
            if state == "end":
                break
            if deals >= 3:  # only equal totals play on
                assert screen.match.scores[0] == screen.match.scores[1]
            status = str(screen.query_one("#status", Static).content)
            assert status.startswith(f"Brza 163: deal {deals + 1}"), status
        assert deals >= 3
        winner = str(app.screen.query_one("#winner", Static).content)
        assert "the higher total" in winner


def test_the_standing_after_the_last_deal_says_it_is_played_out() -> None:
    assert standing_after((170, 120), 163, 3) == (
        "Score: mi 170 · vi 120  (brza 163: played out, the higher total wins)"
    )
    assert standing_after((150, 150), 163, 3) == (
        "Score: mi 150 · vi 150  (brza 163: equal after deal 3, one more deal)"
    )
    assert standing_after((300, 200), 501, 2) == "Score: mi 300 · vi 200  (to 501)"
