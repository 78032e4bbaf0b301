"""Text from files, paths and OS errors reaches the screen as text, never as markup (#11).

A crafted save once put a clickable ``[@click=app.screenshot(...)]`` link on the
start screen (clicking it wrote a file anywhere), and ``[/x]`` in a key or in the
data directory's path crashed the app with a ``MarkupError``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static
from tui_pilot import human_move, make_app, settle, table

from bela.archive.records import dumps, record_from_match
from bela.archive.storage import autosave_path, save_autosave
from bela.engine import Match
from bela.tui.screens.start import StartScreen

CLICK = "[@click=app.screenshot('pwned.svg','{dir}')]>>> CLICK HERE TO RESTORE <<<[/]"
HOSTILE = [
    "[/x]",
    "[b]bold[/b] [red]red",
    "[link=file:x]x[/link]",
    "[@click=app.quit]q[/]",
]


def unfinished(seed: int, steps: int = 10) -> Match:
    rng = random.Random(seed)
    match = Match.new(seed, target=501)
    for _ in range(steps):
        assert match.current is not None
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


def rendered(widget: Static) -> str:
    """The text a widget shows on screen (markup, if it were parsed, would be gone)."""
    return str(widget.render())


async def start_problem(pilot: Pilot[Any]) -> Static:
    """The start screen's line about the save that could not be used."""
    await pilot.pause()
    start = pilot.app.screen
    assert isinstance(start, StartScreen)
    return start.query_one("#start-problem", Static)


def write_hostile_save(key: str) -> None:
    data = json.loads(dumps(record_from_match(unfinished(3), "normal")))
    data[key] = 1
    autosave_path().parent.mkdir(parents=True, exist_ok=True)
    autosave_path().write_text(json.dumps(data), encoding="utf-8")


async def test_a_crafted_key_is_shown_as_text_and_clicking_it_writes_nothing(
    tmp_path: Path,
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    key = CLICK.format(dir=victim)
    write_hostile_save(key)
    app = make_app(resume=None)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = rendered(await start_problem(pilot))
        assert "[@click=app.screenshot(" in shown and "could not be resumed" in shown
        await pilot.click("#start-problem")
        await pilot.pause()
    assert list(victim.iterdir()) == []


@pytest.mark.parametrize("key", HOSTILE)
async def test_markup_in_a_key_neither_crashes_nor_renders(key: str) -> None:
    write_hostile_save(key)
    app = make_app(resume=None)
    async with app.run_test(size=(120, 40)) as pilot:
        assert key[:10] in rendered(await start_problem(pilot))


@pytest.mark.slow
@pytest.mark.parametrize("part", HOSTILE)
async def test_markup_in_the_data_directory_path_is_shown_as_text(
    part: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / f"bela {part} data"
    monkeypatch.setenv("BELA_DATA_DIR", str(data))
    data.mkdir(parents=True)  # a "/" in the markup makes a folder of the part before it
    save_autosave(record_from_match(unfinished(5), "normal"))
    app = make_app(seed=9, resume=False)  # a new match: the unfinished one is archived
    async with app.run_test(size=(120, 40)) as pilot:
        assert await settle(pilot) == "turn"
        kept = [n for n in app._notifications if "was kept in" in n.message]
        assert len(kept) == 1 and part in kept[0].message and not kept[0].markup


@pytest.mark.slow
@pytest.mark.parametrize("part", HOSTILE)
async def test_a_save_failure_naming_a_hostile_path_is_shown_as_text(
    part: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / f"not {part} a directory"
    blocked.parent.mkdir(parents=True, exist_ok=True)
    blocked.write_text("a file where the data directory should be")
    monkeypatch.setenv("BELA_DATA_DIR", str(blocked))
    app = make_app(seed=7)
    async with app.run_test(size=(120, 40)) as pilot:
        assert await settle(pilot) == "turn"
        await human_move(pilot, table(app))
        assert await settle(pilot) == "turn"
        warnings = [n for n in app._notifications if "could not save" in n.message]
        assert len(warnings) == 1 and part in warnings[0].message
        assert not warnings[0].markup


@pytest.mark.slow
async def test_every_notice_is_plain_text_even_if_a_caller_asks_for_markup() -> None:
    app = make_app(seed=7)
    async with app.run_test(size=(100, 36)) as pilot:
        assert await settle(pilot) == "turn"
        for text in HOSTILE:
            table(app).notify(text, markup=True)
            app.notify(text)
        await pilot.pause()
        shown = [n for n in app._notifications if n.message in HOSTILE]
        assert len(shown) == 2 * len(HOSTILE) and not any(n.markup for n in shown)


@pytest.mark.slow
async def test_a_second_window_is_told_where_it_saves(tmp_path: Path, data_dir: Path) -> None:
    from bela.archive.storage import claim_slot, release_slot

    first = claim_slot()  # another window of this data directory holds the main save
    assert first.number == 1
    import bela.archive.storage as storage

    storage._current = None  # as if the first window were another process
    try:
        app = make_app(resume=None)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            start = app.screen
            assert isinstance(start, StartScreen)
            notice = rendered(start.query_one("#start-notice", Static))
            assert "Another bela window" in notice and "autosave-2.json" in notice
            await pilot.press("ctrl+n")
            assert await settle(pilot) == "turn"
        assert (data_dir / "autosave-2.json").exists()
        assert not (data_dir / "autosave.json").exists()
    finally:
        assert first.lock is not None
        first.lock.release()
        release_slot()
