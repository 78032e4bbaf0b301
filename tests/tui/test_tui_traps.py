"""Issue #22, "Traps": the keys that used to lose a card, a claim or a match.

Each test drives the app by keys, as a player would, and fails on the code
before the fix.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from textual.widgets import Markdown, Static
from tui_pilot import human_move, make_app, play_round, settle, table

from bela.engine import Phase, Rules
from bela.tui.screens.help import HelpScreen, help_text
from bela.tui.screens.net_table import NetTableScreen
from bela.tui.screens.prompts import DostaPrompt
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


@pytest.mark.slow
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


async def test_a_number_past_the_bid_menu_says_so_and_moves_nothing() -> None:
    """The bid menu has five choices; 6, 7 or 8 used to be ignored without a word."""
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = table(app)
        assert await settle(pilot) == "turn"
        rnd = screen.match.current
        assert rnd is not None and rnd.phase is Phase.BIDDING  # seat 0 speaks first
        await pilot.press("2")
        await pilot.pause()
        assert screen.bid_cursor == 1
        before = len(rnd.actions)
        await pilot.press("8")
        await pilot.pause()
        assert "There is no choice 8" in message(screen)
        assert "(h d s c)" in message(screen) and "dalje (p)" in message(screen)
        assert screen.bid_cursor == 1  # still on the bid the player chose
        assert len(rnd.actions) == before  # nothing was bid


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


@pytest.mark.slow
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


@pytest.mark.slow
async def test_brza_163_counts_its_three_deals_and_never_says_to_163() -> None:
    app = make_app(seed=7, target=163)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = table(app)
        assert await settle(pilot) == "turn"
        status = str(screen.query_one("#status", Static).content)
        assert status.startswith("Deal 1 of 3 · dealer Ana")
        assert "to 163" not in status
        assert "deal 1 of 3" in str(screen.query_one("#sheet").render())
        talk = "\n".join(str(line) for line in screen.query_one("#log").lines)
        assert "Brza 163 (three deals)" in talk and "Match to 163" not in talk
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
            assert status.startswith(f"Deal {deals + 1}"), status
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


# ---------------------------------------------------------------------- at a network seat


SEAT_SEED = 7
"""The network table's deal in the dosta test below."""


async def _seat_until(pilot: Any, app: Any, done: Any) -> Any:
    """Play the first allowed card (its number, Enter) at the seat until ``done(screen)``;
    a moment over the table (the zvanja) is closed with Space."""
    from net_pilot import net_screen, until

    screen = None
    for _ in range(60):
        await until(
            pilot,
            lambda: not isinstance(app.screen, NetTableScreen) or net_screen(app).my_turn(),
            tries=1500,
        )
        if not isinstance(app.screen, NetTableScreen):
            await pilot.press("space")
            continue
        screen = net_screen(app)
        if done(screen):
            return screen
        before = screen.state.seq
        if screen.state.view.phase == "playing":  # the first card allowed, by its number
            legal = screen._legal_cards(screen.state.view)
            first = next(i for i, c in enumerate(screen.hand_cards()) if c in legal)
            await pilot.press(str(first + 1))
        await pilot.press("enter")
        await until(pilot, lambda s=screen, b=before: s.state.seq != b, tries=1500)
    raise AssertionError("never got there")


@pytest.mark.slow
async def test_at_a_network_seat_dosta_short_is_not_asked_and_a_number_past_the_hand_plays_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from net_pilot import net_screen, until

    import bela.net.server

    # a fixed deal: with a random one the bots could reach the target and claim first,
    # ending the match before our seat may say dosta (the test then waited in vain)
    monkeypatch.setattr(bela.net.server, "new_seed", lambda: SEAT_SEED)

    from bela.net.saves import TableSaver
    from bela.net.server import Server, ServerOptions
    from bela.tui import BelaApp
    from bela.tui.remote import RemoteSession

    # easy bots: a random bot may say a wrong dosta itself and end the match first
    options = ServerOptions(
        difficulty="easy", target=501, bot_delay=0.0, wait=0.2, rules=Rules(dosta=True)
    )
    server = Server(options, TableSaver())
    _, port = await server.listen("127.0.0.1", 0)
    table_ = server.new_table()
    session = RemoteSession("127.0.0.1", port, table_.code, "Ana", lead=table_.leader_key)
    app = BelaApp(remote=session, reduced_motion=True)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            await pilot.press("g")
            await until(pilot, lambda: net_screen(app).my_turn())
            cursor = net_screen(app).bid_cursor
            await pilot.press("8")  # past the bid menu: it used to move to dalje
            await pilot.pause()
            said = str(net_screen(app).query_one("#message", Static).content)
            assert "There is no choice 8" in said
            assert net_screen(app).bid_cursor == cursor
            await pilot.press("h")  # hearts: seat 0 speaks first
            screen = await _seat_until(
                pilot, app, lambda s: s.state.view.phase == "playing" and len(s.hand_cards()) < 8
            )
            seq = screen.state.seq
            await pilot.press("8")
            await pilot.pause()
            assert "there is no card 8" in str(screen.query_one("#message", Static).content)
            assert screen.query_one("#hand", Hand).model.cursor is None
            await pilot.press("enter")
            for _ in range(20):
                await pilot.pause(0.01)
            assert screen.state.seq == seq  # nothing was sent
            assert "No card is chosen" in str(screen.query_one("#message", Static).content)
            screen = await _seat_until(pilot, app, lambda s: s.state.view.can_claim)
            assert "dosta" not in str(screen.query_one("#message", Static).content)
            seq = screen.state.seq
            await pilot.press("k")  # short of the target: only what is missing is said
            await pilot.pause()
            assert app.screen is screen and not isinstance(app.screen, DostaPrompt)
            said = str(screen.query_one("#message", Static).content)
            assert said.startswith("Not dosta yet: we have ") and "of 501" in said
            for _ in range(20):
                await pilot.pause(0.01)
            assert screen.state.seq == seq  # nothing was sent
            await pilot.press("enter")  # a stray Enter after it claims nothing
            for _ in range(20):
                await pilot.pause(0.01)
            assert table_.match is not None
            assert all(r.result.claim is None for r in table_.match.rounds)
    finally:
        await server.close()


def test_a_brza_163_names_no_na_dosta_and_its_blok_heads_brza_163() -> None:
    """Issue #35: a brza 163 under the house rule na dosta showed "na dosta" in its panel
    (there is no target score to claim) and its blok was headed "cilj 163"."""
    from rich.console import Console

    from bela.archive.replay_text import render_sheet, sheet_table
    from bela.engine import Match
    from bela.i18n import set_language
    from bela.tui.screens.table import _rules_named

    quick = Match.new(1, 163, Rules(dosta=True, visi=True))
    assert _rules_named(Match.new(1, 501, Rules(dosta=True))) == "na dosta"
    assert "na dosta" not in _rules_named(quick) and "visi" in _rules_named(quick)
    set_language("hr")
    try:
        assert str(sheet_table(quick).title) == "Blok · brza 163"
        console = Console(record=True, width=100, file=io.StringIO())
        console.print(render_sheet(quick, "normal"))
        text = console.export_text()
    finally:
        set_language("en")
    assert "brza 163" in text and "cilj 163" not in text and "na dosta" not in text


async def test_a_brza_163s_talk_names_the_deal_as_its_header_does() -> None:
    """Issue #35: the header said "Dijeljenje 1 od 3" and the talk "— Runda 1 —"."""
    app = make_app(seed=21, target=163, language="hr")
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        screen = table(app)
        status = str(screen.query_one("#status", Static).content)
        talk = "\n".join(line.text for line in screen.query_one("#log").lines)  # type: ignore[attr-defined]
        assert status.startswith("Dijeljenje 1 od 3")
        assert "— Dijeljenje 1 od 3 —" in talk and "Runda 1" not in talk
