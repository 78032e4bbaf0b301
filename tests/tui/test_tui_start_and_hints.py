"""Issue #12: hints in a player's words (numbers on request), a start screen that is true.

Each test here failed on the code before the fix (6e80a25): the hint showed
only averages over guessed deals, the start screen highlighted 501 while 1001
was chosen, and it opened on 1001 whatever match was played last.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static
from tui_pilot import human_move, make_app, settle, table

from bela.engine import Phase


async def wait_for(pilot: Pilot[Any], check: Any, tries: int = 600) -> None:
    for _ in range(tries):
        await pilot.pause(0.05)
        if check():
            return
    raise AssertionError("timed out waiting")


def message(app: Any) -> str:
    return str(table(app).query_one("#message", Static).content)


# ---------------------------------------------------------------------- hints


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
