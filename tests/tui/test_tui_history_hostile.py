"""The history screen (F3) with hostile file names and a tampered index (issue #24, 2 and 3).

A record's file name and the index's text (a damaged record's reason) come from
outside: the highlighted row's detail and the notice on Enter showed them raw,
so a name holding ``ESC ] 0 ; … BEL`` retitled the terminal, ``ESC [ 2 J``
cleared it and a right-to-left override made a name read as another.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from textual.widgets import Static
from tui_pilot import make_app

from bela.archive.history import INDEX_NAME, open_history
from bela.archive.storage import matches_dir
from bela.tui.screens.history import HistoryScreen, ReplayScreen

TERMINAL_ACTS_ON = ("\x1b", "\x07", "\x9b", "\x9d", "\u202e", "\u2066")
TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
RLO = "\u202e"


def inert(text: str) -> bool:
    return not any(char in text for char in TERMINAL_ACTS_ON)


def recording_app() -> tuple[Any, list[str]]:
    app = make_app(difficulty="random", resume=None)
    said: list[str] = []
    app.notify = lambda message, *args, **kw: said.append(str(message))  # type: ignore[method-assign]
    return app, said


async def open_history_screen(pilot: Any) -> HistoryScreen:
    await pilot.pause()
    await pilot.press("f3")
    for _ in range(200):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, HistoryScreen) and screen.loaded:
            return screen
    raise AssertionError("the history never loaded")


async def test_a_file_name_with_escapes_reaches_neither_the_detail_nor_the_notice(
    data_dir: Path,
) -> None:
    matches_dir().mkdir(parents=True)
    name = f"20250101T000000Z-{TITLE}{CLEAR}{RLO}nosj.json"
    (matches_dir() / name).write_text("{nope", encoding="utf-8")
    app, said = recording_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        detail = str(screen.query_one("#history-detail", Static).content)
        assert "pwned" in detail and "\\x1b]0;pwned\\x07" in detail and "\\u202e" in detail
        assert inert(detail), repr(detail)
        await pilot.press("enter")  # damaged: a notice names it
        await pilot.pause()
        notices = [text for text in said if "pwned" in text]
        assert notices, said
        assert all(inert(text) for text in notices), notices


async def test_a_reason_changed_in_the_index_is_shown_as_text(data_dir: Path) -> None:
    """The index is a cache of the records, and a file anyone can edit: its text is outside
    text too. Size and mtime are kept, so the row is not read again from its record."""
    matches_dir().mkdir(parents=True)
    (matches_dir() / "20250101T000000Z-x.json").write_text("{nope", encoding="utf-8")
    open_history().close()
    reason = f"{TITLE}{CLEAR}[bold red]loud[/bold red] \x9b31m"
    with sqlite3.connect(data_dir / INDEX_NAME) as conn:
        conn.execute("UPDATE matches SET reason = ?", (reason,))
    conn.close()
    app, said = recording_app()
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_history_screen(pilot)
        detail = str(screen.query_one("#history-detail", Static).content)
        assert "[bold red]loud[/bold red]" in detail and inert(detail), repr(detail)
        await pilot.press("enter")
        await pilot.pause()
        notices = [text for text in said if "loud" in text]
        assert notices and all(inert(text) for text in notices), said


async def test_every_notice_goes_through_the_gate() -> None:
    """The app's notify is the last net for notices, whatever a caller forgot to quote."""
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(100, 32)) as pilot:
        app.notify(f"{TITLE}{CLEAR}{RLO}[bold]loud[/bold]\x9b", title=f"t{TITLE}")
        await pilot.pause()
        (notice,) = list(app._notifications)
        assert "[bold]loud[/bold]" in notice.message and "pwned" in notice.message
        assert inert(notice.message) and inert(notice.title), notice


async def test_a_long_name_keeps_a_space_before_its_cards(data_dir: Path) -> None:
    """Tried in tmux: a 24-character name ran into the cards ("…hosts] (mi)10♥ J♠")."""
    import json
    import random

    from bela.archive.records import dumps, record_from_match
    from bela.engine import Match

    rng = random.Random(3)
    match = Match.new(3, 501)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    record = json.loads(dumps(record_from_match(match, "normal")))
    long = "[link=file:///etc/hosts]"
    record.update(players=["Ana", "Ivo", long, "Mara"], me=0)
    matches_dir().mkdir(parents=True)
    (matches_dir() / "20260101T120000Z-3.json").write_text(json.dumps(record))
    app, _ = recording_app()
    async with app.run_test(size=(120, 32)) as pilot:
        await open_history_screen(pilot)
        await pilot.press("enter")
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, ReplayScreen) and app.screen.views:
                break
        step = str(app.screen.query_one("#replay-step", Static).content)
        (line,) = [line for line in step.splitlines() if line.startswith(long)]
        assert line.startswith(f"{long} (mi) "), line
