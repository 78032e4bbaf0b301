"""Pictures of the puzzles screen (F6) at 80 × 24 and at 160 × 50: a card puzzle asked, the
explanation after a wrong answer, and a bid puzzle. The puzzles are ``puzzles_sample.jsonl``'s
and the attempts start afresh, so the rating shown is the same on every run.

Regenerate with ``pytest tests/tui/test_tui_puzzle_snapshots.py --snapshot-update`` and look
at the SVGs before committing them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_tui_puzzles import by_id, card_key, sample_pack, store_in
from textual.pilot import Pilot
from tui_pilot import make_app

from bela.tui import BelaApp
from bela.tui.screens.puzzles import PuzzleScreen

Snap = Callable[..., bool]


def still_app() -> BelaApp:
    """An app that shows no toasts (whether one is on a picture is timing)."""
    app = make_app(resume=None)
    app.notify = lambda *args, **kw: None  # type: ignore[method-assign]
    return app


def asking(data_dir: Path, ident: str, *keys: str) -> Callable[[Pilot[Any]], Any]:
    """Open the puzzles on puzzle ``ident`` and press ``keys`` (number keys name the card)."""

    async def run_before(pilot: Pilot[Any]) -> None:
        pack = sample_pack()
        screen = PuzzleScreen(pack, store_in(data_dir))
        await pilot.app.push_screen(screen)
        await pilot.pause()
        screen.show(by_id(pack, ident))
        await pilot.pause()
        for key in keys:
            await pilot.press(card_key(screen, key) if key[0].isupper() or key[:2] == "10" else key)
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()  # the reasons, worked out off the UI
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_a_card_puzzle_asked(snap_compare: Snap, data_dir: Path, size: tuple[int, int]) -> None:
    """Seat 1, second hand to Ana's 9♣: the seat at the bottom, the trick, voids, the talk."""
    run = asking(data_dir, "e1f48d9e21")
    assert snap_compare(still_app(), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_the_explanation_after_a_wrong_card(
    snap_compare: Snap, data_dir: Path, size: tuple[int, int]
) -> None:
    run = asking(data_dir, "e1f48d9e21", "AC", "enter")
    assert snap_compare(still_app(), terminal_size=size, run_before=run)


def test_a_bid_puzzle_asked(snap_compare: Snap, data_dir: Path) -> None:
    """The bid menu in the middle, six cards and the talon face down."""
    run = asking(data_dir, "618e682695")
    assert snap_compare(still_app(), terminal_size=(80, 24), run_before=run)
