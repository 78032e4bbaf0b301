"""The moments of Bela on the table (issue #12): zvanja said and laid, bela, the gathered trick.

Each test plays a seeded match by keys with instant bots. The zvanja moment only
comes when tricks are held (``hold_delay`` > 0: at instant speed it is skipped),
so its tests give a long hold and never wait for it.
"""

from __future__ import annotations

from typing import Any

import pytest
from rich.color import Color, ColorSystem
from textual.command import CommandList, CommandPalette
from textual.geometry import Region
from textual.pilot import Pilot
from tui_pilot import (
    first_legal_index,
    human_move,
    make_app,
    play_round,
    settle,
    table,
    until_zvanja,
)

import bela.tui.widgets.trick as trick_module
from bela.engine import Call, Card, Match, Rank, Suit
from bela.table_text import card_text
from bela.tui import BelaApp
from bela.tui.model import TrickModel, trick_cards
from bela.tui.screens.prompts import BelaPrompt
from bela.tui.screens.zvanja import ZvanjaScreen
from bela.tui.widgets import TrickView
from bela.tui.widgets.cards import DIM_RED, RED
from bela.tui.widgets.trick import gather_text
from bela.tui.widgets.zvanja import ZvanjaPanel
from bela.tui.zvanja_talk import zvanja_talk

ZVANJA_SEED = 18
"""With random bots and the human saying dalje, Marko (mi) and Ana (vi) both hold 20
in round 1: Marko's reaches the higher card, so Ana's 9♥ 10♥ J♥ must stay hidden."""


def screen_text(app: BelaApp) -> str:
    """Everything drawn on every screen in the stack, widget by widget."""
    lines: list[str] = []
    for screen in app.screen_stack:
        for widget in screen.query("*"):
            if not widget.display or not widget.size.area:
                continue
            region = Region(0, 0, widget.size.width, widget.size.height)
            lines += [strip.text for strip in widget.render_lines(region)]
    return "\n".join(lines)


@pytest.mark.slow
async def test_the_zvanja_are_said_in_turn_and_only_the_winners_cards_are_laid() -> None:
    app = make_app(seed=ZVANJA_SEED, difficulty="random", hold_delay=60)
    async with app.run_test(size=(100, 36)) as pilot:
        moment = await until_zvanja(pilot)
        screen = table(app)
        rnd = screen.match.current
        assert rnd is not None and not rnd.trick
        said = screen_text(app)
        assert "You: nothing" in said  # the human's own words, said for them
        assert "Marko: 20" in said
        assert "Ana: 20" in said
        assert "Marko: 20 to the queen" in said
        assert "Our zvanja count: 20" in said
        # laid face up: Marko's cards; hidden everywhere: Ana's losing sequence
        (marko,) = rnd.declarations(2)
        (ana,) = rnd.declarations(3)
        assert all(card_text(c) in said for c in marko.cards)
        assert not any(card_text(c) in said for c in ana.cards)
        assert zvanja_talk(rnd).laid == ((2, (marko,)),)

        # the key that closes the moment does nothing else: no card is played
        match = screen.match
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen_stack[-1] is not moment and app.screen is screen
        assert screen.match is match and screen.human_turn()
        # during the first trick the winners' cards stay on show beside the table
        panel = screen.query_one("#zvanja", ZvanjaPanel)
        assert panel.display
        shown = screen_text(app)
        assert all(card_text(c) in shown for c in marko.cards)
        assert not any(card_text(c) in shown for c in ana.cards)
        assert "Zvanja · mi 20" in str(panel.border_title)


async def test_at_instant_speed_the_moment_is_skipped_and_the_panel_stays() -> None:
    app = make_app(seed=ZVANJA_SEED, difficulty="random")  # hold_delay 0
    async with app.run_test(size=(100, 36)) as pilot:
        while True:
            assert await settle(pilot) == "turn"
            screen = table(app)
            rnd = screen.match.current
            if rnd is not None and rnd.trump is not None:
                break
            await human_move(pilot, screen)
        assert not any(isinstance(s, ZvanjaScreen) for s in app.screen_stack)
        assert screen.query_one("#zvanja", ZvanjaPanel).display


def _bela_seed() -> tuple[int, Suit]:
    """A seed where the human, first to speak, holds trump K and Q after naming their suit."""
    for seed in range(500):
        rnd = Match.new(seed, 501).current
        assert rnd is not None
        cards = set(rnd.hand(0)) | set(rnd.talon(0))
        for suit in Suit:
            pair = {Card.of(Rank.KING, suit), Card.of(Rank.QUEEN, suit)}
            if pair <= cards and rnd.apply(Call(suit), 0).result is None:
                return seed, suit
    raise AssertionError("no seed with a bela for the human")


async def play_to_bela(pilot: Pilot[Any]) -> str:
    """Name the bela suit, then play trump K and Q as soon as allowed; returns how it ended.

    Once the card that may carry bela is played the bots slow to a minute a card.
    """
    seed, suit = _bela_seed()
    app = pilot.app
    assert isinstance(app, BelaApp) and app.seed == seed
    assert await settle(pilot) == "turn"
    await pilot.press("hdsc"[suit])
    pair = {Card.of(Rank.KING, suit), Card.of(Rank.QUEEN, suit)}
    while True:
        state = await settle(pilot)
        screen = table(app)
        if state != "turn" or screen.match.current is None:
            return state
        if screen.match.current.bela_announced_by == 0:
            return "announced"
        rnd = screen.match.current
        cards = screen.hand_cards()
        wanted = [i for i, c in enumerate(cards) if c in pair and rnd.legal_mask() >> c & 1]
        index = wanted[0] if wanted else first_legal_index(screen)
        if rnd.can_announce_bela(cards[index]):
            app.bot_delay = 60  # the bots wait (until Space), so the trick stays as it is
        await pilot.press(str(index + 1), "enter")
        await pilot.pause()
        if screen.match.current is not None and screen.match.current.bela_announced_by == 0:
            return "announced"


async def test_bela_is_announced_for_the_human_and_called_out_by_the_card() -> None:
    seed, _ = _bela_seed()
    app = make_app(seed=seed)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await play_to_bela(pilot) == "announced"
        assert not any(isinstance(s, BelaPrompt) for s in app.screen_stack)
        screen = table(app)
        trick = screen.query_one("#trick", TrickView)
        assert trick.callout == 0
        assert "bela!" in screen_text(app)
        assert "You: bela! (+20 for us)" in "\n".join(
            strip.text
            for strip in screen.query_one("#log").lines  # type: ignore[attr-defined]
        )


@pytest.mark.slow
async def test_asking_before_bela_brings_the_question_back() -> None:
    seed, _ = _bela_seed()
    app = make_app(seed=seed)
    app.toggle_auto_bela()  # as the palette's "Ask before announcing bela" does
    assert app.auto_bela is False
    async with app.run_test(size=(100, 36)) as pilot:
        assert await play_to_bela(pilot) == "bela"
        assert isinstance(app.screen, BelaPrompt)
        await pilot.press("enter")  # Enter announces it (0 plays the card without)
        await pilot.pause()
        assert table(app).match.current is not None
        assert table(app).query_one("#trick", TrickView).callout == 0


@pytest.mark.slow
async def test_the_callout_goes_with_the_trick() -> None:
    seed, _ = _bela_seed()
    app = make_app(seed=seed)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await play_to_bela(pilot) == "announced"
        screen = table(app)
        trick = screen.query_one("#trick", TrickView)
        assert trick.callout == 0
        app.bot_delay = 0
        screen.action_skip()  # the bots play on; the trick is taken and the next begins
        state = await settle(pilot)
        rnd = screen.shown
        assert rnd is not None and rnd.bela_announced_by == 0
        if state == "turn" and screen.held is not None:
            screen.action_skip()  # the human leads: the taken trick goes when asked
            await pilot.pause()
        assert screen.held is None
        assert trick.callout is None
        drawn = trick.render_lines(Region(0, 0, trick.size.width, trick.size.height))
        assert "bela!" not in "".join(strip.text for strip in drawn)


@pytest.mark.slow
async def test_a_taken_trick_is_gathered_and_any_key_only_skips_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The gathering starts when a taken trick leaves the table; a key ends it and does no more.

    Textual's test clock runs animations through at once, so the animation is
    recorded instead of run: the trick stays mid-gathering until a key ends it.
    """
    started: list[tuple[str, float, str]] = []

    def animate(self: TrickView, attribute: str, value: float, **kw: Any) -> None:
        started.append((attribute, kw["duration"], kw["level"]))

    monkeypatch.setattr(TrickView, "animate", animate)
    app = make_app(seed=7, difficulty="random", reduced_motion=False)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = table(app)
        trick = screen.query_one("#trick", TrickView)
        for _ in range(40):
            assert await settle(pilot) == "turn"
            if trick.gathering is not None:
                break
            await human_move(pilot, screen)
        else:
            raise AssertionError("no trick was gathered")
        assert started[0] == ("gather", trick_module.GATHER_SECONDS, "full")
        assert trick.gathering.winner is not None and len(trick.gathering.cards) == 4
        drawn = "".join(s.text for s in trick.render_lines(Region(0, 0, *trick.size)))
        assert "▚▚▚" not in drawn  # the first frame: the four cards, still face up
        match, cursor = screen.match, screen.cursor
        await pilot.press("enter")  # would play a card, but only ends the gathering
        await pilot.pause()
        assert trick.gathering is None
        assert screen.match is match and screen.cursor == cursor
        await pilot.press("enter")  # the next key plays
        await pilot.pause()
        assert screen.match is not match


def test_the_gathered_cards_move_to_the_winner_and_turn_over() -> None:
    model = TrickModel(
        trick_cards(0, tuple(Card.parse(c) for c in ("7S", "AS", "8S", "9S"))), winner=1
    )
    start = gather_text(model, 0.0).plain
    assert "A♠" in start and "▚" not in start
    halfway = gather_text(model, 0.6).plain
    assert "▚▚▚" in halfway and "A♠" not in halfway  # face down on the way
    rows = gather_text(model, 1.0).plain.split("\n")
    assert all(line[:14].strip() == "" for line in rows)  # all at the winner's side (right)


@pytest.mark.slow
async def test_reduced_motion_gathers_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    monkeypatch.setattr(
        TrickView, "animate", lambda self, attribute, *a, **kw: started.append(attribute)
    )
    for app in (make_app(seed=7, difficulty="random"), _animations_none()):
        async with app.run_test(size=(100, 36)) as pilot:
            assert not app.motion
            screen = table(app)
            trick = screen.query_one("#trick", TrickView)
            assert await play_round(pilot) >= 8
            assert trick.gathering is None
    assert started == []


def _animations_none() -> BelaApp:
    """Motion asked for, but Textual's own level (``TEXTUAL_ANIMATIONS=none``) says no."""
    app = make_app(seed=7, difficulty="random", reduced_motion=False)
    app.animation_level = "none"
    return app


def test_the_motion_setting_toggles() -> None:
    app = make_app(reduced_motion=False)
    assert app.motion
    app.toggle_reduced_motion()
    assert app.reduced_motion and not app.motion


@pytest.mark.parametrize("colour", [RED, DIM_RED])
def test_red_suits_stay_red_on_256_colour_terminals(colour: str) -> None:
    """The 256-colour cube has the colour exactly: red, not the brown #c0392b rounded to."""
    eight_bit = Color.parse(colour).downgrade(ColorSystem.EIGHT_BIT)
    assert eight_bit.get_truecolor().hex == colour
    red, green, blue = eight_bit.get_truecolor()
    assert red > green + 60 and green == blue  # red, not brown (brown has more green)


@pytest.mark.slow
async def test_the_palette_toggles_bela_and_motion() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        for query, check in (
            ("Ask before announcing bela", lambda: app.auto_bela is False),
            ("Announce bela automatically", lambda: app.auto_bela is True),
            ("Turn animations on", lambda: app.reduced_motion is False),
            ("Reduce motion", lambda: app.reduced_motion is True),
        ):
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*query)
            await wait_for_hit(pilot, query)
            await pilot.press("enter")
            await pilot.pause()
            assert check(), query


async def wait_for_hit(pilot: Pilot[Any], name: str) -> None:
    """Wait until the palette's first hit is ``name`` (commands are searched in a worker)."""
    palette = pilot.app.screen
    assert isinstance(palette, CommandPalette)
    for _ in range(200):
        await pilot.pause()
        hits = palette.query_one(CommandList)
        if hits.option_count and str(hits.get_option_at_index(0).prompt).startswith(name):
            return
    raise AssertionError(f"{name!r} is not in the palette")
