"""Issue #22, "Traps": the keys that used to lose a card, a claim or a match.

Each test drives the app by keys, as a player would, and fails on the code
before the fix.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Static
from tui_pilot import human_move, make_app, settle, table

from bela.engine import Phase
from bela.tui.screens.table import TableScreen
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
