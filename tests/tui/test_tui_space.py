"""Space used (issue #22): at 120 × 40 and more the table grows; notices on one setting
replace each other. The pictures are in ``test_tui_snapshots.py`` (80 × 24, 120 × 40,
160 × 50, dark and light); these tests say what the pictures must show."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from tui_pilot import make_app, settle, table

from bela.engine import Card
from bela.tui.model import TrickModel
from bela.tui.widgets import Hand, ScoreSheet, TrickView
from bela.tui.widgets.cards import card_lines
from bela.tui.widgets.trick import trick_text


async def measures(size: tuple[int, int]) -> dict[str, Any]:
    app = make_app(seed=7)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = table(app)
        hand = screen.query_one(Hand)
        return {
            "large_hand": hand.large,
            "hand_lines": len(hand.render().plain.split("\n")),
            "trick": screen.query_one(TrickView).styles.height.value,  # type: ignore[union-attr]
            "side": screen.query_one("#side").size.width,
            "sheet": screen.query_one(ScoreSheet).content_size.height,
            "seat": screen.query_one("#seat-2").size.width,
        }


@pytest.mark.slow
async def test_the_table_grows_with_the_window() -> None:
    small = await measures((80, 24))
    roomy = await measures((120, 40))
    huge = await measures((160, 50))
    assert not small["large_hand"] and small["hand_lines"] == 5
    assert roomy["large_hand"] and roomy["hand_lines"] == 7
    assert huge["large_hand"]
    assert roomy["trick"] >= 11 and small["trick"] == 7
    assert roomy["side"] > small["side"]
    assert roomy["seat"] > small["seat"]
    assert roomy["sheet"] > 2 * small["sheet"]  # more of the blok
    assert huge["sheet"] > roomy["sheet"]


def test_a_large_card_is_seven_by_five_with_the_rank_in_two_corners() -> None:
    lines = [line.plain for line in card_lines(Card.parse("10H"), _look(), large=True)]
    assert len(lines) == 5 and {len(line) for line in lines} == {7}
    assert lines[1].startswith("│10♥") and lines[3].endswith("10♥│")
    cross = trick_text(TrickModel(((0, Card.parse("KS")),)), large=True).plain.split("\n")
    assert len(cross) == 11 and {len(row) for row in cross} == {25}


def _look() -> Any:
    from bela.tui.widgets.cards import Look

    return Look.FACE


async def _speed_notices(pilot: Pilot[Any]) -> list[str]:
    app = pilot.app
    return [n.message for n in app._notifications if "speed" in n.message.lower()]  # type: ignore[attr-defined]


async def test_notices_on_one_setting_replace_each_other() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        await settle(pilot)
        for _ in range(3):
            await pilot.press("minus")
            await pilot.pause()
        shown = await _speed_notices(pilot)
        assert len(shown) == 1
        assert shown[0].endswith(f"{app.bot_delay:.1f} s per card")
        app.toggle_auto_bela()
        app.toggle_auto_bela()
        await pilot.pause()
        bela = [n.message for n in app._notifications if "ela" in n.message]
        assert len(bela) == 1 and "automatically" in bela[0]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_click_on_a_card_picks_that_card_at_any_size(size: tuple[int, int]) -> None:
    app = make_app(seed=7)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        hand = table(app).query_one(Hand)
        step = (7 if hand.large else 5) + 1
        await pilot.click(hand, offset=(2 * step + 1, 3))
        await pilot.pause()
        assert table(app).cursor == 2
        await pilot.click(hand, offset=(4 * step + 2, 3))
        await pilot.pause()
        assert table(app).cursor == 4
