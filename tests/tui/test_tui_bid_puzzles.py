"""Bid puzzles on the F6 screen (issue #36): the answer, an also-good bid's half credit, and
the reasons in words, from the generator's own lines (``tests/puzzles/fixtures``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.widgets import Static
from tui_pilot import make_app

from bela.archive import puzzle_pack
from bela.archive.puzzle_pack import Pack, Puzzle, read_lines
from bela.archive.puzzle_store import PuzzleStore
from bela.i18n import set_language
from bela.tui.screens.puzzles import PuzzleScreen

FIXTURE = Path(__file__).parents[1] / "puzzles" / "fixtures" / "bid_puzzles.jsonl"


@pytest.fixture(autouse=True)
def no_shipped_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "shipped"
    folder.mkdir()
    monkeypatch.setattr(puzzle_pack, "_shipped_root", lambda: folder)


def pack() -> Pack:
    return read_lines(FIXTURE.read_text(encoding="utf-8").splitlines(), "bids", shipped=True)


def with_good(p: Pack) -> Puzzle:
    return next(x for x in p.puzzles if x.bid is not None and x.bid.good)


def shown(screen: Any) -> str:
    content = screen.query_one("#puzzle-explain", Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def test_an_also_good_suit_is_said_also_good_with_half_credit_and_the_reasons(
    data_dir: Path,
) -> None:
    p = pack()
    puzzle = with_good(p)  # pod mus: ♥ best, ♠ within 5 points
    data_dir.mkdir(parents=True, exist_ok=True)
    store = PuzzleStore(data_dir / "history.sqlite3")
    app = make_app(resume=None)
    async with app.run_test(size=(100, 36)) as pilot:
        screen = PuzzleScreen(p, store)
        await pilot.app.push_screen(screen)
        await pilot.pause()
        screen.show(puzzle)
        await pilot.pause()
        await pilot.press("s")  # spades, the also-good suit
        await pilot.pause()
        said = shown(screen)
        assert said.startswith("Also good: ♠ spades is within 5 written points")
        assert "Counted as half a win for your rating (partial credit)." in said
        assert "As dealer you must call (pod mus): ♥ hearts writes more than" in said
        assert "Average written points, ours minus theirs: ♥ hearts" in said
        assert "Your ♠ spades writes more than ♥ hearts on" in said
        # asked again: not rated again, so no score is claimed for the rating
        screen.show(puzzle)
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        said = shown(screen)
        assert said.startswith("Right: ♥ hearts.") and "Counted as" not in said
    first, second = store.attempts()
    assert not first.right and first.player_after.rating != first.player_before.rating
    assert second.right and not second.rated


async def test_the_reasons_are_said_in_croatian(data_dir: Path) -> None:
    p = pack()
    puzzle = next(x for x in p.puzzles if x.themes == ("call",))
    data_dir.mkdir(parents=True, exist_ok=True)
    store = PuzzleStore(data_dir / "history.sqlite3")
    app = make_app(resume=None, language="hr")
    try:
        async with app.run_test(size=(100, 36)) as pilot:
            screen = PuzzleScreen(p, store)
            await pilot.app.push_screen(screen)
            await pilot.pause()
            screen.show(puzzle)
            await pilot.pause()
            await pilot.press("d")  # dalje, in Croatian "d" (the wrong answer here)
            await pilot.pause()
            said = shown(screen)
            assert "Zvati ♥ herc donosi više nego dalje na " in said
            assert "Za tvoj rejting računa se kao poraz." in said
            assert "Prosječni upisani bodovi, mi minus oni: ♥ herc" in said
    finally:
        set_language("en")
