"""The gate, proved by properties on the app's screens (issue #24): the history (F3), a
match stepped through, the statistics (F4), a network table's post-mortem, and a network
seat's lobby and table.

Hostile strings (``hostile_text``) go into a network copy's players' names, the
records' file names and the index's text columns (reason, difficulty, rules,
changed behind its back); into the names of a post-mortem; or, at a network seat,
into every name and text a host sends (a client trusts no host). What every widget
on the screen then shows, every cell of the history's table and every notice must
hold nothing a terminal acts on and show every markup tag literally. Each example
runs the app once, so there are few of them; the command line's property has more
(``tests/cli``).
"""

from __future__ import annotations

import json
import random
import sqlite3
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from net_pilot import host, net_screen, until
from rich.text import Text
from textual.content import Content
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import DataTable
from tui_pilot import make_app

from bela.archive.history import INDEX_NAME, open_history
from bela.archive.records import dumps, record_from_match
from bela.archive.replay_text import match_rounds
from bela.archive.storage import matches_dir
from bela.engine import Match
from bela.net.protocol import Notice, Refused, Said, SeatInfo, State
from bela.tui import BelaApp
from bela.tui.remote import RemoteSession
from bela.tui.screens.analysis import AnalysisScreen
from bela.tui.screens.history import HistoryScreen, ReplayScreen
from bela.tui.screens.stats import StatsScreen
from bela.tui.widgets.table_talk import TableTalk
from hostile_text import Hostile, assert_inert, assert_literal, hostile

FEW = settings(
    max_examples=2,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking reruns the app
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def screen_text(screen: Screen[Any]) -> str:
    """What every widget of ``screen`` draws as text, one widget a line: markup, if any had
    been read as markup, would be gone from it."""
    parts: list[str] = []
    for widget in screen.query("*"):
        if isinstance(widget, TableTalk):
            parts.extend(entry.plain for entry in widget.entries)
            continue
        if isinstance(widget, DataTable):
            for row in range(widget.row_count):
                cells = widget.get_row_at(row)
                assert all(isinstance(cell, Text) for cell in cells), cells  # never markup
                parts.extend(cell.plain for cell in cells)
            continue
        try:
            drawn = widget.render()
        except Exception:  # a container, or a widget that draws only once laid out
            continue
        if isinstance(drawn, (str, Text, Content)):
            parts.append(str(drawn))
    return "\n".join(parts)


def _finished() -> Match:
    rng = random.Random(11)
    match = Match.new(11, 501)
    while match.current is not None:
        match = match.apply(rng.choice(match.current.legal_actions()))
    return match


FINISHED = _finished()
RECORD = json.loads(dumps(record_from_match(FINISHED, "normal")))
PLAYED = next(view.round for view in match_rounds(FINISHED) if view.written is not None)


def recording(app: BelaApp) -> list[str]:
    said: list[str] = []
    app.notify = lambda message, *a, **k: said.append(str(message))  # type: ignore[method-assign]
    return said


async def wait_for(pilot: Pilot[Any], kind: type[Screen[Any]]) -> Any:
    for _ in range(300):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, kind) and getattr(screen, "loaded", True):
            return screen
    raise AssertionError(f"{kind.__name__} never came")


@pytest.mark.slow
@FEW
@given(
    names=st.tuples(hostile(0), hostile(1), hostile(2), hostile(3)),
    files=st.tuples(hostile(4, file_name=True), hostile(5, file_name=True)),
    index=st.tuples(hostile(6), hostile(7), hostile(8)),
)
async def test_the_history_the_replay_and_the_statistics_let_nothing_through(
    names: tuple[Hostile, ...], files: tuple[Hostile, ...], index: tuple[Hostile, ...]
) -> None:
    directory = matches_dir()
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():
        old.unlink()
    (directory.parent / INDEX_NAME).unlink(missing_ok=True)
    # names a record takes (24 characters at most): the copy loads and is stepped through
    players = [str(name)[:24] for name in names]
    copy = dict(RECORD, players=players, me=0)
    (directory / str(files[0])).write_text(json.dumps(copy), errors="surrogatepass")
    (directory / str(files[1])).write_text("{nope", errors="surrogatepass")
    open_history().close()
    reason, difficulty, rules = (str(item) for item in index)
    conn = sqlite3.connect(directory.parent / INDEX_NAME)
    with conn:
        conn.execute("UPDATE matches SET reason = ? WHERE reason IS NOT NULL", (reason,))
        conn.execute(
            "UPDATE matches SET difficulty = ?, rules = ? WHERE reason IS NULL", (difficulty, rules)
        )
    conn.close()
    everything = [*names, *files, *index]

    app = make_app(difficulty="random", resume=None)
    said = recording(app)
    texts: dict[str, str] = {}
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.pause()
        await pilot.press("f3")
        history = await wait_for(pilot, HistoryScreen)
        for at in range(len(history.shown)):
            texts[f"F3 row {at}"] = screen_text(history)
            row = history.current()
            assert row is not None
            if row.reason is not None:
                await pilot.press("enter")  # damaged: a notice says so
                await pilot.pause()
            await pilot.press("down")
        usable = [at for at, row in enumerate(history.shown) if row.reason is None]
        for _ in range(len(history.shown)):
            await pilot.press("up")
        for _ in usable[:1]:
            for _ in range(usable[0]):
                await pilot.press("down")
            await pilot.press("enter")
            replay = await wait_for(pilot, ReplayScreen)
            for step in range(2):
                texts[f"replay step {step}"] = screen_text(replay)
                await pilot.press("right")
                await pilot.pause()
            await pilot.press("s")  # this match's statistics
            stats = await wait_for(pilot, StatsScreen)
            for _ in range(50):
                await pilot.pause()
                if stats.statistics is not None:
                    break
            texts["F4"] = screen_text(stats)
    texts["notices"] = "\n".join(said)
    for where, text in texts.items():
        assert_inert(text, where)
        assert_literal(text, everything, where)
    assert_literal("\n".join(texts.values()), [files[1], index[0]], "F3", shown=True)
    if usable:
        shown_names = [n for n, p in zip(names, players, strict=True) if p == str(n)]
        steps = "\n".join(text for where, text in texts.items() if where.startswith("replay"))
        assert_literal(steps, shown_names[1:], "replay", shown=True)


@pytest.mark.slow
@settings(FEW, max_examples=1)  # one app, three tables of names
@given(
    tables=st.lists(
        st.tuples(hostile(0), hostile(1), hostile(2), hostile(3)), min_size=3, max_size=3
    )
)
async def test_the_analysis_names_hostile_players_as_text(
    tables: list[tuple[Hostile, ...]],
) -> None:
    """A network table's post-mortem names the players who gave points away."""
    app = make_app(difficulty="random", resume=None)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        for names in tables:
            players = [str(name)[:24] for name in names]
            await app.push_screen(AnalysisScreen(0, PLAYED, players, 1))
            screen = await wait_for(pilot, AnalysisScreen)
            for _ in range(300):
                await pilot.pause()
                if screen.analysis is not None:
                    break
            assert screen.analysis is not None
            await pilot.pause()
            text = screen_text(screen)
            assert_inert(text, "analysis")
            assert_literal(text, list(names), "analysis")
            await app.pop_screen()


@pytest.mark.slow
async def test_a_network_seat_lets_nothing_through_from_its_host() -> None:
    server, port = await host()
    table = server.new_table()
    session = RemoteSession("127.0.0.1", port, table.code, "Ana", lead=table.leader_key)
    app = BelaApp(remote=session, reduced_motion=True)
    said = recording(app)
    try:
        async with app.run_test(size=(160, 45)) as pilot:
            await until(pilot, lambda: net_screen(app).lobby is not None)
            screen = net_screen(app)
            lobby = screen.lobby
            assert lobby is not None

            @settings(max_examples=15, deadline=None, phases=FEW.phases)
            @given(
                names=st.tuples(hostile(0), hostile(1), hostile(2), hostile(3)),
                chat=hostile(4),
                reason=hostile(5),
            )
            def in_the_lobby(names: tuple[Hostile, ...], chat: Hostile, reason: Hostile) -> None:
                seats = tuple(
                    SeatInfo(name=str(n)[:24], kind=kind)
                    for n, kind in zip(names, ("human", "human", "bot", "away"), strict=True)
                )
                screen.handle(lobby.model_copy(update={"seats": seats}))
                screen.handle(
                    Said(type="said", seat=1, name=str(names[1])[:24], text=str(chat)[:160])
                )
                screen.handle(
                    Refused(
                        type="refused",
                        reason=str(reason)[:300],
                        code="illegal",
                        args={"name": str(names[2])[:300]},
                    )
                )
                screen.handle(Notice(type="notice", text=str(reason)[:300]))
                text = screen_text(screen)
                assert_inert(text, "lobby")
                everything = [*names, chat, reason]
                assert_literal(text, everything, "lobby")
                assert_literal(
                    text, [n for n in names[1:] if len(str(n)) <= 20], "lobby", shown=True
                )

            in_the_lobby()
            await pilot.press("g")
            await until(pilot, lambda: net_screen(app).state is not None)
            state = screen.state
            assert state is not None

            @settings(max_examples=15, deadline=None, phases=FEW.phases)
            @given(names=st.tuples(hostile(0), hostile(1), hostile(2), hostile(3)), last=hostile(4))
            def at_the_table(names: tuple[Hostile, ...], last: Hostile) -> None:
                seats = tuple(SeatInfo(name=str(n)[:24], kind="human") for n in names)
                update = {
                    "seats": seats,
                    "seq": state.seq,
                    "last": str(last)[:300],
                    "last_code": None,
                }
                screen.handle(State.model_validate({**state.model_dump(), **update}))
                text = screen_text(app.screen)
                assert_inert(text, "table")
                assert_literal(text, [*names, last], "table")

            at_the_table()
    finally:
        await server.close()
    assert_inert("\n".join(said), "notices")
